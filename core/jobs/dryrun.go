package jobs

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"primeur/core/billing"
	"primeur/core/documents"
	"primeur/core/mail"
	"primeur/core/printable"
	"primeur/core/store"
)

// A dry run (`primeur jobs run --dry-run`) is the real run on a rehearsal:
// Rehearse hands the job an Env whose database is a store.DB.Rehearse
// handle — every write in one transaction rolled back at the end — and
// whose mail sender records the messages instead of sending them. The job
// runs its own code, every step of it: what it would lock, accept, issue
// and number, it does in the rehearsal, and the later steps see it, so the
// report, the documents issued and the emails are those of the real run
// at that time (barring what others change meanwhile). Nothing is kept
// and nothing is sent; the PDFs are rendered, as the real run renders
// them, and dropped.

// Email is a message a dry run would have sent.
type Email struct {
	To      []string
	Subject string
	// Attachments are the attached files' names.
	Attachments []string
}

// String is the email on one line, as the dry run prints it: "à a@x.fr,
// b@y.fr : Facture FA-2026-000001 — … (FA-2026-000001.pdf)".
func (e Email) String() string {
	s := "à " + strings.Join(e.To, ", ") + " : " + printable.Line(e.Subject)
	if len(e.Attachments) > 0 {
		s += " (" + strings.Join(e.Attachments, ", ") + ")"
	}
	return s
}

// recorder is the mail sender of a dry run: it keeps what it is given.
type recorder struct {
	mu     sync.Mutex
	emails []Email
}

func (r *recorder) Send(_ context.Context, m mail.Message) error {
	e := Email{To: slices.Clone(m.To), Subject: m.Subject}
	for _, a := range m.Attachments {
		e.Attachments = append(e.Attachments, a.Name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.emails = append(r.emails, e)
	return nil
}

// Rehearse runs fn with env on a rehearsal (see above): env.DB replaced by
// a handle whose writes are all rolled back when fn returns, env.Mail by a
// recorder. It returns the emails fn would have sent, by subject then
// recipients (the send workers' order varies), and fn's error.
func Rehearse(ctx context.Context, env Env, fn func(env Env) error) ([]Email, error) {
	rec := &recorder{}
	err := env.DB.Rehearse(ctx, func(db *store.DB) error {
		rehearsal := env
		rehearsal.DB = db
		rehearsal.Mail = rec
		rehearsal.rehearsal = true
		return fn(rehearsal)
	})
	slices.SortFunc(rec.emails, func(a, b Email) int {
		return cmp.Or(strings.Compare(a.Subject, b.Subject), slices.Compare(a.To, b.To))
	})
	return rec.emails, err
}

// DryRun is the job's run at now rehearsed (Rehearse): its report, with
// the documents it would issue, and the emails it would send; nothing is
// written, nothing sent.
func (j Job) DryRun(ctx context.Context, env Env, now time.Time) (Report, []Email, error) {
	var r Report
	emails, err := Rehearse(ctx, env, func(env Env) error {
		var err error
		r, err = j.Run(ctx, env, now)
		return err
	})
	return r, emails, err
}

// issued notes in the report the documents a run issued, one line each:
// "facture FA-2026-000001 : Ferme des Aravis → Épicerie du Lac, 123,45 €
// TTC".
func (r *Report) issued(docs ...billing.Invoice) {
	for _, d := range docs {
		kind := "facture"
		switch d.Kind {
		case billing.KindCredit:
			kind = "avoir"
		case billing.KindDiscount:
			kind = "avoir d'escompte"
		case billing.KindComplement:
			kind = "facture complémentaire"
		}
		line := fmt.Sprintf("%s %s : %s → %s, %s TTC", kind, d.Number, printable.Line(d.Seller.Name), printable.Line(d.Buyer.Name),
			documents.Euros(d.TotalTTC))
		if d.Refers != nil {
			line += " (facture " + d.Refers.Number + ")"
		}
		r.Issued = append(r.Issued, line)
	}
}
