package jobs_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"primeur/core/accounts"
	"primeur/core/jobs"
	"primeur/core/mail"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// subjects is a mail sender that keeps each message's recipients and
// subject, as the dry run's Email.
type subjects struct {
	mu   sync.Mutex
	sent []jobs.Email
}

func (s *subjects) Send(_ context.Context, m mail.Message) error {
	e := jobs.Email{To: m.To, Subject: m.Subject}
	for _, a := range m.Attachments {
		e.Attachments = append(e.Attachments, a.Name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent = append(s.sent, e)
	return nil
}

// take returns the messages kept since the last call, sorted as a dry run
// sorts them.
func (s *subjects) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, len(s.sent))
	for i, e := range s.sent {
		out[i] = e.String()
	}
	s.sent = nil
	return sortedEmails(out)
}

func sortedEmails(lines []string) []string {
	slices.Sort(lines)
	return lines
}

// noSender fails the test when a dry run sends anything.
type noSender struct{ t *testing.T }

func (s noSender) Send(_ context.Context, m mail.Message) error {
	s.t.Errorf("a dry run sent %q", m.Subject)
	return nil
}

// TestDryRunOfTheMonthEndInvoices: `jobs run invoices --dry-run` on the
// month's last day at 21:00 lists the invoices the run would issue, with
// their numbers, and the emails it would send; the database is byte for
// byte what it was and nothing is sent. The real run then issues exactly
// those.
func TestDryRunOfTheMonthEndInvoices(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		other := w.User(accounts.User{Type: accounts.Distributor, Email: "halle@annecy.fr", Name: "Halle d'Annecy"})
		o1 := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Emailed(o1, "2026-11-10", tradetest.L{Product: "tomate", Price: 250, Expected: 4000})
		// Locked by the run itself, as the deliveries job would have.
		w.Delivery(o1, "2026-11-30", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		o2 := w.Order(w.Farm, other, "2026-11-01")
		w.Emailed(o2, "2026-11-12", tradetest.L{Product: "tomate", Price: 300, Expected: 2000})
		now := at(2026, 11, 30, 21, 0)
		job, _ := jobs.Find("invoices")

		before := storetest.Snapshot(t, db)
		r, emails, err := job.DryRun(ctx, env(db, noSender{t}), now)
		if err != nil {
			t.Fatal(err)
		}
		if after := storetest.Snapshot(t, db); after != before {
			t.Fatalf("the dry run changed the database:\n%s", storetest.Changes(before, after))
		}
		wantIssued := []string{
			"facture FA-2026-000001 : Ferme des Aravis → Épicerie du Lac, 131,88\u00a0€ TTC",
			"facture FA-2026-000002 : Ferme des Aravis → Halle d'Annecy, 63,30\u00a0€ TTC",
		}
		if r.Get(jobs.InvoicesIssued) != 2 || r.Get(jobs.InvoicesSent) != 2 || !slices.Equal(r.Issued, wantIssued) {
			t.Fatalf("dry run: %s\n%s", r, strings.Join(r.Issued, "\n"))
		}
		var lines []string
		for _, e := range emails {
			lines = append(lines, e.String())
		}
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "à ") || !strings.Contains(lines[0], "Facture FA-2026-00000") ||
			!strings.Contains(lines[0], "(FA-2026-00000") {
			t.Fatalf("emails: %q", lines)
		}

		sender := &subjects{}
		real := run(t, jobs.Invoices, env(db, sender), now)
		if real.String() != r.String() || !slices.Equal(real.Issued, r.Issued) || !slices.Equal(sender.take(), lines) {
			t.Fatalf("the real run differs from its dry run:\n%s\n%q", real, real.Issued)
		}
	})
}

// TestEveryJobsDryRunIsItsRun: at each step of a scripted month, every
// job's dry run reports, issues and emails what its real run then does,
// and leaves the database as it was: the dry run is the run, rehearsed.
func TestEveryJobsDryRunIsItsRun(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		w.Exec(`UPDATE users SET payment_discount = 200, payment_discount_days = 10 WHERE id = ?`, w.Farm.ID)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Emailed(o, "2026-11-10", tradetest.L{Product: "tomate", Price: 250, Expected: 4000})
		w.Delivery(o, "2026-11-20", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		w.Played(o, "2026-11-13", tradetest.Outcome{Status: orders.Done, Claim: &tradetest.ClaimOutcome{
			SentAt: at(2026, 11, 13, 15, 0),
			Lines:  map[string]tradetest.ClaimedLine{"tomate": {Quantity: -500, Type: orders.ClaimQuantity}},
		}}, tradetest.L{Product: "tomate", Price: 250, Expected: 2000})
		next := w.Order(w.Farm, w.Shop, "2026-12-01")
		w.Delivery(next, "2026-12-04", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})

		sender := &subjects{}
		real := env(db, sender)
		for _, now := range []time.Time{
			at(2026, 11, 13, 9, 0), at(2026, 11, 16, 10, 0), at(2026, 11, 20, 12, 30), at(2026, 11, 25, 8, 0),
			at(2026, 11, 30, 21, 0), at(2026, 12, 1, 7, 5), at(2026, 12, 4, 12, 35), at(2026, 12, 31, 21, 0),
			at(2027, 1, 5, 9, 0), at(2027, 1, 20, 9, 0), at(2027, 2, 8, 9, 0),
		} {
			for _, job := range jobs.All {
				t.Run(fmt.Sprintf("%s at %s", job.Name, now.Format("2006-01-02T15:04")), func(t *testing.T) {
					before := storetest.Snapshot(t, db)
					dry, emails, err := job.DryRun(ctx, env(db, noSender{t}), now)
					if err != nil {
						t.Fatal(err)
					}
					if after := storetest.Snapshot(t, db); after != before {
						t.Fatalf("the dry run changed the database:\n%s", storetest.Changes(before, after))
					}
					lines := make([]string, len(emails))
					for i, e := range emails {
						lines[i] = e.String()
					}
					done := run(t, job.Run, real, now)
					if done.String() != dry.String() || !slices.Equal(done.Issued, dry.Issued) || !slices.Equal(sender.take(), sortedEmails(lines)) {
						t.Fatalf("dry run %s %q %q\nreal run %s %q", dry, dry.Issued, lines, done, done.Issued)
					}
				})
			}
		}
	})
}
