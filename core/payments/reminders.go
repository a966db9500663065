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

// Reminder is a reminder of overdue documents to a shop, for one
// producer: the documents that reach a step on its day.
type Reminder struct {
	ID            string `db:"id"`
	ProducerID    string `db:"producer_id"`
	DistributorID string `db:"distributor_id"`
	// Step is the highest of its documents' steps: a second reminder when
	// one of them is at its second.
	Step      int   `db:"step"`
	CreatedAt int64 `db:"created_at"`
	// Documents are the ids of the documents it reminds of, Steps the
	// step each reaches.
	Documents []string       `db:"-"`
	Steps     map[string]int `db:"-"`
}

// RemindOn is whether reminders go out on a day: French working days
// only, Monday to Friday but public holidays (calendar.FrenchBusinessDay).
// A document that reaches a step on another day is reminded on the next
// working day, once.
func RemindOn(day calendar.Date) bool { return day.FrenchBusinessDay() }

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

// CreateReminders creates, on a working day (RemindOn; none on another),
// each pair in a transaction of its own, the reminders due on today: for
// every pair not opted out, one reminder of the documents overdue with a
// balance left, due within the last RemindWithin days, that reach a step
// not reminded yet — the first the day after their due date, the second
// 15 days after it (a document past its second step and never reminded
// goes once, at the second step only). A document is reminded once per
// step, whatever the replicas: the primary key of reminder_documents
// refuses the second, whose transaction rolls back. It returns the
// reminders it created.
func CreateReminders(ctx context.Context, db *store.DB, now time.Time, today string) ([]Reminder, error) {
	day, ok := calendar.ParseDate(today)
	if !ok {
		return nil, fmt.Errorf("payments: reminders: today %q", today)
	}
	if !RemindOn(day) {
		return nil, nil
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
			SELECT id FROM documents WHERE due_date >= ? AND due_date < ?)`, from, today); err != nil {
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
		r := Reminder{ID: core.NewID(), ProducerID: a.ProducerID, DistributorID: a.DistributorID, CreatedAt: now.UnixMilli(),
			Steps: map[string]int{}}
		for _, d := range a.Documents {
			if !receivable(d) || d.Balance <= 0 || d.DueDate < from {
				continue
			}
			step := FirstReminder
			if due(d.DueDate, SecondReminder, day) {
				step = SecondReminder
			}
			if !due(d.DueDate, step, day) || reminded[fmt.Sprintf("%s/%d", d.ID, step)] {
				continue
			}
			r.Documents = append(r.Documents, d.ID)
			r.Steps[d.ID] = step
			r.Step = max(r.Step, step)
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
	return out, nil
}

func insertReminder(ctx context.Context, q store.Q, r Reminder) error {
	if _, err := store.Exec(ctx, q, `INSERT INTO reminders (id, producer_id, distributor_id, step, created_at)
		VALUES (?, ?, ?, ?, ?)`, r.ID, r.ProducerID, r.DistributorID, r.Step, r.CreatedAt); err != nil {
		return fmt.Errorf("payments: insert reminder: %w", err)
	}
	for _, id := range r.Documents {
		if _, err := store.Exec(ctx, q, `INSERT INTO reminder_documents (document_id, step, reminder_id) VALUES (?, ?, ?)`,
			id, r.Steps[id], r.ID); err != nil {
			return fmt.Errorf("payments: insert reminded document: %w", err)
		}
	}
	return nil
}

// GetReminder returns a reminder with its documents and their steps.
func GetReminder(ctx context.Context, q store.Q, id string) (Reminder, error) {
	var r Reminder
	if err := store.Get(ctx, q, &r, `SELECT id, producer_id, distributor_id, step, created_at FROM reminders WHERE id = ?`, id); err != nil {
		return r, fmt.Errorf("payments: reminder %s: %w", id, err)
	}
	var docs []reminded
	if err := store.Select(ctx, q, &docs, `SELECT document_id, step FROM reminder_documents WHERE reminder_id = ? ORDER BY document_id`, id); err != nil {
		return r, fmt.Errorf("payments: reminder %s documents: %w", id, err)
	}
	r.Steps = map[string]int{}
	for _, d := range docs {
		r.Documents = append(r.Documents, d.DocumentID)
		r.Steps[d.DocumentID] = d.Step
	}
	return r, nil
}

type reminded struct {
	DocumentID string `db:"document_id"`
	Step       int    `db:"step"`
}

// ReminderLine is a document a reminder lists.
type ReminderLine struct {
	Document
	// Step is the reminder step the document is at: 1 or 2 once reminded,
	// 0 when it never was (reminders off then, or due too long ago).
	Step int
	// Now is whether this reminder reminds of it (at Step); else an
	// earlier one did, or none.
	Now bool
}

// ReminderLines are what a reminder lists as of today: every document of
// its pair left to pay after its due date — the older ones too, whatever
// their step —, and the documents it reminds of, in the account's order
// (by due date), each with its balance of today and its step.
func ReminderLines(ctx context.Context, q store.Q, r Reminder, today string) ([]ReminderLine, error) {
	accs, err := Accounts(ctx, q, r.ProducerID, r.DistributorID, today)
	if err != nil {
		return nil, err
	}
	var docs []Document
	ids := []string{}
	for _, a := range accs {
		for _, d := range a.Documents {
			if receivable(d) && (d.Status == Overdue || r.Steps[d.ID] > 0) {
				docs = append(docs, d)
				ids = append(ids, d.ID)
			}
		}
	}
	steps := map[string]int{}
	if len(ids) > 0 {
		var done []reminded
		if err := store.SelectIn(ctx, q, &done, `SELECT document_id, step FROM reminder_documents WHERE document_id IN (?)`, ids); err != nil {
			return nil, fmt.Errorf("payments: reminder %s steps: %w", r.ID, err)
		}
		for _, d := range done {
			steps[d.DocumentID] = max(steps[d.DocumentID], d.Step)
		}
	}
	out := make([]ReminderLine, len(docs))
	for i, d := range docs {
		out[i] = ReminderLine{Document: d, Step: steps[d.ID], Now: r.Steps[d.ID] > 0}
		if out[i].Now {
			out[i].Step = r.Steps[d.ID]
		}
	}
	return out, nil
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
