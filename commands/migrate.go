package commands

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"primeur/core/schema"
	"primeur/core/store"
)

const migrateLong = `Appliquer chaque migration en attente, chacune dans sa transaction ; crée la
base (le fichier SQLite et son dossier) si elle n'existe pas. « serve » le fait
aussi au démarrage.

Avec --status, seulement lister les migrations et dire si chacune est
appliquée : rien n'est créé ni écrit — ni fichier SQLite absent, ni table sur
PostgreSQL ; une base qui n'existe pas encore a toutes ses migrations en
attente.`

func (a *app) migrateCommand() *cobra.Command {
	var status bool
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Mettre le schéma de la base à jour (--status : seulement l'état, sans rien créer)",
		Long:  migrateLong,
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if status {
				return a.migrateStatus(cmd)
			}
			db, err := store.Open(ctx, a.cfg.DatabaseURL, a.cfg.SQLitePath())
			if err != nil {
				return err
			}
			defer db.Close()
			a.announceDB()
			var none *store.NoDatabaseError
			if _, err := schema.Check(ctx, db); err != nil && !errors.As(err, &none) {
				return err // a database of a later version: nothing written (migrated)
			}
			n, err := schema.Migrate(ctx, db)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.out, "%d migration(s) appliquée(s)\n", n)
			states, err := schema.Status(ctx, db)
			if err != nil {
				return err
			}
			a.printMigrations(states)
			return nil
		},
	}
	cmd.Flags().BoolVar(&status, "status", false, "seulement lister les migrations et dire si elles sont appliquées, sans rien créer ni écrire")
	return cmd
}

// migrateStatus lists the migrations of the configured database without
// creating it: a missing SQLite file stays missing.
func (a *app) migrateStatus(cmd *cobra.Command) error {
	ctx := cmd.Context()
	db, err := store.OpenExisting(ctx, a.cfg.DatabaseURL, a.cfg.SQLitePath())
	var none *store.NoDatabaseError
	if errors.As(err, &none) {
		fmt.Fprintf(a.out, "aucune base dans %s : primeur migrate la créera\n", none.Where)
		states, err := schema.Pending(store.SQLite)
		if err != nil {
			return err
		}
		a.printMigrations(states)
		return nil
	}
	if err != nil {
		return err
	}
	defer db.Close()
	a.announceDB()
	states, err := schema.StatusOnly(ctx, db)
	if err != nil {
		return err
	}
	a.printMigrations(states)
	return nil
}

func (a *app) printMigrations(states []schema.State) {
	for _, s := range states {
		mark := "en attente"
		if s.Applied {
			mark = "appliquée"
		}
		fmt.Fprintf(a.out, "%05d  %-10s  %s\n", s.Version, mark, s.Name)
	}
}
