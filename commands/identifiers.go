package commands

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"primeur/core/accounts"
)

// exitInvalidIdentifiers: check-identifiers found accounts to correct.
const exitInvalidIdentifiers = 2

const checkIdentifiersLong = `Lister les comptes dont le SIRET ou le numéro de TVA intracommunautaire
enregistré est invalide (PRODUCT §5 "Identifiers" : la clé de Luhn du SIRET,
l'exception de La Poste, la clé d'un numéro de TVA français et son SIREN égal à
celui du SIRET). Ils ont été acceptés avant ces contrôles ; leurs titulaires
lisent un avis qui leur demande de les corriger, et le commerce continue.

Une ligne par identifiant à corriger : type, email, raison sociale, champ, la
valeur enregistrée et l'avis que lit son titulaire. Code de sortie 0 quand
chaque compte est valide, 2 quand certains sont à corriger, 1 sur une erreur.

Avec --json, un tableau d'un objet par compte à corriger :
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
		Short: "Lister les comptes dont le SIRET ou le numéro de TVA enregistré est invalide (sortie 2 s'il y en a)",
		Long:  checkIdentifiersLong,
		Args:  noArgs,
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
				fmt.Fprintf(a.out, "les identifiants de chaque compte sont valides (%d comptes)\n", len(users))
			} else {
				w := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', 0)
				fmt.Fprintln(w, "TYPE\tEMAIL\tRAISON SOCIALE\tCHAMP\tVALEUR\tAVIS")
				for _, acc := range found {
					for _, is := range acc.Issues {
						fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", typeName(acc.Type), acc.Email, acc.Name, is.Field, is.Value, is.Message)
					}
				}
				if err := w.Flush(); err != nil {
					return err
				}
				fmt.Fprintf(a.out, "%d compte(s) sur %d ont des identifiants à corriger\n", len(found), len(users))
			}
			if len(found) > 0 {
				return exitError{code: exitInvalidIdentifiers}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire du JSON au lieu d'un tableau")
	return cmd
}
