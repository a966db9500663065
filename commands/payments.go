package commands

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"primeur/core/decimal"
	"primeur/core/payments"
	"primeur/core/printable"
	"primeur/core/store"
)

const paymentsListLong = `Lister ce que chaque magasin doit à chaque producteur (PRODUCT §16 "Payments"),
à la date du jour dans le fuseau configuré : une ligne par couple, les retards
d'abord, avec le reste à payer, ce qui est en retard, ce que le magasin a
déclaré et que le producteur n'a pas encore confirmé, et la prochaine échéance.

Avec --overdue, seulement les couples qui ont un retard. Avec --json, un tableau :
  [{"shop": "…", "shopId": "…", "producer": "…", "producerId": "…", "owed": 68.58,
    "overdue": 26.38, "declared": 0, "nextDue": "2026-11-09"}, …]
(montants en euros).`

// accountJSON is an account as 'payments list --json' prints it.
type accountJSON struct {
	Shop       string      `json:"shop"`
	ShopID     string      `json:"shopId"`
	Producer   string      `json:"producer"`
	ProducerID string      `json:"producerId"`
	Owed       decimal.Dec `json:"owed"`
	Overdue    decimal.Dec `json:"overdue"`
	Declared   decimal.Dec `json:"declared"`
	NextDue    string      `json:"nextDue,omitempty"`
}

func (a *app) paymentsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "payments",
		Short: "Ce que les magasins doivent aux producteurs",
	}
	cmd.AddCommand(a.paymentsListCommand())
	return cmd
}

func (a *app) paymentsListCommand() *cobra.Command {
	var overdue, asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Lister les soldes entre magasins et producteurs, les retards d'abord",
		Long:  paymentsListLong,
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := a.openDB(cmd.Context())
			if err != nil {
				return err
			}
			defer db.Close()
			accs, err := payments.Accounts(cmd.Context(), db, "", "", a.clock().Today().String())
			if err != nil {
				return err
			}
			var names []struct {
				ID   string `db:"id"`
				Name string `db:"name"`
			}
			if err := store.Select(cmd.Context(), db, &names, `SELECT id, name FROM users`); err != nil {
				return err
			}
			name := map[string]string{}
			for _, n := range names {
				name[n.ID] = n.Name
			}
			out := []accountJSON{}
			for _, acc := range accs {
				if overdue && acc.Overdue <= 0 {
					continue
				}
				out = append(out, accountJSON{Shop: name[acc.DistributorID], ShopID: acc.DistributorID, Producer: name[acc.ProducerID],
					ProducerID: acc.ProducerID, Owed: acc.Owed, Overdue: acc.Overdue, Declared: acc.Declared, NextDue: acc.NextDue})
			}
			if asJSON {
				return a.writeJSON(out)
			}
			w := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "magasin\tproducteur\treste à payer\ten retard\tdéclaré\tprochaine échéance")
			for _, o := range out {
				fmt.Fprintf(w, "%s\t%s\t%s €\t%s €\t%s €\t%s\n", printable.Line(o.Shop), printable.Line(o.Producer), o.Owed.French(), o.Overdue.French(),
					o.Declared.French(), o.NextDue)
			}
			return w.Flush()
		},
	}
	cmd.Flags().BoolVar(&overdue, "overdue", false, "seulement les couples qui ont un retard")
	cmd.Flags().BoolVar(&asJSON, "json", false, "écrire du JSON au lieu d'un tableau")
	return cmd
}
