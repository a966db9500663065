package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"primeur/core/billing"
	"primeur/core/catalog"
	"primeur/core/store"
)

// bulk inserts rows in one transaction: COPY on PostgreSQL, multi-row
// INSERT statements on SQLite.
type bulk struct {
	ctx context.Context
	tx  *sqlx.Tx
	pg  bool
}

// sqliteRows is how many rows one SQLite INSERT carries (at most 32,766
// parameters per statement).
const sqliteParams = 30_000

// insert writes n rows of table; row fills the values of row i in column
// order into dst.
func (b *bulk) insert(table string, cols []string, n int, row func(i int, dst []any)) error {
	if n == 0 {
		return nil
	}
	vals := make([]any, len(cols))
	if b.pg {
		stmt, err := b.tx.PrepareContext(b.ctx, pq.CopyIn(table, cols...))
		if err != nil {
			return fmt.Errorf("copy %s: %w", table, err)
		}
		defer stmt.Close()
		for i := range n {
			row(i, vals)
			if _, err := stmt.ExecContext(b.ctx, vals...); err != nil {
				return fmt.Errorf("copy %s: %w", table, err)
			}
		}
		if _, err := stmt.ExecContext(b.ctx); err != nil {
			return fmt.Errorf("copy %s: %w", table, err)
		}
		return nil
	}
	per := min(500, sqliteParams/len(cols))
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	statement := func(rows int) string {
		return "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES " +
			strings.TrimSuffix(strings.Repeat(one+", ", rows), ", ")
	}
	full, err := b.tx.PrepareContext(b.ctx, statement(per))
	if err != nil {
		return fmt.Errorf("insert %s: %w", table, err)
	}
	defer full.Close()
	args := make([]any, 0, per*len(cols))
	for start := 0; start < n; start += per {
		rows := min(per, n-start)
		args = args[:0]
		for i := start; i < start+rows; i++ {
			row(i, vals)
			args = append(args, vals...)
		}
		if rows == per {
			_, err = full.ExecContext(b.ctx, args...)
		} else {
			_, err = b.tx.ExecContext(b.ctx, statement(rows), args...)
		}
		if err != nil {
			return fmt.Errorf("insert %s: %w", table, err)
		}
	}
	return nil
}

func nullable(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

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
		b := &bulk{ctx: ctx, tx: tx, pg: db.Dialect == store.Postgres}
		return b.insert("products", []string{"id", "name", "name_key", "unit", "share", "ref_price", "coefs"}, len(ps),
			func(i int, v []any) {
				p := ps[i]
				v[0], v[1], v[2], v[3], v[4], v[5], v[6] = p.ID, p.Name, p.NameKey, p.Unit, p.Share, int64(p.RefPrice), p.CoefsRaw
			})
	})
}

