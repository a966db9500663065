package commands

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/jmoiron/sqlx"
	"github.com/spf13/cobra"

	"primeur/core/catalog"
	"primeur/core/catalogadmin"
	"primeur/core/printable"
	"primeur/core/store"
)

const catalogueLong = `Le catalogue des types de produits (PRODUCT §3 "Product types", §14
"Catalogue") : les lister, en ajouter, en renommer, en fusionner un dans un
autre, en retirer un. Chaque opération est une transaction ; refusée, elle ne
change rien et dit pourquoi.`

// productJSON is a product type as 'catalogue list --json' prints it.
type productJSON struct {
	ID      string `json:"_id"`
	Name    string `json:"name"`
	Family  string `json:"family"`
	Unit    string `json:"unit"`
	VATRate string `json:"vatRate"`
	Retired bool   `json:"retired"`
	DFCType string `json:"dfcType"`
}

func productOut(p catalog.Product) productJSON {
	return productJSON{ID: p.ID, Name: p.Name, Family: p.Family, Unit: p.Unit, VATRate: rateText(p.VATRate),
		Retired: p.Retired, DFCType: p.DFCType}
}

// rateText writes a rate in hundredths of a percent as a percent: "5.5".
func rateText(rate int64) string {
	s := fmt.Sprintf("%d.%02d", rate/100, rate%100)
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

func (a *app) catalogueCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "catalogue",
		Short: "Lister et administrer les types de produits",
		Long:  catalogueLong,
	}
	cmd.AddCommand(a.catalogueListCommand(), a.catalogueAddCommand(), a.catalogueRenameCommand(),
		a.catalogueMergeCommand(), a.catalogueRetireCommand(), a.catalogueSuggestionsCommand(),
		a.catalogueAcceptCommand(), a.catalogueMergeSuggestionCommand())
	return cmd
}

// inTx runs fn in one transaction of the configured database.
func (a *app) catalogueTx(cmd *cobra.Command, fn func(q store.Q) error) error {
	db, err := a.openDB(cmd.Context())
	if err != nil {
		return err
	}
	defer db.Close()
	return db.Tx(cmd.Context(), func(tx *sqlx.Tx) error { return fn(tx) })
}

// printProduct prints one type, as JSON or as a line.
func (a *app) printProduct(verb string, p catalog.Product, asJSON bool) error {
	if asJSON {
		return a.writeJSON(productOut(p))
	}
	_, err := fmt.Fprintf(a.out, "%s : %s (%s), %s, %s, TVA %s %%\n", verb, printable.Line(p.Name), p.ID, p.Family,
		catalog.UnitName(p.Unit), strings.Replace(rateText(p.VATRate), ".", ",", 1))
	return err
}

func (a *app) catalogueListCommand() *cobra.Command {
	var asJSON, retired bool
	var family string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Lister les types de produits par famille et par nom",
		Long: `Lister les types de produits en usage (avec --retired, les retirés aussi), d'une
famille avec --family. Avec --json, un tableau :
  [{"_id": "tomme-de-savoie", "name": "Tomme de Savoie", "family": "fromages", "unit": "kg",
    "vatRate": "5.5", "retired": false, "dfcType": "mature-cheese"}, …]`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var ps []catalog.Product
			var fs []catalog.Family
			if err := a.catalogueTx(cmd, func(q store.Q) error {
				var err error
				if ps, err = catalog.All(cmd.Context(), q); err != nil {
					return err
				}
				fs, err = catalog.Families(cmd.Context(), q)
				return err
			}); err != nil {
				return err
			}
			order := map[string]int{}
			var ids []string
			for _, f := range fs {
				order[f.ID] = f.Position
				ids = append(ids, f.ID)
			}
			if family != "" {
				if _, ok := order[family]; !ok {
					return fmt.Errorf("famille inconnue « %s » ; familles : %s", family, strings.Join(ids, ", "))
				}
			}
			out := []productJSON{}
			for _, f := range fs {
				for _, p := range ps {
					if p.Family == f.ID && (family == "" || family == f.ID) && (retired || !p.Retired) {
						out = append(out, productOut(p))
					}
				}
			}
			if asJSON {
				return a.writeJSON(out)
			}
			w := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "famille\tidentifiant\tnom\tunité\tTVA")
			for _, p := range out {
				name := printable.Line(p.Name)
				if p.Retired {
					name += " (retiré)"
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s %%\n", p.Family, p.ID, name, p.Unit, strings.Replace(p.VATRate, ".", ",", 1))
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVar(&family, "family", "", "seulement les types de cette famille (fruits, legumes, fromages…)")
	cmd.Flags().BoolVar(&retired, "retired", false, "lister aussi les types retirés")
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire du JSON au lieu d'un tableau")
	return cmd
}

func (a *app) catalogueAddCommand() *cobra.Command {
	var in catalogadmin.AddInput
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "add NOM",
		Short: "Ajouter un type de produit",
		Long: `Ajouter un type de produit : son nom, sa famille (--family), son unité de besoin
(--unit : kg, l, un, douzaine, botte, barquette, bouteille, pot ; kg par défaut), son taux de
TVA en % (--vat, 5,5 par défaut ; 20 pour une boisson alcoolisée), sa saison (--season 5-9 :
de mai à septembre). Son identifiant vient de son nom (« Tomme des Bauges » :
tomme-des-bauges), ou de --id.`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in.Name = args[0]
			var p catalog.Product
			if err := a.catalogueTx(cmd, func(q store.Q) error {
				var err error
				p, err = catalogadmin.Add(cmd.Context(), q, in)
				return err
			}); err != nil {
				return err
			}
			return a.printProduct("ajouté", p, asJSON)
		},
	}
	cmd.Flags().StringVar(&in.Family, "family", "", "sa famille (obligatoire) : fruits, legumes, fromages…")
	cmd.Flags().StringVar(&in.Unit, "unit", "kg", "son unité de besoin")
	cmd.Flags().StringVar(&in.VAT, "vat", "", "son taux de TVA en %, 5,5 par défaut")
	cmd.Flags().StringVar(&in.Season, "season", "", "ses mois, « 5-9 » pour mai à septembre ; toute l'année sinon")
	cmd.Flags().StringVar(&in.ID, "id", "", "son identifiant, tiré de son nom sinon")
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire le type ajouté en JSON")
	return cmd
}

