package jobs_test

import (
	"strings"
	"sync"
	"testing"
	"time"

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
// replicas, again 15 days after its due date — the 25th, Christmas, then a
// weekend: on Monday the 28th —, and not at all for the shop the producer
// turned reminders off for; the email goes to the shop's accounting with
// the invoice.
func TestRemindersOnceEachStep(t *testing.T) {
	t.Parallel()
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
		if m.Subject != "Relance : factures échues de Ferme des Aravis" || m.To[0] != "epicerie@lac.fr" ||
			!strings.Contains(m.Body, "FA-2026-000001 du 1er décembre 2026, échéance le 10 décembre 2026 : reste à payer 26,38\u00a0€") ||
			len(m.Attachments) != 1 || m.Attachments[0].Name != "FA-2026-000001.pdf" {
			t.Fatalf("reminder to %v %q:\n%s", m.To, m.Subject, m.Body)
		}
		// The second step, fifteen days after the due date: not on
		// Christmas nor the weekend after, on the next working day.
		for _, day := range []int{24, 25, 26, 27} {
			if r := run(t, jobs.Reminders, e, at(2026, 12, day, 9, 0)); r.Get(jobs.RemindersCreated) != 0 || r.Get(jobs.RemindersSent) != 0 {
				t.Fatalf("on the %dth: %s", day, r)
			}
		}
		if r := run(t, jobs.Reminders, e, at(2026, 12, 28, 9, 0)); r.Get(jobs.RemindersCreated) != 1 || r.Get(jobs.RemindersSent) != 1 {
			t.Fatalf("on the 28th: %s", r)
		}
		last := srv.Merged(t)
		if got := last[len(last)-1]; !strings.HasPrefix(got.Subject, "Deuxième relance") {
			t.Fatalf("second reminder %q", got.Subject)
		}
		// Paid: nothing more, ever.
		if r := run(t, jobs.Reminders, e, at(2027, 2, 1, 9, 0)); r.Get(jobs.RemindersCreated) != 0 {
			t.Fatalf("after both steps: %s", r)
		}
	})
}

// TestPaidInvoicesAreNotReminded: a payment in full before the due date
// leaves nothing to remind of.
func TestPaidInvoicesAreNotReminded(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
		if r := run(t, jobs.Reminders, e, at(2026, 12, 14, 9, 0)); r.Get(jobs.RemindersCreated) != 1 {
			t.Fatalf("after the undo: %s", r)
		}
		var docs []string
		if err := store.Select(ctx, db, &docs, `SELECT i.number FROM reminder_documents r JOIN documents i ON i.id = r.document_id AND i.kind = 'invoice'`); err != nil ||
			len(docs) != 1 || docs[0] != "FA-2026-000002" {
			t.Fatalf("reminded %v (%v), want November's invoice only", docs, err)
		}
	})
}

