package commands

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"primeur/core/schema"
	"primeur/core/store"
)

const backupLong = `Écrire dans FICHIER une copie cohérente de la base SQLite, pendant que le
démon tourne : l'API de sauvegarde en ligne de SQLite copie la base telle
qu'elle est à un instant, dans une transaction de lecture qui ne bloque aucune
écriture. La copie est vérifiée (intégrité, schéma Primeur) avant de prendre
son nom. Un FICHIER existant est laissé tel quel, sauf avec --force.

Sur PostgreSQL, la commande refuse et explique comment utiliser pg_dump.
La restauration : « primeur restore FICHIER ».`

// pgBackupAdvice is what backup and restore answer on PostgreSQL.
const pgBackupAdvice = "la base est sur PostgreSQL : sauvegardez-la avec pg_dump " +
	"(pg_dump --format=custom --file=primeur.dump 'URL') et restaurez-la avec pg_restore " +
	"(pg_restore --clean --if-exists --dbname='URL' primeur.dump), démons arrêtés"

func (a *app) backupCommand() *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:     "backup FICHIER",
		Short:   "Écrire une copie cohérente de la base SQLite dans FICHIER (démon en marche)",
		Long:    backupLong,
		Example: "  primeur backup /srv/sauvegardes/primeur-$(date +%F).db",
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if a.cfg.DatabaseURL != "" {
				return errors.New(pgBackupAdvice)
			}
			file := args[0]
			if st, err := os.Stat(filepath.Dir(file)); err != nil || !st.IsDir() {
				return fmt.Errorf("%s : dossier introuvable ; créez-le d'abord", filepath.Dir(file))
			}
			if _, err := os.Lstat(file); err == nil && !force {
				return fmt.Errorf("%s existe déjà ; choisissez un autre nom, ou --force pour le remplacer", file)
			}
			db, err := schema.Open(ctx, "", a.cfg.SQLitePath())
			if err != nil {
				return err
			}
			defer db.Close()
			a.announceDB()
			err = db.Backup(ctx, file, force)
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("%s existe déjà ; choisissez un autre nom, ou --force pour le remplacer", file)
			}
			if err != nil {
				return err
			}
			version, err := snapshotVersion(cmd, file)
			if err != nil {
				return err
			}
			st, err := os.Stat(file)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.out, "sauvegarde écrite : %s (%d octets, schéma version %d)\n", file, st.Size(), version)
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "remplacer FICHIER s'il existe")
	return cmd
}

// snapshotVersion opens a backup file read-only and returns its schema
// version, refusing a file that is not a Primeur database this binary can
// run (store.NoDatabaseError, schema.ErrNewer) or that fails SQLite's
// integrity check.
func snapshotVersion(cmd *cobra.Command, file string) (int64, error) {
	db, err := store.OpenReadOnly(cmd.Context(), file)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	version, err := schema.Check(cmd.Context(), db)
	if err != nil {
		return version, err
	}
	if err := db.IntegrityCheck(cmd.Context()); err != nil {
		return 0, err
	}
	return version, nil
}
