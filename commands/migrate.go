package commands

import (
	"fmt"

	"github.com/spf13/cobra"

	"primeur/core/schema"
	"primeur/core/store"
)

func (a *app) migrateCommand() *cobra.Command {
	var status bool
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Bring the database schema up to date",
		Long:  "Apply every pending migration, each in its own transaction. 'serve' does it too at start.",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			db, err := store.Open(ctx, a.cfg.DatabaseURL, a.cfg.SQLitePath())
			if err != nil {
				return err
			}
			defer db.Close()
			if !status {
				n, err := schema.Migrate(ctx, db)
				if err != nil {
					return err
				}
				fmt.Fprintf(a.out, "%d migration(s) applied\n", n)
			}
			states, err := schema.Status(ctx, db)
			if err != nil {
				return err
			}
			for _, s := range states {
				mark := "pending"
				if s.Applied {
					mark = "applied"
				}
				fmt.Fprintf(a.out, "%05d  %-8s %s\n", s.Version, mark, s.Name)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&status, "status", false, "only list the migrations and whether they are applied")
	return cmd
}
