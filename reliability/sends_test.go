package reliability

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"primeur/core/jobs"
	"primeur/core/mail/mailtest"
	"primeur/core/store"
)

// recipientCopies counts, per message key ("invoice-<id>"), the copies
// each recipient (RCPT TO) received at srv.
func recipientCopies(srv *mailtest.Server) map[string]map[string]int {
	out := map[string]map[string]int{}
	for id, byRecipient := range srv.Copies() {
		out[strings.TrimSuffix(strings.TrimPrefix(id, "<"), "@primeur.local>")] = byRecipient
	}
	return out
}

// perhapsReceived tells the Error line of a document left for an
// administrator because a copy of it may be at the mail server already.
func perhapsReceived(l string) bool {
	return strings.HasPrefix(field(l, "msg"), "jobs: email perhaps received already")
}

// tookBack tells the line of a claim taken back from a process gone.
func tookBack(l string) bool { return hasMsg(l, "jobs: took back the claim of a process gone") }

// leftDocs are the emailed documents (mailedDocs) left for an
// administrator: unsent, their attempts spent. Each must keep, in the
// journal, a copy committed and never accepted: the reason it was left.
func leftDocs(t *testing.T, db *store.DB) map[string]bool {
	t.Helper()
	left := map[string]bool{}
	for _, doc := range mailedDocs(t, db) {
		if doc.SentAt.Valid || doc.Attempts < jobs.MaxAttempts {
			continue
		}
		left[doc.Key] = true
		if n := count(t, db, `SELECT COUNT(*) FROM mail_copies WHERE message_key = ? AND accepted_at IS NULL`, doc.Key); n == 0 {
			t.Fatalf("%s left for an administrator without a copy perhaps received", doc.Number)
		}
	}
	return left
}

// checkOnceEach checks what each emailed document got at srv after kills:
// one copy per recipient for a document recorded as sent, each reaching as
// many recipients; at most one per recipient for a document left for an
// administrator (left). No copy ever went twice.
func checkOnceEach(t *testing.T, db *store.DB, srv *mailtest.Server, left map[string]bool) {
	t.Helper()
	got := recipientCopies(srv)
	recipients := 0
	for _, doc := range mailedDocs(t, db) {
		copies := got[doc.Key]
		for to, n := range copies {
			if n > 1 {
				t.Fatalf("%s: %s received %d copies", doc.Number, to, n)
			}
		}
		switch {
		case left[doc.Key]:
		case !doc.SentAt.Valid:
			t.Fatalf("%s neither sent nor left for an administrator", doc.Number)
		case recipients == 0:
			recipients = len(copies)
		case len(copies) != recipients:
			t.Fatalf("%s reached %v, another document %d recipients", doc.Number, copies, recipients)
		}
	}
	if recipients == 0 {
		t.Fatal("no document sent")
	}
}

// command starts `primeur args…` on the base, its PostgreSQL sessions
// named so that gone waits for them after a kill.
func command(t *testing.T, name string, b base, args ...string) *proc {
	t.Helper()
	b, app := b.named()
	p := start(t, name, append(args, b.args()...)...)
	p.app, p.db = app, b.db
	return p
}

