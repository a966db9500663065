// Package jobs holds Primeur's scheduled jobs (PRODUCT §17), each a function
// of a time with its Schedule, listed once in All: the daemon's scheduler
// and `primeur jobs run` call the same code. Every job does what is due at
// that time and nothing else, so a late run catches up and a second run
// finds nothing left:
//
//   - deliveries (every 5 minutes): lock the planned deliveries past their
//     lock time, then email what is due (SendDue) — each delivery note
//     NoteDelay after its lock, and any invoice, credit note or
//     complementary invoice not emailed yet (a retry after a failed send);
//   - claims (hourly): accept the claims the shop left unreviewed for
//     claims.autovalidate-after, settle those of invoiced orders
//     (billing.SettleDue) and email the documents;
//   - invoices (every day at 21:00): lock the deliveries due, accept the
//     claims past their delay, issue the invoice of every order whose
//     month is over and that has a done delivery (billing.Due) and none
//     still planned (billing.Issue waits for those), settle the claims
//     accepted since, then email them (Invoices reads as that
//     checklist). The run of a month's last day bills that month, dated
//     that day (art. 289 I-3 CGI); a claim still waiting for the shop
//     defers nothing, its acceptance is settled later by a credit note or
//     complementary invoice;
//   - reminders (daily at 9:00, French working days only): the payment
//     reminders of overdue documents (payments.CreateReminders);
//   - cutoff (daily at 8:00, from the 25th): each producer's reminder of
//     next month's open needs (core/cutoff);
//   - notifications (every 5 minutes): the digests of core/notify;
//   - purge (hourly, at half past): delete the expired sessions and the
//     login and registration counts whose window is over.
//
// Jobs are safe on several processes at once: the database decides who
// does each piece of work (row locks and conditional updates in
// core/delivery and core/billing), and emails follow the claim-then-send
// protocol of sendOnce (send.go), the kinds of email apart
// (mail_documents.go, mail_reminders.go, mail_notices.go). Every email's
// state — claim, attempts, sent, dropped — is its row of the one sends
// table, keyed by its message key, whose statements slots.go writes once
// for every kind.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/config"
	"primeur/core/cutoff"
	"primeur/core/delivery"
	"primeur/core/documents"
	"primeur/core/mail"
	"primeur/core/notify"
	"primeur/core/pa"
	"primeur/core/payments"
	"primeur/core/store"
)

// Env is what jobs work with.
type Env struct {
	DB    *store.DB
	Mail  mail.Sender
	Rules delivery.Rules
	Log   *slog.Logger
	// BaseURL is the public address of the site, quoted in emails (base-url,
	// else the listen address: config.SiteURL).
	BaseURL string
	// Clock is the wall clock, for the leases and records of emails (see
	// sendOnce): a run's own time may be a past or future one (--at), and
	// two processes must agree on how old a claim really is. Nil means
	// time.Now.
	Clock func() time.Time
	// ClaimWait is how long, at most, a run waits for the documents it
	// found claimed by another process that may be dead (sendQueued):
	// zero means Lease and a Beat, negative not at all.
	ClaimWait time.Duration
	// Observe hears what the jobs do (metrics); its zero value hears
	// nothing.
	Observe Observer
	// Render renders the documents emailed; its zero value renders with
	// core/documents.
	Render Renderers
	// Rates are the ECB's rates per semester the reminders state the
	// late-payment rate of (payments.ecb-rates); the zero value knows the
	// rates known to Primeur.
	Rates config.ECBRates
	// PAKeys is the path of the key file of the PA secrets
	// (pa.KeyPath(data-dir)); "" opens none.
	PAKeys string
	// rehearsal is set on a dry run's Env (Rehearse): the pa job then
	// calls no PA.
	rehearsal bool
}

// Renderers render the documents the jobs email. A nil field renders with
// core/documents; tests set one to make a rendering fail or panic.
type Renderers struct {
	Note    func(delivery.Note, delivery.Rules) ([]byte, error)
	Invoice func(billing.Invoice) ([]byte, error)
}

func (r Renderers) note(n delivery.Note, rules delivery.Rules) ([]byte, error) {
	if r.Note != nil {
		return r.Note(n, rules)
	}
	return documents.Note(n, rules)
}

func (r Renderers) invoice(inv billing.Invoice) ([]byte, error) {
	if r.Invoice != nil {
		return r.Invoice(inv)
	}
	return documents.Invoice(inv)
}

