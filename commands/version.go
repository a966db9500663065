package commands

import (
	"fmt"

	"github.com/spf13/cobra"

	"primeur/daemon"
)

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:               "version",
		Short:             "Écrire la version et le commit des sources",
		Args:              noArgs,
		PersistentPreRunE: func(*cobra.Command, []string) error { return nil },
		RunE: func(*cobra.Command, []string) error {
			fmt.Fprintf(a.out, "primeur %s (commit %s)\n", daemon.Version, commit)
			return nil
		},
	}
}
