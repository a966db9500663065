package reliability

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/decimal"
	"primeur/core/jobs"
	"primeur/core/mail/mailtest"
	"primeur/core/payments"
	"primeur/core/store"
)

// The days of the reminders: November's invoices are issued on December
// 1st at 06:00; their first delivery billed is on November 5th, so with the
// default terms (30 days after the end of its décade) they fall due on
// December 10th, and the first reminder is due from the 11th.
const (
	invoicing = "2026-12-01T06:00:00+01:00"
	dueDate   = "2026-12-10"
	reminding = "2026-12-11T09:00:00+01:00"
)

// dueInvoice is an invoice as the reminders checks read it.
type dueInvoice struct {
	ID       string `db:"id"`
	Producer string `db:"producer_id"`
	Shop     string `db:"distributor_id"`
	Number   string `db:"number"`
	DueDate  string `db:"due_date"`
	TotalTTC int64  `db:"total_ttc"`
}

// reminderRow is a reminder as the checks read it, with its one document.
type reminderRow struct {
	ID       string         `db:"id"`
	Producer string         `db:"producer_id"`
	Shop     string         `db:"distributor_id"`
	Step     int            `db:"step"`
	SentAt   sql.NullInt64  `db:"sent_at"`
	Attempts int            `db:"mail_attempts"`
	Docs     int            `db:"docs"`
	Document sql.NullString `db:"document_id"`
}

