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

const restoreLong = `Remplacer la base SQLite du dossier de données par une sauvegarde écrite par
« primeur backup ». FICHIER doit être une base Primeur que ce programme sait
faire tourner (à une version de schéma qu'il connaît ; « serve » met à jour une
plus ancienne) et passer la vérification d'intégrité de SQLite.

Arrêtez d'abord chaque démon et chaque commande qui utilisent le dossier de
données : la restauration refuse tant qu'un processus tient la base ouverte.
Une base déjà en place n'est remplacée qu'avec --force, et elle est alors
gardée à côté (primeur-avant-restauration-DATE.db).

Sur PostgreSQL, la commande refuse et explique comment utiliser pg_restore.`

func (a *app) restoreCommand() *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:     "restore FICHIER",
		Short:   "Remplacer la base SQLite par une sauvegarde (démon arrêté)",
		Long:    restoreLong,
		Example: "  primeur restore /srv/sauvegardes/primeur-2026-11-20.db --data-dir /var/lib/primeur",
		Args:    exactArgs(1),
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
			a.announceDB()
			fmt.Fprintf(a.out, "base restaurée : %s depuis %s (schéma version %d)\n", target, file, version)
			if aside != "" {
				fmt.Fprintf(a.out, "l'ancienne base est conservée sous %s\n", aside)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "remplacer la base en place (gardée à côté)")
	return cmd
}
