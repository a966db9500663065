package commands

import (
	"fmt"

	"github.com/spf13/cobra"

	"primeur/core/demo"
)

func (a *app) demoCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Fill an empty database with the demo world and print its logins",
		Long: "Create shops around Annecy and producers of the Savoies, with their profiles and their\n" +
			"activity, so every screen has something to show. A database that already holds accounts\n" +
			"is left alone.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := a.createDB(cmd.Context())
			if err != nil {
				return err
			}
			defer db.Close()
			res, err := demo.SeedIfEmpty(cmd.Context(), db, a.clock().Now())
			if err != nil {
				return err
			}
			if !res.Created && len(res.Logins) == 0 {
				return fmt.Errorf("the database already holds accounts; the demo needs an empty one (--data-dir)")
			}
			a.printLogins(res)
			return nil
		},
	}
}

// printLogins prints the demo accounts for the operator.
func (a *app) printLogins(res demo.Result) {
	if len(res.Logins) == 0 {
		return
	}
	fmt.Fprintf(a.out, "Comptes de démonstration (mot de passe %q) :\n", demo.Password)
	for _, l := range res.Logins {
		fmt.Fprintf(a.out, "  %-10s  %-40s  %s\n", l.Role, l.Email, l.Name)
	}
}
