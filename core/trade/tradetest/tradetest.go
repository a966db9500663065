// Package tradetest builds the trade that tests, benchmarks and the
// browser tests' seeders start from: parties with full profiles, needs,
// orders, and deliveries in any state on any date. Every one is written by
// the operations the API and the jobs run — planning's write path,
// trade.Propose and trade.Review, the deliveries' Update, Cancel, LockDueIn,
// SendClaim and Review — each at the time it happened (their now), so a
// test states the deliveries it needs, and what it gets is a world the API
// and the jobs left.
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
		BillingAddressLine1: "BP 42", BillingAddressLine2: "74001 Annecy Cedex",
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
		if u.IsProducer() {
			u.DeliveryDays = "1111111" // trade refuses a producer without delivery days
		}
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
		var err error
		id, err = w.writeNeedIn(q, shopID, productID, month, quantity, monthStart(month))
		return err
	})
	if err != nil {
		w.t.Fatalf("tradetest: need of %s for %s in %s: %v", shopID, productID, month, err)
	}
	return id
}

// writeNeedIn sets a need through planning's write path on q at now.
func (w *World) writeNeedIn(q store.Q, shopID, productID, month string, quantity decimal.Dec, now time.Time) (string, error) {
	if _, err := planning.WriteAll(w.ctx, q, shopID, []planning.Cell{{ProductID: productID, Month: month, Quantity: quantity}}, now); err != nil {
		return "", err
	}
	var id string
	err := store.Get(w.ctx, q, &id, `SELECT id FROM needs WHERE distributor_id = ? AND product_id = ? AND month = ?`, shopID, productID, month)
	return id, err
}

// needFor makes sure that the shop's need of a product for a month may
// hold a commitment of total by producer, and returns its id: the world
// creates the need (OwnNeed, or more) when missing and raises the needs it
// created, at; a need the test set is left as it is.
func (w *World) needFor(q store.Q, producerID, shopID, productID, month string, total decimal.Dec, at time.Time) (string, error) {
	ref := needRef{shopID, productID, month}
	var n planning.Need
	err := store.Get(w.ctx, q, &n, `SELECT id, distributor_id, product_id, month, quantity, created_at, updated_at
		FROM needs WHERE distributor_id = ? AND product_id = ? AND month = ?`, shopID, productID, month)
	switch {
	case store.IsNotFound(err):
		w.own[ref] = true
		return w.writeNeedIn(q, shopID, productID, month, max(OwnNeed, total), at)
	case err != nil:
		return "", fmt.Errorf("need: %w", err)
	case w.own[ref]:
		_, ps, err := planning.Get(w.ctx, q, n.ID)
		if err != nil {
			return "", fmt.Errorf("need: %w", err)
		}
		var others []planning.Proposal
		for _, p := range ps {
			if p.Producer != producerID {
				others = append(others, p)
			}
		}
		if want := planning.Reserved(others) + total; want > n.Quantity {
			return w.writeNeedIn(q, shopID, productID, month, want, at)
		}
	}
	return n.ID, nil
}

// Order names the order of farm to shop for a month ("2026-11-01"): its
// id, the order's own once a delivery is written to it.
func (w *World) Order(farm, shop accounts.User, month string) string {
	return w.OrderOf(farm.ID, shop.ID, month)
}

