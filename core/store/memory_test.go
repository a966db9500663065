package store_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"primeur/core/store"
	"primeur/core/store/storetest"

	"github.com/jmoiron/sqlx"
)

// TestReleaseMemoryGivesBackTheCaches: once the daemon is quiet, the page
// caches SQLite's connections filled are given back (issue 42: at rest ≤
// 150 MB; a burst of reads on a year of trade left about 170 MB of
// SQLite's memory). Each case reads a 6 MB table on the three readers and
// writes it on the write connection, so that the four caches hold it;
// what is in use at the release (the write lock, a reader) is left alone,
// without waiting for it. Not parallel: SQLite's memory is counted for
// the whole process.
func TestReleaseMemoryGivesBackTheCaches(t *testing.T) {
	const (
		rows    = 1500 // of 4,000 bytes: 6 MB, each cache holds it
		perConn = 4 << 20
	)
	for _, c := range []struct {
		name         string
		holdWriter   bool
		holdReaders  int
		wantReleased int
	}{
		{"all idle: the write connection and the three readers", false, 0, 4},
		{"a writer at work: the readers only", true, 0, 3},
		{"a reader in use: the others", false, 1, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			// A release that waited for what is in use would end with
			// this context, and fail.
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			db, err := store.Open(ctx, "", filepath.Join(t.TempDir(), "primeur.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.ExecContext(ctx, `CREATE TABLE blobs (b BLOB)`); err != nil {
				t.Fatal(err)
			}
			if _, err := db.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
				INSERT INTO blobs SELECT randomblob(4000) FROM n`, rows); err != nil {
				t.Fatal(err)
			}
			// The three readers read it at once, so that each is a
			// connection of its own.
			var readers []interface{ Close() error }
			for range 3 {
				conn, err := db.Connx(ctx)
				if err != nil {
					t.Fatal(err)
				}
				var n int
				if err := conn.GetContext(ctx, &n, `SELECT sum(length(b)) FROM blobs`); err != nil || n != rows*4000 {
					t.Fatalf("read %d bytes (%v)", n, err)
				}
				readers = append(readers, conn)
			}
			for _, r := range readers[c.holdReaders:] {
				r.Close()
			}
			defer func() {
				for _, r := range readers[:c.holdReaders] {
					r.Close()
				}
			}()
			if c.holdWriter {
				held, done := make(chan struct{}), make(chan struct{})
				go func() {
					_ = db.Tx(ctx, func(*sqlx.Tx) error { close(held); <-done; return nil })
				}()
				<-held
				defer close(done)
			}
			released, err := db.ReleaseMemory(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if released.Conns != c.wantReleased {
				t.Fatalf("released %d connections, want %d", released.Conns, c.wantReleased)
			}
			if want := int64(c.wantReleased) * perConn; released.Bytes < want {
				t.Fatalf("%d bytes of page caches given back, want at least %d", released.Bytes, want)
			}
		})
	}
}

// TestReleaseMemoryOnPostgreSQL: the memory is the server's; nothing is
// asked.
func TestReleaseMemoryOnPostgreSQL(t *testing.T) {
	db := storetest.Postgres(t)
	if r, err := db.ReleaseMemory(context.Background()); r != (store.Released{}) || err != nil {
		t.Fatalf("released %+v (%v)", r, err)
	}
}
