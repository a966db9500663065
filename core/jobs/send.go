package jobs

import (
	"context"
	"errors"
	"fmt"
	netmail "net/mail"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/config"
	"primeur/core/cutoff"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/documents"
	"primeur/core/grammar"
	"primeur/core/mail"
	"primeur/core/notify"
	"primeur/core/payments"
	"primeur/core/printable"
	"primeur/core/store"
	"primeur/core/terms"

	"github.com/jmoiron/sqlx"
)

// MaxAttempts is how many failed attempts of its own (see sendOnce) a
// document's email gets. After the last, the document is left for an
// administrator: RetryFailed gives it its attempts back.
const MaxAttempts = 3

// slot names where a document records its email: the claim (the run
// holding it, see claimer), the time of the claim, the time it was sent,
// the failed attempts; the kind of document, as the Observer and the logs
// name it; for the documents that may turn out to have nothing to send
// (digests), the time one was dropped unsent (errDropped), else ""; and
// the prefix of its message's key ("invoice-" for "invoice-<id>"), which
// keys its copies in mail_copies.
type slot struct {
	table, claim, claimedAt, sentAt, attempts, kind, dropped string
	// ready is the SQL condition, on the table by its name, that a
	// document must meet to be claimed (none when empty).
	ready  string
	prefix string
}

var (
	noteSlot     = slot{"deliveries", "note_claim", "note_claimed_at", "note_sent_at", "note_attempts", "note", "", "", "note-"}
	invoiceSlot  = slot{"invoices", "mail_claim", "mail_claimed_at", "sent_at", "mail_attempts", "invoice", "", documentReady("invoices"), "invoice-"}
	creditSlot   = slot{"credit_notes", "mail_claim", "mail_claimed_at", "sent_at", "mail_attempts", "credit note", "", documentReady("credit_notes"), "credit-"}
	reminderSlot = slot{"reminders", "mail_claim", "mail_claimed_at", "sent_at", "mail_attempts", "reminder", "", "", "reminder-"}
	cutoffSlot   = slot{"cutoff_notices", "mail_claim", "mail_claimed_at", "sent_at", "mail_attempts", "cutoff notice", "", "", "cutoff-"}
	digestSlot   = slot{"digests", "mail_claim", "mail_claimed_at", "sent_at", "mail_attempts", "digest", "dropped_at", "", "digest-"}
	// slots are every slot, notes first.
	slots = []slot{noteSlot, invoiceSlot, creditSlot, reminderSlot, cutoffSlot, digestSlot}
)

// key is the message key of document id's email.
func (s slot) key(id string) string { return s.prefix + id }

// undropped is the SQL condition, on the table as alias, that the
// document was not dropped ("" for a slot that never drops).
func (s slot) undropped(alias string) string {
	if s.dropped == "" {
		return ""
	}
	return ` AND ` + alias + `.` + s.dropped + ` IS NULL`
}

// ownFailure marks the failure of a piece of work for a reason of its own
// — it panicked, or its document could not be rendered — as opposed to a
// failure of the mail server or the database, which a later run may not
// meet again.
type ownFailure struct{ err error }

func (e ownFailure) Error() string { return e.err.Error() }
func (e ownFailure) Unwrap() error { return e.err }

// counts tells whether a failed send counts as an attempt: a failure of
// its own, or a message the mail package refuses as such (an invalid
// recipient address).
func counts(err error) bool {
	var own ownFailure
	return errors.As(err, &own) || errors.Is(err, mail.ErrMessage)
}

// recovered logs a panic recovered in the piece of work where, with its
// stack, and tells the Observer. Call it from a deferred function with the
// value of recover().
func (e Env) recovered(where string, v any) {
	e.Log.Error("panic recovered", "where", where, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
	e.Observe.panicRecovered(where)
}

// safely runs fn, a piece of work named where, and turns a panic into an
// ownFailure error, logged with its stack.
func (e Env) safely(where string, fn func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			e.recovered(where, v)
			err = ownFailure{fmt.Errorf("jobs: %s: panic: %v", where, v)}
		}
	}()
	return fn()
}

