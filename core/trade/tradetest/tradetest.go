// Package tradetest builds the trade that tests, benchmarks and the
// browser tests' seeders start from: parties with full profiles, needs,
// orders, and deliveries in any state on any date. Every delivery is
// written by trade.Bulk, the one writer of trade outside core/trade's
// operations: its lines are commitments of the producer on the shop's
// needs (accepted on the eve of the order's month), with the price sums, delivery-note numbers and events the
// operations keep, and its state goes through delivery.Rules.Settle. So a
// test states the deliveries it needs, and what it gets is a world the API
// and the jobs could have left.
package tradetest

import (
	"context"
	"fmt"
	"os"
	"strings"

	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
)

// Paris is the business time zone.
var Paris = mustParis()

func mustParis() *time.Location {
	loc, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		panic(err)
	}
	return loc
}

// At is a time in Paris.
func At(year int, month time.Month, day, hour, minute int) time.Time {
	return time.Date(year, month, day, hour, minute, 0, 0, Paris)
}

// TB is the part of testing.TB the world uses: failures stop the test (a
// seeder passes its own, which exits).
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// World writes trade on one database, or inside one transaction.
type World struct {
	t   TB
	ctx context.Context
	q   store.Q
	// DB is the database, nil for a world on a transaction.
	DB *store.DB
	// Farm and Shop are the parties of New and Between.
	Farm  accounts.User
	Shop  accounts.User
	Rules delivery.Rules
	now   time.Time
	// orders are the orders named by Order, by id.
	orders map[string]orderRef
	// own are the needs the world created itself, which it raises when a
	// delivery needs more; a need a test set (Need) is never changed.
	own map[needRef]bool
}

type orderRef struct{ producer, shop, month string }

type needRef struct{ shop, product, month string }

// OwnNeed is the quantity of a need the world creates for a delivery's
// line when the test set none: 1,000 (kg or pieces), more when the
// commitments need more.
const OwnNeed = decimal.Dec(1000_00)

func newWorld(t TB, q store.Q) *World {
	db, _ := q.(*store.DB)
	rules := delivery.DefaultRules()
	rules.Location = Paris
	return &World{t: t, ctx: context.Background(), q: q, DB: db, Rules: rules, now: At(2026, 11, 2, 9, 0),
		orders: map[string]orderRef{}, own: map[needRef]bool{}}
}

// New creates the producer "Ferme des Aravis" (VAT-registered, delivering
// every day) and the shop "Épicerie du Lac", both with complete profiles.
func New(t TB, db *store.DB) *World {
	t.Helper()
	w := newWorld(t, db)
	w.Farm = w.User(accounts.User{
		Type: accounts.Producer, Email: "ferme@aravis.fr", Name: "Ferme des Aravis", Legal: "EARL",
		Capital: "15000", SIRET: "12345678200010", TVAIntracom: "FR11123456782", APE: "0113Z",
		IBAN: "FR7630006000011234567890189", BIC: "AGRIFRPP882", Tel: "0450000000",
		AddressLine1: "12 route des Aravis", AddressLine2: "74220 La Clusaz", DeliveryDays: "1111111",
	})
	w.Shop = w.User(accounts.User{
		Type: accounts.Distributor, Email: "epicerie@lac.fr", Name: "Épicerie du Lac", Legal: "SARL",
		Capital: "8000", SIRET: "98765432400019", TVAIntracom: "FR14987654324", APE: "4721Z",
		AddressLine1: "3 quai de la Tournette", AddressLine2: "74000 Annecy",
		EmailAccounting: "compta@lac.fr", BillingAddressLine1: "BP 42", BillingAddressLine2: "74001 Annecy Cedex",
	})
	return w
}

// Between builds a world on existing accounts (registered through the API,
// say): farmID is the producer, shopID the shop.
func Between(t TB, db *store.DB, farmID, shopID string) *World {
	t.Helper()
	w := newWorld(t, db)
	var err error
	if w.Farm, err = accounts.ByID(w.ctx, db, farmID); err != nil {
		t.Fatalf("tradetest: %v", err)
	}
	if w.Shop, err = accounts.ByID(w.ctx, db, shopID); err != nil {
		t.Fatalf("tradetest: %v", err)
	}
	return w
}

