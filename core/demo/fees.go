package demo

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"primeur/core/fees"
	"primeur/core/store"
)

// seedFees gives Ferme des Glières, which delivers every shop on its
// Mondays and Thursdays (a round of four stops), a minimum order and
// delivery fees (PRODUCT §16 "Minimum order and delivery fees"), through
// the operations of its profile: 60 € HT of goods per delivery, 8 € up to
// 20 km, 12 € up to 30 km and 15 € beyond, free from 300 €; Épicerie du
// Lac, its nearest shop, delivered free; La Halle de Rumilly, the
// farthest, a minimum of 100 €. The minimums are set after the trade: the
// deliveries agreed before keep their amounts (the minimum applies to the
// changes to come), and the proposals waiting show the terms. The fees
// are set before it (seedFeeTerms), as a producer sets them before it
// delivers: each delivery's fee is fixed at its lock (issue 40), so the
// invoices of the months over carry them.
func seedFees(ctx context.Context, tx *sqlx.Tx, _ *store.DB, w *World) error {
	if err := setFees(ctx, tx, w, 60); err != nil {
		return err
	}
	hundred := 100.0
	farm := w.Producers[0].ID
	if _, err := fees.SetException(ctx, tx, farm, w.Shops[2].ID, &hundred, nil, w.Now); err != nil {
		return fmt.Errorf("demo: fees: %w", err)
	}
	return nil
}

// seedFeeTerms sets Ferme des Glières' fees, without its minimum, before
// the trade locks its first deliveries (seedFees).
func seedFeeTerms(ctx context.Context, tx *sqlx.Tx, _ *store.DB, w *World) error {
	return setFees(ctx, tx, w, 0)
}

// setFees sets Ferme des Glières' terms with this minimum, and Épicerie du
// Lac delivered free.
func setFees(ctx context.Context, tx *sqlx.Tx, w *World, minimum float64) error {
	farm := w.Producers[0].ID
	if _, err := fees.Set(ctx, tx, farm, fees.Input{Minimum: minimum, Fee: 15, FreeAbove: 300,
		Bands: []fees.BandInput{{UpToKm: 20, Fee: 8}, {UpToKm: 30, Fee: 12}}}, w.Now); err != nil {
		return fmt.Errorf("demo: fees: %w", err)
	}
	free := 0.0
	if _, err := fees.SetException(ctx, tx, farm, w.Shops[0].ID, nil, &free, w.Now); err != nil {
		return fmt.Errorf("demo: fees: %w", err)
	}
	return nil
}
