package commands

import (
	"fmt"

	"github.com/spf13/cobra"

	"primeur/daemon"
)

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:               "version",
		Short:             "Print the version and the source commit",
		Args:              cobra.NoArgs,
		PersistentPreRunE: func(*cobra.Command, []string) error { return nil },
		RunE: func(*cobra.Command, []string) error {
			fmt.Fprintf(a.out, "primeur %s (commit %s)\n", daemon.Version, commit)
			return nil
		},
	}
}
