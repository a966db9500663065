package commands

import "github.com/spf13/cobra"

// simulateCommand groups the simulations an operator runs on the database
// without changing it.
func (a *app) simulateCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "simulate",
		Short: "Run the platform's simulations from the command line (nothing is written)",
	}
	cmd.AddCommand(a.simulateSupplyCommand())
	return cmd
}