func (e Env) wallClock() time.Time {
	if e.Clock != nil {
		return e.Clock()
	}
	return time.Now()
}

// EnvOf builds the environment from the configuration: mail over SMTP or
// into the outbox, the delivery rules.
func EnvOf(cfg *config.Config, db *store.DB, log *slog.Logger) Env {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return Env{DB: db, Mail: mail.New(cfg), Rules: delivery.RulesOf(cfg), Log: log, BaseURL: cfg.SiteURL(), Clock: time.Now,
		Rates: cfg.Payments.Rates, PAKeys: pa.KeyPath(cfg.DataDir)}
}

// Count is one figure of a report.
type Count struct {
	Label string
	N     int
}

// Report says what a run did.
type Report struct {
	Counts []Count
	// Issued lists the invoices, credit notes and complementary invoices
	// the run issued, one French line each (see issued), in the order
	// issued.
	Issued []string
	// Deposits lists, on a dry run of the pa job, the documents it would
	// deposit, one French line each.
	Deposits []string
}

func (r *Report) add(label string, n int) { r.Counts = append(r.Counts, Count{label, n}) }

// Get returns the figure with that label.
func (r Report) Get(label string) int {
	for _, c := range r.Counts {
		if c.Label == label {
			return c.N
		}
	}
	return 0
}

// String renders the report on one line: "livraisons verrouillées : 3, …".
func (r Report) String() string {
	parts := make([]string, len(r.Counts))
	for i, c := range r.Counts {
		parts[i] = fmt.Sprintf("%s : %d", c.Label, c.N)
	}
	return strings.Join(parts, ", ")
}

// Report labels.
const (
	Locked         = "livraisons verrouillées"
	NotesSent      = "bons de livraison envoyés"
	InvoicesSent   = "factures envoyées"
	ClaimsAccepted = "réclamations validées automatiquement"
	InvoicesIssued = "factures émises"
	// Abandoned appears only when documents wait for an administrator.
	Abandoned = "envois abandonnés (à relancer par primeur jobs run deliveries --retry-failed)"
	// CreditsIssued counts the credit notes and complementary invoices
	// issued to settle accepted claims on invoiced orders (besides those
	// issued with their invoice).
	CreditsIssued = "avoirs et factures complémentaires émis"
	// CreditsSent counts the credit notes and complementary invoices
	// emailed.
	CreditsSent = "avoirs et factures complémentaires envoyés"
	// RemindersCreated and RemindersSent count the reminders of overdue
	// invoices.
	RemindersCreated = "relances préparées"
	RemindersSent    = "relances envoyées"
	// CutoffsCreated and CutoffsSent count the reminders of the 25th.
	CutoffsCreated = "rappels du 25 préparés"
	CutoffsSent    = "rappels du 25 envoyés"
	// DigestsMade and DigestsSent count the digests of notifications.
	DigestsMade = "résumés de notifications préparés"
	DigestsSent = "résumés de notifications envoyés"
	// DigestsDropped counts the digests dropped unsent, with nothing left
	// to say (an account closed since they were made); it appears only
	// when some were.
	DigestsDropped = "résumés de notifications abandonnés (compte supprimé ou plus rien à signaler)"
	SessionsPurged = "sessions expirées supprimées"
	CountsPurged   = "compteurs de limitation échus supprimés"
)

// Job is a named job.
type Job struct {
	Name string
	// Summary says what it does.
	Summary string
	// Schedule says when the daemon runs it: its scheduler's cron line and
	// the text of `primeur jobs list` both come from it.
	Schedule Schedule
	Run      func(ctx context.Context, env Env, now time.Time) (Report, error)
}