func (a *app) catalogueRenameCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "rename ID NOM",
		Short: "Renommer un type de produit (les documents émis gardent leur nom)",
		Args:  exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			var p catalog.Product
			if err := a.catalogueTx(cmd, func(q store.Q) error {
				var err error
				p, err = catalogadmin.Rename(cmd.Context(), q, args[0], args[1])
				return err
			}); err != nil {
				return err
			}
			return a.printProduct("renommé", p, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire le type renommé en JSON")
	return cmd
}

func (a *app) catalogueMergeCommand() *cobra.Command {
	var into string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "merge ID",
		Short: "Fusionner un type de produit dans un autre (--into)",
		Long: `Fusionner le type ID dans le type --into : ses besoins (avec leurs propositions et
engagements), ses lignes de livraison et ses prix de référence passent au type gardé ; ID est
retiré. Refusé quand un magasin a des besoins des deux types le même mois, ou quand leurs
unités diffèrent. Avec --json : {"from": …, "into": …, "needs": 3, "deliveryLines": 5}.`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if into == "" {
				return fmt.Errorf("il manque --into : le type de produit gardé")
			}
			var m catalogadmin.Merged
			if err := a.catalogueTx(cmd, func(q store.Q) error {
				var err error
				m, err = catalogadmin.Merge(cmd.Context(), q, args[0], into, a.now())
				return err
			}); err != nil {
				return err
			}
			if asJSON {
				return a.writeJSON(struct {
					From          productJSON `json:"from"`
					Into          productJSON `json:"into"`
					Needs         int64       `json:"needs"`
					DeliveryLines int64       `json:"deliveryLines"`
				}{productOut(m.From), productOut(m.Into), m.Needs, m.DeliveryLines})
			}
			_, err := fmt.Fprintf(a.out, "fusionné : %s (%s) dans %s (%s) ; %d besoin(s) et %d ligne(s) de livraison déplacés\n",
				printable.Line(m.From.Name), m.From.ID, printable.Line(m.Into.Name), m.Into.ID, m.Needs, m.DeliveryLines)
			return err
		},
	}
	cmd.Flags().StringVar(&into, "into", "", "le type de produit gardé")
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire le résultat en JSON")
	return cmd
}

func (a *app) catalogueRetireCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "retire ID",
		Short: "Retirer un type de produit : ses besoins restent, il n'en prend plus de nouveaux",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var p catalog.Product
			if err := a.catalogueTx(cmd, func(q store.Q) error {
				var err error
				p, err = catalogadmin.Retire(cmd.Context(), q, args[0], a.now())
				return err
			}); err != nil {
				return err
			}
			return a.printProduct("retiré", p, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire le type retiré en JSON")
	return cmd
}
