package jobs_test

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
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
// goes on the first run after an address it goes to is confirmed: the
// shop's accounting email takes the invoice, the credit note and the
// reminder, not the note, which waits for a login email; the shop's login
// takes the note and the digest; the producer's the cutoff notice.
func TestWaitingDocumentsAreNotClaimed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		w.Exec(`UPDATE users SET email_confirmed = '', accounting_confirmed = ''`)
		w.Exec(`UPDATE people SET email_confirmed = ''`)
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
		for _, u := range []string{w.Farm.ID, w.Shop.ID} {
			for _, k := range notify.Kinds {
				if err := notify.SetPref(ctx, db, u, u, k.Kind, notify.None); err != nil {
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
		// What the selections read: the keys of the addresses as issued.
		var keys []string
		if err := store.Select(ctx, db, &keys, `SELECT mail_seller_key || ' ' || mail_buyer_key || ' ' || mail_accounting_key FROM documents`); err != nil {
			t.Fatal(err)
		}
		if len(keys) != 2 || keys[0] != "ferme@aravis.fr epicerie@lac.fr compta@lac.fr" || keys[1] != keys[0] {
			t.Fatalf("the documents' address keys: %q", keys)
		}

		// The shop's accounting email confirmed: the documents billed go.
		w.Exec(`UPDATE users SET accounting_confirmed = ? WHERE id = ?`, accounts.EmailKey(w.Shop.EmailAccounting), w.Shop.ID)
		check(
			step{"accounting confirmed", runJob(jobs.Deliveries), at(2026, 12, 31, 10, 5), map[string]int{jobs.NotesSent: 0, jobs.InvoicesSent: 2}},
			step{"the reminder, accounting confirmed", runJob(jobs.Reminders), at(2026, 12, 31, 10, 5), map[string]int{jobs.RemindersCreated: 0, jobs.RemindersSent: 1}},
			step{"the digest, accounting confirmed", runJob(jobs.Notifications), at(2026, 12, 31, 10, 5), map[string]int{jobs.DigestsSent: 0}},
		)
		// The shop's login confirmed: the note and the digest go.
		w.Exec(`UPDATE users SET email_confirmed = email_key WHERE id = ?`, w.Shop.ID)
		w.Exec(`UPDATE people SET email_confirmed = email_key WHERE id = ?`, w.Shop.ID)
		check(
			step{"login confirmed", runJob(jobs.Deliveries), at(2026, 12, 31, 10, 10), map[string]int{jobs.NotesSent: 1, jobs.InvoicesSent: 0}},
			step{"the digest, login confirmed", runJob(jobs.Notifications), at(2026, 12, 31, 10, 10), map[string]int{jobs.DigestsSent: 1}},
			step{"the notice, the shop confirmed", runJob(jobs.Cutoff), at(2026, 12, 31, 10, 10), map[string]int{jobs.CutoffsSent: 0}},
		)
		// The producer's: the cutoff notice goes.
		w.Exec(`UPDATE users SET email_confirmed = email_key WHERE id = ?`, w.Farm.ID)
		w.Exec(`UPDATE people SET email_confirmed = email_key WHERE id = ?`, w.Farm.ID)
		check(step{"the producer confirmed", runJob(jobs.Cutoff), at(2026, 12, 31, 10, 15), map[string]int{jobs.CutoffsSent: 1}})

		to := map[string]string{}
		for _, m := range srv.Merged(t) {
			to[strings.Fields(m.Subject)[0]] += strings.Join(m.To, ",") + ";"
		}
		want := map[string]string{"Bon": "epicerie@lac.fr;", "Facture": "compta@lac.fr;", "Avoir": "compta@lac.fr;",
			"Relance": "compta@lac.fr;", "Primeur": "epicerie@lac.fr;", "Besoins": "ferme@aravis.fr;"}
		if !maps.Equal(to, want) {
			t.Fatalf("emails by subject and recipients %v, want %v", to, want)
		}
		var attempts int
		if err := store.Get(ctx, db, &attempts, `SELECT COALESCE(SUM(attempts), 0) FROM sends`); err != nil || attempts != 0 {
			t.Fatalf("waiting counted %d attempts (%v)", attempts, err)
		}
	})
}