// All lists the jobs.
var All = []Job{
	{
		Name:     "deliveries",
		Summary:  "verrouille les livraisons prévues à l'heure limite et envoie les bons de livraison 30 minutes après",
		Schedule: EveryMinutes(5),
		Run:      Deliveries,
	},
	{
		Name:     "claims",
		Summary:  "valide les réclamations restées sans réponse du magasin au-delà du délai (claims.autovalidate-after)",
		Schedule: Hourly(0),
		Run:      Claims,
	},
	{
		Name:     "invoices",
		Summary:  "émet et envoie la facture de chaque commande du mois ayant des livraisons effectuées, le dernier jour du mois une fois ses livraisons verrouillées",
		Schedule: Daily(billing.InvoiceHour, 0).Noting("le dernier jour du mois : les factures du mois ; les autres jours, les avoirs des réclamations acceptées depuis et les commandes en retard"),
		Run:      Invoices,
	},
	{
		Name:     "reminders",
		Summary:  "relance les magasins pour les factures échues, les jours ouvrés : le lendemain de l'échéance, puis 15 jours après (ou le jour ouvré suivant)",
		Schedule: Daily(9, 0),
		Run:      Reminders,
	},
	{
		Name:     "cutoff",
		Summary:  "rappelle aux producteurs les besoins des magasins encore ouverts pour le mois suivant",
		Schedule: Daily(8, 0).Noting("à partir du 25 : une fois par producteur et par mois"),
		Run:      Cutoff,
	},
	{
		Name:     "notifications",
		Summary:  "envoie à chacun le résumé de ce qui attend sa réponse : au plus un email par heure, ou un par jour à 7h, selon ses choix",
		Schedule: EveryMinutes(5),
		Run:      Notifications,
	},
	{
		Name:     "pa",
		Summary:  "dépose sur la plateforme agréée de chaque producteur connecté ses factures, avoirs et factures complémentaires émis, puis relève leurs statuts (déposée, rejetée, refusée, encaissée…)",
		Schedule: EveryMinutes(5),
		Run:      PA,
	},
	{
		Name:     "purge",
		Summary:  "supprime les sessions expirées et les compteurs de limitation (connexions, inscriptions) dont la période est échue",
		Schedule: Hourly(30),
		Run:      Purge,
	},
}

// Find returns the job with that name.
func Find(name string) (Job, bool) {
	for _, j := range All {
		if j.Name == name {
			return j, true
		}
	}
	return Job{}, false
}

// Deliveries locks the deliveries due at now and emails the documents due.
func Deliveries(ctx context.Context, env Env, now time.Time) (Report, error) {
	var r Report
	ids, err := env.Rules.LockDue(ctx, env.DB, now)
	if err != nil {
		return r, err
	}
	r.add(Locked, len(ids))
	notes, invoices, err := SendDue(ctx, env, now)
	r.add(NotesSent, notes)
	r.add(InvoicesSent, invoices)
	abandoned, aerr := CountAbandoned(ctx, env.DB)
	if abandoned > 0 {
		r.add(Abandoned, abandoned)
	}
	return r, errors.Join(err, aerr)
}

// Purge deletes the expired sessions and the throttling counts whose
// window is over (accounts.PurgeSessions): both tables otherwise keep every
// dead row. Running it twice, or on two replicas, deletes each row once.
func Purge(ctx context.Context, env Env, now time.Time) (Report, error) {
	var r Report
	sessions, counts, err := accounts.PurgeSessions(ctx, env.DB, now)
	r.add(SessionsPurged, int(sessions))
	r.add(CountsPurged, int(counts))
	return r, err
}

// Reminders creates the reminders due today (payments.CreateReminders:
// the day after a due date, then 15 days after; once per document and
// step across replicas) and emails them with the claim-then-send protocol
// — on French working days only (payments.RemindOn): on another day it
// does nothing, and the next working day's run catches up.
func Reminders(ctx context.Context, env Env, now time.Time) (Report, error) {
	var r Report
	if day, ok := calendar.ParseDate(env.Rules.Today(now)); !ok || !payments.RemindOn(day) {
		r.add(RemindersCreated, 0)
		r.add(RemindersSent, 0)
		return r, nil
	}
	created, err := payments.CreateReminders(ctx, env.DB, now, env.Rules.Today(now))
	r.add(RemindersCreated, len(created))
	if err != nil {
		return r, err
	}
	sent, err := sendReminders(ctx, env, now)
	r.add(RemindersSent, sent)
	return r, err
}

// Cutoff makes, from the 25th, the producers' reminders of next month's
// open needs (cutoff.Create) and emails them.
func Cutoff(ctx context.Context, env Env, now time.Time) (Report, error) {
	var r Report
	created, err := cutoff.Create(ctx, env.DB, now, env.Rules.Today(now))
	r.add(CutoffsCreated, len(created))
	if err != nil {
		return r, err
	}
	sent, err := sendCutoffs(ctx, env, now)
	r.add(CutoffsSent, sent)
	return r, err
}

