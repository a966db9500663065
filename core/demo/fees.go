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
// farthest, a minimum of 100 €. Set after the trade, before the
// deliveries are locked and billed: the deliveries agreed before keep
// their amounts (the minimum applies to the changes to come), the
// invoices of the months over carry the fees, and the proposals waiting
// show the terms.
func seedFees(ctx context.Context, tx *sqlx.Tx, _ *store.DB, w *World) error {
	farm := w.Producers[0].ID
	if _, err := fees.Set(ctx, tx, farm, fees.Input{Minimum: 60, Fee: 15, FreeAbove: 300,
		Bands: []fees.BandInput{{UpToKm: 20, Fee: 8}, {UpToKm: 30, Fee: 12}}}, w.Now); err != nil {
		return fmt.Errorf("demo: fees: %w", err)
	}
	free, hundred := 0.0, 100.0
	if _, err := fees.SetException(ctx, tx, farm, w.Shops[0].ID, nil, &free, w.Now); err != nil {
		return fmt.Errorf("demo: fees: %w", err)
	}
	if _, err := fees.SetException(ctx, tx, farm, w.Shops[2].ID, &hundred, nil, w.Now); err != nil {
		return fmt.Errorf("demo: fees: %w", err)
	}
	return nil
}
