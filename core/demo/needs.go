package demo

import (
	"context"

	"github.com/jmoiron/sqlx"

	"primeur/core/calendar"
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
	start := calendar.MonthOf(w.Now).AddMonths(-3)
	months := make([]calendar.Month, 16)
	for i := range months {
		months[i] = start.AddMonths(i)
	}
	// Write refuses past months: seed as of the first month.
	asOf := start.Start(w.Now.Location())
	for i, shop := range w.Shops {
		var cells []planning.Cell
		for _, line := range planning.Standard(products, turnovers[i%len(turnovers)], months) {
			for m, q := range line.Quantities {
				cells = append(cells, planning.Cell{ProductID: line.Product.ID, Month: months[m].String(), Quantity: q})
			}
		}
		if _, err := planning.WriteAll(ctx, tx, shop.ID, cells, asOf); err != nil {
			return err
		}
	}
	return nil
}
