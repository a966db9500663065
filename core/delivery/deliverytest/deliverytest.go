// Package deliverytest builds orders, deliveries and lines for the tests of
// deliveries, claims, invoices and their documents: two parties with full
// profiles and rows written straight into the tables, so each test states
// exactly the deliveries it needs.
package deliverytest

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"primeur/core/accounts"
	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
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

// World is a test database with a producer and a shop.
type World struct {
	t    testing.TB
	ctx  context.Context
	DB   *store.DB
	Farm accounts.User
	Shop accounts.User
	now  time.Time
}

// New creates the producer "Ferme des Aravis" (VAT-registered) and the shop
// "Épicerie du Lac", both with complete profiles.
func New(t testing.TB, db *store.DB) *World {
	t.Helper()
	w := &World{t: t, ctx: context.Background(), DB: db, now: At(2026, 11, 2, 9, 0)}
	w.Farm = w.User(accounts.User{
		Type: accounts.Producer, Email: "ferme@aravis.fr", Name: "Ferme des Aravis", Legal: "EARL",
		Capital: "15000", SIRET: "12345678900012", TVAIntracom: "FR32123456789", APE: "0113Z",
		IBAN: "FR7630006000011234567890189", BIC: "AGRIFRPP882", Tel: "0450000000",
		AddressLine1: "12 route des Aravis", AddressLine2: "74220 La Clusaz", DeliveryDays: "1111111",
	})
	w.Shop = w.User(accounts.User{
		Type: accounts.Distributor, Email: "epicerie@lac.fr", Name: "Épicerie du Lac", Legal: "SARL",
		Capital: "8000", SIRET: "98765432100021", TVAIntracom: "FR45987654321", APE: "4721Z",
		AddressLine1: "3 quai de la Tournette", AddressLine2: "74000 Annecy",
		EmailAccounting: "compta@lac.fr", BillingAddressLine1: "BP 42", BillingAddressLine2: "74001 Annecy Cedex",
	})
	return w
}

// Between builds a world on existing accounts (registered through the API,
// say): farmID is the producer, shopID the shop.
func Between(t testing.TB, db *store.DB, farmID, shopID string) *World {
	t.Helper()
	w := &World{t: t, ctx: context.Background(), DB: db, now: At(2026, 11, 2, 9, 0)}
	var err error
	if w.Farm, err = accounts.ByID(w.ctx, db, farmID); err != nil {
		t.Fatalf("deliverytest: %v", err)
	}
	if w.Shop, err = accounts.ByID(w.ctx, db, shopID); err != nil {
		t.Fatalf("deliverytest: %v", err)
	}
	return w
}

var counter atomic.Int64

func next() int64 { return counter.Add(1) }

