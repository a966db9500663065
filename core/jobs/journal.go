package jobs

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/mail"
	"primeur/core/store"
)

// At most once under kills (issue 33). Two records make a send safe from
// a process that dies in the middle of it:
//
//   - the claimer: each run of the send workers (sendQueued) is a row of
//     mail_senders, renewed every Beat while the run works. A document's
//     claim names it. A claim whose run stopped renewing it for Lease is
//     dead and taken back; one whose process is found gone on the same
//     machine (same boot, same PID namespace: the process's start time no
//     longer at that PID) is taken back at once. A run that meets claims
//     of others waits for them, at most Env.ClaimWait, so that a restart
//     sends what a killed process left within seconds.
//   - the journal: each recipient's copy is written into mail_copies and
//     committed before its point of no return (mail.Journal: the final "."
//     of SMTP's DATA), only while the run still holds the document's
//     claim, and marked accepted once the server says so. A copy committed
//     and not accepted by a run now dead — or whose answer never came
//     (mail.ErrUncertain) — may be at the server: it is never sent again
//     on its own, and the document is left for an administrator, who
//     gives it back after checking (RetryFailed: sent again with the same
//     Message-ID). Copies accepted are not sent again; those never
//     committed are sent by the next claim.
//
// The claim spares work and waits; the journal alone decides that no copy
// is sent twice: a process whose claim was taken from it (it stalled for
// Lease) cannot commit a copy any more, and a copy is committed once.

// Lease is how long a claim holds after the last renewal of the run that
// made it: a killed process's claims are taken back Lease after its last
// Beat (at once when it ran on the same machine and is found gone). It
// bounds how long a restart waits, not how long a send may take: a run
// renews its claims for as long as it works.
const Lease = 15 * time.Second

// Beat is how often a run renews its claims.
const Beat = 3 * time.Second

// claimWait is how long a run waits, at most, for the documents it found
// claimed by others: Lease and a Beat, after which a claim still renewed
// is a live process's, which records its send itself.
func (e Env) claimWait() time.Duration {
	switch {
	case e.ClaimWait < 0:
		return 0
	case e.ClaimWait == 0:
		return Lease + Beat
	}
	return e.ClaimWait
}

// self is this process as mail_senders records it.
var self = sync.OnceValue(func() process {
	p := process{pid: os.Getpid()}
	p.host, _ = os.Hostname()
	p.place = place()
	if p.place != "" {
		p.start, _ = processStart(p.pid)
	}
	return p
})

// process names a process: its host, its place — on Linux the machine's
// boot and the process's PID namespace, "" elsewhere —, its PID and the
// kernel's start time of that PID (clock ticks after boot).
type process struct {
	host, place string
	pid         int
	start       int64
}

// place is where PIDs mean the same process: the machine's current boot
// and this process's PID namespace ("" when unknown: not Linux).
func place() string {
	if runtime.GOOS != "linux" {
		return ""
	}
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	ns, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(boot)) + " " + ns
}

// processStart is the start time of the process at pid, in clock ticks
// after boot, and whether it runs (a zombie does not): ok is false when
// no process has that PID.
func processStart(pid int) (start int64, ok bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// pid (comm) state ppid … : comm may hold anything, so the fields
	// are counted after its last ')'; starttime is the 22nd field.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 20 || f[0] == "Z" || f[0] == "X" {
		return 0, false
	}
	start, err = strconv.ParseInt(f[19], 10, 64)
	return start, err == nil
}

// gone reports whether the process p is known to be gone: it ran in this
// process's place, and its PID is free or taken by another process.
func gone(p process) bool {
	if p.place == "" || p.place != self().place {
		return false
	}
	start, ok := processStart(p.pid)
	return !ok || start != p.start
}

// claimer is one run's identity in mail_senders: made when the run claims
// its first document, renewed every Beat, deleted when the run ends.
type claimer struct {
	env  Env
	id   string
	once sync.Once
	err  error
	stop chan struct{}
	done chan struct{}
}

func newClaimer(env Env) *claimer {
	return &claimer{env: env, id: core.NewID(), stop: make(chan struct{}), done: make(chan struct{})}
}

