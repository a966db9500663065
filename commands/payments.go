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

const paymentsListLong = `List what each shop owes each producer (PRODUCT §16 "Payments"), as of today
in the configured time zone: one line per pair, overdue first, with what is left
to pay, what is overdue, what the shop declared and the producer has not
confirmed yet, and the next due date.

With --overdue, only the pairs with an overdue balance. With --json, an array:
  [{"shop": "…", "shopId": "…", "producer": "…", "producerId": "…", "owed": 68.58,
    "overdue": 26.38, "declared": 0, "nextDue": "2026-11-09"}, …]
(amounts in euros).`

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
		Short: "What shops owe producers",
	}
	cmd.AddCommand(a.paymentsListCommand())
	return cmd
}

func (a *app) paymentsListCommand() *cobra.Command {
	var overdue, asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the balances between shops and producers, overdue first",
		Long:  paymentsListLong,
		Args:  cobra.NoArgs,
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
	cmd.Flags().BoolVar(&overdue, "overdue", false, "only the pairs with an overdue balance")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	return cmd
}
