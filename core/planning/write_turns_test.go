package planning_test

import (
	"context"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/decimal"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestWritersOfAShopTakeTurns: Write inserts the needs it does not find,
// so two transactions writing the same new need of a shop at once must not
// both insert it. On PostgreSQL the second waits for the first (an
// advisory lock on the shop), then finds the need and updates it; each
// write's result says what it did. SQLite's write transactions already
// run one at a time. Without the lock the second transaction fails on the
// unique (shop, product, month).
func TestWritersOfAShopTakeTurns(t *testing.T) {
	db := storetest.Postgres(t)
	ctx := context.Background()
	f := setup(t, db)
	cell := func(q decimal.Dec) []planning.Cell {
		return []planning.Cell{{ProductID: "tomate", Month: "2027-01-01", Quantity: q}, {ProductID: "melon", Month: "2027-02-01", Quantity: q}}
	}
	first, err := db.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Rollback() //nolint:errcheck // committed below
	res, err := planning.Write(ctx, first, f.shop.ID, cell(decimal.FromInt(5)), now)
	if err != nil || res.Created != 2 {
		t.Fatalf("first write: %+v, %v", res, err)
	}
	// Another shop's writer does not wait.
	if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		_, err := planning.Write(ctx, tx, f.other.ID, cell(decimal.FromInt(3)), now)
		return err
	}); err != nil {
		t.Fatal(err)
	}

	type outcome struct {
		res planning.Result
		err error
	}
	second := make(chan outcome, 1)
	go func() {
		var o outcome
		o.err = db.Tx(ctx, func(tx *sqlx.Tx) error {
			o.res, o.err = planning.Write(ctx, tx, f.shop.ID, cell(decimal.FromInt(7)), now)
			return o.err
		})
		second <- o
	}()
	// The second writer waits for the first: for its lock on the shop, or
	// (without it) for its uncommitted needs, in the insert.
	for waiting := 0; waiting == 0; {
		if err := store.Get(ctx, db, &waiting, `SELECT COUNT(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
			WHERE NOT l.granted AND a.datname = current_database() AND (a.query LIKE '%planning.needs%' OR a.query LIKE 'COPY%needs%')`); err != nil {
			t.Fatal(err)
		}
		select {
		case o := <-second:
			t.Fatalf("the second writer did not wait: %+v, %v", o.res, o.err)
		default:
		}
	}
	if err := first.Commit(); err != nil {
		t.Fatal(err)
	}
	o := <-second
	if o.err != nil || o.res.Updated != 2 || o.res.Created != 0 {
		t.Fatalf("second write: %+v, %v", o.res, o.err)
	}
	for _, p := range []string{"tomate", "melon"} {
		var rows []decimal.Dec
		if err := store.Select(ctx, db, &rows, `SELECT quantity FROM needs WHERE distributor_id = ? AND product_id = ?`, f.shop.ID, p); err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 || rows[0] != decimal.FromInt(7) {
			t.Fatalf("%s: %v, want one need of 7", p, rows)
		}
	}
}
