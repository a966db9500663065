package commands

import (
	"fmt"
	"strconv"
	"text/tabwriter"

	"github.com/jmoiron/sqlx"
	"github.com/spf13/cobra"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/planning"
)

func (a *app) simulateImportCommand() *cobra.Command {
	var (
		email, from, to string
		turnover        float64
		commit, jsonOut bool
	)
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Simuler l'import standard d'un magasin ; l'écrire avec --commit",
		Long: "Écrire, par produit et par mois, les besoins que l'import standard donne à un magasin d'après\n" +
			"son chiffre d'affaires annuel en fruits et légumes (déjà corrigé, comme l'envoie le formulaire\n" +
			"du planificateur ; PRODUCT §14). Rien n'est écrit sans --commit : chaque mois est alors écrit\n" +
			"comme le fait la validation du planificateur, en une transaction ; les besoins dont les\n" +
			"engagements dépassent la simulation gardent leur quantité et sont listés (code de sortie 2).",
		Example: "  primeur simulate import --distributor epicerie@example.fr --turnover 135000 --from 2026-12 --to 2027-11",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			now := a.clock().Now()
			// The range's first month is --from (planning.CheckStandard
			// names it months[0]).
			values := map[string]flagValue{"from": {"from", from}, "to": {"to", to}, "months[0]": {"from", from},
				"turnover": {"turnover", strconv.FormatFloat(turnover, 'f', -1, 64)}}
			months, err := monthRange(from, to)
			if err != nil {
				return flagsError(err, values)
			}
			checked, err := planning.CheckStandard(turnover, months, now)
			if err != nil {
				return flagsError(err, values)
			}
			db, err := a.openDB(ctx)
			if err != nil {
				return err
			}
			defer db.Close()
			shop, err := a.shop(ctx, db, email)
			if err != nil {
				return err
			}
			lines, err := planning.StandardLines(ctx, db, turnover, checked)
			if err != nil {
				return err
			}
			var res *planning.StandardResult
			if commit {
				bar := a.progressBar("mois")
				err = db.Tx(ctx, func(tx *sqlx.Tx) error {
					r, err := planning.ImportStandard(ctx, tx, shop.ID, turnover, months, now, bar.update)
					res = &r
					return err
				})
				bar.done()
				if err != nil {
					return err
				}
			}
			if jsonOut {
				err = a.printStandardJSON(turnover, months, lines, res)
			} else {
				err = a.printStandardTable(checked, lines, res)
			}
			if err != nil {
				return err
			}
			if res != nil && len(res.DBErrors) > 0 {
				return exitError{code: exitPartial}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&email, "distributor", "", "email du magasin (obligatoire)")
	cmd.Flags().Float64Var(&turnover, "turnover", 0, "chiffre d'affaires annuel en fruits et légumes, en euros, corrigé (obligatoire)")
	cmd.Flags().StringVar(&from, "from", "", "premier mois, AAAA-MM (obligatoire)")
	cmd.Flags().StringVar(&to, "to", "", "dernier mois, AAAA-MM (obligatoire ; 36 mois au plus)")
	cmd.Flags().BoolVar(&commit, "commit", false, "écrire les besoins (sinon rien n'est écrit)")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "écrire du JSON au lieu d'un tableau")
	for _, f := range []string{"distributor", "turnover", "from", "to"} {
		_ = cmd.MarkFlagRequired(f)
	}
	return cmd
}

// monthRange lists the months from one month to another, both included.
func monthRange(from, to string) ([]string, error) {
	first, err := planning.ParseMonth("from", from)
	if err != nil {
		return nil, err
	}
	last, err := planning.ParseMonth("to", to)
	if err != nil {
		return nil, err
	}
	if last < first {
		return nil, core.Invalid("to", "La date de fin doit être postérieure à la date de début")
	}
	var months []string
	for m := first; m <= last && len(months) <= planning.MaxStandardMonths; m = calendar.AddMonthsTo(m, 1) {
		months = append(months, m)
	}
	return months, nil
}

func (a *app) printStandardTable(months []calendar.Month, lines []planning.StandardLine, res *planning.StandardResult) error {
	w := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(w, "PRODUIT\tUNITÉ\t")
	for _, m := range months {
		fmt.Fprintf(w, "%s\t", m.Numeric())
	}
	fmt.Fprintln(w)
	for _, l := range lines {
		fmt.Fprintf(w, "%s\t%s\t", l.Product.Name, l.Product.Unit)
		for _, q := range l.Quantities {
			fmt.Fprintf(w, "%s\t", q)
		}
		fmt.Fprintln(w)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if res == nil {
		fmt.Fprintln(a.out, "simulation seulement : rien n'a été écrit (--commit l'écrit)")
		return nil
	}
	fmt.Fprintf(a.out, "écrit : %d besoin(s) appliqué(s) (%d créé(s) ou modifié(s))\n", res.DBSuccesses, len(res.Needs))
	a.printRefused(res.DBErrors)
	return nil
}

func (a *app) printStandardJSON(turnover float64, months []string, lines []planning.StandardLine, res *planning.StandardResult) error {
	type product struct {
		ID         string        `json:"_id"`
		Name       string        `json:"name"`
		Unit       string        `json:"unit"`
		Quantities []decimal.Dec `json:"quantities"`
	}
	type commit struct {
		Needs       int                    `json:"needs"`
		DBSuccesses int                    `json:"dbSuccesses"`
		DBErrors    []planning.ImportError `json:"dbErrors"`
		EventID     string                 `json:"event"`
	}
	out := struct {
		Turnover float64   `json:"turnover"`
		Months   []string  `json:"months"`
		Products []product `json:"products"`
		Commit   *commit   `json:"commit,omitempty"`
	}{Turnover: turnover, Months: months, Products: []product{}}
	for _, l := range lines {
		p := product{ID: l.Product.ID, Name: l.Product.Name, Unit: l.Product.Unit}
		p.Quantities = l.Quantities
		out.Products = append(out.Products, p)
	}
	if res != nil {
		out.Commit = &commit{Needs: len(res.Needs), DBSuccesses: res.DBSuccesses, DBErrors: res.DBErrors, EventID: res.Event.ID}
	}
	return a.writeJSON(out)
}
