package jobs_test

import (
	"strings"
	"sync"
	"testing"

	"primeur/core/accounts"
	"primeur/core/jobs"
	"primeur/core/mail"
	"primeur/core/mail/mailtest"
	"primeur/core/orders"
	"primeur/core/payments"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// TestRemindersOnceEachStep: an invoice due on 10 December and unpaid is
// reminded on the 11th (not on the 10th), once whatever the runs and the
// replicas, again on the 25th, and not at all for the shop the producer
// turned reminders off for; the email goes to the shop's accounting with
// the invoice.
func TestRemindersOnceEachStep(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		quiet := w.User(accounts.User{Type: accounts.Distributor, Email: "calme@magasin.fr", Name: "Magasin calme"})
		for _, shop := range []accounts.User{w.Shop, quiet} {
			o := w.Order(w.Farm, shop, "2026-11-01")
			w.Emailed(o, "2026-11-05", tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		}
		if err := payments.SetReminders(ctx, db, w.Farm.ID, quiet.ID, false); err != nil {
			t.Fatal(err)
		}
		srv := mailtest.Start(t, "", "")
		e := env(db, mail.SMTP{Config: srv.Config()})
		run(t, jobs.Invoices, e, at(2026, 12, 1, 6, 0))
		before := len(srv.Merged(t))

		if r := run(t, jobs.Reminders, e, at(2026, 12, 10, 9, 0)); r.String() != "relances préparées : 0, relances envoyées : 0" {
			t.Fatalf("on the due date: %s", r)
		}
		// The 11th: four replicas at once, one reminder.
		var wg sync.WaitGroup
		for range 4 {
			e := env(tradetest.Handle(t, db), mail.SMTP{Config: srv.Config()})
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := jobs.Reminders(ctx, e, at(2026, 12, 11, 9, 0)); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if r := run(t, jobs.Reminders, e, at(2026, 12, 11, 10, 0)); r.Get(jobs.RemindersCreated) != 0 || r.Get(jobs.RemindersSent) != 0 {
			t.Fatalf("again on the 11th: %s", r)
		}
		msgs := srv.Merged(t)[before:]
		if len(msgs) != 1 {
			t.Fatalf("%d reminders on the 11th", len(msgs))
		}
		m := msgs[0]
		if m.Subject != "Relance : factures échues de Ferme des Aravis" || m.To[0] != "compta@lac.fr" ||
			!strings.Contains(m.Body, "FA-2026-000001 du 1er décembre 2026, échéance le 10 décembre 2026 : reste à payer 26,38\u00a0€") ||
			len(m.Attachments) != 1 || m.Attachments[0].Name != "FA-2026-000001.pdf" {
			t.Fatalf("reminder to %v %q:\n%s", m.To, m.Subject, m.Body)
		}
		// The second step, fifteen days after the due date.
		if r := run(t, jobs.Reminders, e, at(2026, 12, 24, 9, 0)); r.Get(jobs.RemindersCreated) != 0 {
			t.Fatalf("on the 24th: %s", r)
		}
		if r := run(t, jobs.Reminders, e, at(2026, 12, 25, 9, 0)); r.Get(jobs.RemindersCreated) != 1 || r.Get(jobs.RemindersSent) != 1 {
			t.Fatalf("on the 25th: %s", r)
		}
		last := srv.Merged(t)
		if got := last[len(last)-1]; !strings.HasPrefix(got.Subject, "Deuxième relance") {
			t.Fatalf("second reminder %q", got.Subject)
		}
		// Paid: nothing more, ever.
		if r := run(t, jobs.Reminders, e, at(2027, 1, 30, 9, 0)); r.Get(jobs.RemindersCreated) != 0 {
			t.Fatalf("after both steps: %s", r)
		}
	})
}

// TestPaidInvoicesAreNotReminded: a payment in full before the due date
// leaves nothing to remind of.
func TestPaidInvoicesAreNotReminded(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Delivery(o, "2026-11-05", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		e := env(db, mail.Outbox{Dir: t.TempDir(), From: "no-reply@primeur.local"})
		run(t, jobs.Invoices, e, at(2026, 12, 1, 6, 0))
		if _, err := payments.Record(ctx, db, w.Farm, payments.Input{PartnerID: w.Shop.ID, Amount: 2638, PaidOn: "2026-12-05",
			Method: payments.Transfer}, at(2026, 12, 5, 9, 0), "2026-12-05"); err != nil {
			t.Fatal(err)
		}
		if r := run(t, jobs.Reminders, e, at(2026, 12, 11, 9, 0)); r.Get(jobs.RemindersCreated) != 0 {
			t.Fatalf("a paid invoice reminded: %s", r)
		}
	})
}

// TestRemindersCreditAndWindow: an invoice paid by what an earlier payment
// left on account is not reminded; an invoice due more than
// payments.RemindWithin days ago, never reminded (the job did not run), is
// not reminded any more, while a recent one of the same pair is.
func TestRemindersCreditAndWindow(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		for _, month := range []string{"2026-06-01", "2026-11-01"} {
			o := w.Order(w.Farm, w.Shop, month)
			w.Delivery(o, month[:8]+"05", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		}
		e := env(db, mail.Outbox{Dir: t.TempDir(), From: "no-reply@primeur.local"})
		run(t, jobs.Invoices, e, at(2026, 7, 1, 6, 0))
		// June's invoice (due 10 July) is paid twice over: 26,38 € stay
		// on account.
		if _, err := payments.Record(ctx, db, w.Farm, payments.Input{PartnerID: w.Shop.ID, Amount: 2 * 2638, PaidOn: "2026-07-05",
			Method: payments.Transfer}, at(2026, 7, 5, 9, 0), "2026-07-05"); err != nil {
			t.Fatal(err)
		}
		run(t, jobs.Invoices, e, at(2026, 12, 1, 6, 0))
		if r := run(t, jobs.Reminders, e, at(2026, 12, 11, 9, 0)); r.Get(jobs.RemindersCreated) != 0 {
			t.Fatalf("an invoice paid by the credit on account reminded: %s", r)
		}
		// The payment is undone: November is overdue again and reminded;
		// June, due in July, is past the window and is not.
		var p payments.Payment
		if err := db.Get(&p, `SELECT id FROM payments`); err != nil {
			t.Fatal(err)
		}
		if _, err := payments.Undo(ctx, db, w.Farm, p.ID, at(2026, 12, 11, 10, 0)); err != nil {
			t.Fatal(err)
		}
		if r := run(t, jobs.Reminders, e, at(2026, 12, 12, 9, 0)); r.Get(jobs.RemindersCreated) != 1 {
			t.Fatalf("after the undo: %s", r)
		}
		var docs []string
		if err := store.Select(ctx, db, &docs, `SELECT i.number FROM reminder_documents r JOIN invoices i ON i.id = r.document_id`); err != nil ||
			len(docs) != 1 || docs[0] != "FA-2026-000002" {
			t.Fatalf("reminded %v (%v), want November's invoice only", docs, err)
		}
	})
}
