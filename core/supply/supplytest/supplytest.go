// Package supplytest writes needs, orders, deliveries and delivery lines
// straight into the database for the tests and benchmarks of the supply
// projection, the way core/trade and core/delivery store them. It is
// imported by tests only (and by tools/e2eseed, the browser tests' seeder).
package supplytest

import (
	"context"
	"fmt"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/decimal"
	"primeur/core/store"
)

// TB is the part of testing.TB the writer uses: failures stop the test.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// World writes rows on one database or transaction.
type World struct {
	t   TB
	q   store.Q
	ctx context.Context
}

// New writes on q (a *store.DB or a transaction).
func New(t TB, q store.Q) *World {
	return &World{t: t, q: q, ctx: context.Background()}
}

func (w *World) exec(query string, args ...any) {
	w.t.Helper()
	if _, err := store.Exec(w.ctx, w.q, query, args...); err != nil {
		w.t.Fatalf("supplytest: %v\n%s", err, query)
	}
}

// Product adds a product to the catalogue, named after its id.
func (w *World) Product(id, unit string) {
	w.t.Helper()
	name := "Produit " + id
	w.exec(`INSERT INTO products (id, name, name_key, unit, share, ref_price, coefs) VALUES (?, ?, ?, ?, 0, 100, ?)`,
		id, name, strings.ToLower(name), unit, strings.TrimSuffix(strings.Repeat("1,", 12), ","))
}

// Need sets a shop's need for a product and month ("2026-11-01"), in
// hundredths of the unit, and returns its id.
func (w *World) Need(shopID, productID, month string, quantity decimal.Dec) string {
	w.t.Helper()
	var id string
	err := store.Get(w.ctx, w.q, &id, `INSERT INTO needs (id, distributor_id, product_id, month, quantity, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, 0, 0)
		ON CONFLICT (distributor_id, product_id, month) DO UPDATE SET quantity = excluded.quantity
		RETURNING id`, core.NewID(), shopID, productID, month, quantity)
	if err != nil {
		w.t.Fatalf("supplytest: need: %v", err)
	}
	return id
}

// needOf returns the shop's need for the product in the month, creating an
// empty one when there is none (a delivery line always points at a need).
func (w *World) needOf(shopID, productID, month string) string {
	w.t.Helper()
	var id string
	err := store.Get(w.ctx, w.q, &id, `SELECT id FROM needs WHERE distributor_id = ? AND product_id = ? AND month = ?`,
		shopID, productID, month)
	if store.IsNotFound(err) {
		return w.Need(shopID, productID, month, 0)
	}
	if err != nil {
		w.t.Fatalf("supplytest: need of: %v", err)
	}
	return id
}

// Line is one product of a delivery; Sent zero means not set.
type Line struct {
	Product  string
	Expected decimal.Dec
	Sent     decimal.Dec
}

// Delivery adds a delivery of a producer to a shop on date ("2026-11-19")
// with the given status and lines, in the order of the producer, shop and
// month (created when missing). It returns the delivery's id.
func (w *World) Delivery(producerID, shopID, date, status string, lines ...Line) string {
	w.t.Helper()
	month := date[:7] + "-01"
	var orderID string
	err := store.Get(w.ctx, w.q, &orderID, `SELECT id FROM orders WHERE producer_id = ? AND distributor_id = ? AND month = ?`,
		producerID, shopID, month)
	if store.IsNotFound(err) {
		orderID = core.NewID()
		w.exec(`INSERT INTO orders (id, producer_id, distributor_id, month, created_at, updated_at) VALUES (?, ?, ?, ?, 0, 0)`,
			orderID, producerID, shopID, month)
	} else if err != nil {
		w.t.Fatalf("supplytest: order: %v", err)
	}
	var chrono int64
	if err := store.Get(w.ctx, w.q, &chrono, `SELECT COALESCE(MAX(chrono), 0) + 1 FROM deliveries WHERE producer_id = ?`, producerID); err != nil {
		w.t.Fatalf("supplytest: chrono: %v", err)
	}
	id := core.NewID()
	w.exec(`INSERT INTO deliveries (id, order_id, producer_id, status, date, chrono, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, 0, 0)`, id, orderID, producerID, status, date, chrono)
	for _, l := range lines {
		var sent *decimal.Dec
		if l.Sent != 0 {
			sent = &l.Sent
		}
		w.exec(`INSERT INTO delivery_lines (id, delivery_id, need_id, product_id, price, quantity_expected, quantity_sent)
			VALUES (?, ?, ?, ?, 250, ?, ?)`, core.NewID(), id, w.needOf(shopID, l.Product, month), l.Product, l.Expected, sent)
	}
	return id
}

// String describes a line for failure messages.
func (l Line) String() string {
	return fmt.Sprintf("%s %v/%v", l.Product, l.Expected, l.Sent)
}

// Busy fills a shop's history for benchmarks: a need for every product and
// month from the month of from to the month of to, and deliveries from from
// to to (inclusive, "YYYY-MM-DD"): producer i delivers on weekdays i and
// i+3 (0 = Monday), each delivery carrying the products whose index is i
// modulo the number of producers. Deliveries before today are done, the
// others planned; every 25th is cancelled. It returns the number of
// delivery lines written.
func (w *World) Busy(shopID string, producers, products []string, from, to, today string) int {
	w.t.Helper()
	start, err1 := time.Parse(time.DateOnly, from)
	end, err2 := time.Parse(time.DateOnly, to)
	if err1 != nil || err2 != nil {
		w.t.Fatalf("supplytest: busy: bad dates %s %s", from, to)
	}
	for m := time.Date(start.Year(), start.Month(), 1, 0, 0, 0, 0, time.UTC); !m.After(end); m = m.AddDate(0, 1, 0) {
		for _, p := range products {
			w.Need(shopID, p, m.Format(time.DateOnly), 260_00)
		}
	}
	lines, n := 0, 0
	for d := start; !d.After(end); d = d.AddDate(0, 0, 1) {
		weekday := (int(d.Weekday()) + 6) % 7
		day := d.Format(time.DateOnly)
		for i, producer := range producers {
			if weekday != i%7 && weekday != (i+3)%7 {
				continue
			}
			status := "planned"
			if day < today {
				status = "done"
			}
			if n++; n%25 == 0 {
				status = "cancelled"
			}
			var ls []Line
			for k := i; k < len(products); k += len(producers) {
				ls = append(ls, Line{Product: products[k], Expected: decimal.Dec(300 + 50*(k%7)), Sent: decimal.Dec(300 + 40*(k%5))})
			}
			w.Delivery(producer, shopID, day, status, ls...)
			lines += len(ls)
		}
	}
	return lines
}
