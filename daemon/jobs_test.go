package daemon_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"primeur/core/config"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon"
)

// TestRunSchedulesTheJobs starts the daemon for real: at start, every job
// runs once to catch up, so a November order is locked, invoiced and
// emailed (into the outbox) when the daemon starts on 1 December.
func TestRunSchedulesTheJobs(t *testing.T) {
	t.Parallel()
	db := storetest.SQLite(t)
	w := tradetest.New(t, db)
	o := w.Order(w.Farm, w.Shop, "2026-11-01")
	w.Delivery(o, "2026-11-30", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})

	cfg := config.Defaults()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = t.TempDir()
	d := daemon.New(daemon.Options{Config: cfg, DB: db, Now: func() time.Time { return tradetest.At(2026, 12, 1, 7, 0) }})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx, nil) }()

	// Wait (without timing anything) for the startup runs to finish their
	// work: the invoice and both emails, a copy of each for each party (and
	// the shop's digest telling its delivery note is available, when the
	// notifications job ran after the deliveries job locked it).
	deadline := time.Now().Add(30 * time.Second)
	for {
		var n int
		if err := store.Get(ctx, db, &n, `SELECT COUNT(*) FROM sends WHERE kind = 'invoice' AND sent_at IS NOT NULL`); err != nil {
			t.Fatal(err)
		}
		entries, _ := os.ReadDir(filepath.Join(cfg.DataDir, "outbox"))
		if n == 1 && len(entries) >= 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s: %d invoices sent, outbox %v", n, entries)
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