// On builds a world without parties on q, a database or a transaction
// (the tests of the supply projection register their own).
func On(t TB, q store.Q) *World {
	return newWorld(t, q)
}

// newID is a fresh id: unique across processes, as the browser tests'
// seeder runs once per test on one data directory.
func newID(kind, suffix string) string {
	return kind + "-" + core.NewID() + "-" + suffix
}

// User inserts a user; email, name and type must be set.
func (w *World) User(u accounts.User) accounts.User {
	w.t.Helper()
	if u.ID == "" {
		u.ID = newID("user", u.Email)
	}
	u.EmailKey = accounts.EmailKey(u.Email)
	if u.DeliveryDays == "" {
		u.DeliveryDays = "0000000"
	}
	u.PasswordHash = "x"
	u.CreatedAt, u.UpdatedAt = w.now.UnixMilli(), w.now.UnixMilli()
	if u.IsProducer() {
		at := w.now.UnixMilli()
		u.BillingMandateAt = &at
	}
	if err := accounts.Insert(w.ctx, w.q, u); err != nil {
		w.t.Fatalf("tradetest: user: %v", err)
	}
	return u
}

// Exec runs a statement or fails the test.
func (w *World) Exec(q string, args ...any) {
	w.t.Helper()
	if _, err := store.Exec(w.ctx, w.q, q, args...); err != nil {
		w.t.Fatalf("tradetest: %s: %v", q, err)
	}
}

// inTx runs fn in a transaction of the world's database, or in the
// world's transaction.
func (w *World) inTx(fn func(q store.Q) error) error {
	if w.DB != nil {
		return w.DB.Tx(w.ctx, func(tx *sqlx.Tx) error { return fn(tx) })
	}
	return fn(w.q)
}

// Product adds a product to the catalogue, named after its id.
func (w *World) Product(id, unit string) {
	w.t.Helper()
	name := "Produit " + id
	w.Exec(`INSERT INTO products (id, name, name_key, unit, share, ref_price, coefs) VALUES (?, ?, ?, ?, 0, 100, ?)`,
		id, name, strings.ToLower(name), unit, strings.TrimSuffix(strings.Repeat("1,", 12), ","))
}

// monthStart is the first moment of a month ("2026-11-01") in Paris.
func monthStart(month string) time.Time {
	m, _ := calendar.ParseMonth(month)
	return m.Start(Paris)
}

// Need sets a shop's need of a product for a month ("2026-11-01"), in
// hundredths of the unit, through planning's write path, and returns its
// id. The world never changes it afterwards: deliveries beyond it fail.
func (w *World) Need(shopID, productID, month string, quantity decimal.Dec) string {
	w.t.Helper()
	delete(w.own, needRef{shopID, productID, month})
	return w.writeNeed(shopID, productID, month, quantity)
}

func (w *World) writeNeed(shopID, productID, month string, quantity decimal.Dec) string {
	w.t.Helper()
	var id string
	err := w.inTx(func(q store.Q) error {
		if _, err := planning.WriteAll(w.ctx, q, shopID, []planning.Cell{{ProductID: productID, Month: month, Quantity: quantity}}, monthStart(month)); err != nil {
			return err
		}
		return store.Get(w.ctx, q, &id, `SELECT id FROM needs WHERE distributor_id = ? AND product_id = ? AND month = ?`, shopID, productID, month)
	})
	if err != nil {
		w.t.Fatalf("tradetest: need of %s for %s in %s: %v", shopID, productID, month, err)
	}
	return id
}

// ensureNeed makes sure the shop's need of a product for a month holds
// more: the world creates it (OwnNeed, or more) when missing and raises
// the needs it created; a need the test set is left as it is.
func (w *World) ensureNeed(shopID, productID, month string, more decimal.Dec) {
	w.t.Helper()
	ref := needRef{shopID, productID, month}
	var n planning.Need
	err := store.Get(w.ctx, w.q, &n, `SELECT id, distributor_id, product_id, month, quantity, created_at, updated_at
		FROM needs WHERE distributor_id = ? AND product_id = ? AND month = ?`, shopID, productID, month)
	switch {
	case store.IsNotFound(err):
		w.writeNeed(shopID, productID, month, max(OwnNeed, more))
		w.own[ref] = true
	case err != nil:
		w.t.Fatalf("tradetest: need: %v", err)
	case w.own[ref]:
		_, ps, err := planning.Get(w.ctx, w.q, n.ID)
		if err != nil {
			w.t.Fatalf("tradetest: need: %v", err)
		}
		if want := planning.Reserved(ps) + more; want > n.Quantity {
			w.writeNeed(shopID, productID, month, want)
		}
	}
}

