package commands

import "github.com/spf13/cobra"

// simulateCommand groups the simulations the platform runs for its users,
// printed in the terminal: each subcommand calls the same core function as
// the API.
func (a *app) simulateCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "simulate",
		Short: "Run the platform's simulations in the terminal (standard import…)",
	}
	cmd.AddCommand(
		a.simulateImportCommand(),
	)
	return cmd
}
