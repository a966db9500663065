package commands

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"primeur/core/catalog"
	"primeur/core/catalogadmin"
	"primeur/core/printable"
	"primeur/core/store"
)

// The administrator's answers to producers' suggestions of types (PRODUCT
// §3 "Suggesting a type"): list them, accept one (the type is created),
// merge one into an existing type.

func (a *app) catalogueSuggestionsCommand() *cobra.Command {
	var asJSON, all bool
	cmd := &cobra.Command{
		Use:   "suggestions",
		Short: "Lister les types de produits que des producteurs suggèrent",
		Long: `Lister les suggestions de types de produits en attente (avec --all, aussi celles qui ont
reçu une réponse), les plus récentes d'abord. Avec --json, un tableau :
  [{"_id": "…", "producer": "…", "producerName": "Bergerie d'Iraty", "name": "Tomme des Bauges",
    "family": "fromages", "unit": "kg", "note": "", "status": "pending", "productType": "",
    "productTypeName": "", "createdAt": 1764410000000}, …]
Y répondre : primeur catalogue accept ID, ou primeur catalogue merge-suggestion ID TYPE.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var ss []catalogadmin.Suggestion
			if err := a.catalogueTx(cmd, func(q store.Q) error {
				var err error
				ss, err = catalogadmin.Suggestions(cmd.Context(), q, "", !all)
				return err
			}); err != nil {
				return err
			}
			if asJSON {
				return a.writeJSON(ss)
			}
			w := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "identifiant\tdate\tproducteur\tnom\tfamille\tunité\tréponse\tremarque")
			for _, s := range ss {
				answer := "en attente"
				switch s.Status {
				case catalogadmin.Accepted:
					answer = "ajouté : " + s.ProductType
				case catalogadmin.MergedInto:
					answer = "rattaché à " + s.ProductType
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.ID,
					time.UnixMilli(s.CreatedAt).UTC().Format("2006-01-02"), printable.Line(s.ProducerName),
					printable.Line(s.Name), s.Family, s.Unit, answer, printable.Line(s.Note))
			}
			return w.Flush()
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "lister aussi les suggestions qui ont reçu une réponse")
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire du JSON au lieu d'un tableau")
	return cmd
}

func (a *app) catalogueAcceptCommand() *cobra.Command {
	var in catalogadmin.AddInput
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "accept ID",
		Short: "Accepter une suggestion : le type de produit est créé",
		Long: `Accepter la suggestion ID : le type est ajouté au catalogue avec le nom, la famille et
l'unité suggérés, sauf --name, --family, --unit ; son taux de TVA (--vat, 5,5 par défaut), sa
saison (--season 5-9) et son identifiant (--id) comme pour « catalogue add ». Le producteur voit
la réponse dans « Mes produits ». Avec --json : {"suggestion": …, "productType": …}.`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var s catalogadmin.Suggestion
			var p catalog.Product
			if err := a.catalogueTx(cmd, func(q store.Q) error {
				var err error
				s, p, err = catalogadmin.AcceptSuggestion(cmd.Context(), q, args[0], in, a.now())
				return err
			}); err != nil {
				return err
			}
			if asJSON {
				return a.writeJSON(struct {
					Suggestion  catalogadmin.Suggestion `json:"suggestion"`
					ProductType productJSON             `json:"productType"`
				}{s, productOut(p)})
			}
			return a.printProduct("ajouté", p, false)
		},
	}
	cmd.Flags().StringVar(&in.Name, "name", "", "son nom, celui suggéré sinon")
	cmd.Flags().StringVar(&in.Family, "family", "", "sa famille, celle suggérée sinon")
	cmd.Flags().StringVar(&in.Unit, "unit", "", "son unité de besoin, celle suggérée sinon")
	cmd.Flags().StringVar(&in.VAT, "vat", "", "son taux de TVA en %, 5,5 par défaut")
	cmd.Flags().StringVar(&in.Season, "season", "", "ses mois, « 5-9 » pour mai à septembre ; toute l'année sinon")
	cmd.Flags().StringVar(&in.ID, "id", "", "son identifiant, tiré de son nom sinon")
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire le résultat en JSON")
	return cmd
}

func (a *app) catalogueMergeSuggestionCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "merge-suggestion ID TYPE",
		Short: "Répondre à une suggestion par un type de produit existant",
		Long: `Répondre à la suggestion ID par le type TYPE, en usage, qui en tient lieu : aucun type
n'est créé, le producteur voit à quel type se rattacher. Avec --json : la suggestion.`,
		Args: exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			var s catalogadmin.Suggestion
			if err := a.catalogueTx(cmd, func(q store.Q) error {
				var err error
				s, err = catalogadmin.MergeSuggestion(cmd.Context(), q, args[0], args[1], a.now())
				return err
			}); err != nil {
				return err
			}
			if asJSON {
				return a.writeJSON(s)
			}
			_, err := fmt.Fprintf(a.out, "rattaché : « %s » à %s (%s)\n", printable.Line(s.Name),
				printable.Line(s.ProductTypeName), s.ProductType)
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire la suggestion en JSON")
	return cmd
}
