package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/store"
)

// Reminder steps: the day after the due date, and 15 days after it.
const (
	FirstReminder  = 1
	SecondReminder = 2
	// SecondAfter is how many days after the due date the second reminder
	// goes.
	SecondAfter = 15
	// RemindWithin bounds the reminders job: a document due more than
	// this many days ago is no longer reminded (the producer follows it up
	// with the statement of account), so that the job reads the accounts
	// of the pairs with recent documents only, not the platform's history.
	RemindWithin = 90
)

// Reminder is a reminder of overdue documents to a shop, for one producer
// and step.
type Reminder struct {
	ID            string `db:"id"`
	ProducerID    string `db:"producer_id"`
	DistributorID string `db:"distributor_id"`
	Step          int    `db:"step"`
	CreatedAt     int64  `db:"created_at"`
	// Documents are the ids of the documents it reminds of.
	Documents []string `db:"-"`
}

// due is whether a document with this due date is due for a reminder step
// on today: its day after, or 15 days after it.
func due(dueDate string, step int, today calendar.Date) bool {
	d, ok := calendar.ParseDate(dueDate)
	if !ok {
		return false
	}
	if step == SecondReminder {
		return today > d.AddDays(SecondAfter-1)
	}
	return today > d
}

// CreateReminders creates, each pair and step in a transaction of its own,
// the reminders due on today: for every pair not opted out, the documents
// overdue with a balance left, due within the last RemindWithin days, and
// not reminded yet at that step. A
// document is reminded once per step, whatever the replicas: the primary
// key of reminder_documents refuses the second, whose transaction rolls
// back. It returns the reminders it created.
func CreateReminders(ctx context.Context, db *store.DB, now time.Time, today string) ([]Reminder, error) {
	day, ok := calendar.ParseDate(today)
	if !ok {
		return nil, fmt.Errorf("payments: reminders: today %q", today)
	}
	from := day.AddDays(-RemindWithin).String()
	accs, err := DueAccounts(ctx, db, from, today)
	if err != nil {
		return nil, err
	}
	var done []struct {
		DocumentID string `db:"document_id"`
		Step       int    `db:"step"`
	}
	if err := store.Select(ctx, db, &done, `SELECT document_id, step FROM reminder_documents WHERE document_id IN (
			SELECT id FROM invoices WHERE due_date >= ? AND due_date < ?
			UNION SELECT id FROM credit_notes WHERE due_date >= ? AND due_date < ?)`, from, today, from, today); err != nil {
		return nil, fmt.Errorf("payments: reminded documents: %w", err)
	}
	reminded := map[string]bool{}
	for _, d := range done {
		reminded[fmt.Sprintf("%s/%d", d.DocumentID, d.Step)] = true
	}
	var optouts []struct {
		P string `db:"producer_id"`
		D string `db:"distributor_id"`
	}
	if err := store.Select(ctx, db, &optouts, `SELECT producer_id, distributor_id FROM reminder_optouts`); err != nil {
		return nil, fmt.Errorf("payments: reminder opt-outs: %w", err)
	}
	off := map[[2]string]bool{}
	for _, o := range optouts {
		off[[2]string{o.P, o.D}] = true
	}
	var out []Reminder
	for _, a := range accs {
		if off[[2]string{a.ProducerID, a.DistributorID}] {
			continue
		}
		for _, step := range []int{SecondReminder, FirstReminder} {
			r := Reminder{ID: core.NewID(), ProducerID: a.ProducerID, DistributorID: a.DistributorID, Step: step, CreatedAt: now.UnixMilli()}
			for _, d := range a.Documents {
				if d.Kind == "credit" || d.Balance <= 0 || d.DueDate < from || !due(d.DueDate, step, day) ||
					reminded[fmt.Sprintf("%s/%d", d.ID, step)] {
					continue
				}
				// A document past its second step and never reminded goes
				// once, at the second step only.
				if step == FirstReminder && due(d.DueDate, SecondReminder, day) {
					continue
				}
				r.Documents = append(r.Documents, d.ID)
			}
			if len(r.Documents) == 0 {
				continue
			}
			err := db.Tx(ctx, func(tx *sqlx.Tx) error { return insertReminder(ctx, tx, r) })
			switch {
			case err != nil && store.IsUniqueViolation(err):
				continue // another process reminded of them meanwhile
			case err != nil:
				return out, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

func insertReminder(ctx context.Context, q store.Q, r Reminder) error {
	if _, err := store.Exec(ctx, q, `INSERT INTO reminders (id, producer_id, distributor_id, step, created_at)
		VALUES (?, ?, ?, ?, ?)`, r.ID, r.ProducerID, r.DistributorID, r.Step, r.CreatedAt); err != nil {
		return fmt.Errorf("payments: insert reminder: %w", err)
	}
	for _, id := range r.Documents {
		if _, err := store.Exec(ctx, q, `INSERT INTO reminder_documents (document_id, step, reminder_id) VALUES (?, ?, ?)`,
			id, r.Step, r.ID); err != nil {
			return fmt.Errorf("payments: insert reminded document: %w", err)
		}
	}
	return nil
}

// GetReminder returns a reminder with its documents.
func GetReminder(ctx context.Context, q store.Q, id string) (Reminder, error) {
	var r Reminder
	if err := store.Get(ctx, q, &r, `SELECT id, producer_id, distributor_id, step, created_at FROM reminders WHERE id = ?`, id); err != nil {
		return r, fmt.Errorf("payments: reminder %s: %w", id, err)
	}
	if err := store.Select(ctx, q, &r.Documents, `SELECT document_id FROM reminder_documents WHERE reminder_id = ? ORDER BY document_id`, id); err != nil {
		return r, fmt.Errorf("payments: reminder %s documents: %w", id, err)
	}
	return r, nil
}

// SetReminders turns the reminders of a producer's overdue documents to a
// shop on or off.
func SetReminders(ctx context.Context, q store.Q, producerID, shopID string, on bool) error {
	var err error
	if on {
		_, err = store.Exec(ctx, q, `DELETE FROM reminder_optouts WHERE producer_id = ? AND distributor_id = ?`, producerID, shopID)
	} else {
		_, err = store.Exec(ctx, q, `INSERT INTO reminder_optouts (producer_id, distributor_id) VALUES (?, ?)
			ON CONFLICT (producer_id, distributor_id) DO NOTHING`, producerID, shopID)
	}
	if err != nil {
		return fmt.Errorf("payments: reminders of %s to %s: %w", producerID, shopID, err)
	}
	return nil
}

// RemindersOff lists the shops a producer turned reminders off for.
func RemindersOff(ctx context.Context, q store.Q, producerID string) ([]string, error) {
	var ids []string
	if err := store.Select(ctx, q, &ids, `SELECT distributor_id FROM reminder_optouts WHERE producer_id = ? ORDER BY distributor_id`,
		producerID); err != nil {
		return nil, fmt.Errorf("payments: reminder opt-outs of %s: %w", producerID, err)
	}
	return ids, nil
}
