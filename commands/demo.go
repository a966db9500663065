package commands

import (
	"fmt"

	"github.com/spf13/cobra"

	"primeur/core/demo"
)

func (a *app) demoCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Remplir une base vide avec le monde de démonstration et afficher ses identifiants",
		Long: "Créer des magasins autour d'Annecy et des producteurs des Savoies, avec leurs profils et leur\n" +
			"activité, pour que chaque écran ait quelque chose à montrer. Une base qui contient déjà des\n" +
			"comptes est laissée telle quelle.",
		Args: noArgs,
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
				return fmt.Errorf("la base contient déjà des comptes ; la démonstration demande une base vide (--data-dir)")
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