// TestRemindersListEveryOverdueDocument: October's invoice, reminded twice
// in November and paid in part, is still overdue when November's falls
// due: the reminder of 11 December lists both, each with its balance, due
// date and step, attaches both, states the late-payment rate in force (the
// ECB's rate of the semester plus 10 points) and the 40 € indemnity, and
// answers go to the producer (Reply-To), though it comes from Primeur's
// no-reply address.
func TestRemindersListEveryOverdueDocument(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		for _, day := range []string{"2026-10-05", "2026-11-05"} {
			o := w.Order(w.Farm, w.Shop, day[:8]+"01")
			w.Emailed(o, day, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		}
		e, srv := smtpEnv(t, db)
		run(t, jobs.Invoices, e, at(2026, 11, 1, 6, 0))
		for _, day := range []int{10, 24} { // October's invoice, due on 9 November
			if r := run(t, jobs.Reminders, e, at(2026, 11, day, 9, 0)); r.Get(jobs.RemindersSent) != 1 {
				t.Fatalf("on %d November: %s", day, r)
			}
		}
		if _, err := payments.Record(ctx, db, w.Farm, payments.Input{PartnerID: w.Shop.ID, Amount: 1000, PaidOn: "2026-11-30",
			Method: payments.Transfer}, at(2026, 11, 30, 9, 0), "2026-11-30"); err != nil {
			t.Fatal(err)
		}
		run(t, jobs.Invoices, e, at(2026, 12, 1, 6, 0))
		before := len(srv.Merged(t))
		if r := run(t, jobs.Reminders, e, at(2026, 12, 11, 9, 0)); r.Get(jobs.RemindersCreated) != 1 || r.Get(jobs.RemindersSent) != 1 {
			t.Fatalf("on 11 December: %s", r)
		}
		msgs := srv.Merged(t)[before:]
		if len(msgs) != 1 {
			t.Fatalf("%d messages", len(msgs))
		}
		m := msgs[0]
		for _, want := range []string{
			"- FA-2026-000001 du 1er novembre 2026, échéance le 9 novembre 2026 : reste à payer 16,38\u00a0€ (déjà relancée deux fois)",
			"- FA-2026-000002 du 1er décembre 2026, échéance le 10 décembre 2026 : reste à payer 26,38\u00a0€ (première relance)",
			"Total : 42,76\u00a0€",
			"des pénalités de retard au taux annuel de 12,15\u00a0% (taux de refinancement de la Banque centrale européenne en vigueur " +
				"au 1er juillet 2026, 2,15\u00a0%, majoré de 10 points ; art. L441-10 du Code de commerce)",
			"une indemnité forfaitaire pour frais de recouvrement de 40,00\u00a0€ par facture (art. D441-5 du Code de commerce)",
			"répondez à ce message : votre réponse parviendra à Ferme des Aravis.",
		} {
			if !strings.Contains(m.Body, want) {
				t.Errorf("no %q in\n%s", want, m.Body)
			}
		}
		if strings.Index(m.Body, "FA-2026-000001 du") > strings.Index(m.Body, "FA-2026-000002 du") {
			t.Error("the documents are not in the order of their due dates")
		}
		if m.Subject != "Relance : factures échues de Ferme des Aravis" || len(m.Attachments) != 2 ||
			m.Attachments[0].Name != "FA-2026-000001.pdf" || m.Attachments[1].Name != "FA-2026-000002.pdf" {
			t.Fatalf("%q with %d attachments", m.Subject, len(m.Attachments))
		}
		for _, c := range srv.Messages(t)[len(srv.Messages(t))-2:] {
			from, _ := c.Header.AddressList("From")
			reply, err := c.Header.AddressList("Reply-To")
			if err != nil || len(reply) != 1 || reply[0].Address != "ferme@aravis.fr" || reply[0].Name != "Ferme des Aravis" ||
				len(from) != 1 || from[0].Address != "no-reply@primeur.local" {
				t.Errorf("copy to %v: From %v, Reply-To %q (%v)", c.To, from, c.Header.Get("Reply-To"), err)
			}
		}
		// What is stored: November's invoice at its first step, October's
		// at its second, each once.
		var steps []string
		if err := store.Select(ctx, db, &steps, `SELECT i.number || '/' || rd.step FROM reminder_documents rd
			JOIN documents i ON i.id = rd.document_id AND i.kind = 'invoice' ORDER BY i.number, rd.step`); err != nil {
			t.Fatal(err)
		}
		if strings.Join(steps, " ") != "FA-2026-000001/1 FA-2026-000001/2 FA-2026-000002/1" {
			t.Fatalf("reminded %v", steps)
		}
	})
}

// TestRemindersOnWorkingDaysOnly: an invoice due on Friday 30 October
// reaches its first step on Saturday: the job does nothing on the weekend
// (nor sends a reminder left unsent), and reminds of it on Monday 2
// November, once.
func TestRemindersOnWorkingDaysOnly(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		o := w.Order(w.Farm, w.Shop, "2026-09-01")
		w.Emailed(o, "2026-09-25", tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		e, srv := smtpEnv(t, db)
		run(t, jobs.Invoices, e, at(2026, 10, 1, 6, 0))
		var due string
		if err := store.Get(ctx, db, &due, `SELECT due_date FROM documents WHERE kind = 'invoice'`); err != nil || due != "2026-10-30" {
			t.Fatalf("due on %s (%v)", due, err)
		}
		before := len(srv.Merged(t))
		for _, c := range []struct {
			day           int
			month         time.Month
			created, sent int
		}{{31, time.October, 0, 0}, {1, time.November, 0, 0}, {2, time.November, 1, 1}, {3, time.November, 0, 0}} {
			if r := run(t, jobs.Reminders, e, at(2026, c.month, c.day, 9, 0)); r.Get(jobs.RemindersCreated) != c.created ||
				r.Get(jobs.RemindersSent) != c.sent {
				t.Fatalf("on %d %s: %s", c.day, c.month, r)
			}
		}
		if n := len(srv.Merged(t)) - before; n != 1 {
			t.Fatalf("%d reminders", n)
		}
	})
}