// sendOnce emails a document at most once across processes and crashes,
// by claim-then-send with a journal (journal.go):
//
//  1. claim: one conditional UPDATE names the run (c) in the document's
//     row, with the time, only if it is unsent, unclaimed (or claimed by
//     a run that stopped renewing its claims for Lease, or whose process
//     is gone), has attempts left and meets the slot's ready condition
//     (an invoice's recipient confirmed). The database applies it for one
//     run only; the others see 0 rows and skip the document, or wait for
//     it when its claim may be dead (held). Claims are timed by the wall
//     clock (Env.Clock), not by the run's time, which may be another
//     (--at): a run "in the future" must not take over a live claim.
//  2. send the message, outside any transaction (an SMTP exchange must not
//     hold row locks, nor SQLite's write lock), through the journal: the
//     copies accepted before are not sent again, each other copy is
//     recorded and committed before its point of no return, while the
//     claim is still the run's. A panic in it is recovered (logged with
//     its stack): it ends this document's attempt, not the process.
//  3. record: set the sent time, and forget the copies. On a failure,
//     clear our claim instead, so the next run retries; a failure of the
//     document's own (a panic, a document that cannot be rendered, a
//     message refused as invalid) also counts one attempt, and the one
//     that reaches MaxAttempts leaves the document for an administrator,
//     with one log line at Error level. A failure of the mail server or
//     the database counts nothing: it is retried until it passes. A send
//     that finds nothing to say (errDropped: a digest of an account
//     closed since) records the time it was dropped instead of a send: it
//     is never tried again, and is told and counted as dropped, not as
//     sent.
//
// A copy past its point of no return whose answer never came — the
// connection lost then (mail.ErrUncertain), or the process killed, which
// the next claim finds in the journal — may be at the server, or not:
// it is never sent again on its own. The document is left for an
// administrator (its attempts spent) with one log line at Error level
// naming it, its recipients and Message-ID, and RetryFailed gives it
// back. No copy is therefore sent twice; the price is that a process
// killed in the instant between recording a copy and its final "."
// leaves for an administrator a copy that never left.
func sendOnce(ctx context.Context, env Env, c *claimer, s slot, id string, send func(Env) error) (outcome, error) {
	claimed, held, err := c.claim(ctx, s, id)
	switch {
	case err != nil:
		return skipped, err
	case held:
		return waiting, nil
	case !claimed:
		return skipped, nil // sent, dropped, not ready, or left for an administrator
	}
	through := env
	through.Mail = journaled{inner: env.Mail, c: c, s: s, id: id}
	err = env.safely("send "+s.kind, func() error { return send(through) })
	var uncertain uncertainCopies
	switch {
	case errors.Is(err, errWaiting):
		env.failed(ctx, c, s, id, err) // released, no attempt counted
		env.Log.Debug("email waits for a confirmed address", "table", s.table, "id", id)
		return skipped, nil
	case errors.Is(err, errDropped) && s.dropped != "":
		return dropped, env.drop(ctx, c, s, id, err)
	case errors.Is(err, errCopyInFlight):
		env.failed(ctx, c, s, id, err) // another run, alive, has it
		return waiting, nil
	case errors.Is(err, errClaimLost):
		env.Log.Warn("jobs: claim taken back while sending (this process stalled); the copies not sent are left to the other", "table", s.table, "id", id)
		return skipped, nil
	case errors.Is(err, mail.ErrUncertain):
		// The answer lost just now: a failure of the mail server.
		env.Observe.emailFailed(s.kind)
		c.leaveUncertain(ctx, s, id, err)
		return skipped, err
	case errors.As(err, &uncertain):
		// Found in the journal: a process died at the point of no return.
		env.Observe.emailFailed(s.kind)
		c.leaveUncertain(ctx, s, id, err)
		return skipped, nil
	case err != nil:
		env.Observe.emailFailed(s.kind)
		env.failed(ctx, c, s, id, err)
		return skipped, err
	}
	recorded, err := c.recordSent(context.WithoutCancel(ctx), s, id)
	env.Observe.emailSent(s.kind)
	if err != nil {
		return sent, fmt.Errorf("jobs: record sent %s %s: %w", s.table, id, err)
	}
	if !recorded {
		env.Log.Warn("jobs: email recorded as sent by another process meanwhile", "table", s.table, "id", id)
	}
	env.Log.Debug("email sent", "table", s.table, "id", id)
	return sent, nil
}

// outcome is what sendOnce did with a document.
type outcome int

const (
	// skipped: nothing — another process has it, it waits, or it failed.
	skipped outcome = iota
	// sent: emailed, and recorded as sent.
	sent
	// dropped: nothing to send (errDropped), recorded as dropped.
	dropped
	// waiting: another run holds it, perhaps dead (its claim not expired
	// yet): the run tries it again before it ends (sendQueued).
	waiting
)

// errDropped is the send of a document that has nothing left to say — a
// digest whose account was closed, or whose lines all went, since it was
// made: it is not emailed, but recorded as dropped (slot.dropped), and
// told and counted apart from the emails sent.
var errDropped = errors.New("jobs: nothing to send")

// drop records that the document claimed by c was dropped unsent for
// reason (errDropped), and says so.
func (e Env) drop(ctx context.Context, c *claimer, s slot, id string, reason error) error {
	n, err := store.Exec(context.WithoutCancel(ctx), e.DB, `UPDATE `+s.table+` SET `+s.dropped+` = ?
		WHERE id = ? AND `+s.claim+` = ?`, e.wallClock().UnixMilli(), id, c.id)
	e.Observe.emailDropped(s.kind)
	if err != nil {
		return fmt.Errorf("jobs: record dropped %s %s: %w", s.table, id, err)
	}
	if n == 0 {
		e.Log.Warn("jobs: claim expired while dropping", "table", s.table, "id", id)
	}
	e.Log.Info("email dropped: nothing to send", "kind", s.kind, "id", id, "reason", reason)
	return nil
}

// failed releases the claim of a send that failed with err, counting an
// attempt when the failure is the document's own, and says so when that
// was the last.
func (e Env) failed(ctx context.Context, c *claimer, s slot, id string, err error) {
	token := c.id
	ctx = context.WithoutCancel(ctx)
	if !counts(err) {
		if _, rerr := store.Exec(ctx, e.DB, `UPDATE `+s.table+` SET `+s.claim+` = NULL, `+s.claimedAt+` = NULL
			WHERE id = ? AND `+s.claim+` = ?`, id, token); rerr != nil {
			e.Log.Error("jobs: release claim", "table", s.table, "id", id, "err", rerr)
		}
		return
	}
	var attempts []int
	if rerr := e.DB.Tx(ctx, func(tx *sqlx.Tx) error {
		attempts = attempts[:0]
		return store.Select(ctx, tx, &attempts, `UPDATE `+s.table+` SET `+s.claim+` = NULL, `+s.claimedAt+` = NULL,
		`+s.attempts+` = `+s.attempts+` + 1 WHERE id = ? AND `+s.claim+` = ? RETURNING `+s.attempts, id, token)
	}); rerr != nil {
		e.Log.Error("jobs: record a failed attempt", "table", s.table, "id", id, "err", rerr)
		return
	}
	if len(attempts) == 1 && attempts[0] >= MaxAttempts {
		e.Log.Error("jobs: email abandoned after "+fmt.Sprint(attempts[0])+" failed attempts; the document is left for an administrator: "+
			"fix its cause (the error, and any panic logged before), then run `primeur jobs run deliveries --retry-failed`",
			"document", e.describe(ctx, s, id), "kind", s.kind, "id", id, "err", err)
	}
}