// OrderOf is Order by ids. The order of the same parties and month has
// one id: trade.EnsureOrder creates it, on the eve of the month, when
// missing — after giving the producer every day as its delivery days when
// it has none, as trade refuses a producer without. An order named stays
// empty until a delivery is written to it; a re-plan of an empty order
// deletes it (the producer's change of delivery days does).
func (w *World) OrderOf(producerID, shopID, month string) string {
	w.t.Helper()
	ref := orderRef{producerID, shopID, month}
	for id, o := range w.orders {
		if o == ref {
			return id
		}
	}
	var id string
	err := w.inTx(func(q store.Q) error {
		producer, err := accounts.ByID(w.ctx, q, producerID)
		if err != nil {
			return err
		}
		if !producer.HasDeliveryDays() {
			// Trade refuses a producer without delivery days: it takes
			// every day first, in its profile (before the order exists,
			// which a re-plan would delete while it is empty).
			every := []bool{true, true, true, true, true, true, true}
			if _, err = trade.UpdateProfile(w.ctx, q, producerID, accounts.ProfileUpdate{DefaultDeliveryDays: every},
				Accepted(month).Add(-time.Hour)); err != nil {
				return err
			}
		}
		id, err = trade.EnsureOrder(w.ctx, q, producerID, shopID, month, Accepted(month))
		return err
	})
	if err != nil {
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
	out := Outcome{Status: status}
	for _, l := range lines {
		if l.Sent != nil {
			if out.Sent == nil {
				out.Sent = map[string]decimal.Dec{}
			}
			out.Sent[l.Product] = *l.Sent
		}
	}
	return w.Played(orderID, date, out, lines...)
}

// Emailed is Delivery of a done delivery whose note went out by email
// NoteDelay after its lock, as the deliveries job sends it.
func (w *World) Emailed(orderID, date string, lines ...L) string {
	w.t.Helper()
	out := Outcome{Status: orders.Done, NoteSentAt: w.Rules.LockTime(date).Add(delivery.NoteDelay)}
	for _, l := range lines {
		if l.Sent != nil {
			if out.Sent == nil {
				out.Sent = map[string]decimal.Dec{}
			}
			out.Sent[l.Product] = *l.Sent
		}
	}
	return w.Played(orderID, date, out, lines...)
}

// Deliver is Delivery on the order of producer and shop for the date's
// month.
func (w *World) Deliver(producerID, shopID, date, status string, lines ...L) string {
	w.t.Helper()
	return w.Delivery(w.OrderOf(producerID, shopID, calendar.MonthKey(date)), date, status, lines...)
}

// Accepted is when the world's first agreement for an order of month
// ("2026-11-01") is made: at 9:00 on the eve of the month, before any of
// its deliveries and before what a test does in the month.
func Accepted(month string) time.Time {
	return monthStart(month).AddDate(0, 0, -1).Add(9 * time.Hour)
}

// Played writes a delivery of the order on date with its lines and what
// became of it (out.Sent is the lines' own), and returns its id. The
// lines' quantities become commitments of the order's producer, accepted
// by the shop
// on the eve of the month or on the day of the order's last planned
// delivery, and out is played by the deliveries' operations (see
// player.deliver and player.settle).
func (w *World) Played(orderID, date string, out Outcome, lines ...L) string {
	w.t.Helper()
	o, ok := w.orders[orderID]
	if !ok {
		w.t.Fatalf("tradetest: order %s was not named by Order", orderID)
	}
	var id string
	err := w.inTx(func(q store.Q) error {
		p := player{ctx: w.ctx, q: q, rules: w.Rules}
		producer, err := accounts.ByID(w.ctx, q, o.producer)
		if err != nil {
			return err
		}
		shop, err := accounts.ByID(w.ctx, q, o.shop)
		if err != nil {
			return err
		}
		var at time.Time
		id, at, err = p.deliver(orderID, producer, shop, o.month, date, lines, func(product string, total decimal.Dec) (string, error) {
			return w.needFor(q, o.producer, o.shop, product, o.month, total, Accepted(o.month))
		})
		if err != nil {
			return err
		}
		return p.settle(orderID, id, date, producer, shop, out, at)
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
	if err := store.Get(w.ctx, w.q, &d, `SELECT id, order_id, producer_id, status, date, chrono, claim_status, claim_by,
		claim_sent_at, claim_reviewed_at, (SELECT s.sent_at FROM sends s WHERE s.message_key = 'note-' || deliveries.id) AS note_sent_at,
		created_at, updated_at FROM deliveries WHERE id = ?`, deliveryID); err != nil {
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
		`SELECT id, status, date, claim_status, COALESCE(claim_sent_at, -1), COALESCE(claim_reviewed_at, -1), COALESCE((SELECT s.sent_at FROM sends s WHERE s.message_key = 'note-' || deliveries.id), -1), updated_at FROM deliveries ORDER BY id`,
		`SELECT id, COALESCE(quantity_sent, -1), quantity_claimed, claim_type, claim_comment FROM delivery_lines ORDER BY id`,
		`SELECT COUNT(*) FROM events`,
		`SELECT COUNT(*) FROM documents`,
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
// delivers on weekdays i and i+3 (0 = Monday; its delivery days are set
// so by trade.UpdateProfile when they differ), each delivery carrying the
// products whose index is i modulo the number of producers, with a sent
// quantity. Each month's commitments are accepted on its eve (the first
// month's on the eve of from) and trade plans the deliveries; the shop
// notes the sent quantities and cancels every 25th delivery; those before
// today are locked (LockDueIn). It returns the number of delivery lines
// written.
func (w *World) Busy(shopID string, producers, products []string, from, to, today string) int {
	w.t.Helper()
	start, ok1 := calendar.ParseDate(from)
	end, ok2 := calendar.ParseDate(to)
	day, ok3 := calendar.ParseDate(today)
	if !ok1 || !ok2 || !ok3 {
		w.t.Fatalf("tradetest: busy: bad dates %s %s %s", from, to, today)
	}
	lines := 0
	err := w.inTx(func(q store.Q) error {
		p := player{ctx: w.ctx, q: q, rules: w.Rules}
		shop, err := accounts.ByID(w.ctx, q, shopID)
		if err != nil {
			return err
		}
		farms := make([]accounts.User, len(producers))
		for i, id := range producers {
			var days [7]bool
			days[i%7], days[(i+3)%7] = true, true
			if farms[i], err = accounts.ByID(w.ctx, q, id); err != nil {
				return err
			}
			if farms[i].Days() != days {
				if farms[i], err = trade.UpdateProfile(w.ctx, q, id, accounts.ProfileUpdate{DefaultDeliveryDays: days[:]}, start.AddDays(-1).At(8*time.Hour, w.Rules.Location)); err != nil {
					return fmt.Errorf("days of %s: %w", id, err)
				}
			}
		}
		n := 0
		for m := start.Month(); m <= end.Month(); m++ {
			month := m.String()
			at := Accepted(month)
			if m == start.Month() {
				at = start.AddDays(-1).At(9*time.Hour, w.Rules.Location)
			}
			cells := make([]planning.Cell, len(products))
			for i, id := range products {
				cells[i] = planning.Cell{ProductID: id, Month: month, Quantity: 260_00}
			}
			if _, err := planning.WriteAll(w.ctx, q, shopID, cells, at.Add(-time.Hour)); err != nil {
				return fmt.Errorf("needs: %w", err)
			}
			needs := map[string]string{}
			var rows []struct {
				ID      string `db:"id"`
				Product string `db:"product_id"`
			}
			if err := store.Select(w.ctx, q, &rows, `SELECT id, product_id FROM needs WHERE distributor_id = ? AND month = ?`, shopID, month); err != nil {
				return err
			}
			for _, r := range rows {
				needs[r.Product] = r.ID
			}
			for i, farm := range farms {
				dates := trade.Schedule(month, farm.Days(), at)
				for len(dates) > 0 && dates[len(dates)-1] > end.String() {
					dates = dates[:len(dates)-1]
				}
				if len(dates) == 0 || calendar.MonthKey(dates[len(dates)-1]) != month {
					continue
				}
				sent := map[string]decimal.Dec{}
				for k := i; k < len(products); k += len(producers) {
					qty := decimal.Dec(300+50*(k%7)) * decimal.Dec(len(dates))
					if err := p.commit(farm, shop, needs[products[k]], qty, 250, at); err != nil {
						return fmt.Errorf("%s: %w", products[k], err)
					}
					sent[products[k]] = decimal.Dec(300 + 40*(k%5))
					lines += len(dates)
				}
				if len(sent) == 0 {
					continue
				}
				f, err := orders.Get(w.ctx, q, w.orderIn(q, farm.ID, shopID, month))
				if err != nil {
					return err
				}
				for _, d := range f.Deliveries {
					var c delivery.Change
					for _, l := range d.Lines {
						v := sent[l.ProductID].Float()
						c.Lines = append(c.Lines, delivery.LineSent{ID: l.ID, QuantitySent: &v})
					}
					if _, err := w.Rules.Update(w.ctx, q, shopID, f.ID, d.ID, c, at); err != nil {
						return fmt.Errorf("sent: %w", err)
					}
				}
			}
			// Every 25th delivery, in the order of days then producers,
			// cancelled.
			var ds []struct {
				ID    string `db:"id"`
				Order string `db:"order_id"`
			}
			if err := store.Select(w.ctx, q, &ds, `SELECT d.id, d.order_id FROM deliveries d JOIN orders o ON o.id = d.order_id
				WHERE o.distributor_id = ? AND o.month = ? ORDER BY d.date, d.producer_id`, shopID, month); err != nil {
				return err
			}
			for _, d := range ds {
				if n++; n%25 == 0 {
					if _, err := w.Rules.Cancel(w.ctx, q, shopID, d.Order, d.ID, at); err != nil {
						return fmt.Errorf("cancel: %w", err)
					}
				}
			}
		}
		_, err = w.Rules.LockDueIn(w.ctx, q, day.At(0, w.Rules.Location))
		return err
	})
	if err != nil {
		w.t.Fatalf("tradetest: busy: %v", err)
	}
	return lines
}

// orderIn is the id of the order of producer to shop for month, "" when
// none.
func (w *World) orderIn(q store.Q, producerID, shopID, month string) string {
	var id string
	_ = store.Get(w.ctx, q, &id, `SELECT id FROM orders WHERE producer_id = ? AND distributor_id = ? AND month = ?`, producerID, shopID, month)
	return id
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
