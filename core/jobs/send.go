package jobs

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"primeur/core/billing"
	"primeur/core/mail"
	"primeur/core/store"

	"github.com/jmoiron/sqlx"
)

// MaxAttempts is how many failed attempts of its own (see sendOnce) a
// document's email gets. After the last, the document is left for an
// administrator: RetryFailed gives it its attempts back.
const MaxAttempts = 3

// slot is a kind of email and what is its own (slots.go): its kind, as
// the Observer and the logs name it; the prefix of its message's key
// ("invoice-" for "invoice-<id>"), which keys its row of sends and its
// copies in mail_copies; the table of its subjects, for the logs.
type slot struct {
	kind, prefix, table string
	// claim takes a message for a run (sendOnce's step 1, claimSQL): args
	// the key, the run, the time, the subject, MaxAttempts, a dead run's
	// id, and twice the time before which a renewal is stale. It checks
	// the slot's ready condition (an invoice's recipient confirmed), if
	// any.
	claim string
	// drops: the slot's sends may find nothing to say (errDropped).
	drops bool
	// pending lists the subjects to send, ready, oldest first (none for
	// notes: delivery.NotesDue lists them).
	pending string
	// name reads the number of a document for an administrator ("" for
	// none).
	name string
}

// key is the message key of document id's email.
func (s slot) key(id string) string { return s.prefix + id }

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
//  1. claim: one conditional upsert names the run (c) in the document's
//     row of sends (slots.go), with the time, only if it is unsent,
//     unclaimed (or claimed by a run that stopped renewing its claims
//     for Lease, or whose process is gone), has attempts left and meets
//     the slot's ready condition (an invoice's recipient confirmed). The
//     database applies it for one run only; the others see 0 rows and
//     skip the document, or wait for it when its claim may be dead
//     (held). Claims are timed by the wall clock (Env.Clock), not by the
//     run's time, which may be another (--at): a run "in the future" must
//     not take over a live claim.
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
	case errors.Is(err, errDropped) && s.drops:
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
// made: it is not emailed, but recorded as dropped (slot.drop), and
// told and counted apart from the emails sent.
var errDropped = errors.New("jobs: nothing to send")

// drop records that the document claimed by c was dropped unsent for
// reason (errDropped), and says so.
func (e Env) drop(ctx context.Context, c *claimer, s slot, id string, reason error) error {
	n, err := store.Exec(context.WithoutCancel(ctx), e.DB, sendDrop, e.wallClock().UnixMilli(), s.key(id), c.id)
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
		if _, rerr := store.Exec(ctx, e.DB, sendRelease, s.key(id), token); rerr != nil {
			e.Log.Error("jobs: release claim", "table", s.table, "id", id, "err", rerr)
		}
		return
	}
	var attempts []int
	if rerr := e.DB.Tx(ctx, func(tx *sqlx.Tx) error {
		attempts = attempts[:0]
		return store.Select(ctx, tx, &attempts, sendFail, s.key(id), token)
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
	switch {
	case s == noteSlot:
		var chrono int64
		err = store.Get(ctx, e.DB, &chrono, `SELECT chrono FROM deliveries WHERE id = ?`, id)
		name = billing.NoteNumber(chrono)
	case s.name != "":
		err = store.Get(ctx, e.DB, &name, s.name, id)
	default:
		name = s.kind + " " + id
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
	var kinds []string
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		kinds = kinds[:0]
		if _, err := store.Exec(ctx, tx, sendForget, MaxAttempts); err != nil {
			return err
		}
		return store.Select(ctx, tx, &kinds, sendRetry, MaxAttempts)
	})
	if err != nil {
		return 0, 0, fmt.Errorf("jobs: retry failed: %w", err)
	}
	for _, k := range kinds {
		if k+"-" == noteSlot.prefix {
			notes++
		} else {
			invoices++
		}
	}
	return notes, invoices, nil
}

// CountAbandoned counts the documents left for an administrator: unsent
// after MaxAttempts failed attempts.
func CountAbandoned(ctx context.Context, db *store.DB) (int, error) {
	var n int
	if err := store.Get(ctx, db, &n, sendsAbandoned, MaxAttempts); err != nil {
		return 0, fmt.Errorf("jobs: abandoned: %w", err)
	}
	return n, nil
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

// sendPending emails, in the order of s.pending, every document of s not
// sent yet that is ready, with send.
func sendPending(ctx context.Context, env Env, s slot, now time.Time, send func(context.Context, Env, string, time.Time) error) (tally, error) {
	var ids []string
	if err := store.Select(ctx, env.DB, &ids, s.pending); err != nil {
		return tally{}, fmt.Errorf("jobs: unsent %s: %w", s.table, err)
	}
	return sendEach(ctx, env, s, ids, func(env Env, id string) error { return send(ctx, env, id, now) })
}