// Order names the order of farm to shop for a month ("2026-11-01"): its
// id, the order's own once a delivery is written to it.
func (w *World) Order(farm, shop accounts.User, month string) string {
	return w.OrderOf(farm.ID, shop.ID, month)
}

// OrderOf is Order by ids. The order of the same parties and month has
// one id.
func (w *World) OrderOf(producerID, shopID, month string) string {
	w.t.Helper()
	ref := orderRef{producerID, shopID, month}
	for id, o := range w.orders {
		if o == ref {
			return id
		}
	}
	var id string
	err := store.Get(w.ctx, w.q, &id, `SELECT id FROM orders WHERE producer_id = ? AND distributor_id = ? AND month = ?`,
		producerID, shopID, month)
	if store.IsNotFound(err) {
		id = newID("order", month)
	} else if err != nil {
		w.t.Fatalf("tradetest: order: %v", err)
	}
	w.orders[id] = ref
	return id
}

// L describes a line: product, unit price and expected quantity (in
// cents and hundredths), and optionally the quantity the shop noted as
// sent.
type L struct {
	Product  string
	Price    decimal.Dec
	Expected decimal.Dec
	Sent     *decimal.Dec
}

// Dec is a pointer to d, for L.Sent.
func Dec(d decimal.Dec) *decimal.Dec { return &d }

// Delivery writes a delivery of the order on date with its lines and
// returns its id: planned, done (locked at its lock time, lines without
// a sent quantity sent as expected) or cancelled by the shop; the sent
// quantities are the shop's, noted before the lock.
func (w *World) Delivery(orderID, date, status string, lines ...L) string {
	w.t.Helper()
	out := delivery.Outcome{Status: status}
	for _, l := range lines {
		if l.Sent != nil {
			if out.Sent == nil {
				out.Sent = map[string]decimal.Dec{}
			}
			out.Sent[l.Product] = *l.Sent
		}
	}
	return w.Settled(orderID, date, out, lines...)
}

// Emailed is Delivery of a done delivery whose note went out by email
// NoteDelay after its lock, as the deliveries job sends it.
func (w *World) Emailed(orderID, date string, lines ...L) string {
	w.t.Helper()
	out := delivery.Outcome{Status: orders.Done, NoteSentAt: w.Rules.LockTime(date).Add(delivery.NoteDelay)}
	for _, l := range lines {
		if l.Sent != nil {
			if out.Sent == nil {
				out.Sent = map[string]decimal.Dec{}
			}
			out.Sent[l.Product] = *l.Sent
		}
	}
	return w.Settled(orderID, date, out, lines...)
}

// Deliver is Delivery on the order of producer and shop for the date's
// month.
func (w *World) Deliver(producerID, shopID, date, status string, lines ...L) string {
	w.t.Helper()
	return w.Delivery(w.OrderOf(producerID, shopID, calendar.MonthKey(date)), date, status, lines...)
}

// Accepted is when the world's commitments for an order of month
// ("2026-11-01") are accepted: at 9:00 on the eve of the month, before any
// of its deliveries and before what a test does in the month.
func Accepted(month string) time.Time {
	return monthStart(month).AddDate(0, 0, -1).Add(9 * time.Hour)
}

