package reliability

import (
	"fmt"
	"testing"

	"primeur/core/mail/mailtest"
	"primeur/core/orders"
)

// TestTwoReplicasDoEachPieceOfWorkOnce runs two `primeur serve` processes
// on one database (different ports; on PostgreSQL different data
// directories, on SQLite one data directory and so one file), both with
// their scheduler, both pinned to December 1st 07:00: November's planned
// deliveries are due to lock, their notes to be emailed, claims to be
// accepted by the system and every order to be invoiced. Their start-up
// catch-up runs all of it at once on both. Each delivery note must be
// emailed exactly once, each claim accepted once, each order invoiced
// exactly once with continuous numbers, each invoice emailed exactly once.
// Emails go to an SMTP server in the test process, which counts every
// message it receives by Message-ID: a document sent twice shows.
//
// To make the two replicas really work at the same moment, the test blocks
// the writes to the deliveries table (holdWrites) before starting them:
// every job begins by locking deliveries, so all six (three jobs × two
// replicas) wait at the same point. On PostgreSQL the test waits until six
// sessions wait on that lock; on SQLite until both replicas logged their
// three jobs' start. Then it lets them all go.
func TestTwoReplicasDoEachPieceOfWorkOnce(t *testing.T) {
	t.Parallel()
	for _, engine := range engines(t) {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			b, db := newBase(t, engine)
			srv := mailtest.Start(t, "", "")
			tr := transport{name: "smtp", smtp: srv}
			w := seed(t, db, shape{producers: 3, shops: 12, planned: []string{"2026-11-26", "2026-11-30"}, claims: 6})

			release := holdWrites(t, db, "deliveries")
			replicas := make([]*proc, 2)
			for i := range replicas {
				rb := b
				if b.url != "" {
					rb.dir = t.TempDir() // its own data directory, the same database
				}
				replicas[i], _ = serve(t, fmt.Sprintf("replica %d", i+1), rb, december, tr.args()...)
			}
			if b.url != "" {
				until(t, "six jobs waiting on the deliveries", func() bool {
					return waitingOn(t, db, "deliveries", "") == 6
				})
			} else {
				for _, r := range replicas {
					for _, job := range []string{"deliveries", "claims", "invoices"} {
						r.waitLine("the start of job "+job, 0, func(l string) bool {
							return hasMsg(l, "job started") && field(l, "job") == job
						})
					}
				}
			}
			release()
			for _, r := range replicas {
				r.jobsDone("deliveries", "claims", "invoices")
			}
			for _, r := range replicas {
				t.Logf("%s: %d invoices issued, %d emails sent", r.name,
					r.count(func(l string) bool { return hasMsg(l, "invoice issued") }),
					r.count(func(l string) bool { return hasMsg(l, "email sent") }))
			}

			if n := count(t, db, `SELECT COUNT(*) FROM deliveries WHERE status = ?`, orders.Planned); n != 0 {
				t.Fatalf("%d deliveries still planned", n)
			}
			sent := messageCounts(srv)
			for _, id := range w.planned {
				if n := sent["note-"+id]; n != 1 {
					t.Fatalf("delivery note of %s emailed %d times", id, n)
				}
				delete(sent, "note-"+id)
			}
			if n := count(t, db, `SELECT COUNT(*) FROM deliveries d WHERE NOT EXISTS (SELECT 1 FROM sends s WHERE s.message_key = 'note-' || d.id AND s.sent_at IS NOT NULL)`); n != 0 {
				t.Fatalf("%d delivery notes not recorded as sent", n)
			}
			for _, id := range w.claimed {
				if n := count(t, db, `SELECT COUNT(*) FROM deliveries WHERE id = ? AND claim_status = ?`, id, orders.ClaimAccepted); n != 1 {
					t.Fatalf("claim on %s not accepted", id)
				}
			}
			if n := count(t, db, `SELECT COUNT(*) FROM events WHERE type = 'claim:autovalidate'`); n != len(w.claimed) {
				t.Fatalf("%d claim:autovalidate events for %d claims", n, len(w.claimed))
			}
			for _, inv := range checkInvoices(t, db, w) {
				if n := sent["invoice-"+inv.ID]; n != 1 {
					t.Fatalf("invoice %s emailed %d times", inv.Number, n)
				}
				delete(sent, "invoice-"+inv.ID)
			}
			for _, c := range checkCredits(t, db, w) {
				if n := sent["credit-"+c.ID]; n != 1 {
					t.Fatalf("credit note %s emailed %d times", c.Number, n)
				}
				delete(sent, "credit-"+c.ID)
			}
			dropDigests(t, sent)
			if len(sent) != 0 {
				t.Fatalf("messages for no document: %v", sent)
			}
			for _, r := range replicas {
				if code := r.term(); code != 0 {
					t.Fatalf("%s stopped with status %d", r.name, code)
				}
			}
		})
	}
}
