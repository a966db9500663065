package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/decimal"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestUpsert: rows inserted or, on a conflict, updated, in one statement
// on PostgreSQL and in chunks on SQLite, in any number, inside a
// transaction or not, with integers given as int, int64 or a Valuer; a
// value of the wrong type is refused and writes nothing.
func TestUpsert(t *testing.T) {
	cols := []store.Column{{Name: "key", Type: "text"}, {Name: "value", Type: "bigint"}}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		write := func(q store.Q, n, offset int, value func(i int) any) error {
			return store.Upsert(ctx, q, "counters", cols, []string{"key"}, []string{"value"}, n, func(i int, v []any) {
				v[0], v[1] = fmt.Sprintf("k-%05d", i+offset), value(i)
			})
		}
		read := func() map[string]int64 {
			var rows []struct {
				Key   string `db:"key"`
				Value int64  `db:"value"`
			}
			if err := store.Select(ctx, db, &rows, `SELECT key, value FROM counters WHERE key LIKE 'k-%'`); err != nil {
				t.Fatal(err)
			}
			out := map[string]int64{}
			for _, r := range rows {
				out[r.Key] = r.Value
			}
			return out
		}
		// 1,234 new rows in a transaction: two full SQLite chunks and a part.
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			return write(tx, 1234, 0, func(i int) any { return int64(i) })
		}); err != nil {
			t.Fatal(err)
		}
		// 800 rows outside a transaction: the last 634 update, 166 are new.
		if err := write(db, 800, 600, func(i int) any { return decimal.Dec(-i) }); err != nil {
			t.Fatal(err)
		}
		if err := write(db, 0, 0, nil); err != nil {
			t.Fatal(err)
		}
		got := read()
		if len(got) != 1400 {
			t.Fatalf("%d rows, want 1400", len(got))
		}
		for i := range 1400 {
			want := int64(i)
			if i >= 600 {
				want = -int64(i - 600)
			}
			if v := got[fmt.Sprintf("k-%05d", i)]; v != want {
				t.Fatalf("k-%05d = %d, want %d", i, v, want)
			}
		}
		// A string for the bigint column: refused (on PostgreSQL before
		// anything is sent, on SQLite by the column's check or stored as
		// given: the test asks only that PostgreSQL refuses, and that a
		// refused upsert in a transaction leaves nothing).
		before := read()
		err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			if err := write(tx, 3, 5000, func(i int) any { return int(i) }); err != nil {
				return err
			}
			return write(tx, 1, 6000, func(int) any { return "many" })
		})
		if db.Dialect == store.Postgres && err == nil {
			t.Fatal("a text value for a bigint column was written")
		}
		if err != nil && len(read()) != len(before) {
			t.Fatalf("a refused upsert wrote rows: %d, then %d", len(before), len(read()))
		}
	})
}

// TestUpsertAdding: the values of the add columns are added to a row that
// exists, inserted otherwise, whether the rows are few (VALUES on both
// engines) or many (arrays on PostgreSQL, chunks on SQLite).
func TestUpsertAdding(t *testing.T) {
	cols := []store.Column{{Name: "key", Type: "text"}, {Name: "value", Type: "bigint"}}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		add := func(n int, value int64) {
			t.Helper()
			if err := store.UpsertAdding(ctx, db, "counters", cols, []string{"key"}, []string{"value"}, n, func(i int, v []any) {
				v[0], v[1] = fmt.Sprintf("a-%04d", i), value
			}); err != nil {
				t.Fatal(err)
			}
		}
		for _, n := range []int{1, 2, 4, 5, 700} {
			add(n, 3)
		}
		add(2, -1)
		var rows []struct {
			Key   string `db:"key"`
			Value int64  `db:"value"`
		}
		if err := store.Select(ctx, db, &rows, `SELECT key, value FROM counters WHERE key LIKE 'a-%' ORDER BY key`); err != nil {
			t.Fatal(err)
		}
		if len(rows) != 700 {
			t.Fatalf("%d rows, want 700", len(rows))
		}
		for i, r := range rows {
			// Row i is in every write of more than i rows.
			want := int64(0)
			for _, n := range []int{1, 2, 4, 5, 700} {
				if i < n {
					want += 3
				}
			}
			if i < 2 {
				want--
			}
			if r.Value != want {
				t.Fatalf("%s = %d, want %d", r.Key, r.Value, want)
			}
		}
	})
}

// TestInsertReturning: rows upserted in statements of up to 500, every row
// handed back by RETURNING, on both engines.
func TestInsertReturning(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		write := func(n int, add int64) map[string]int64 {
			t.Helper()
			got := map[string]int64{}
			err := store.InsertReturning(ctx, db, `INSERT INTO counters (key, value)`, 2,
				`ON CONFLICT (key) DO UPDATE SET value = counters.value + excluded.value RETURNING key, value`, n,
				func(i int, v []any) { v[0], v[1] = fmt.Sprintf("r-%04d", i), add },
				func(rows *sqlx.Rows) error {
					var k string
					var v int64
					if err := rows.Scan(&k, &v); err != nil {
						return err
					}
					got[k] = v
					return nil
				})
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
		if got := write(3, 5); len(got) != 3 || got["r-0002"] != 5 {
			t.Fatalf("3 rows: %v", got)
		}
		got := write(1200, 1) // three statements; the first three rows exist
		if len(got) != 1200 || got["r-0000"] != 6 || got["r-0002"] != 6 || got["r-0003"] != 1 || got["r-1199"] != 1 {
			t.Fatalf("1,200 rows: %d returned, r-0000=%d r-0003=%d r-1199=%d", len(got), got["r-0000"], got["r-0003"], got["r-1199"])
		}
		if got := write(0, 1); len(got) != 0 {
			t.Fatalf("no rows: %v", got)
		}
	})
}
