package main

import (
	"context"
	"encoding/json"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/billing"
	"primeur/core/catalog"
	"primeur/core/store"
	"primeur/core/trade"
)

func encode(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // plain structs and slices
	}
	return string(b)
}

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
// its needs and trade through trade.Bulk, then the invoices composed from
// what trade wrote, the needs' events and the invoice counters.
func insertRegion(ctx context.Context, db *store.DB, w *world, g *region) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		// Accounts through the core bulk writer, which fills their map
		// positions (lat_e6, lon_e6) as every write of a profile does.
		users := append(g.shops[:len(g.shops):len(g.shops)], g.producers...)
		if err := accounts.InsertAll(ctx, tx, users); err != nil {
			return err
		}
		g.batch.Needs = g.needs
		written, err := trade.Bulk(ctx, tx, w.rules, g.batch)
		if err != nil {
			return err
		}
		g.written = written
		w.bill(g)
		if err := store.Insert(ctx, tx, "invoices", []string{"id", "order_id", "producer_id", "distributor_id", "month", "year", "seq",
			"number", "issued_at", "issue_date", "due_date", "seller", "buyer", "notes", "vat_rate", "vat_exempt", "total_ht",
			"total_vat", "total_ttc", "terms", "vat_regime", "discount", "discount_until", "sent_at"}, len(g.invoices), func(i int, v []any) {
			inv := g.invoices[i]
			copy(v, []any{inv.ID, inv.OrderID, inv.ProducerID, inv.DistributorID, inv.Month, inv.Year, inv.Seq, inv.Number,
				inv.IssuedAt.UnixMilli(), inv.IssueDate, inv.DueDate, encode(inv.Seller), encode(inv.Buyer), encode(inv.Notes),
				inv.VATRate, inv.VATExempt, int64(inv.TotalHT), int64(inv.TotalVAT), int64(inv.TotalTTC), encode(inv.Terms),
				inv.Regime(), inv.Discount, inv.DiscountUntil, inv.SentAt.UnixMilli()})
		}); err != nil {
			return err
		}
		type invLine struct {
			invoice string
			billing.Line
		}
		var ils []invLine
		for _, inv := range g.invoices {
			for _, l := range inv.Lines {
				ils = append(ils, invLine{inv.ID, l})
			}
		}
		if err := store.Insert(ctx, tx, "invoice_lines", []string{"invoice_id", "position", "chrono", "date", "product_id", "product",
			"unit", "quantity", "price", "amount"}, len(ils), func(i int, v []any) {
			l := ils[i]
			copy(v, []any{l.invoice, l.Position, l.Chrono, l.Date, l.ProductID, l.Product, l.Unit, int64(l.Quantity),
				int64(l.Price), int64(l.Amount)})
		}); err != nil {
			return err
		}
		if err := activity.RecordAll(ctx, tx, g.events); err != nil {
			return err
		}
		keys := make([]string, 0, len(g.counters))
		for k := range g.counters {
			keys = append(keys, k)
		}
		if err := store.Insert(ctx, tx, "counters", []string{"key", "value"}, len(keys), func(i int, v []any) {
			v[0], v[1] = keys[i], g.counters[keys[i]]
		}); err != nil {
			return err
		}
		// The credit notes of the accepted claims, issued by the core as
		// the invoice run or the shop's answer issued them, and emailed
		// then (seedPlatform): the claims job at the daemon's start finds
		// nothing to settle or send.
		for _, s := range g.settles {
			docs, err := billing.SettleOrder(ctx, tx, s.order, s.at, w.rules.Location)
			if err != nil {
				return err
			}
			g.credits += len(docs)
		}
		return nil
	})
}