// User inserts a user; email, name and type must be set.
func (w *World) User(u accounts.User) accounts.User {
	w.t.Helper()
	if u.ID == "" {
		u.ID = fmt.Sprintf("user-%d-%s", next(), u.Email)
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
	if err := accounts.Insert(w.ctx, w.DB, u); err != nil {
		w.t.Fatalf("deliverytest: user: %v", err)
	}
	return u
}

// Exec runs a statement or fails the test.
func (w *World) Exec(q string, args ...any) {
	w.t.Helper()
	if _, err := store.Exec(w.ctx, w.DB, q, args...); err != nil {
		w.t.Fatalf("deliverytest: %s: %v", q, err)
	}
}

// Need returns the shop's need for a product and month, created if absent.
func (w *World) Need(shop accounts.User, product, month string) string {
	w.t.Helper()
	var id string
	err := store.Get(w.ctx, w.DB, &id, `SELECT id FROM needs WHERE distributor_id = ? AND product_id = ? AND month = ?`,
		shop.ID, product, month)
	if err == nil {
		return id
	}
	id = fmt.Sprintf("need-%d", next())
	w.Exec(`INSERT INTO needs (id, distributor_id, product_id, month, quantity, created_at, updated_at)
		VALUES (?, ?, ?, ?, 100000, 0, 0)`, id, shop.ID, product, month)
	return id
}

// Order inserts the order of farm to shop for a month ("2026-11-01").
func (w *World) Order(farm, shop accounts.User, month string) string {
	w.t.Helper()
	n := next()
	id := fmt.Sprintf("order-%d-%s", n, month)
	w.Exec(`INSERT INTO orders (id, producer_id, distributor_id, month, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
		id, farm.ID, shop.ID, month, n, n)
	return id
}

// L describes a line: product, unit price and expected quantity (in
// hundredths), and optionally the sent quantity.
type L struct {
	Product  string
	Price    decimal.Dec
	Expected decimal.Dec
	Sent     *decimal.Dec
}

// Dec is a pointer to d, for L.Sent.
func Dec(d decimal.Dec) *decimal.Dec { return &d }

// Delivery inserts a delivery of the order with its lines and returns its
// id. The chrono is the producer's next one.
func (w *World) Delivery(orderID, date, status string, lines ...L) string {
	w.t.Helper()
	var o orders.Order
	if err := store.Get(w.ctx, w.DB, &o, `SELECT id, producer_id, distributor_id, month, created_at, updated_at FROM orders WHERE id = ?`, orderID); err != nil {
		w.t.Fatalf("deliverytest: order: %v", err)
	}
	chrono, err := store.Next(w.ctx, w.DB, "chrono:"+o.ProducerID)
	if err != nil {
		w.t.Fatal(err)
	}
	id := fmt.Sprintf("delivery-%d-%s", next(), date)
	w.Exec(`INSERT INTO deliveries (id, order_id, producer_id, status, date, chrono, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, id, orderID, o.ProducerID, status, date, chrono, w.now.UnixMilli(), w.now.UnixMilli())
	shop := accounts.User{ID: o.DistributorID}
	for i, l := range lines {
		need := w.Need(shop, l.Product, o.Month)
		w.Exec(`INSERT INTO delivery_lines (id, delivery_id, need_id, product_id, price, quantity_expected, quantity_sent)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, fmt.Sprintf("%s-l%d", id, i+1), id, need, l.Product, l.Price, l.Expected, l.Sent)
	}
	return id
}

// Line returns the id of a delivery's line for a product.
func (w *World) Line(deliveryID, product string) string {
	w.t.Helper()
	var id string
	if err := store.Get(w.ctx, w.DB, &id, `SELECT id FROM delivery_lines WHERE delivery_id = ? AND product_id = ?`, deliveryID, product); err != nil {
		w.t.Fatalf("deliverytest: line: %v", err)
	}
	return id
}

// Get reads one delivery as stored.
func (w *World) Get(deliveryID string) orders.FullDelivery {
	w.t.Helper()
	var d orders.Delivery
	if err := store.Get(w.ctx, w.DB, &d, `SELECT id, order_id, producer_id, status, date, chrono, claim_status,
		claim_sent_at, claim_reviewed_at, note_sent_at, created_at, updated_at FROM deliveries WHERE id = ?`, deliveryID); err != nil {
		w.t.Fatalf("deliverytest: delivery: %v", err)
	}
	fd := orders.FullDelivery{Delivery: d}
	if err := store.Select(w.ctx, w.DB, &fd.Lines, `SELECT id, delivery_id, need_id, product_id, price, quantity_expected,
		quantity_sent, quantity_claimed, claim_type, claim_comment FROM delivery_lines WHERE delivery_id = ? ORDER BY product_id`, deliveryID); err != nil {
		w.t.Fatal(err)
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
		rows, err := w.DB.QueryContext(w.ctx, q)
		if err != nil {
			w.t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				w.t.Fatal(err)
			}
			out += fmt.Sprintln(vals...)
		}
		rows.Close()
	}
	return out
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
			t.Fatalf("deliverytest: database file: %v", err)
		}
		other, err = store.Open(ctx, "", rows[0].File)
	}
	if err != nil {
		t.Fatalf("deliverytest: second handle: %v", err)
	}
	t.Cleanup(func() { other.Close() })
	return other
}
