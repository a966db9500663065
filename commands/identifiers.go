package commands

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"primeur/core/accounts"
)

// exitInvalidIdentifiers: check-identifiers found accounts to correct.
const exitInvalidIdentifiers = 2

const checkIdentifiersLong = `List the accounts whose stored SIRET or intra-community VAT number is invalid
(PRODUCT §5 "Identifiers": the Luhn key of the SIRET, La Poste's exception,
the key of a French VAT number and its SIREN equal to the SIRET's). They were
accepted before these checks; their owners read a notice asking them to
correct them, and trade goes on meanwhile.

One line per identifier to correct: type, email, company name, field, the value
stored and the French notice its owner reads. Exit status 0 when every account
is valid, 2 when some are to correct, 1 on error.

With --json, an array with one object per account to correct:
  [{"_id": "01…", "type": "producer", "email": "ferme@example.fr",
    "name": "Ferme du Lac", "issues": [{"field": "siret",
    "value": "11111111111111", "message": "Le SIRET enregistré …"}]}, …]`

// identifierIssueJSON is one identifier to correct, as --json prints it.
type identifierIssueJSON struct {
	Field   string `json:"field"`
	Value   string `json:"value"`
	Message string `json:"message"`
}

// identifiersJSON is an account to correct, as --json prints it.
type identifiersJSON struct {
	ID     string                `json:"_id"`
	Type   string                `json:"type"`
	Email  string                `json:"email"`
	Name   string                `json:"name"`
	Issues []identifierIssueJSON `json:"issues"`
}

func (a *app) userCheckIdentifiersCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check-identifiers",
		Short: "List the accounts whose stored SIRET or VAT number is invalid (exit 2 when any)",
		Long:  checkIdentifiersLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := a.openDB(cmd.Context())
			if err != nil {
				return err
			}
			defer db.Close()
			users, err := accounts.List(cmd.Context(), db)
			if err != nil {
				return err
			}
			found := []identifiersJSON{}
			for _, u := range users {
				issues := u.IdentifierIssues()
				if len(issues) == 0 {
					continue
				}
				acc := identifiersJSON{ID: u.ID, Type: u.Type, Email: u.Email, Name: u.Name}
				for _, is := range issues {
					value := u.SIRET
					if is.Field == "tvaintracom" {
						value = u.TVAIntracom
					}
					acc.Issues = append(acc.Issues, identifierIssueJSON{Field: is.Field, Value: value, Message: is.Message})
				}
				found = append(found, acc)
			}
			if asJSON {
				if err := a.writeJSON(found); err != nil {
					return err
				}
			} else if len(found) == 0 {
				fmt.Fprintf(a.out, "every account's identifiers are valid (%d accounts)\n", len(users))
			} else {
				w := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', 0)
				fmt.Fprintln(w, "TYPE\tEMAIL\tNAME\tFIELD\tVALUE\tNOTICE")
				for _, acc := range found {
					for _, is := range acc.Issues {
						fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", acc.Type, acc.Email, acc.Name, is.Field, is.Value, is.Message)
					}
				}
				if err := w.Flush(); err != nil {
					return err
				}
				fmt.Fprintf(a.out, "%d of %d accounts have identifiers to correct\n", len(found), len(users))
			}
			if len(found) > 0 {
				return exitError{code: exitInvalidIdentifiers}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	return cmd
}
