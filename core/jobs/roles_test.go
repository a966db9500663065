package jobs_test

import (
	"slices"
	"strings"
	"testing"

	"primeur/core/jobs"
	"primeur/core/notify"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
	"primeur/core/trade/tradetest"
)

// TestEmailsGoByRole: the notifications and the documents of an
// organisation go to the members whose role they concern, the owners
// hearing of everything (issue 41, core/notify's audience), each with
// their own choices: the shop's buyer gets the digest of a proposal, its
// accountant and its receiver do not; a second buyer who turned proposals
// off gets nothing; the invoice goes to the accountant and the owners,
// not to the buyers; the delivery note to the receiver and the owners.
func TestEmailsGoByRole(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		e, srv := smtpEnv(t, db)
		for _, m := range []struct{ id, email, role string }{
			{"marie", "marie@lac.fr", "buyer"}, {"paul", "paul@lac.fr", "buyer"},
			{"chloe", "chloe@cabinet.fr", "accountant"}, {"remi", "remi@lac.fr", "receiver"},
		} {
			w.Exec(`INSERT INTO people (id, email, email_key, email_confirmed, name, password_hash, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, '', 0, 0)`, m.id, m.email, m.email, m.email, m.id)
			w.Exec(`INSERT INTO members (person_id, org_id, role, created_at, updated_at) VALUES (?, ?, ?, 0, 0)`, m.id, w.Shop.ID, m.role)
		}
		// The shop's accounting address is now its accountant (migration 72).
		w.Exec(`UPDATE users SET email_accounting = '', accounting_confirmed = '' WHERE id = ?`, w.Shop.ID)
		if err := notify.SetPref(ctx, db, "paul", w.Shop.ID, notify.Proposal, notify.None); err != nil {
			t.Fatal(err)
		}
		to := func(subject string) []string {
			t.Helper()
			var out []string
			for _, m := range srv.Merged(t) {
				if strings.HasPrefix(m.Subject, subject) {
					out = append(out, m.To...)
				}
			}
			slices.Sort(out)
			return out
		}

		need := w.Need(w.Shop.ID, "tomate", "2026-12-01", 20000)
		ten := at(2026, 11, 26, 10, 0)
		if _, err := trade.Propose(ctx, db, w.Farm, need, w.Farm.ID, trade.Offer{Quantity: 120, Price: 2.5}, ten); err != nil {
			t.Fatal(err)
		}
		if r := run(t, jobs.Notifications, e, ten.Add(5*60e9)); r.Get(jobs.DigestsSent) != 2 {
			t.Fatalf("the proposal's digests: %s", r)
		}
		if got, want := to("Primeur : Ferme des Aravis vous propose"), []string{"epicerie@lac.fr", "marie@lac.fr"}; !slices.Equal(got, want) {
			t.Fatalf("the proposal's digest went to %v, want %v", got, want)
		}
		var paul int
		if err := store.Get(ctx, db, &paul, `SELECT COUNT(*) FROM notifications WHERE person_id = 'paul'`); err != nil || paul != 0 {
			t.Fatalf("the buyer who turned proposals off keeps %d lines (%v)", paul, err)
		}

		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Delivery(o, "2026-11-10", "planned", tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		run(t, jobs.Deliveries, e, at(2026, 11, 10, 12, 0))
		if r := run(t, jobs.Deliveries, e, at(2026, 11, 10, 12, 35)); r.Get(jobs.NotesSent) != 1 {
			t.Fatalf("the note: %s", r)
		}
		if r := run(t, jobs.Invoices, e, at(2026, 11, 30, 21, 0)); r.Get(jobs.InvoicesSent) != 1 {
			t.Fatalf("the invoice: %s", r)
		}
		if got, want := to("Facture FA-"), []string{"chloe@cabinet.fr", "epicerie@lac.fr", "ferme@aravis.fr"}; !slices.Equal(got, want) {
			t.Fatalf("the invoice went to %v, want %v", got, want)
		}
		if got, want := to("Bon de livraison"), []string{"epicerie@lac.fr", "ferme@aravis.fr", "remi@lac.fr"}; !slices.Equal(got, want) {
			t.Fatalf("the delivery note went to %v, want %v", got, want)
		}
	})
}
