package storetest_test

import (
	"context"
	"net/url"
	"os"
	"slices"
	"testing"

	"primeur/core/store/storetest"
)

// TestServerCPU checks that the backends' CPU time grows by what a query
// keeps the server busy with, and that SQLite has no server to read.
func TestServerCPU(t *testing.T) {
	ctx := context.Background()
	if _, ok, err := storetest.ServerCPU(ctx, storetest.SQLite(t)); err != nil || ok {
		t.Fatalf("SQLite: ok %v, err %v; want no server", ok, err)
	}
	db := storetest.Postgres(t)
	before, ok, err := storetest.ServerCPU(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		u, err := url.Parse(os.Getenv(storetest.EnvURL))
		if err == nil && !slices.Contains([]string{"", "localhost", "127.0.0.1", "::1"}, u.Hostname()) {
			t.Skip("the PostgreSQL server is not on this machine")
		}
		t.Fatal("no backend of the test's connections found on this machine")
	}
	// Counting 3 million generated rows costs the server well over 30 ms
	// of CPU on any machine (about 300 ms on the development one).
	var n int64
	if err := db.GetContext(ctx, &n, `SELECT count(*) FROM generate_series(1, 3000000) g WHERE g % 7 = 3`); err != nil {
		t.Fatal(err)
	}
	after, ok, err := storetest.ServerCPU(ctx, db)
	if err != nil || !ok {
		t.Fatalf("second reading: ok %v, err %v", ok, err)
	}
	if spent := after - before; spent < 30e6 {
		t.Fatalf("backends' CPU grew by %d ns over the query: want at least 30 ms", spent)
	}
	t.Logf("backends' CPU: +%.1f ms", float64(after-before)/1e6)
}