// TestTwoReplicasRemindOnce runs two `primeur serve` processes on one
// database, both pinned to December 11th 09:00, the day after November's
// invoices fell due: the start-up catch-up of each runs the reminders job
// at once on both. Every (producer, shop) pair with an overdue invoice must
// get exactly one reminder email — one row in reminders (step 1, recorded
// as sent), its invoice in reminder_documents once, one message on the
// SMTP server — whichever replica wins; the pair whose invoice was paid
// and the pair the producer turned reminders off for get none, and the
// replicas send nothing else (no invoice again).
//
// Before the replicas, `primeur jobs run invoices` as of December 1st
// 06:00 issues and emails November's invoices (one per pair), and the test
// records the payment and the opt-out through the store.
//
// To make the two replicas really remind at the same moment, the test
// blocks the writes to the reminders table (holdWrites) before starting
// them: the job (payments.CreateReminders) reads the accounts and what was
// reminded already, then writes each reminder in a transaction that
// begins with INSERT INTO reminders. On PostgreSQL the test waits until
// both replicas' sessions wait on that insert, that is until both have
// read everything and decided to remind every overdue pair; then it lets
// them go, and for each pair the primary key of reminder_documents must
// refuse the second replica's reminder. On SQLite the hold takes the
// database's one write lock and a process waiting for it shows nothing:
// the test lets the replicas go once both logged the start of their jobs,
// which on that engine makes the race likely (the job's reads take
// milliseconds) without proving it; the checks are the same.
func TestTwoReplicasRemindOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, engine := range engines(t) {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			b, db := newBase(t, engine)
			srv := mailtest.Start(t, "", "")
			tr := transport{name: "smtp", smtp: srv}
			w := seed(t, db, shape{producers: 3, shops: 8, done: []string{"2026-11-05", "2026-11-19"}})

			// 1. November's invoices, issued and emailed once each.
			cmd := start(t, "jobs run invoices", append(append([]string{"jobs", "run", "invoices", "--at", invoicing, "--force"},
				b.args()...), tr.args()...)...)
			if code := cmd.wait(); code != 0 {
				t.Fatalf("jobs run invoices: status %d", code)
			}
			checkInvoices(t, db, w)
			var invs []dueInvoice
			if err := store.Select(ctx, db, &invs, `SELECT id, producer_id, distributor_id, number, due_date, total_ttc
				FROM documents WHERE kind = 'invoice' ORDER BY producer_id, distributor_id`); err != nil {
				t.Fatal(err)
			}
			sent := messageCounts(srv)
			for _, inv := range invs {
				if inv.DueDate != dueDate {
					t.Fatalf("invoice %s due on %s, want %s", inv.Number, inv.DueDate, dueDate)
				}
				if n := sent["invoice-"+inv.ID]; n != 1 {
					t.Fatalf("invoice %s emailed %d times", inv.Number, n)
				}
			}
			before := len(srv.MessageIDs())

			// 2. Two pairs are not to be reminded.
			quiet := []struct {
				producer, shop, why string
				apply               func(inv dueInvoice) error
			}{
				{"farm-00", "shop-000", "its invoice paid in full on December 5th", func(inv dueInvoice) error {
					return db.Tx(ctx, func(tx *sqlx.Tx) error {
						_, err := payments.Record(ctx, tx, accounts.User{ID: inv.Producer}, payments.Input{PartnerID: inv.Shop,
							Amount: decimal.Dec(inv.TotalTTC), PaidOn: "2026-12-05", Method: payments.Transfer},
							time.Date(2026, 12, 5, 9, 0, 0, 0, paris), "2026-12-05")
						return err
					})
				}},
				{"farm-01", "shop-001", "its producer turned reminders off", func(inv dueInvoice) error {
					return payments.SetReminders(ctx, db, inv.Producer, inv.Shop, false)
				}},
			}
			overdue := map[[2]string]dueInvoice{} // the pairs to remind, with their invoice
			for _, inv := range invs {
				overdue[[2]string{inv.Producer, inv.Shop}] = inv
			}
			if len(overdue) != len(w.orders) {
				t.Fatalf("%d pairs invoiced for %d orders", len(overdue), len(w.orders))
			}
			for _, q := range quiet {
				pair := [2]string{q.producer, q.shop}
				inv, ok := overdue[pair]
				if !ok {
					t.Fatalf("no invoice for %v", pair)
				}
				if err := q.apply(inv); err != nil {
					t.Fatalf("%v, %s: %v", pair, q.why, err)
				}
				delete(overdue, pair)
			}

			// 3. Two replicas remind at once.
			replicas, reports := race{table: "reminders", statement: "INSERT INTO reminders", job: "reminders"}.
				run(t, b, db, reminding, tr)
			created, mailed := 0, 0
			for i, r := range replicas {
				c, s := reportCount(t, reports[i], jobs.RemindersCreated), reportCount(t, reports[i], jobs.RemindersSent)
				created += c
				mailed += s
				t.Logf("%s: %d reminders created, %d sent (%s)", r.name, c, s, reports[i])
			}
			if created != len(overdue) || mailed != len(overdue) {
				t.Fatalf("the replicas created %d reminders and sent %d, for %d overdue pairs", created, mailed, len(overdue))
			}

			// 4. One reminder per overdue pair, recorded as sent, emailed once.
			var rows []reminderRow
			if err := store.Select(ctx, db, &rows, `SELECT r.id, r.producer_id, r.distributor_id, r.step, s.sent_at, COALESCE(s.attempts, 0) AS mail_attempts,
				(SELECT COUNT(*) FROM reminder_documents d WHERE d.reminder_id = r.id) AS docs,
				(SELECT MIN(d.document_id) FROM reminder_documents d WHERE d.reminder_id = r.id) AS document_id
				FROM reminders r LEFT JOIN sends s ON s.message_key = 'reminder-' || r.id ORDER BY r.producer_id, r.distributor_id`); err != nil {
				t.Fatal(err)
			}
			if len(rows) != len(overdue) {
				t.Fatalf("%d reminders for %d overdue pairs", len(rows), len(overdue))
			}
			if n := count(t, db, `SELECT COUNT(*) FROM reminder_documents`); n != len(overdue) {
				t.Fatalf("%d reminded documents for %d overdue invoices", n, len(overdue))
			}
			sent = messageCounts(srv)
			byPair := map[[2]string]reminderRow{}
			pairOf := map[string][2]string{} // by reminder id
			for _, r := range rows {
				pair := [2]string{r.Producer, r.Shop}
				inv, ok := overdue[pair]
				switch {
				case !ok:
					t.Fatalf("reminder %s to %v, a pair with nothing overdue", r.ID, pair)
				case byPair[pair].ID != "":
					t.Fatalf("%v reminded twice: %s and %s", pair, byPair[pair].ID, r.ID)
				case r.Step != payments.FirstReminder || r.Docs != 1 || r.Document.String != inv.ID:
					t.Fatalf("reminder %s of %v: step %d, %d documents (%s), want step 1 of invoice %s",
						r.ID, pair, r.Step, r.Docs, r.Document.String, inv.ID)
				case !r.SentAt.Valid || r.Attempts != 0:
					t.Fatalf("reminder %s of %v not recorded as sent (%d failed attempts)", r.ID, pair, r.Attempts)
				}
				if n := sent["reminder-"+r.ID]; n != 1 {
					t.Fatalf("reminder %s of %v emailed %d times", r.ID, pair, n)
				}
				byPair[pair] = r
				pairOf[r.ID] = pair
			}

			// The replicas sent the reminders and nothing else: one message
			// per overdue pair, a copy to its shop's owner and one to its
			// producer (the owners and accountants of each side,
			// core/notify's audience), each with its invoice.
			msgs := srv.Messages(t)[before:]
			if len(msgs) != 2*len(overdue) {
				t.Fatalf("%d copies sent by the replicas for %d overdue pairs", len(msgs), len(overdue))
			}
			got := map[[2]string]int{}
			copies := map[[2]string][]string{}
			for _, m := range msgs {
				id := strings.TrimSuffix(strings.TrimPrefix(m.Header.Get("Message-Id"), "<reminder-"), "@primeur.local>")
				pair := pairOf[id]
				inv, ok := overdue[pair]
				if !ok {
					t.Fatalf("a message for no reminder: %s %q", m.Header.Get("Message-Id"), m.Subject)
				}
				farm, _ := strconv.Atoi(strings.TrimPrefix(inv.Producer, "farm-"))
				if want := fmt.Sprintf("Relance : factures échues de Ferme %d", farm); m.Subject != want || len(m.To) != 1 ||
					!strings.Contains(m.Body, inv.Number) || len(m.Attachments) != 1 || m.Attachments[0].Name != inv.Number+".pdf" {
					t.Fatalf("reminder of %v to %v %q, %d attachments:\n%s", pair, m.To, m.Subject, len(m.Attachments), m.Body)
				}
				got[pair]++
				copies[pair] = append(copies[pair], m.To[0])
			}
			for pair, inv := range overdue {
				slices.Sort(copies[pair])
				if want := []string{inv.Producer + "@fermes.fr", inv.Shop + "@magasins.fr"}; got[pair] != 2 ||
					!slices.Equal(copies[pair], want) {
					t.Fatalf("%v reminded by %d copies to %v, want one to each of %v", pair, got[pair], copies[pair], want)
				}
			}
			for _, r := range replicas {
				if code := r.term(); code != 0 {
					t.Fatalf("%s stopped with status %d", r.name, code)
				}
			}
		})
	}
}

// reportCount reads the figure labelled label in a job's report
// ("relances préparées : 3, relances envoyées : 3").
func reportCount(t *testing.T, report, label string) int {
	t.Helper()
	for _, part := range strings.Split(report, ", ") {
		if v, ok := strings.CutPrefix(part, label+" : "); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("report %q: %v", report, err)
			}
			return n
		}
	}
	t.Fatalf("report %q without %q", report, label)
	return 0
}
