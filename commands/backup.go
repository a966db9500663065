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

const backupLong = `Write a consistent snapshot of the SQLite database to FILE, while the daemon
runs: SQLite's online backup API copies the database as of one instant, in
one read transaction that blocks no writer. The copy is checked (integrity
check, Primeur schema) before it appears under its name. An existing FILE is
left alone unless --force is given.

On PostgreSQL the command refuses and says how to use pg_dump instead.
Restore with 'primeur restore FILE'.`

// pgBackupAdvice is what backup and restore answer on PostgreSQL.
const pgBackupAdvice = "la base est sur PostgreSQL : sauvegardez-la avec pg_dump " +
	"(pg_dump --format=custom --file=primeur.dump 'URL') et restaurez-la avec pg_restore " +
	"(pg_restore --clean --if-exists --dbname='URL' primeur.dump), démons arrêtés"

func (a *app) backupCommand() *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:     "backup FILE",
		Short:   "Write a consistent snapshot of the SQLite database to FILE (while the daemon runs)",
		Long:    backupLong,
		Example: "  primeur backup /srv/sauvegardes/primeur-$(date +%F).db",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if a.cfg.DatabaseURL != "" {
				return errors.New(pgBackupAdvice)
			}
			file := args[0]
			db, err := schema.Open(ctx, "", a.cfg.SQLitePath())
			if err != nil {
				return err
			}
			defer db.Close()
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
	cmd.Flags().BoolVar(&force, "force", false, "replace FILE if it exists")
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
