package reliability

import (
	"context"
	"sync"
	"testing"
	"time"

	"primeur/core/pa"
	"primeur/core/pa/patest"
)

// TestAKilledDepositIsDepositedOnce kills `primeur jobs run pa` (SIGKILL)
// while the local PA holds its first deposit — the flow made on the PA,
// its answer not sent — and runs the job again: the second process takes
// back the dead run's claim at once (its process is gone), finds the flow
// by trackingId instead of depositing it again, and deposits the others;
// every document of the month is deposited exactly once.
func TestAKilledDepositIsDepositedOnce(t *testing.T) {
	t.Parallel()
	for _, engine := range engines(t) {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			b, db := newBase(t, engine)
			w := seed(t, db, shape{producers: 1, shops: 4, done: []string{"2026-11-05", "2026-11-19"}})
			cmd := command(t, "jobs run invoices", b, "jobs", "run", "invoices", "--at", december, "--force")
			if code := cmd.wait(); code != 0 {
				t.Fatalf("jobs run invoices: status %d", code)
			}
			var ids []string
			if err := db.Select(&ids, `SELECT id FROM documents ORDER BY id`); err != nil || len(ids) == 0 {
				t.Fatalf("documents: %d, %v", len(ids), err)
			}

			held := make(chan string, 1)
			release := make(chan struct{})
			var once sync.Once
			srv, err := patest.Start(patest.Config{ClientID: "farm-00", ClientSecret: "le-secret-de-la-ferme",
				Deposited: func(id string) {
					first := false
					once.Do(func() { first = true })
					if first {
						held <- id
						<-release
					}
				}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(srv.Close)
			var releaseOnce sync.Once
			free := func() { releaseOnce.Do(func() { close(release) }) }
			t.Cleanup(free)
			keys, err := pa.EnsureKeys(pa.KeyPath(b.dir))
			if err != nil {
				t.Fatal(err)
			}
			if err := pa.Connect(context.Background(), db, keys, pa.Connection{ProducerID: w.producers[0], FlowURL: srv.FlowURL(),
				TokenURL: srv.TokenURL(), ClientID: "farm-00", Secret: "le-secret-de-la-ferme", ConnectedAt: time.Now(),
				DepositFrom: time.Date(2026, 11, 1, 0, 0, 0, 0, paris)}); err != nil {
				t.Fatal(err)
			}

			killed := command(t, "jobs run pa (killed)", b, "jobs", "run", "pa", "--log-level", "debug")
			var first string
			select {
			case first = <-held:
			case <-time.After(deadline):
				t.Fatal("no deposit reached the PA")
			}
			killed.kill()
			killed.gone()
			free()

			again := command(t, "jobs run pa", b, "jobs", "run", "pa", "--log-level", "debug")
			if code := again.wait(); code != 0 {
				t.Fatalf("jobs run pa: status %d", code)
			}
			if again.count(func(l string) bool { return hasMsg(l, "jobs: pa: took back the claim of a process gone") }) != 1 ||
				again.count(func(l string) bool {
					return hasMsg(l, "jobs: pa: a deposit whose outcome was lost was found on the PA; recorded, not deposited again")
				}) != 1 {
				t.Fatal("the second run did not take the dead claim back and find the held deposit")
			}
			got := srv.Deposits()
			for _, id := range ids {
				if got[id] != 1 {
					t.Fatalf("document %s deposited %d times (%d documents): %v", id, got[id], len(ids), got)
				}
			}
			if len(got) != len(ids) {
				t.Fatalf("deposits %v of %d documents", got, len(ids))
			}
			if n := count(t, db, `SELECT COUNT(*) FROM pa_deposits WHERE deposited_at IS NOT NULL AND flow_id IS NOT NULL`); n != len(ids) {
				t.Fatalf("%d of %d documents recorded as deposited", n, len(ids))
			}
			var flow string
			if err := db.Get(&flow, db.Rebind(`SELECT flow_id FROM pa_deposits WHERE document_id = ?`), first); err != nil {
				t.Fatal(err)
			}
			for _, f := range srv.Flows() {
				if f.TrackingID == first && f.FlowID != flow {
					t.Fatalf("the held document recorded flow %s, the PA made %s", flow, f.FlowID)
				}
			}
			if bad := srv.Invalid(); len(bad) > 0 {
				t.Fatalf("against the OpenAPI document: %q", bad)
			}
		})
	}
}
