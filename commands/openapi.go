package commands

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"primeur/daemon"
)

func (a *app) openapiCommand() *cobra.Command {
	var yaml bool
	cmd := &cobra.Command{
		Use:   "openapi",
		Short: "Écrire le document OpenAPI de l'API",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			doc := daemon.New(daemon.Options{Config: a.cfg}).OpenAPI()
			if yaml {
				b, err := doc.YAML()
				if err != nil {
					return fmt.Errorf("openapi: %w", err)
				}
				_, err = a.out.Write(b)
				return err
			}
			b, err := json.MarshalIndent(doc, "", "  ")
			if err != nil {
				return fmt.Errorf("openapi: %w", err)
			}
			_, err = fmt.Fprintln(a.out, string(b))
			return err
		},
	}
	cmd.Flags().BoolVar(&yaml, "yaml", false, "écrire du YAML au lieu du JSON")
	return cmd
}