// TestAKilledSendIsNeverDuplicated kills `primeur jobs run invoices`
// (SIGKILL) while it emails the month's invoices, the test's SMTP server
// holding each of the four sending workers' messages at a chosen point,
// and runs the job again:
//   - before DATA (the server withholds its answer to RCPT TO): nothing
//     was handed over; the second run sends every invoice, one copy to
//     each recipient;
//   - after DATA (the server has the message whole and withholds its
//     250): each held copy passed its point of no return. The second run
//     sends every other invoice and copy, and leaves the four invoices
//     held for an administrator — one Error line each, counted by
//     `primeur jobs run deliveries` —, never sending their held copies
//     again: each recipient has exactly one copy of every invoice.
//
// The second run takes the dead process's claims back at once — the
// process gone from this machine, which it checks by PID and start time —
// and logs each: it ends within seconds, no lease moved by hand (elsewhere
// than Linux, after jobs.Lease). Both engines.
func TestAKilledSendIsNeverDuplicated(t *testing.T) {
	t.Parallel()
	for _, engine := range engines(t) {
		for _, point := range []struct {
			name string
			at   mailtest.Point
		}{{"before DATA", mailtest.BeforeData}, {"after DATA", mailtest.AfterData}} {
			t.Run(engine+"/"+point.name, func(t *testing.T) {
				t.Parallel()
				b, db := newBase(t, engine)
				srv := mailtest.Start(t, "", "")
				tr := transport{name: "smtp", smtp: srv}
				w := seed(t, db, shape{producers: 4, shops: 25, done: []string{"2026-11-05", "2026-11-19"}})
				args := append([]string{"jobs", "run", "invoices", "--at", december, "--force", "--log-level", "debug"}, tr.args()...)

				killed := command(t, "jobs run invoices (killed)", b, args...)
				killed.waitLine("an email sent", 0, func(l string) bool { return hasMsg(l, "email sent") })
				release := srv.HoldAt(point.at)
				t.Cleanup(release)
				until(t, "the four workers' messages held", func() bool { return srv.Held() == 4 })
				killed.kill()
				release()
				killed.gone()
				until(t, "the mail server done with the dead process", func() bool { return srv.Sessions() == 0 })
				var inFlight []string // claimed by the dead process, unsent
				for _, doc := range mailedDocs(t, db) {
					if !doc.SentAt.Valid && doc.Claim.Valid {
						inFlight = append(inFlight, doc.Key)
					}
				}
				if len(inFlight) != 4 {
					t.Fatalf("%d documents claimed by the dead process, want the 4 held", len(inFlight))
				}

				began := time.Now()
				again := command(t, "jobs run invoices (again)", b, args...)
				if code := again.wait(); code != 0 {
					t.Fatalf("jobs run invoices, again: status %d", code)
				}
				t.Logf("the second run took %v", time.Since(began).Round(time.Millisecond))
				if runtime.GOOS == "linux" {
					if n := again.count(tookBack); n != len(inFlight) {
						t.Fatalf("the second run took back %d claims of the dead process, want %d", n, len(inFlight))
					}
				}

				left := leftDocs(t, db)
				want := map[mailtest.Point]int{mailtest.BeforeData: 0, mailtest.AfterData: 4}[point.at]
				if len(left) != want || again.count(perhapsReceived) != want {
					t.Fatalf("%d documents left for an administrator, %d lines saying so; want %d", len(left), again.count(perhapsReceived), want)
				}
				for key := range left {
					if !slices.Contains(inFlight, key) {
						t.Fatalf("%s left for an administrator, yet not in flight at the kill", key)
					}
				}
				checkInvoicesLeft(t, db, w, left)
				checkOnceEach(t, db, srv, left)

				// The next runs send nothing more, and report what waits for
				// an administrator.
				next := command(t, "jobs run deliveries", b, append([]string{"jobs", "run", "deliveries", "--at", december, "--force"}, tr.args()...)...)
				if code := next.wait(); code != 0 {
					t.Fatalf("jobs run deliveries: status %d", code)
				}
				report, _ := next.waitLine("the report", 0, func(l string) bool { return strings.HasPrefix(l, "deliveries (") })
				wantReport := "factures envoyées : 0"
				if want > 0 {
					wantReport += fmt.Sprintf(", envois abandonnés (à relancer par primeur jobs run deliveries --retry-failed) : %d", want)
				}
				if !strings.HasSuffix(report, wantReport) {
					t.Fatalf("report %q, want %q", report, wantReport)
				}
				checkOnceEach(t, db, srv, left)
				integrity(t, b, db)
			})
		}
	}
}
