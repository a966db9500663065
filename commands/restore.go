package commands

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"primeur/core/schema"
	"primeur/core/store"
)

const restoreLong = `Replace the SQLite database of the data directory with a backup written by
'primeur backup'. FILE must be a Primeur database this binary can run (at a
schema version it knows; 'serve' brings an older one up to date) and pass
SQLite's integrity check.

Stop every daemon and command using the data directory first: restore
refuses while any process holds the database open. A database already in
place is replaced only with --force, and is then kept aside beside it
(primeur-avant-restauration-DATE.db).

On PostgreSQL the command refuses and says how to use pg_restore instead.`

func (a *app) restoreCommand() *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:     "restore FILE",
		Short:   "Replace the SQLite database with a backup (daemon stopped)",
		Long:    restoreLong,
		Example: "  primeur restore /srv/sauvegardes/primeur-2026-11-20.db --data-dir /var/lib/primeur",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.cfg.DatabaseURL != "" {
				return errors.New(pgBackupAdvice)
			}
			file, target := args[0], a.cfg.SQLitePath()
			if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("%s introuvable", file)
			}
			version, err := snapshotVersion(cmd, file)
			var none *store.NoDatabaseError
			if errors.As(err, &none) {
				return fmt.Errorf("%s n'est pas une sauvegarde Primeur", file)
			}
			if errors.Is(err, schema.ErrNewer) {
				return fmt.Errorf("%s vient d'une version plus récente de Primeur (schéma version %d) : restaurez-la avec cette version", file, version)
			}
			if err != nil {
				return err
			}
			if _, err := os.Lstat(target); err == nil && !force {
				return fmt.Errorf("%s existe déjà ; ajoutez --force pour la remplacer (elle sera conservée à côté)", target)
			}
			aside, err := store.Install(cmd.Context(), file, target, a.clock().Now())
			if errors.Is(err, store.ErrInUse) {
				return fmt.Errorf("la base %s est ouverte par un démon ou une commande Primeur : arrêtez-les avant de restaurer", target)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(a.out, "base restaurée : %s depuis %s (schéma version %d)\n", target, file, version)
			if aside != "" {
				fmt.Fprintf(a.out, "l'ancienne base est conservée sous %s\n", aside)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "replace the database in place (kept aside)")
	return cmd
}
