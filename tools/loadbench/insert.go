package main

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/catalog"
	"primeur/core/store"
	"primeur/core/trade/tradetest"
)

// insertProducts adds the synthetic products to the catalogue.
func insertProducts(ctx context.Context, db *store.DB, ps []catalog.Product) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		return store.Insert(ctx, tx, "products", []string{"id", "name", "name_key", "unit", "share", "ref_price", "coefs"}, len(ps),
			func(i int, v []any) {
				p := ps[i]
				v[0], v[1], v[2], v[3], v[4], v[5], v[6] = p.ID, p.Name, p.NameKey, p.Unit, p.Share, int64(p.RefPrice), p.CoefsRaw
			})
	})
}

// insertRegion writes a region in one transaction: its accounts in bulk,
// its needs and trade through the operations (tradetest.Play), the needs'
// events, then the invoices of the months over as the monthly run issues
// them (billing.Issue, with the credit notes of the accepted claims).
func insertRegion(ctx context.Context, db *store.DB, w *world, g *region) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		// Accounts through the core bulk writer, which fills their map
		// positions (lat_e6, lon_e6) as every write of a profile does.
		users := append(g.shops[:len(g.shops):len(g.shops)], g.producers...)
		if err := accounts.InsertAll(ctx, tx, users); err != nil {
			return err
		}
		g.batch.Needs = g.needs
		written, err := tradetest.Play(ctx, tx, w.rules, g.batch)
		if err != nil {
			return err
		}
		g.written = written
		// The round-trips' needs as written (their ids are planning's).
		for i, t := range g.trips {
			if err := store.Get(ctx, tx, &g.trips[i].NeedID, `SELECT id FROM needs WHERE distributor_id = ? AND product_id = ? AND month = ?`,
				t.shopID, t.productID, t.month); err != nil {
				return fmt.Errorf("the need of round-trip %d: %w", i, err)
			}
		}
		if err := activity.RecordAll(ctx, tx, g.events); err != nil {
			return err
		}
		return w.bill(ctx, tx, g)
	})
}
