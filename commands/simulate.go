package commands

import "github.com/spf13/cobra"

// simulateCommand groups the simulations an operator runs on the database:
// each subcommand calls the same core function as the API, and writes
// nothing unless it is asked to (`simulate import --commit`).
func (a *app) simulateCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "simulate",
		Short: "Lancer les simulations de la plateforme en ligne de commande (rien n'est écrit sans --commit)",
	}
	cmd.AddCommand(a.simulateSupplyCommand(), a.simulateImportCommand())
	return cmd
}
