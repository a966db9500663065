package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestInsert: rows written in bulk, in a transaction (COPY on PostgreSQL)
// or not, in any number (a partial last chunk, a chunk exactly full, none),
// with NULLs, read back as given; a failing row rolls the transaction back.
func TestInsert(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		cols := []string{"key", "value"}
		row := func(prefix string) func(i int, v []any) {
			return func(i int, v []any) { v[0], v[1] = fmt.Sprintf("%s-%05d", prefix, i), int64(i) }
		}
		tests := []struct {
			name string
			n    int
			tx   bool
		}{
			{"none", 0, true}, {"one", 1, true}, {"a chunk", 500, true}, {"chunks and a part", 1234, true},
			{"outside a transaction", 777, false},
		}
		for _, tt := range tests {
			var err error
			if tt.tx {
				err = db.Tx(ctx, func(tx *sqlx.Tx) error { return store.Insert(ctx, tx, "counters", cols, tt.n, row(tt.name)) })
			} else {
				err = store.Insert(ctx, db, "counters", cols, tt.n, row(tt.name))
			}
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			var got struct {
				N   int   `db:"n"`
				Sum int64 `db:"s"`
			}
			if err := store.Get(ctx, db, &got, `SELECT COUNT(*) AS n, COALESCE(SUM(value), 0) AS s FROM counters WHERE key LIKE ?`, tt.name+"-%"); err != nil {
				t.Fatal(err)
			}
			if got.N != tt.n || got.Sum != int64(tt.n*(tt.n-1)/2) {
				t.Fatalf("%s: %d rows summing to %d", tt.name, got.N, got.Sum)
			}
		}

		// NULLs and text.
		if err := accounts.Insert(ctx, db, accounts.User{ID: "someone", Type: accounts.Distributor, Email: "a@b.fr", EmailKey: "a@b.fr",
			Name: "A", PasswordHash: "-", DeliveryDays: "0000000"}); err != nil {
			t.Fatal(err)
		}
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			return store.Insert(ctx, tx, "events", []string{"id", "created_at", "type", "data", "origin_id", "target_id"}, 2,
				func(i int, v []any) {
					v[0], v[1], v[2], v[3], v[4], v[5] = fmt.Sprint("e", i), int64(i), "need:create", `{"é":1}`, "someone", nil
				})
		}); err != nil {
			t.Fatal(err)
		}
		var nulls int
		if err := store.Get(ctx, db, &nulls, `SELECT COUNT(*) FROM events WHERE target_id IS NULL AND data = '{"é":1}'`); err != nil || nulls != 2 {
			t.Fatalf("%d rows with NULL, %v", nulls, err)
		}

		// A duplicate key fails the insert and the transaction.
		err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			return store.Insert(ctx, tx, "counters", cols, 3, func(i int, v []any) { v[0], v[1] = "dup", int64(i) })
		})
		var n int
		if err == nil || store.Get(ctx, db, &n, `SELECT COUNT(*) FROM counters WHERE key = 'dup'`) != nil || n != 0 {
			t.Fatalf("duplicate: %v, %d rows", err, n)
		}
	})
}

// TestTake: a take of n values continues the counter Next advances, with
// no gap and no duplicate, and a rolled-back take gives its values back.
func TestTake(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var got []int64
		for _, step := range []struct {
			n        int64
			rollback bool
		}{{1, false}, {5, false}, {3, true}, {2, false}} {
			err := db.Tx(ctx, func(tx *sqlx.Tx) error {
				first, err := store.Take(ctx, tx, "chrono:x", step.n)
				if err != nil {
					return err
				}
				if step.rollback {
					return errors.New("rolled back")
				}
				got = append(got, first)
				return nil
			})
			if err != nil && !step.rollback {
				t.Fatal(err)
			}
		}
		next, err := store.Next(ctx, db, "chrono:x")
		if err != nil || fmt.Sprint(got, next) != "[1 2 7] 9" {
			t.Fatalf("takes %v then %d (%v)", got, next, err)
		}
		if _, err := store.Take(ctx, db, "chrono:x", 0); err == nil {
			t.Fatal("a take of nothing")
		}
	})
}
