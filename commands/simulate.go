package commands

import "github.com/spf13/cobra"

// simulateCommand groups the simulations an operator runs on the database:
// each subcommand calls the same core function as the API, and writes
// nothing unless it is asked to (`simulate import --commit`).
func (a *app) simulateCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "simulate",
		Short: "Run the platform's simulations from the command line (nothing is written without --commit)",
	}
	cmd.AddCommand(a.simulateSupplyCommand(), a.simulateImportCommand())
	return cmd
}