// Notifications gathers the pending notifications into digests
// (notify.Gather: at most one per user an hour, the daily ones from 7h)
// and emails them with the claim-then-send protocol; a digest whose
// account was closed since it was made is dropped, not emailed, and
// counted apart (DigestsDropped).
func Notifications(ctx context.Context, env Env, now time.Time) (Report, error) {
	var r Report
	made, err := notify.Gather(ctx, env.DB, now, env.Rules.Location)
	r.add(DigestsMade, len(made))
	if err != nil {
		return r, err
	}
	n, err := sendDigests(ctx, env, now)
	r.add(DigestsSent, n.sent)
	if n.dropped > 0 {
		r.add(DigestsDropped, n.dropped)
	}
	return r, err
}

// Claims accepts the claims left unreviewed too long, settles those of
// invoiced orders (billing.SettleDue: credit notes, complementary
// invoices) and emails the documents.
func Claims(ctx context.Context, env Env, now time.Time) (Report, error) {
	var r Report
	n, err := env.Rules.Autovalidate(ctx, env.DB, now)
	r.add(ClaimsAccepted, n)
	if err != nil {
		return r, err
	}
	settled, err := billing.SettleDue(ctx, env.DB, now, env.Rules.Location)
	r.add(CreditsIssued, len(settled))
	r.issued(settled...)
	if err != nil {
		return r, err
	}
	sent, err := sendCredits(ctx, env, now)
	r.add(CreditsSent, sent)
	return r, err
}

// Invoices is the invoices job, step by step:
//
//  1. lock the deliveries due (delivery.Rules.LockDue), so that the months
//     it bills keep no planned delivery that should be done;
//  2. accept the claims the shops left unanswered for
//     claims.autovalidate-after (delivery.Rules.Autovalidate, what the
//     claims job does: a run after a stop catches up); a younger claim
//     stays with the shop, whatever the run;
//  3. list the orders due (billing.Due): month over, a delivery done, no
//     invoice yet, in numbering order;
//  4. issue each in a transaction of its own (billing.IssueDue), billing
//     what the delivery notes say was sent, with the credit notes and
//     complementary invoices of the claims already accepted; a failing
//     order does not stop the others. Each invoice issued is emailed at
//     once, by the send workers, while the next ones are issued: rendering
//     and sending use the other cores meanwhile;
//  5. settle the accepted claims of orders invoiced before
//     (billing.SettleDue);
//  6. email the invoices (those step 4 did not send: waiting, failed,
//     from an earlier run) and credit notes not emailed yet (the
//     claim-then-send protocol of sendOnce, for step 4 too).
//
// A claim still waiting for the shop defers nothing: when the shop
// answers (or the claims job accepts it after the delay), its credit note
// is issued then. A failure of steps 1 to 3 stops the run (the next one
// catches up; the deliveries job emails any document left unsent
// meanwhile).
func Invoices(ctx context.Context, env Env, now time.Time) (Report, error) {
	var r Report
	loc := env.Rules.Location
	if _, err := env.Rules.LockDue(ctx, env.DB, now); err != nil {
		return r, err
	}
	if _, err := env.Rules.Autovalidate(ctx, env.DB, now); err != nil {
		return r, err
	}
	due, err := billing.Due(ctx, env.DB, now, loc)
	if err != nil {
		return r, err
	}
	var errs []error
	issued := 0
	// The invoices issued go to the send workers as they are issued; the
	// queue holds them all, so issuing never waits for a send.
	queue := make(chan string, len(due))
	streamed := sendStreamed(ctx, env, invoiceSlot, queue, func(env Env, id string) error { return sendInvoice(ctx, env, id, now) })
	tried := map[string]bool{} // step 6 does not try them again
	func() {
		defer close(queue)
		for _, id := range due {
			if err := ctx.Err(); err != nil {
				errs = append(errs, err)
				break
			}
			inv, err := billing.IssueDue(ctx, env.DB, id, now, loc)
			switch {
			case err != nil:
				errs = append(errs, err)
			case inv != nil:
				issued++
				r.issued(*inv)
				env.Log.Debug("invoice issued", "number", inv.Number, "order", inv.OrderID)
				queue <- inv.ID
				tried[inv.ID] = true
			}
		}
	}()
	r.add(InvoicesIssued, issued)
	n, err := streamed()
	errs = append(errs, err)
	settled, err := billing.SettleDue(ctx, env.DB, now, loc)
	r.issued(settled...)
	errs = append(errs, err)
	sent, err := sendInvoices(ctx, env, now, tried)
	r.add(InvoicesSent, n.sent+sent)
	errs = append(errs, err)
	credits, err := sendCredits(ctx, env, now)
	r.add(CreditsIssued, len(settled))
	r.add(CreditsSent, credits)
	errs = append(errs, err)
	return r, errors.Join(errs...)
}
