package jobs_test

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/delivery"
	"primeur/core/jobs"
	"primeur/core/notify"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// TestWaitingDocumentsAreNotClaimed: the documents none of whose
// recipients has a confirmed address — a delivery note, an invoice, a
// credit note, a reminder, a cutoff notice, a digest — are not selected by
// the runs: none is claimed (the claim of a document that waits logs "email
// waits for a confirmed address"), counted or sent, however many runs. Each
// goes on the first run after someone it concerns confirms their login,
// whoever founded the organisation (issue 41): the shop's accountant takes
// the invoice, the credit note and the reminder while the shop's founder
// has confirmed nothing, not the note, which is the receivers' and the
// owners'; the farm's sales member takes the reminder of the 25th while
// the farm's founder has confirmed nothing; the shop's login takes the
// note and the digest.
func TestWaitingDocumentsAreNotClaimed(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		w.Exec(`UPDATE users SET email_confirmed = '', email_accounting = '', accounting_confirmed = ''`)
		w.Exec(`UPDATE people SET email_confirmed = ''`)
		// The shop's accountant and the farm's seller, their logins not
		// confirmed yet.
		for _, m := range []struct{ id, email, org, role string }{
			{"chloe", "chloe@cabinet.fr", w.Shop.ID, "accountant"}, {"sam", "sam@aravis.fr", w.Farm.ID, "sales"},
		} {
			w.Exec(`INSERT INTO people (id, email, email_key, email_confirmed, name, password_hash, created_at, updated_at)
				VALUES (?, ?, ?, '', ?, '', 0, 0)`, m.id, m.email, m.email, m.id)
			w.Exec(`INSERT INTO members (person_id, org_id, role, created_at, updated_at) VALUES (?, ?, ?, 0, 0)`, m.id, m.org, m.role)
		}
		var l logs
		e, srv := smtpEnv(t, db)
		e.Log = l.logger()
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		d := w.Delivery(o, "2026-11-30", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1200})
		type step struct {
			name string
			job  func(t *testing.T, now time.Time) jobs.Report
			now  time.Time
			want map[string]int
		}
		runJob := func(job func(context.Context, jobs.Env, time.Time) (jobs.Report, error)) func(*testing.T, time.Time) jobs.Report {
			return func(t *testing.T, now time.Time) jobs.Report { return run(t, job, e, now) }
		}
		check := func(steps ...step) {
			t.Helper()
			for _, s := range steps {
				r := s.job(t, s.now)
				for label, n := range s.want {
					if r.Get(label) != n {
						t.Fatalf("%s: %s, want %s : %d", s.name, r, label, n)
					}
				}
				if lines := l.take(); strings.Contains(lines, "email waits for a confirmed address") {
					t.Fatalf("%s claimed a document that waits:\n%s", s.name, lines)
				}
			}
		}

		// Nobody confirmed: every document is made, none claimed or sent.
		check(
			step{"lock", runJob(jobs.Deliveries), at(2026, 11, 30, 12, 0), map[string]int{jobs.Locked: 1}},
			step{"the note due", runJob(jobs.Deliveries), at(2026, 11, 30, 12, 35), map[string]int{jobs.NotesSent: 0}},
		)
		rules := delivery.DefaultRules()
		q, kind := -1.0, "quantity"
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			_, err := rules.SendClaim(ctx, tx, w.Farm.ID, o, d, delivery.Claim{Lines: []delivery.LineClaim{
				{ID: w.Line(d, "tomate"), QuantityClaimed: &q, ClaimType: &kind}}}, at(2026, 11, 30, 22, 0))
			return err
		}); err != nil {
			t.Fatal(err)
		}
		// A digest made before the shop's address was unconfirmed; the
		// notifications of what follows are turned off, to leave it alone.
		for _, m := range [][2]string{{w.Farm.ID, w.Farm.ID}, {w.Shop.ID, w.Shop.ID}, {"chloe", w.Shop.ID}, {"sam", w.Farm.ID}} {
			for _, k := range notify.Kinds {
				if err := notify.SetPref(ctx, db, m[0], m[1], k.Kind, notify.None); err != nil {
					t.Fatal(err)
				}
			}
		}
		w.Exec(`INSERT INTO cutoff_notices (id, producer_id, month, needs, created_at) VALUES ('notice', ?, '2027-01-01', '[]', ?)`,
			w.Farm.ID, at(2026, 12, 25, 8, 0).UnixMilli())
		w.Exec(`INSERT INTO digests (id, user_id, person_id, daily, created_at) VALUES ('digest', ?, ?, FALSE, ?)`, w.Shop.ID, w.Shop.ID, at(2026, 12, 25, 8, 0).UnixMilli())
		w.Exec(`INSERT INTO notifications (id, user_id, person_id, kind, line, link, created_at, digest_id) VALUES ('line', ?, ?, 'claim', 'Une réclamation.', '/x', ?, 'digest')`,
			w.Shop.ID, w.Shop.ID, at(2026, 12, 25, 8, 0).UnixMilli())
		check(
			step{"the invoice", runJob(jobs.Invoices), at(2026, 12, 1, 6, 0), map[string]int{jobs.InvoicesIssued: 1, jobs.InvoicesSent: 0}},
			step{"the credit note", runJob(jobs.Claims), at(2026, 12, 2, 22, 0), map[string]int{jobs.CreditsIssued: 1, jobs.CreditsSent: 0}},
			step{"the reminder", runJob(jobs.Reminders), at(2026, 12, 31, 9, 0), map[string]int{jobs.RemindersCreated: 1, jobs.RemindersSent: 0}},
			step{"the cutoff notice", runJob(jobs.Cutoff), at(2026, 12, 31, 8, 0), map[string]int{jobs.CutoffsSent: 0}},
			step{"the digest", runJob(jobs.Notifications), at(2026, 12, 31, 8, 0), map[string]int{jobs.DigestsSent: 0}},
			step{"everything again", runJob(jobs.Deliveries), at(2026, 12, 31, 10, 0), map[string]int{jobs.NotesSent: 0, jobs.InvoicesSent: 0}},
		)
		if n := len(srv.Merged(t)); n != 0 {
			t.Fatalf("%d emails sent to unconfirmed addresses", n)
		}
		// The shop's accountant confirmed, its founder not: the documents
		// billed go, to the accountant.
		w.Exec(`UPDATE people SET email_confirmed = email_key WHERE id = 'chloe'`)
		check(
			step{"the accountant confirmed", runJob(jobs.Deliveries), at(2026, 12, 31, 10, 5), map[string]int{jobs.NotesSent: 0, jobs.InvoicesSent: 2}},
			step{"the reminder, the accountant confirmed", runJob(jobs.Reminders), at(2026, 12, 31, 10, 5), map[string]int{jobs.RemindersCreated: 0, jobs.RemindersSent: 1}},
			step{"the digest, the accountant confirmed", runJob(jobs.Notifications), at(2026, 12, 31, 10, 5), map[string]int{jobs.DigestsSent: 0}},
			step{"the notice, the accountant confirmed", runJob(jobs.Cutoff), at(2026, 12, 31, 10, 5), map[string]int{jobs.CutoffsSent: 0}},
		)
		// The farm's seller confirmed, its founder not: the reminder of
		// the 25th goes, to the seller; the note is not theirs.
		w.Exec(`UPDATE people SET email_confirmed = email_key WHERE id = 'sam'`)
		check(
			step{"the seller confirmed", runJob(jobs.Cutoff), at(2026, 12, 31, 10, 7), map[string]int{jobs.CutoffsSent: 1}},
			step{"the note, the seller confirmed", runJob(jobs.Deliveries), at(2026, 12, 31, 10, 7), map[string]int{jobs.NotesSent: 0, jobs.InvoicesSent: 0}},
		)
		// The shop's login confirmed: the note and the digest go.
		w.Exec(`UPDATE users SET email_confirmed = email_key WHERE id = ?`, w.Shop.ID)
		w.Exec(`UPDATE people SET email_confirmed = email_key WHERE id = ?`, w.Shop.ID)
		check(
			step{"login confirmed", runJob(jobs.Deliveries), at(2026, 12, 31, 10, 10), map[string]int{jobs.NotesSent: 1, jobs.InvoicesSent: 0}},
			step{"the digest, login confirmed", runJob(jobs.Notifications), at(2026, 12, 31, 10, 10), map[string]int{jobs.DigestsSent: 1}},
		)

		to := map[string]string{}
		for _, m := range srv.Merged(t) {
			to[strings.Fields(m.Subject)[0]] += strings.Join(m.To, ",") + ";"
		}
		want := map[string]string{"Bon": "epicerie@lac.fr;", "Facture": "chloe@cabinet.fr;", "Avoir": "chloe@cabinet.fr;",
			"Relance": "chloe@cabinet.fr;", "Primeur": "epicerie@lac.fr;", "Besoins": "sam@aravis.fr;"}
		if !maps.Equal(to, want) {
			t.Fatalf("emails by subject and recipients %v, want %v", to, want)
		}
		var attempts int
		if err := store.Get(ctx, db, &attempts, `SELECT COALESCE(SUM(attempts), 0) FROM sends`); err != nil || attempts != 0 {
			t.Fatalf("waiting counted %d attempts (%v)", attempts, err)
		}
	})
}
