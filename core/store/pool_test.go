package store_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"primeur/core/store"
)

// TestSQLiteMemoryIsBounded: a SQLite database keeps at most four
// connections open, however many requests read at once, each with a page
// cache of 16 MB at most: the database's share of the daemon's memory is
// bounded by 64 MB of pages (issue 42: eight connections made a peak of
// 423 MB under 16 clients on a year of trade). Sixteen readers at once
// are served, in turn.
func TestSQLiteMemoryIsBounded(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, "", filepath.Join(t.TempDir(), "primeur.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const (
		wantConns    = 4
		maxCacheKiB  = 16000
		budgetOfKiB  = 64 * 1000
		readersAtOne = 16
	)
	if got := db.Stats().MaxOpenConnections; got != wantConns {
		t.Fatalf("at most %d connections, want %d", got, wantConns)
	}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		largest int
	)
	for range readersAtOne {
		wg.Go(func() {
			// PRAGMA cache_size: a negative size is in KiB.
			var size int
			if err := store.Get(ctx, db, &size, `PRAGMA cache_size`); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			largest = max(largest, -size)
			mu.Unlock()
		})
	}
	wg.Wait()
	if open := db.Stats().OpenConnections; open > wantConns {
		t.Fatalf("%d connections open", open)
	}
	if largest > maxCacheKiB || wantConns*largest > budgetOfKiB {
		t.Fatalf("a page cache of %d KiB per connection, %d KiB in all; want at most %d and %d", largest, wantConns*largest,
			maxCacheKiB, budgetOfKiB)
	}
}
