package store_test

import (
	"context"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestWriterTime: on SQLite every write takes one turn of the process's
// write lock, whose wait and hold are summed (the proposal round-trip's
// "lock wait vs work", issue 42); a read takes none; on PostgreSQL,
// whose writers do not queue in the process, nothing is counted.
func TestWriterTime(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.ExecContext(ctx, `CREATE TABLE writer_time (n INTEGER)`); err != nil {
			t.Fatal(err)
		}
		before := db.WriterTime()
		const writers = 8
		var wg sync.WaitGroup
		for i := range writers {
			wg.Go(func() {
				if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
					_, err := store.Exec(ctx, tx, `INSERT INTO writer_time (n) VALUES (?)`, i)
					return err
				}); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		var n int
		if err := store.Get(ctx, db, &n, `SELECT COUNT(*) FROM writer_time`); err != nil || n != writers {
			t.Fatalf("%d rows, %v", n, err)
		}
		got := db.WriterTime().Sub(before)
		if db.Dialect != store.SQLite {
			if got != (store.WriterTime{}) {
				t.Fatalf("PostgreSQL counts %+v", got)
			}
			return
		}
		if got.Turns != writers || got.Held <= 0 || got.Waited < 0 {
			t.Fatalf("%+v, want %d turns held some time", got, writers)
		}
	})
}
