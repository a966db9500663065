package schema_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

func TestMigrateIsIdempotent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		n, err := schema.Migrate(context.Background(), db)
		if err != nil || n != 0 {
			t.Fatalf("second migrate ran %d migrations, err %v", n, err)
		}
		st, err := schema.Status(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range st {
			if !m.Applied {
				t.Errorf("migration %d not applied", m.Version)
			}
		}
	})
}

func TestTxRollsBackOnError(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		boom := errors.New("boom")
		err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			if _, err := store.Exec(ctx, tx, `INSERT INTO throttle (key, attempts, window_start, window_end) VALUES (?, 1, 0, 0)`, "k"); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("err = %v", err)
		}
		var n int
		if err := store.Get(ctx, db, &n, `SELECT COUNT(*) FROM throttle`); err != nil || n != 0 {
			t.Fatalf("rows after rollback = %d (%v)", n, err)
		}
	})
}

func TestUniqueViolationIsRecognised(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		q := `INSERT INTO throttle (key, attempts, window_start, window_end) VALUES (?, 1, 0, 0)`
		if _, err := store.Exec(ctx, db, q, "k"); err != nil {
			t.Fatal(err)
		}
		_, err := store.Exec(ctx, db, q, "k")
		if !store.IsUniqueViolation(err) {
			t.Fatalf("err = %v, want a unique violation", err)
		}
	})
}
