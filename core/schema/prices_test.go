package schema_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestPriceSumsMigration: migration 10 fills the price sums of 00009 from
// the commitments already accepted, each in its month of acceptance in
// Paris time (00:30 on 1 November in Paris is still October in UTC);
// proposals not accepted, and commitments of quantity 0, do not count.
func TestPriceSumsMigration(t *testing.T) {
	storetest.EachEmpty(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := schema.MigrateTo(ctx, db, 9); err != nil {
			t.Fatal(err)
		}
		paris, err := time.LoadLocation("Europe/Paris")
		if err != nil {
			t.Fatal(err)
		}
		november := time.Date(2026, 11, 1, 0, 30, 0, 0, paris).UnixMilli()
		october := time.Date(2026, 10, 12, 9, 0, 0, 0, paris).UnixMilli()
		for _, q := range []struct {
			query string
			args  []any
		}{
			{`INSERT INTO users (id, type, email, email_key, name, password_hash, created_at, updated_at)
				VALUES ('shop', 'distributor', 's@x.fr', 's@x.fr', 'S', '-', 0, 0), ('farm', 'producer', 'f@x.fr', 'f@x.fr', 'F', '-', 0, 0),
				('rival', 'producer', 'r@x.fr', 'r@x.fr', 'R', '-', 0, 0)`, nil},
			{`INSERT INTO needs (id, distributor_id, product_id, month, quantity, created_at, updated_at)
				VALUES ('n1', 'shop', 'tomate', '2026-12-01', 50000, 0, 0), ('n2', 'shop', 'tomate', '2027-01-01', 50000, 0, 0)`, nil},
			{`INSERT INTO proposals (id, need_id, producer_id, status, origin, quantity, price, created_at, updated_at) VALUES
				('a', 'n1', 'farm', 'accepted', 'producer', 10000, 200, 0, ?),
				('b', 'n2', 'farm', 'accepted', 'producer', 5000, 300, 0, ?),
				('c', 'n1', 'rival', 'accepted', 'producer', 0, 900, 0, ?),
				('d', 'n1', 'rival', 'proposed', 'producer', 2000, 900, 0, ?)`, []any{november, october, november, november}},
		} {
			if _, err := store.Exec(ctx, db, q.query, q.args...); err != nil {
				t.Fatal(err)
			}
		}
		// Migration 38 replaced price_months (the price privacy): read at 10.
		if _, err := schema.MigrateTo(ctx, db, 10); err != nil {
			t.Fatal(err)
		}
		var rows []struct {
			Product  string `db:"product_id"`
			Month    string `db:"month"`
			Amount   int64  `db:"amount"`
			Quantity int64  `db:"quantity"`
		}
		if err := store.Select(ctx, db, &rows, `SELECT product_id, month, amount, quantity FROM price_months ORDER BY month`); err != nil {
			t.Fatal(err)
		}
		if got, want := fmt.Sprint(rows), "[{tomate 2026-10-01 1500000 5000} {tomate 2026-11-01 2000000 10000}]"; got != want {
			t.Fatalf("price sums %s, want %s", got, want)
		}
	})
}