// describe names a document for an administrator: "BL-000012",
// "FA-2026-000001".
func (e Env) describe(ctx context.Context, s slot, id string) string {
	var name string
	var err error
	switch s {
	case noteSlot:
		var chrono int64
		err = store.Get(ctx, e.DB, &chrono, `SELECT chrono FROM deliveries WHERE id = ?`, id)
		name = billing.NoteNumber(chrono)
	case reminderSlot, digestSlot:
		name = s.kind + " " + id
	default:
		err = store.Get(ctx, e.DB, &name, `SELECT number FROM `+s.table+` WHERE id = ?`, id)
	}
	if err != nil {
		return s.kind + " " + id
	}
	return name
}

// RetryFailed gives the documents left for an administrator (unsent after
// MaxAttempts failed attempts, or perhaps received: see sendOnce) their
// attempts back, and forgets their copies that may be at the mail server,
// so that the next run tries them again — those copies with the same
// Message-ID —, and returns how many delivery notes and how many other
// documents (invoices, credit notes, reminders, digests) it gave back.
func RetryFailed(ctx context.Context, db *store.DB) (notes, invoices int, err error) {
	counts := make([]int, len(slots))
	for i, s := range slots {
		err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			if _, err := store.Exec(ctx, tx, `DELETE FROM mail_copies WHERE accepted_at IS NULL AND message_key IN
				(SELECT ? || id FROM `+s.table+` WHERE `+s.sentAt+` IS NULL AND `+s.attempts+` >= ?)`, s.prefix, MaxAttempts); err != nil {
				return err
			}
			n, err := store.Exec(ctx, tx, `UPDATE `+s.table+` SET `+s.attempts+` = 0 WHERE `+s.sentAt+` IS NULL AND `+s.attempts+` >= ?`, MaxAttempts)
			counts[i] = int(n)
			return err
		})
		if err != nil {
			return counts[0], counts[1], fmt.Errorf("jobs: retry failed %s: %w", s.table, err)
		}
	}
	for _, n := range counts[1:] {
		invoices += n
	}
	return counts[0], invoices, nil
}

// CountAbandoned counts the documents left for an administrator: unsent
// after MaxAttempts failed attempts.
func CountAbandoned(ctx context.Context, db *store.DB) (int, error) {
	total := 0
	for _, s := range slots {
		var n int
		if err := store.Get(ctx, db, &n, `SELECT COUNT(*) FROM `+s.table+` WHERE `+s.sentAt+` IS NULL AND `+s.attempts+` >= ?`, MaxAttempts); err != nil {
			return total, fmt.Errorf("jobs: abandoned %s: %w", s.table, err)
		}
		total += n
	}
	return total, nil
}

// SendDue emails every delivery note due at now and every issued invoice
// and credit note not emailed yet. It returns how many notes and invoices
// (credit notes included) this call sent.
func SendDue(ctx context.Context, env Env, now time.Time) (notes, invoices int, err error) {
	notes, nerr := sendNotes(ctx, env, now)
	invoices, ierr := sendInvoices(ctx, env, now, nil)
	credits, cerr := sendCredits(ctx, env, now)
	return notes, invoices + credits, errors.Join(nerr, ierr, cerr)
}

// sendWorkers is how many documents are rendered and sent at once: PDF
// rendering is CPU-bound and an SMTP exchange mostly waits on the network.
const sendWorkers = 4

// tally counts what sendEach did: the documents emailed, and those
// dropped with nothing to send.
type tally struct{ sent, dropped int }

// sender is what sends document id's email, through env's mail sender
// (sendOnce gives it the journaled one).
type sender func(env Env, id string) error

// sendEach sends the documents of ids through sendOnce, sendWorkers at a
// time, and counts those this process sent or dropped; a failure, or a
// panic, does not stop the others: each worker recovers its own.
func sendEach(ctx context.Context, env Env, s slot, ids []string, send sender) (tally, error) {
	queue := make(chan string, len(ids))
	for _, id := range ids {
		queue <- id
	}
	close(queue)
	return sendQueued(ctx, env, s, queue, send)
}

// sendStreamed starts sending, as sendEach does, the documents put into
// queue until it is closed, and returns the function that waits for the
// last send and tells what they did. The goroutine that hands the
// documents to the workers recovers from a panic of its own, and then
// drains queue, so that its writer never blocks.
func sendStreamed(ctx context.Context, env Env, s slot, queue <-chan string, send sender) func() (tally, error) {
	type result struct {
		n   tally
		err error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if v := recover(); v != nil {
				env.recovered("send queue "+s.kind, v)
				r.err = fmt.Errorf("jobs: %s queue: panic: %v", s.kind, v)
				for range queue {
				}
			}
			done <- r
		}()
		r.n, r.err = sendQueued(ctx, env, s, queue, send)
	}()
	return func() (tally, error) {
		r := <-done
		return r.n, r.err
	}
}