// Settled writes a delivery of the order on date with its lines and what
// became of it (out.Sent is the lines' own), as trade.Bulk and
// delivery.Rules.Settle write them, and returns its id. The lines'
// quantities become commitments of the order's producer accepted at
// Accepted(month) — added to those already there.
func (w *World) Settled(orderID, date string, out delivery.Outcome, lines ...L) string {
	w.t.Helper()
	o, ok := w.orders[orderID]
	if !ok {
		w.t.Fatalf("tradetest: order %s was not named by Order", orderID)
	}
	at := Accepted(o.month)
	var cs []trade.Accepted
	for _, l := range lines {
		w.ensureNeed(o.shop, l.Product, o.month, l.Expected)
		cs = append(cs, trade.Accepted{ProductID: l.Product, Quantity: l.Expected, Price: l.Price})
	}
	var id string
	err := w.inTx(func(q store.Q) error {
		written, err := trade.Bulk(w.ctx, q, w.Rules, trade.Batch{Agreements: []trade.Agreement{{
			ProducerID: o.producer, ShopID: o.shop, Month: o.month, OrderID: orderID, At: at, Dates: []string{date},
			Commitments: cs, Outcome: func(int, orders.FullDelivery) delivery.Outcome { return out },
		}}})
		if err != nil {
			return err
		}
		if len(written[0].Deliveries) != 1 {
			return fmt.Errorf("%d deliveries written", len(written[0].Deliveries))
		}
		if written[0].ID != orderID {
			return fmt.Errorf("order %s written as %s", orderID, written[0].ID)
		}
		id = written[0].Deliveries[0].ID
		return nil
	})
	if err != nil {
		w.t.Fatalf("tradetest: delivery of %s on %s: %v", orderID, date, err)
	}
	return id
}

// Line returns the id of a delivery's line for a product.
func (w *World) Line(deliveryID, product string) string {
	w.t.Helper()
	var id string
	if err := store.Get(w.ctx, w.q, &id, `SELECT id FROM delivery_lines WHERE delivery_id = ? AND product_id = ?`, deliveryID, product); err != nil {
		w.t.Fatalf("tradetest: line: %v", err)
	}
	return id
}

// Get reads one delivery as stored.
func (w *World) Get(deliveryID string) orders.FullDelivery {
	w.t.Helper()
	var d orders.Delivery
	if err := store.Get(w.ctx, w.q, &d, `SELECT id, order_id, producer_id, status, date, chrono, claim_status,
		claim_sent_at, claim_reviewed_at, note_sent_at, created_at, updated_at FROM deliveries WHERE id = ?`, deliveryID); err != nil {
		w.t.Fatalf("tradetest: delivery: %v", err)
	}
	fd := orders.FullDelivery{Delivery: d}
	if err := store.Select(w.ctx, w.q, &fd.Lines, `SELECT id, delivery_id, need_id, product_id, price, quantity_expected,
		quantity_sent, quantity_claimed, claim_type, claim_comment FROM delivery_lines WHERE delivery_id = ? ORDER BY product_id`, deliveryID); err != nil {
		w.t.Fatalf("tradetest: lines: %v", err)
	}
	return fd
}

// Snapshot is the content of every table a delivery operation may write,
// for asserting that a refused operation changed nothing.
func (w *World) Snapshot() string {
	w.t.Helper()
	out := ""
	for _, q := range []string{
		`SELECT id, status, date, claim_status, COALESCE(claim_sent_at, -1), COALESCE(claim_reviewed_at, -1), COALESCE(note_sent_at, -1), updated_at FROM deliveries ORDER BY id`,
		`SELECT id, COALESCE(quantity_sent, -1), quantity_claimed, claim_type, claim_comment FROM delivery_lines ORDER BY id`,
		`SELECT COUNT(*) FROM events`,
		`SELECT COUNT(*) FROM invoices`,
	} {
		rows, err := w.q.QueryContext(w.ctx, q)
		if err != nil {
			w.t.Fatalf("tradetest: snapshot: %v", err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				w.t.Fatalf("tradetest: snapshot: %v", err)
			}
			out += fmt.Sprintln(vals...)
		}
		rows.Close()
	}
	return out
}