// staleBefore is the wall-clock time (ms) before which a renewal is too
// old to hold a claim.
func (c *claimer) staleBefore() int64 { return c.env.wallClock().Add(-Lease).UnixMilli() }

// register writes the run's row, once, and starts renewing it.
func (c *claimer) register(ctx context.Context) error {
	c.once.Do(func() {
		p, now := self(), c.env.wallClock()
		// The rows of runs killed long ago go: their claims are then
		// judged by their own time, long past.
		if _, err := store.Exec(ctx, c.env.DB, `DELETE FROM mail_senders WHERE beat_at < ?`, now.Add(-24*time.Hour).UnixMilli()); err != nil {
			c.err = fmt.Errorf("jobs: sweep senders: %w", err)
			return
		}
		if _, err := store.Exec(ctx, c.env.DB, `INSERT INTO mail_senders (id, host, place, pid, process_start, started_at, beat_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, c.id, p.host, p.place, p.pid, p.start, now.UnixMilli(), now.UnixMilli()); err != nil {
			c.err = fmt.Errorf("jobs: register sender: %w", err)
			return
		}
		go c.beat()
	})
	return c.err
}

// beat renews the run's row every Beat until close. A renewal that fails
// is logged and tried again at the next beat.
func (c *claimer) beat() {
	defer close(c.done)
	defer func() {
		if v := recover(); v != nil {
			c.env.recovered("send claims renewal", v)
		}
	}()
	t := time.NewTicker(Beat)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			if _, err := store.Exec(context.Background(), c.env.DB, `UPDATE mail_senders SET beat_at = ? WHERE id = ?`,
				c.env.wallClock().UnixMilli(), c.id); err != nil {
				c.env.Log.Warn("jobs: renew send claims", "err", err)
			}
		}
	}
}

// close stops the renewals and deletes the run's row, if it was made. It
// is called once the run's sends are over.
func (c *claimer) close(ctx context.Context) {
	c.once.Do(func() { c.err = errNoRun }) // a run that never registered never will
	if c.err != nil {
		return
	}
	close(c.stop)
	<-c.done
	if _, err := store.Exec(context.WithoutCancel(ctx), c.env.DB, `DELETE FROM mail_senders WHERE id = ?`, c.id); err != nil {
		c.env.Log.Warn("jobs: unregister sender", "err", err)
	}
}

// errNoRun is the registration of a run already over.
var errNoRun = errors.New("jobs: the run is over")

// holder is who holds a document's claim, as claim reads it.
type holder struct {
	Claim string         `db:"claim"`
	Host  sql.NullString `db:"host"`
	Place sql.NullString `db:"place"`
	PID   sql.NullInt64  `db:"pid"`
	Start sql.NullInt64  `db:"process_start"`
}

// claim claims document id of s for the run, as sendOnce's step 1 says.
// When another run holds it, it says so (held), having first taken it
// back if that run's process is gone.
func (c *claimer) claim(ctx context.Context, s slot, id string) (claimed, held bool, err error) {
	if err := c.register(ctx); err != nil {
		return false, false, err
	}
	claimed, err = c.claimFrom(ctx, s, id, "")
	if claimed || err != nil {
		return claimed, false, err
	}
	var h []holder
	if err := store.Select(ctx, c.env.DB, &h, sendHolder, s.key(id), MaxAttempts, c.id); err != nil || len(h) == 0 {
		return false, false, err
	}
	p := process{place: h[0].Place.String, pid: int(h[0].PID.Int64), start: h[0].Start.Int64}
	if !h[0].Place.Valid || !gone(p) {
		return false, true, nil
	}
	claimed, err = c.claimFrom(ctx, s, id, h[0].Claim)
	if claimed {
		c.env.Log.Info("jobs: took back the claim of a process gone", "table", s.table, "id", id,
			"host", h[0].Host.String, "pid", h[0].PID.Int64)
	}
	return claimed, !claimed && err == nil, err
}

// claimFrom is the claim's conditional update: the document unsent, not
// dropped, ready, with attempts left, and unclaimed, or claimed by a run
// that stopped renewing for Lease (by its own time when its row is gone),
// or by dead (a run known gone; "" for none).
func (c *claimer) claimFrom(ctx context.Context, s slot, id, dead string) (bool, error) {
	now, stale := c.env.wallClock().UnixMilli(), c.staleBefore()
	n, err := store.Exec(ctx, c.env.DB, s.claim, s.key(id), c.id, now, id, MaxAttempts, dead, stale, stale)
	if err != nil {
		return false, fmt.Errorf("jobs: claim %s %s: %w", s.table, id, err)
	}
	return n == 1, nil
}

// copyRow is a recipient's copy of a message in mail_copies, with what
// its run's row says of it.
type copyRow struct {
	Recipient string         `db:"recipient"`
	MessageID string         `db:"message_id"`
	Owner     string         `db:"owner"`
	Accepted  sql.NullInt64  `db:"accepted_at"`
	Beat      sql.NullInt64  `db:"beat_at"`
	Place     sql.NullString `db:"place"`
	PID       sql.NullInt64  `db:"pid"`
	Start     sql.NullInt64  `db:"process_start"`
}

// recipient is an address as mail_copies keys it.
func recipient(addr string) string { return strings.ToLower(strings.TrimSpace(addr)) }

// errCopyInFlight: a copy of the message is at its point of no return in
// another run still alive; errClaimLost: the run's claim was taken from
// it before a copy's point of no return (the copy did not go).
var (
	errCopyInFlight = errors.New("jobs: a copy of the message is being sent by another process")
	errClaimLost    = errors.New("jobs: the claim was taken back from this process")
)

// uncertainCopies is a send that left copies of its message committed
// and never answered — found so in the journal, left by a run now dead
// (err nil), or just now, the answer lost (err wraps mail.ErrUncertain):
// the server may have them.
type uncertainCopies struct {
	to  []string
	ids []string
	err error
}

func (u uncertainCopies) Error() string {
	if u.err != nil {
		return u.err.Error()
	}
	return fmt.Sprintf("jobs: the copies to %s may be at the mail server already (a process died sending them)", strings.Join(u.to, ", "))
}

func (u uncertainCopies) Unwrap() error { return u.err }

// journaled is the mail sender of one claimed document (sendOnce): it
// sends only the copies of the message never committed, with a journal
// that commits each before its point of no return.
type journaled struct {
	inner mail.Sender
	c     *claimer
	s     slot
	id    string
}

func (j journaled) Send(ctx context.Context, m mail.Message) error {
	if key := j.s.key(j.id); m.Key != key {
		return ownFailure{fmt.Errorf("jobs: %s %s sent as %q, not %q", j.s.kind, j.id, m.Key, key)}
	}
	var rows []copyRow
	if err := store.Select(ctx, j.c.env.DB, &rows, `SELECT c.recipient, c.message_id, c.owner, c.accepted_at,
		m.beat_at, m.place, m.pid, m.process_start
		FROM mail_copies c LEFT JOIN mail_senders m ON m.id = c.owner WHERE c.message_key = ?`, m.Key); err != nil {
		return fmt.Errorf("jobs: copies of %s: %w", m.Key, err)
	}
	byRecipient := map[string]copyRow{}
	for _, r := range rows {
		byRecipient[r.Recipient] = r
	}
	var to []string
	var uncertain uncertainCopies
	stale := j.c.staleBefore()
	for _, addr := range m.To {
		r, ok := byRecipient[recipient(addr)]
		switch {
		case !ok:
			to = append(to, addr)
		case r.Accepted.Valid:
			// Sent.
		case r.Owner != j.c.id && r.Beat.Valid && r.Beat.Int64 > stale &&
			!gone(process{place: r.Place.String, pid: int(r.PID.Int64), start: r.Start.Int64}):
			return errCopyInFlight
		default:
			uncertain.to = append(uncertain.to, addr)
			uncertain.ids = append(uncertain.ids, r.MessageID)
		}
	}
	if len(to) > 0 {
		m.To = to
		journal := &copyJournal{ctx: context.WithoutCancel(ctx), c: j.c, s: j.s, id: j.id, key: m.Key, open: map[string]string{}}
		m.Journal = journal
		err := j.inner.Send(ctx, m)
		if errors.Is(err, mail.ErrUncertain) {
			lost := uncertainCopies{err: err}
			for addr, id := range journal.open {
				lost.to, lost.ids = append(lost.to, addr), append(lost.ids, id)
			}
			return lost
		}
		if err != nil {
			return err
		}
	}
	if len(uncertain.to) > 0 {
		return uncertain
	}
	return nil
}

// copyJournal records a document's copies in mail_copies (mail.Journal).
type copyJournal struct {
	ctx     context.Context
	c       *claimer
	s       slot
	id, key string
	// open are the copies committed and not answered yet, with their
	// Message-ID (the mail sender calls the journal from one goroutine).
	open map[string]string
}

// Committing records the copy, committed before its point of no return,
// only while the run holds the document's claim and no copy to that
// recipient is recorded.
func (j *copyJournal) Committing(to, messageID string) error {
	n, err := store.Exec(j.ctx, j.c.env.DB, sendCopy, j.key, recipient(to), messageID, j.c.id, j.c.env.wallClock().UnixMilli(), j.key, j.c.id)
	if err != nil {
		return fmt.Errorf("jobs: record the copy of %s: %w", j.key, err)
	}
	if n == 0 {
		return errClaimLost
	}
	j.open[to] = messageID
	return nil
}

func (j *copyJournal) Accepted(to string) {
	delete(j.open, to)
	if _, err := store.Exec(j.ctx, j.c.env.DB, `UPDATE mail_copies SET accepted_at = ? WHERE message_key = ? AND recipient = ? AND owner = ?`,
		j.c.env.wallClock().UnixMilli(), j.key, recipient(to), j.c.id); err != nil {
		// The copy stays committed: after a crash it would be taken for
		// one the server may have, never for one to send again.
		j.c.env.Log.Error("jobs: record a copy accepted", "key", j.key, "err", err)
	}
}

func (j *copyJournal) Refused(to string) {
	delete(j.open, to)
	if _, err := store.Exec(j.ctx, j.c.env.DB, `DELETE FROM mail_copies WHERE message_key = ? AND recipient = ? AND owner = ? AND accepted_at IS NULL`,
		j.key, recipient(to), j.c.id); err != nil {
		j.c.env.Log.Error("jobs: forget a copy refused", "key", j.key, "err", err)
	}
}

// recordSent records the document sent — whoever holds its claim now:
// its every copy went — and forgets its copies.
func (c *claimer) recordSent(ctx context.Context, s slot, id string) (bool, error) {
	var n int64
	err := c.env.DB.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		if n, err = store.Exec(ctx, tx, sendSent, c.env.wallClock().UnixMilli(), s.key(id)); err != nil {
			return err
		}
		_, err = store.Exec(ctx, tx, `DELETE FROM mail_copies WHERE message_key = ?`, s.key(id))
		return err
	})
	return n == 1, err
}

// leaveUncertain leaves the document claimed by the run for an
// administrator: some copy of it may be at the mail server (err says
// which, or how), so that no run sends it again on its own.
func (c *claimer) leaveUncertain(ctx context.Context, s slot, id string, err error) {
	ctx = context.WithoutCancel(ctx)
	if _, rerr := store.Exec(ctx, c.env.DB, sendLeave, MaxAttempts, s.key(id), c.id); rerr != nil {
		c.env.Log.Error("jobs: leave an uncertain email for an administrator", "table", s.table, "id", id, "err", rerr)
		return
	}
	var u uncertainCopies
	to, ids := "", ""
	if errors.As(err, &u) {
		to, ids = strings.Join(u.to, ", "), strings.Join(u.ids, ", ")
	}
	c.env.Log.Error("jobs: email perhaps received already: its sender died, or lost the mail server, after handing it over and "+
		"before the server's answer; it is not sent again on its own, and the document is left for an administrator: "+
		"ask its recipients, or look its Message-ID up in the mail server's log; if it never arrived, "+
		"`primeur jobs run deliveries --retry-failed` sends it again, with the same Message-ID",
		"document", c.env.describe(ctx, s, id), "kind", s.kind, "id", id, "to", to, "message_id", ids, "err", err)
}