// sendQueued is sendEach of the documents read from queue until it is
// closed; once ctx is done, it reads the rest without sending them. The
// run claims as one claimer (journal.go), renewed while it works. The
// documents it found claimed by another run that may be dead (waiting),
// it tries again once the queue is done, for at most Env.ClaimWait: a
// killed process's claims expire within Lease, and a restart sends what it
// left.
func sendQueued(ctx context.Context, env Env, s slot, queue <-chan string, send sender) (tally, error) {
	var (
		mu     sync.Mutex
		n      tally
		errs   []error
		wg     sync.WaitGroup
		others []string // the documents found waiting
	)
	c := newClaimer(env)
	defer c.close(ctx)
	one := func(id string) (did outcome) {
		defer func() {
			// sendOnce recovers a panic of the send; this is one of its
			// own (claiming, recording): the claim, if taken, waits for
			// its lease.
			if v := recover(); v != nil {
				env.recovered("send worker "+s.kind, v)
				mu.Lock()
				errs = append(errs, fmt.Errorf("jobs: %s %s: panic: %v", s.kind, id, v))
				mu.Unlock()
			}
		}()
		did, err := sendOnce(ctx, env, c, s, id, func(e Env) error { return send(e, id) })
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			errs = append(errs, err)
		}
		switch did {
		case sent:
			n.sent++
		case dropped:
			n.dropped++
		}
		return did
	}
	// Workers that live for the whole queue: a goroutine per document
	// would grow its stack anew for each (SQLite and the PDF go deep).
	for range sendWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range queue {
				if ctx.Err() != nil {
					continue // drained: a writer never waits
				}
				if one(id) == waiting {
					mu.Lock()
					others = append(others, id)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	// The documents of others: tried again, soon then every second, until
	// each is sent (by them or by this run) or ClaimWait is over.
	end, pause := time.Now().Add(env.claimWait()), 50*time.Millisecond
	for len(others) > 0 && ctx.Err() == nil {
		wait := min(pause, time.Until(end))
		if wait <= 0 {
			env.Log.Debug("documents left to the live processes that hold them", "kind", s.kind, "count", len(others))
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
		pause = min(2*pause, time.Second)
		still := others[:0]
		for _, id := range others {
			if ctx.Err() == nil && one(id) == waiting {
				still = append(still, id)
			}
		}
		others = still
	}
	if ctx.Err() != nil {
		errs = append(errs, ctx.Err())
	}
	return n, errors.Join(errs...)
}

func sendNotes(ctx context.Context, env Env, now time.Time) (int, error) {
	ids, err := env.Rules.NotesDue(ctx, env.DB, now)
	if err != nil {
		return 0, err
	}
	n, err := sendEach(ctx, env, noteSlot, ids, func(env Env, id string) error { return sendNote(ctx, env, id, now) })
	return n.sent, err
}

// documentReady is the SQL condition that the invoice or credit note t (a
// table's alias) can be emailed now: an address it goes to
// (invoiceRecipients) is confirmed — the buyer's accounting email, the
// buyer's, the seller's, as issued (their keys, migration 30).
func documentReady(t string) string {
	return accounts.ConfirmedSQL(t+".mail_accounting_key", t+".mail_buyer_key", t+".mail_seller_key")
}

// The selections of the documents to email list only those that can go
// now — a recipient's address is confirmed (accounts.ConfirmedSQL), or
// there is nothing to send — so that a document waiting for a confirmation
// costs a run a look-up of its addresses in the query (an index seek on
// SQLite, a probe of the addresses PostgreSQL hashes once per query), not
// a claim, a load and a release: the deliveries job runs every 5 minutes.
// A document is listed by the first run after its recipient confirms. The
// claim of an invoice or a credit note checks the same condition
// (slot.ready): the invoices job hands each invoice to the send workers as
// it issues it, unselected. errWaiting still covers an address unconfirmed
// between the claim and the send.
var (
	// reminderReady: the reminder's first document (sendReminder writes
	// to its recipients) is ready. A reminder whose document is missing
	// is listed, and fails as before.
	reminderReady = `NOT EXISTS (SELECT 1 FROM invoices i WHERE i.id = (SELECT MIN(rd.document_id) FROM reminder_documents rd
			WHERE rd.reminder_id = t.id) AND NOT ` + documentReady("i") + `)
		AND NOT EXISTS (SELECT 1 FROM credit_notes c WHERE c.id = (SELECT MIN(rd.document_id) FROM reminder_documents rd
			WHERE rd.reminder_id = t.id) AND NOT ` + documentReady("c") + `)`
	// cutoffReady: the producer's login email is confirmed.
	cutoffReady = `EXISTS (SELECT 1 FROM users p WHERE p.id = t.producer_id AND ` + accounts.ConfirmedSQL("p.email_key") + `)`
	// digestReady: not dropped, and the user's login email is confirmed;
	// or there is nothing to send (a closed account, no line left), which
	// sendDigest drops at once.
	digestReady = `t.dropped_at IS NULL AND (NOT EXISTS (SELECT 1 FROM notifications n WHERE n.digest_id = t.id)
		OR EXISTS (SELECT 1 FROM users u WHERE u.id = t.user_id AND (u.closed_at IS NOT NULL OR ` + accounts.ConfirmedSQL("u.email_key") + `)))`
)

// sendInvoices sends the invoices not emailed yet that can go, except
// those of tried (sent or tried by the same run already).
func sendInvoices(ctx context.Context, env Env, now time.Time, tried map[string]bool) (int, error) {
	var ids []string
	if err := store.Select(ctx, env.DB, &ids, `SELECT t.id FROM invoices t WHERE t.sent_at IS NULL AND `+documentReady("t")+`
		ORDER BY t.producer_id, t.year, t.seq`); err != nil {
		return 0, fmt.Errorf("jobs: unsent invoices: %w", err)
	}
	ids = slices.DeleteFunc(ids, func(id string) bool { return tried[id] })
	n, err := sendEach(ctx, env, invoiceSlot, ids, func(env Env, id string) error { return sendInvoice(ctx, env, id, now) })
	return n.sent, err
}

func sendCredits(ctx context.Context, env Env, now time.Time) (int, error) {
	var ids []string
	if err := store.Select(ctx, env.DB, &ids, `SELECT t.id FROM credit_notes t WHERE t.sent_at IS NULL AND `+documentReady("t")+`
		ORDER BY t.producer_id, t.issued_at, t.number`); err != nil {
		return 0, fmt.Errorf("jobs: unsent credit notes: %w", err)
	}
	n, err := sendEach(ctx, env, creditSlot, ids, func(env Env, id string) error { return sendCredit(ctx, env, id, now) })
	return n.sent, err
}

func signature(env Env) string { return mail.Signature(env.BaseURL) }

// sendNote emails a delivery note to both parties.
func sendNote(ctx context.Context, env Env, deliveryID string, now time.Time) error {
	var orderID string
	if err := store.Get(ctx, env.DB, &orderID, `SELECT order_id FROM deliveries WHERE id = ?`, deliveryID); err != nil {
		return fmt.Errorf("jobs: note %s: %w", deliveryID, err)
	}
	n, err := delivery.LoadNote(ctx, env.DB, orderID, deliveryID)
	if err != nil {
		return err
	}
	to, err := env.reachable(ctx, n.Producer.Email, n.Shop.Email)
	if err != nil {
		return err
	}
	pdf, err := env.Render.note(n, env.Rules)
	if err != nil {
		return ownFailure{fmt.Errorf("jobs: note %s: %w", deliveryID, err)}
	}
	number := billing.NoteNumber(n.Delivery.Chrono)
	day := documents.Day(n.Delivery.Date)
	body := "Bonjour,\n\n" +
		fmt.Sprintf("La livraison du %s %s %s est validée. Vous trouverez ci-joint son bon de livraison %s.\n\n",
			day, grammar.De(printable.Line(n.Producer.Name)), grammar.A(printable.Line(n.Shop.Name)), number) +
		fmt.Sprintf("Le producteur peut déclarer une réclamation (demande d'avoir) sur cette livraison jusqu'au %s inclus "+
			"(deux jours ouvrés après la livraison), ", claimUntil(n.Delivery.Date)) +
		"depuis l'écran Livraisons de Primeur ; le magasin y répond depuis son écran Réceptions.\n" + signature(env)
	return env.Mail.Send(ctx, mail.Message{
		Key:     "note-" + deliveryID,
		To:      to,
		Subject: fmt.Sprintf("Bon de livraison %s — livraison du %s", number, day),
		Body:    body,
		Date:    now,
		Attachments: []mail.Attachment{{
			Name: documents.NoteFileName(n.Delivery.Chrono), ContentType: "application/pdf", Data: pdf,
		}},
	})
}

// errWaiting is the send of a document none of whose recipients has
// confirmed its address yet: it waits, and goes out once one has. The
// selections list only the documents that can go (documentReady): this is
// for an address unconfirmed since.
var errWaiting = errors.New("jobs: no recipient has confirmed its address")

// reachable returns, of addrs, the addresses confirmed (PRODUCT §13
// "Confirming an email"), without repeats; errWaiting when none is.
func (e Env) reachable(ctx context.Context, addrs ...string) ([]string, error) {
	ok, err := accounts.ConfirmedAddresses(ctx, e.DB, addrs)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, a := range ok {
		if k := accounts.EmailKey(a); !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, errWaiting
	}
	return out, nil
}

// invoiceRecipients are the addresses an invoice (or credit note, or a
// reminder of one) goes to: the shop's accounting address once confirmed,
// else its login email, and the producer — each only when confirmed.
func (e Env) invoiceRecipients(ctx context.Context, inv billing.Invoice) ([]string, error) {
	shop := strings.TrimSpace(inv.Buyer.EmailAccounting)
	if shop != "" {
		ok, err := accounts.ConfirmedAddresses(ctx, e.DB, []string{shop})
		if err != nil {
			return nil, err
		}
		if len(ok) == 0 {
			shop = ""
		}
	}
	if shop == "" {
		shop = inv.Buyer.Email
	}
	return e.reachable(ctx, shop, inv.Seller.Email)
}

// sendInvoice emails an issued invoice to the shop's accounting and the
// producer.
func sendInvoice(ctx context.Context, env Env, invoiceID string, now time.Time) error {
	inv, err := billing.Get(ctx, env.DB, invoiceID)
	if err != nil {
		return err
	}
	to, err := env.invoiceRecipients(ctx, inv)
	if err != nil {
		return err
	}
	pdf, err := env.Render.invoice(inv)
	if err != nil {
		return ownFailure{fmt.Errorf("jobs: invoice %s: %w", invoiceID, err)}
	}
	seller := printable.Line(inv.Seller.Name)
	body := "Bonjour,\n\n" +
		fmt.Sprintf("Veuillez trouver ci-joint la facture %s du %s, émise par Primeur au nom et pour le compte %s "+
			"(mandat de facturation), pour les livraisons de %s %s.\n\n",
			inv.Number, documents.Day(inv.IssueDate), grammar.De(seller), documents.Month(inv.Month), grammar.A(printable.Line(inv.Buyer.Name))) +
		fmt.Sprintf("Montant TTC : %s\nÉchéance : %s\n", documents.Euros(inv.TotalTTC), documents.Day(inv.DueDate))
	if inv.Seller.IBAN != "" {
		body += fmt.Sprintf("Règlement par virement : IBAN %s, BIC %s\n",
			printable.Line(documents.IBAN(inv.Seller.IBAN)), printable.Line(inv.Seller.BIC))
	}
	body += signature(env)
	return env.Mail.Send(ctx, mail.Message{
		Key:     "invoice-" + inv.ID,
		To:      to,
		Subject: fmt.Sprintf("Facture %s — %s — %s", inv.Number, seller, documents.Month(inv.Month)),
		Body:    body,
		Date:    now,
		Attachments: []mail.Attachment{{
			Name: documents.InvoiceFileName(inv.Number), ContentType: "application/pdf", Data: pdf,
		}},
	})
}

// sendCredit emails a credit note or complementary invoice to the shop's
// accounting and the producer.
func sendCredit(ctx context.Context, env Env, id string, now time.Time) error {
	doc, err := billing.GetCredit(ctx, env.DB, id)
	if err != nil {
		return err
	}
	to, err := env.invoiceRecipients(ctx, doc)
	if err != nil {
		return err
	}
	pdf, err := env.Render.invoice(doc)
	if err != nil {
		return ownFailure{fmt.Errorf("jobs: credit note %s: %w", id, err)}
	}
	seller := printable.Line(doc.Seller.Name)
	day := ""
	if len(doc.Notes) > 0 {
		day = documents.Day(doc.Notes[0].Date)
	}
	issued := fmt.Sprintf("%s du %s, émis par Primeur au nom et pour le compte %s (mandat de facturation)",
		doc.Number, documents.Day(doc.IssueDate), grammar.De(seller))
	refers := fmt.Sprintf("la facture %s du %s", doc.Refers.Number, documents.Day(doc.Refers.Date))
	subject, body := "Avoir", "Bonjour,\n\n"
	switch doc.Kind {
	case billing.KindDiscount:
		subject = "Avoir d'escompte"
		body += fmt.Sprintf("Veuillez trouver ci-joint l'avoir d'escompte %s : il accorde l'escompte de %s %% pour le "+
			"paiement de %s reçu dans le délai, et en réduit d'autant le montant HT et la TVA.\n\n", issued, terms.Percent(doc.Discount), refers) +
			fmt.Sprintf("Montant TTC : %s\nCe montant a été déduit du règlement de la facture %s.\n", documents.Euros(doc.TotalTTC), doc.Refers.Number)
	case billing.KindComplement:
		subject = "Facture complémentaire"
		body += fmt.Sprintf("Veuillez trouver ci-joint la facture complémentaire %s : elle règle la réclamation acceptée sur "+
			"la livraison du %s, et corrige %s.\n\n", strings.Replace(issued, ", émis par", ", émise par", 1), day, refers) +
			fmt.Sprintf("Montant TTC : %s\nÉchéance : %s\n", documents.Euros(doc.TotalTTC), documents.Day(doc.DueDate))
	default:
		body += fmt.Sprintf("Veuillez trouver ci-joint l'avoir %s : il règle la réclamation acceptée sur la livraison du %s, "+
			"et corrige %s.\n\n", issued, day, refers) +
			fmt.Sprintf("Montant TTC : %s\nCe montant est à déduire du règlement de la facture %s.\n", documents.Euros(doc.TotalTTC), doc.Refers.Number)
	}
	body += signature(env)
	return env.Mail.Send(ctx, mail.Message{
		Key:     "credit-" + doc.ID,
		To:      to,
		Subject: fmt.Sprintf("%s %s — %s — facture %s", subject, doc.Number, seller, doc.Refers.Number),
		Body:    body,
		Date:    now,
		Attachments: []mail.Attachment{{
			Name: documents.InvoiceFileName(doc.Number), ContentType: "application/pdf", Data: pdf,
		}},
	})
}

func sendReminders(ctx context.Context, env Env, now time.Time) (int, error) {
	n, err := sendUnsent(ctx, env, reminderSlot, reminderReady, now, sendReminder)
	return n.sent, err
}

// sendReminder emails a reminder of overdue documents to the shop (its
// accounting address when set) and the producer: every document of the
// pair left to pay after its due date (payments.ReminderLines), each with
// its balance, due date and reminder step, and its PDF; the late-payment
// rate in force and the 40 € indemnity; answers go to the producer
// (Reply-To, its login email once confirmed).
func sendReminder(ctx context.Context, env Env, id string, now time.Time) error {
	r, err := payments.GetReminder(ctx, env.DB, id)
	if err != nil {
		return err
	}
	if len(r.Documents) == 0 {
		return ownFailure{fmt.Errorf("jobs: reminder %s without documents", id)}
	}
	today := env.Rules.Today(now)
	lines, err := payments.ReminderLines(ctx, env.DB, r, today)
	if err != nil {
		return err
	}
	docs := map[string]billing.Invoice{}
	for _, docID := range append(slices.Clone(r.Documents), lineIDs(lines)...) {
		if _, ok := docs[docID]; ok {
			continue
		}
		doc, err := billing.Get(ctx, env.DB, docID)
		if errors.Is(err, core.ErrNotFound) {
			doc, err = billing.GetCredit(ctx, env.DB, docID)
		}
		if err != nil {
			return err
		}
		docs[docID] = doc
	}
	// The recipients of the reminder's first document, as reminderReady
	// selects it.
	first := docs[r.Documents[0]]
	to, err := env.invoiceRecipients(ctx, first)
	if err != nil {
		return err
	}
	replyTo, err := env.producerReplyTo(ctx, r.ProducerID)
	if err != nil {
		return err
	}
	seller := printable.Line(first.Seller.Name)
	subject, opening := "Relance", "Sauf erreur de notre part, "
	if r.Step == payments.SecondReminder {
		subject, opening = "Deuxième relance", "Malgré une première relance, et sauf erreur de notre part, "
	}
	body := "Bonjour,\n\n" + opening +
		fmt.Sprintf("les factures suivantes %s restent à payer après leur échéance :\n\n", grammar.De(seller))
	var total decimal.Dec
	var attachments []mail.Attachment
	for _, l := range lines {
		d := docs[l.ID]
		total += l.Balance
		body += fmt.Sprintf("- %s du %s, échéance le %s : reste à payer %s (%s)\n", d.Number, documents.Day(d.IssueDate),
			documents.Day(d.DueDate), documents.Euros(l.Balance), reminderStep(l))
		pdf, err := env.Render.invoice(d)
		if err != nil {
			return ownFailure{fmt.Errorf("jobs: reminder %s: %s: %w", id, d.Number, err)}
		}
		attachments = append(attachments, mail.Attachment{Name: documents.InvoiceFileName(d.Number), ContentType: "application/pdf", Data: pdf})
	}
	body += fmt.Sprintf("\nTotal : %s\n\n", documents.Euros(total))
	if first.Seller.IBAN != "" {
		body += fmt.Sprintf("Règlement par virement : IBAN %s, BIC %s.\n", printable.Line(documents.IBAN(first.Seller.IBAN)),
			printable.Line(first.Seller.BIC))
	}
	body += "Si vous avez déjà envoyé ce paiement, déclarez-le depuis l'écran « À payer » de Primeur et ne tenez pas compte de ce message.\n\n" +
		latePaymentTerms(env.Rates, today) + "\n"
	if replyTo != "" {
		body += fmt.Sprintf("\nPour toute question sur ces factures, répondez à ce message : votre réponse parviendra %s.\n", grammar.A(seller))
	}
	body += signature(env)
	return env.Mail.Send(ctx, mail.Message{
		Key:         fmt.Sprintf("reminder-%s", r.ID),
		To:          to,
		ReplyTo:     replyTo,
		Subject:     fmt.Sprintf("%s : factures échues %s", subject, grammar.De(seller)),
		Body:        body,
		Date:        now,
		Attachments: attachments,
	})
}

func lineIDs(lines []payments.ReminderLine) []string {
	ids := make([]string, len(lines))
	for i, l := range lines {
		ids[i] = l.ID
	}
	return ids
}

// reminderStep says where a document stands in its reminders.
func reminderStep(l payments.ReminderLine) string {
	switch {
	case l.Now && l.Step == payments.SecondReminder:
		return "deuxième relance"
	case l.Now:
		return "première relance"
	case l.Step == payments.SecondReminder:
		return "déjà relancée deux fois"
	case l.Step == payments.FirstReminder:
		return "déjà relancée une fois"
	}
	return "échue"
}

// latePaymentTerms states the late-payment rate in force today — the
// ECB's rate of the semester plus 10 points (payments.PenaltyRate) — and
// the 40 € indemnity, with their articles.
func latePaymentTerms(rates config.ECBRates, today string) string {
	day, _ := calendar.ParseDate(today)
	ecb, rate, _ := payments.PenaltyRate(rates, day)
	return fmt.Sprintf("Conformément aux conditions figurant sur les factures, tout retard de paiement rend exigibles, dès le lendemain "+
		"de l'échéance, des pénalités de retard au taux annuel de %s (taux de refinancement de la Banque centrale européenne "+
		"en vigueur au %s, %s, majoré de 10 points ; art. L441-10 du Code de commerce) et une indemnité forfaitaire pour frais "+
		"de recouvrement de %s par facture (art. D441-5 du Code de commerce).",
		documents.Percent(rate), calendar.SemesterOf(day).First().French(), documents.Percent(ecb), documents.Euros(payments.Indemnity))
}

// producerReplyTo is where a shop's answer to what Primeur sends on a
// producer's behalf goes: the producer's login email once confirmed, with
// its name; "" else.
func (e Env) producerReplyTo(ctx context.Context, producerID string) (string, error) {
	p, err := accounts.ByID(ctx, e.DB, producerID)
	if err != nil {
		return "", err
	}
	ok, err := accounts.ConfirmedAddresses(ctx, e.DB, []string{p.Email})
	if err != nil || len(ok) == 0 {
		return "", err
	}
	return (&netmail.Address{Name: printable.Line(p.Name), Address: ok[0]}).String(), nil
}

func sendCutoffs(ctx context.Context, env Env, now time.Time) (int, error) {
	n, err := sendUnsent(ctx, env, cutoffSlot, cutoffReady, now, sendCutoff)
	return n.sent, err
}

// sendCutoff emails a producer the shops' needs still open for next month
// (cutoff.Create), a link to each shop's needs, and how to turn it off.
func sendCutoff(ctx context.Context, env Env, id string, now time.Time) error {
	n, err := cutoff.Get(ctx, env.DB, id)
	if err != nil {
		return err
	}
	producer, err := accounts.ByID(ctx, env.DB, n.ProducerID)
	if err != nil {
		return err
	}
	to, err := env.reachable(ctx, producer.Email)
	if err != nil {
		return err
	}
	month := documents.Month(n.Month)
	body := "Bonjour,\n\n" +
		fmt.Sprintf("Les magasins ont encore des besoins ouverts pour %s parmi les produits que vous vendez :\n\n", month)
	for i := 0; i < len(n.Needs); {
		shop := n.Needs[i].ShopID
		var goods []string
		for ; i < len(n.Needs) && n.Needs[i].ShopID == shop; i++ {
			goods = append(goods, printable.Line(n.Needs[i].ProductName)+" "+grammar.Quantity(n.Needs[i].Available, n.Needs[i].Unit))
		}
		line := "- " + printable.Line(n.Needs[i-1].ShopName) + " : " + strings.Join(goods, ", ") + "\n"
		if env.BaseURL != "" {
			line += "  " + env.BaseURL + "/prod/needs/" + shop + "\n"
		}
		body += line
	}
	body += "\nProposez vos quantités et vos prix avant le début du mois : les magasins répondent à vos propositions.\n" +
		"Pour ne plus recevoir ce rappel, décochez « Rappel du 25 » dans votre profil.\n" + signature(env)
	return env.Mail.Send(ctx, mail.Message{
		Key:     "cutoff-" + id,
		To:      to,
		Subject: "Besoins ouverts pour " + month,
		Body:    body,
		Date:    now,
	})
}

// sendDigests emails the digests due, and drops those with nothing left
// to say (sendDigest).
func sendDigests(ctx context.Context, env Env, now time.Time) (tally, error) {
	return sendUnsent(ctx, env, digestSlot, digestReady, now, sendDigest)
}

// sendDigest emails a digest of notifications: its lines under the
// heading of their kind, each with its link into the app, and how to stop
// each kind — a link that needs no login, also given to mail clients as
// List-Unsubscribe (RFC 8058).
func sendDigest(ctx context.Context, env Env, id string, now time.Time) error {
	d, err := notify.Get(ctx, env.DB, id)
	if err != nil {
		return err
	}
	if d.Closed {
		return fmt.Errorf("jobs: digest %s: the account is closed: %w", id, errDropped)
	}
	if len(d.Lines) == 0 {
		return fmt.Errorf("jobs: digest %s: no line left: %w", id, errDropped)
	}
	to, err := env.reachable(ctx, d.Email)
	if err != nil {
		return err
	}
	kinds := d.Kinds()
	token, err := notify.UnsubscribeToken(ctx, env.DB, d.UserID, kinds, env.wallClock())
	if err != nil {
		return err
	}
	site := strings.TrimSuffix(env.BaseURL, "/")
	body := "Bonjour,\n\nVoici ce qui attend votre attention sur Primeur"
	if d.Daily {
		body += " depuis hier"
	}
	body += " :\n"
	for _, kind := range kinds {
		body += "\n" + notify.Label(kind) + "\n"
		for _, l := range d.Lines {
			if l.Kind == kind {
				body += "- " + l.Line + "\n  " + site + l.Link + "\n"
			}
		}
	}
	body += "\nVous choisissez dans votre profil, pour chaque type de notification, de la recevoir au plus une fois par heure, " +
		"dans un résumé quotidien à 7h, ou jamais.\n" +
		"Pour ne plus recevoir ces emails, sans vous connecter : " + site + "/landing/unsubscribe#" + token + "\n" + signature(env)
	subject := fmt.Sprintf("Primeur : %d nouveautés attendent votre réponse", len(d.Lines))
	if len(d.Lines) == 1 {
		subject = "Primeur : " + d.Lines[0].Line
	}
	return env.Mail.Send(ctx, mail.Message{
		Key:         "digest-" + id,
		To:          to,
		Subject:     subject,
		Body:        body,
		Date:        now,
		Unsubscribe: site + "/auth/unsubscribe/one-click?t=" + token,
	})
}

// sendUnsent emails, oldest first, every row of s's table not sent yet
// (reminders, cutoff notices, digests: each has created_at) that is ready
// — an SQL condition on the row, aliased t — with send.
func sendUnsent(ctx context.Context, env Env, s slot, ready string, now time.Time, send func(context.Context, Env, string, time.Time) error) (tally, error) {
	var ids []string
	if err := store.Select(ctx, env.DB, &ids, `SELECT t.id FROM `+s.table+` t WHERE t.`+s.sentAt+` IS NULL AND `+ready+`
		ORDER BY t.created_at, t.id`); err != nil {
		return tally{}, fmt.Errorf("jobs: unsent %s: %w", s.table, err)
	}
	return sendEach(ctx, env, s, ids, func(env Env, id string) error { return send(ctx, env, id, now) })
}
