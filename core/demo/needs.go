package demo

import (
	"context"

	"github.com/jmoiron/sqlx"

	"primeur/core/catalog"
	"primeur/core/planning"
	"primeur/core/store"
)

// turnovers are the demo shops' annual fruit-and-vegetable turnover in
// euros, corrected, in the order of shops.
var turnovers = []float64{180000, 95000, 420000, 150000}

// seedNeeds gives each shop a year of needs ahead and the three months
// behind (for the charts and the stock projection), simulated by the
// standard import from its turnover.
func seedNeeds(ctx context.Context, tx *sqlx.Tx, _ *store.DB, w *World) error {
	products, err := catalog.All(ctx, tx)
	if err != nil {
		return err
	}
	start := planning.AddMonths(planning.MonthOf(w.Now), -3)
	months := make([]string, 16)
	for i := range months {
		months[i] = planning.AddMonths(start, i)
	}
	// Write refuses past months: seed as of the first month.
	asOf, err := timeOfMonth(start, w.Now)
	if err != nil {
		return err
	}
	for i, shop := range w.Shops {
		var cells []planning.Cell
		for _, line := range planning.Standard(products, turnovers[i%len(turnovers)], months) {
			for m, q := range line.Quantities {
				cells = append(cells, planning.Cell{ProductID: line.Product.ID, Month: months[m], Quantity: q})
			}
		}
		if _, err := planning.WriteAll(ctx, tx, shop.ID, cells, asOf); err != nil {
			return err
		}
	}
	return nil
}