// Busy fills a shop's history for benchmarks: a need of 260 for every
// product and month from the month of from to the month of to, and
// deliveries from from to to (inclusive, "YYYY-MM-DD"): producer i
// delivers on weekdays i and i+3 (0 = Monday), each delivery carrying the
// products whose index is i modulo the number of producers, with a sent
// quantity. Deliveries before today are done, the others planned; every
// 25th is cancelled. It writes in one trade.Bulk and returns the number of
// delivery lines written.
func (w *World) Busy(shopID string, producers, products []string, from, to, today string) int {
	w.t.Helper()
	start, err1 := time.Parse(time.DateOnly, from)
	end, err2 := time.Parse(time.DateOnly, to)
	if err1 != nil || err2 != nil {
		w.t.Fatalf("tradetest: busy: bad dates %s %s", from, to)
	}
	var months []string
	for m := time.Date(start.Year(), start.Month(), 1, 0, 0, 0, 0, time.UTC); !m.After(end); m = m.AddDate(0, 1, 0) {
		months = append(months, m.Format(time.DateOnly))
	}
	err := w.inTx(func(q store.Q) error {
		for _, m := range months {
			cells := make([]planning.Cell, len(products))
			for i, p := range products {
				cells[i] = planning.Cell{ProductID: p, Month: m, Quantity: 260_00}
			}
			if _, err := planning.WriteAll(w.ctx, q, shopID, cells, monthStart(m)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		w.t.Fatalf("tradetest: busy: needs: %v", err)
	}

	// Each producer's dates of each month, and every delivery's status in
	// the order of days, then producers.
	dates := map[orderRef][]string{}
	status := map[string]string{} // producer|date
	n := 0
	for d := start; !d.After(end); d = d.AddDate(0, 0, 1) {
		weekday := (int(d.Weekday()) + 6) % 7
		day := d.Format(time.DateOnly)
		for i, producer := range producers {
			if weekday != i%7 && weekday != (i+3)%7 {
				continue
			}
			st := orders.Planned
			if day < today {
				st = orders.Done
			}
			if n++; n%25 == 0 {
				st = orders.Cancelled
			}
			ref := orderRef{producer, shopID, calendar.MonthKey(day)}
			dates[ref] = append(dates[ref], day)
			status[producer+"|"+day] = st
		}
	}
	var b trade.Batch
	lines := 0
	for _, m := range months {
		for i, producer := range producers {
			ds := dates[orderRef{producer, shopID, m}]
			if len(ds) == 0 {
				continue
			}
			var cs []trade.Accepted
			sent := map[string]decimal.Dec{}
			for k := i; k < len(products); k += len(producers) {
				cs = append(cs, trade.Accepted{ProductID: products[k], Quantity: decimal.Dec(300+50*(k%7)) * decimal.Dec(len(ds)), Price: 250})
				sent[products[k]] = decimal.Dec(300 + 40*(k%5))
			}
			if len(cs) == 0 {
				continue
			}
			lines += len(cs) * len(ds)
			b.Agreements = append(b.Agreements, trade.Agreement{
				ProducerID: producer, ShopID: shopID, Month: m, At: Accepted(m), Dates: ds, Commitments: cs,
				Outcome: func(_ int, d orders.FullDelivery) delivery.Outcome {
					return delivery.Outcome{Status: status[producer+"|"+d.Date], Sent: sent}
				},
			})
		}
	}
	if err := w.inTx(func(q store.Q) error { _, err := trade.Bulk(w.ctx, q, w.Rules, b); return err }); err != nil {
		w.t.Fatalf("tradetest: busy: %v", err)
	}
	return lines
}

// Handle opens another connection pool on the same database as db (the
// same SQLite file, or the same PostgreSQL schema), as a second process
// would, closed at the end of the test.
func Handle(t testing.TB, db *store.DB) *store.DB {
	t.Helper()
	ctx := context.Background()
	var other *store.DB
	var err error
	if db.Dialect == store.Postgres {
		var schema string
		if err := db.Get(&schema, "SELECT current_schema()"); err != nil {
			t.Fatal(err)
		}
		other, err = store.Open(ctx, storetest.WithSearchPath(t, os.Getenv(storetest.EnvURL), schema), "")
	} else {
		var rows []struct {
			Seq  int    `db:"seq"`
			Name string `db:"name"`
			File string `db:"file"`
		}
		if err := db.Select(&rows, "PRAGMA database_list"); err != nil || len(rows) == 0 {
			t.Fatalf("tradetest: database file: %v", err)
		}
		other, err = store.Open(ctx, "", rows[0].File)
	}
	if err != nil {
		t.Fatalf("tradetest: second handle: %v", err)
	}
	t.Cleanup(func() { other.Close() })
	return other
}