// insertRegion writes a region in one transaction, parents first.
func insertRegion(ctx context.Context, db *store.DB, g *region) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		b := &bulk{ctx: ctx, tx: tx, pg: db.Dialect == store.Postgres}
		users := append(g.shops[:len(g.shops):len(g.shops)], g.producers...)
		if err := b.insert("users", []string{"id", "type", "email", "email_key", "name", "password_hash", "capital", "bic",
			"ape", "iban", "siret", "tel", "tvaintracom", "address_line1", "address_line2", "address_line3", "latitude",
			"longitude", "certification", "legal", "delivery_days", "email_accounting", "billing_address_line1",
			"billing_address_line2", "billing_address_line3", "billing_mandate_at", "created_at", "updated_at"}, len(users),
			func(i int, v []any) {
				u := users[i]
				copy(v, []any{u.ID, u.Type, u.Email, u.EmailKey, u.Name, u.PasswordHash, u.Capital, u.BIC, u.APE, u.IBAN,
					u.SIRET, u.Tel, u.TVAIntracom, u.AddressLine1, u.AddressLine2, u.AddressLine3, u.Latitude, u.Longitude,
					u.Certification, u.Legal, u.DeliveryDays, u.EmailAccounting, u.BillingAddressLine1,
					u.BillingAddressLine2, u.BillingAddressLine3, nullable(u.BillingMandateAt), u.CreatedAt, u.UpdatedAt})
			}); err != nil {
			return err
		}
		if err := b.insert("needs", []string{"id", "distributor_id", "product_id", "month", "quantity", "created_at", "updated_at"},
			len(g.needs), func(i int, v []any) {
				n := g.needs[i]
				copy(v, []any{n.ID, n.DistributorID, n.ProductID, n.Month, int64(n.Quantity), n.CreatedAt, n.UpdatedAt})
			}); err != nil {
			return err
		}
		if err := b.insert("proposals", []string{"id", "need_id", "producer_id", "status", "origin", "quantity", "price",
			"created_at", "updated_at"}, len(g.proposals), func(i int, v []any) {
			p := g.proposals[i]
			copy(v, []any{p.ID, p.NeedID, p.Producer, p.Status, p.From, int64(p.Quantity), int64(p.Price), p.CreatedAt, p.UpdatedAt})
		}); err != nil {
			return err
		}
		if err := b.insert("orders", []string{"id", "producer_id", "distributor_id", "month", "created_at", "updated_at"},
			len(g.orders), func(i int, v []any) {
				o := g.orders[i]
				copy(v, []any{o.ID, o.ProducerID, o.DistributorID, o.Month, o.CreatedAt, o.UpdatedAt})
			}); err != nil {
			return err
		}
		if err := b.insert("deliveries", []string{"id", "order_id", "producer_id", "status", "date", "chrono", "claim_status",
			"claim_sent_at", "claim_reviewed_at", "note_sent_at", "created_at", "updated_at"}, len(g.deliveries),
			func(i int, v []any) {
				d := g.deliveries[i]
				copy(v, []any{d.ID, d.OrderID, d.ProducerID, d.Status, d.Date, d.Chrono, d.ClaimStatus, nullable(d.ClaimSentAt),
					nullable(d.ClaimReviewedAt), nullable(d.NoteSentAt), d.CreatedAt, d.UpdatedAt})
			}); err != nil {
			return err
		}
		if err := b.insert("delivery_lines", []string{"id", "delivery_id", "need_id", "product_id", "price", "quantity_expected",
			"quantity_sent", "quantity_claimed", "claim_type", "claim_comment"}, len(g.lines), func(i int, v []any) {
			l := g.lines[i]
			var sent any
			if l.QuantitySent != nil {
				sent = int64(*l.QuantitySent)
			}
			copy(v, []any{l.ID, l.DeliveryID, l.NeedID, l.ProductID, int64(l.Price), int64(l.QuantityExpected), sent,
				int64(l.QuantityClaimed), l.ClaimType, l.ClaimComment})
		}); err != nil {
			return err
		}
		if err := b.insert("invoices", []string{"id", "order_id", "producer_id", "distributor_id", "month", "year", "seq",
			"number", "issued_at", "issue_date", "due_date", "seller", "buyer", "notes", "vat_rate", "vat_exempt", "total_ht",
			"total_vat", "total_ttc", "terms", "sent_at"}, len(g.invoices), func(i int, v []any) {
			inv := g.invoices[i]
			copy(v, []any{inv.ID, inv.OrderID, inv.ProducerID, inv.DistributorID, inv.Month, inv.Year, inv.Seq, inv.Number,
				inv.IssuedAt.UnixMilli(), inv.IssueDate, inv.DueDate, encode(inv.Seller), encode(inv.Buyer), encode(inv.Notes),
				inv.VATRate, inv.VATExempt, int64(inv.TotalHT), int64(inv.TotalVAT), int64(inv.TotalTTC), encode(inv.Terms),
				inv.SentAt.UnixMilli()})
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
		if err := b.insert("invoice_lines", []string{"invoice_id", "position", "chrono", "date", "product_id", "product",
			"unit", "quantity", "price", "amount"}, len(ils), func(i int, v []any) {
			l := ils[i]
			copy(v, []any{l.invoice, l.Position, l.Chrono, l.Date, l.ProductID, l.Product, l.Unit, int64(l.Quantity),
				int64(l.Price), int64(l.Amount)})
		}); err != nil {
			return err
		}
		if err := b.insert("events", []string{"id", "created_at", "type", "data", "origin_id", "target_id"}, len(g.events),
			func(i int, v []any) {
				e := g.events[i]
				var target any
				if e.TargetID != "" {
					target = e.TargetID
				}
				copy(v, []any{e.ID, e.CreatedAt.UnixMilli(), e.Type, encode(e.Data), e.OriginID, target})
			}); err != nil {
			return err
		}
		keys := make([]string, 0, len(g.counters))
		for k := range g.counters {
			keys = append(keys, k)
		}
		return b.insert("counters", []string{"key", "value"}, len(keys), func(i int, v []any) {
			v[0], v[1] = keys[i], g.counters[keys[i]]
		})
	})
}
