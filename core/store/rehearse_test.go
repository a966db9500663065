package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestRehearseKeepsNothing: what a rehearsal writes — in committed
// transactions, outside any, through store.Next's counters — is read back
// within it, a rolled-back transaction is undone within it, a statement
// that fails leaves the rest going on, goroutines share the handle, and
// afterwards the database is byte for byte what it was.
func TestRehearseKeepsNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := store.Exec(ctx, db, `INSERT INTO counters (key, value) VALUES ('kept', 7)`); err != nil {
			t.Fatal(err)
		}
		before := storetest.Snapshot(t, db)
		count := func(q store.Q) int {
			var n int
			if err := store.Get(ctx, q, &n, `SELECT COUNT(*) FROM counters`); err != nil {
				t.Fatal(err)
			}
			return n
		}
		err := db.Rehearse(ctx, func(r *store.DB) error {
			if r.Dialect != db.Dialect || r.Name != db.Name {
				t.Errorf("rehearsal %s %q, database %s %q", r.Dialect, r.Name, db.Dialect, db.Name)
			}
			if err := r.Tx(ctx, func(tx *sqlx.Tx) error {
				_, err := store.Next(ctx, tx, "rehearsed")
				return err
			}); err != nil {
				return err
			}
			if _, err := store.Exec(ctx, r, `UPDATE counters SET value = 8 WHERE key = 'kept'`); err != nil {
				return err
			}
			undone := errors.New("undone")
			if err := r.Tx(ctx, func(tx *sqlx.Tx) error {
				if _, err := store.Exec(ctx, tx, `INSERT INTO counters (key, value) VALUES ('undone', 1)`); err != nil {
					return err
				}
				return undone
			}); !errors.Is(err, undone) {
				return fmt.Errorf("rolled-back transaction: %v", err)
			}
			// A failing statement, outside a transaction and inside one.
			if _, err := store.Exec(ctx, r, `INSERT INTO counters (key, value) VALUES ('kept', 9)`); !store.IsUniqueViolation(err) {
				return fmt.Errorf("duplicate outside a transaction: %v", err)
			}
			if err := r.Tx(ctx, func(tx *sqlx.Tx) error {
				_, err := store.Exec(ctx, tx, `INSERT INTO counters (key, value) VALUES ('kept', 9)`)
				return err
			}); !store.IsUniqueViolation(err) {
				return fmt.Errorf("duplicate in a transaction: %v", err)
			}
			// Goroutines take turns on the one connection.
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for i := range 8 {
				wg.Go(func() {
					errs <- r.Tx(ctx, func(tx *sqlx.Tx) error {
						_, err := store.Exec(ctx, tx, `INSERT INTO counters (key, value) VALUES (?, ?)`, fmt.Sprint("g", i), i)
						return err
					})
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					return err
				}
			}
			var kept int
			if err := store.Get(ctx, r, &kept, `SELECT value FROM counters WHERE key = 'kept'`); err != nil {
				return err
			}
			if n := count(r); n != 10 || kept != 8 {
				t.Errorf("within the rehearsal: %d counters, kept = %d; want 10 and 8", n, kept)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if after := storetest.Snapshot(t, db); after != before {
			t.Fatalf("the rehearsal left changes:\n%s", storetest.Changes(before, after))
		}
		// The database is usable as before, and a rehearsal that fails
		// keeps nothing either.
		failed := errors.New("failed")
		if err := db.Rehearse(ctx, func(r *store.DB) error {
			if _, err := store.Exec(ctx, r, `DELETE FROM counters`); err != nil {
				return err
			}
			return failed
		}); !errors.Is(err, failed) {
			t.Fatalf("failing rehearsal: %v", err)
		}
		if n := count(db); n != 1 {
			t.Fatalf("%d counters after a failed rehearsal", n)
		}
	})
}
