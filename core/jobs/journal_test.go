package jobs_test

import (
	"context"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"primeur/core/jobs"
	"primeur/core/mail"
	"primeur/core/mail/mailtest"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// noteState is what a delivery's row says of its note's email, and the
// copies the journal keeps of it ("recipient accepted" or "recipient
// committed"), as the journal tests compare them.
func noteState(t *testing.T, db *store.DB, id string) string {
	t.Helper()
	var row struct {
		Sent     *int64  `db:"sent_at"`
		Claim    *string `db:"claim"`
		Attempts int     `db:"attempts"`
	}
	if err := store.Get(ctx, db, &row, `SELECT sent_at, claim, attempts FROM sends WHERE message_key = ?`, "note-"+id); err != nil && !store.IsNotFound(err) {
		t.Fatal(err)
	}
	state := "unsent"
	switch {
	case row.Sent != nil:
		state = "sent"
	case row.Attempts >= jobs.MaxAttempts:
		state = "left for an administrator"
	}
	if row.Claim != nil && row.Sent == nil {
		state += ", claimed by " + *row.Claim
	}
	var copies []string
	if err := store.Select(ctx, db, &copies, `SELECT recipient || CASE WHEN accepted_at IS NULL THEN ' committed' ELSE ' accepted' END
		FROM mail_copies WHERE message_key = ? ORDER BY recipient`, "note-"+id); err != nil {
		t.Fatal(err)
	}
	if len(copies) > 0 {
		state += "; copies: " + strings.Join(copies, ", ")
	}
	return state
}

// received is how many copies of the note each of its two recipients got
// at the server: "ferme 1, épicerie 0".
func received(srv *mailtest.Server, id string) string {
	c := srv.Copies()["<note-"+id+"@primeur.local>"]
	return "ferme " + itoa(c["ferme@aravis.fr"]) + ", épicerie " + itoa(c["epicerie@lac.fr"])
}

func itoa(n int) string { return strconv.Itoa(n) }

// rows counts the rows a query selects.
func rows(t *testing.T, db *store.DB, query string) int {
	t.Helper()
	var n int
	if err := store.Get(ctx, db, &n, query); err != nil {
		t.Fatal(err)
	}
	return n
}

// thief takes the document's claim for another process just before the
// message goes: the process whose claim is taken.
type thief struct {
	db    *store.DB
	inner mail.Sender
}

func (s thief) Send(ctx context.Context, m mail.Message) error {
	if _, err := store.Exec(ctx, s.db, `UPDATE sends SET claim = 'other' WHERE message_key = ?`, m.Key); err != nil {
		return err
	}
	return s.inner.Send(ctx, m)
}

// TestNoCopyIsSentTwice: the journal of each recipient's copy (mail_copies)
// decides what a run sends of a delivery note that another process began:
// a copy the server accepted is not sent again; a copy committed and never
// answered — its process killed at the final "." of DATA, or the
// connection lost there — is never sent again on its own: the document is
// left for an administrator with one Error line naming it, its recipient
// and Message-ID, and RetryFailed gives it back, to send again with the
// same Message-ID; a copy a live process is sending leaves the document to
// it; a process whose claim was taken commits nothing, so sends nothing.
// The other copies go. Both engines, over SMTP.
func TestNoCopyIsSentTwice(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		// before sets the scene for the note of delivery id, claimed at
		// hour ago by a process "dead" that left no row in mail_senders.
		before   func(w *tradetest.World, id string, srv *mailtest.Server, e *jobs.Env)
		err      string // what the run's error says, "" for none
		received string
		state    string
		log      string // a line the run logs, as a regular expression
		// retried: after RetryFailed and another run.
		retriedReceived, retriedState string
	}{
		{
			name: "a copy accepted before a kill",
			before: func(w *tradetest.World, id string, _ *mailtest.Server, _ *jobs.Env) {
				copyOf(w, id, "ferme@aravis.fr", "dead", true)
			},
			received: "ferme 0, épicerie 1", state: "sent",
		},
		{
			name: "a copy committed before a kill",
			before: func(w *tradetest.World, id string, _ *mailtest.Server, _ *jobs.Env) {
				copyOf(w, id, "ferme@aravis.fr", "dead", false)
			},
			received: "ferme 0, épicerie 1", state: "left for an administrator; copies: epicerie@lac.fr accepted, ferme@aravis.fr committed",
			log:             `level=ERROR msg="jobs: email perhaps received already: .*--retry-failed.*" document=BL-000001 kind=note id=\S+ to=ferme@aravis.fr message_id=<note-\S+@primeur.local>`,
			retriedReceived: "ferme 1, épicerie 1", retriedState: "sent",
		},
		{
			name: "a copy being sent by a live process",
			before: func(w *tradetest.World, id string, _ *mailtest.Server, _ *jobs.Env) {
				w.Exec(`INSERT INTO mail_senders (id, host, place, pid, process_start, started_at, beat_at) VALUES ('live', 'ailleurs', 'ailleurs', 1, 1, ?, ?)`,
					time.Now().UnixMilli(), time.Now().UnixMilli())
				copyOf(w, id, "ferme@aravis.fr", "live", false)
			},
			received: "ferme 0, épicerie 0", state: "unsent; copies: ferme@aravis.fr committed",
		},
		{
			name: "a claim taken from the process sending",
			before: func(_ *tradetest.World, _ string, srv *mailtest.Server, e *jobs.Env) {
				e.Mail = thief{db: e.DB, inner: mail.SMTP{Config: srv.Config()}}
			},
			received: "ferme 0, épicerie 0", state: "unsent, claimed by other",
			log: `level=WARN msg="jobs: claim taken back while sending`,
		},
		{
			name:     "no answer after the final dot",
			before:   func(_ *tradetest.World, _ string, srv *mailtest.Server, _ *jobs.Env) { srv.CutAfterData(true) },
			err:      "the mail server may have the message",
			received: "ferme 1, épicerie 0", state: "left for an administrator; copies: ferme@aravis.fr committed",
			log:             `level=ERROR msg="jobs: email perhaps received already: .*" document=BL-000001 kind=note id=\S+ to=ferme@aravis.fr message_id=<note-\S+@primeur.local> err=".*no answer to the end of its data`,
			retriedReceived: "ferme 2, épicerie 1", retriedState: "sent",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				w := tradetest.New(t, db)
				o := w.Order(w.Farm, w.Shop, "2026-11-01")
				id := w.Delivery(o, "2026-11-10", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
				w.Exec(`INSERT INTO sends (message_key, kind, subject_id, claim, claimed_at) VALUES (?, 'note', ?, 'dead', ?)`,
					"note-"+id, id, time.Now().Add(-time.Hour).UnixMilli())
				e, srv := smtpEnv(t, db)
				var log logs
				e.Log, e.ClaimWait = log.logger(), -1
				tt.before(w, id, srv, &e)
				_, err := jobs.Deliveries(ctx, e, at(2026, 11, 10, 13, 0))
				if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("run: %v, want %q", err, tt.err)
				}
				srv.CutAfterData(false)
				out := log.take()
				if got := received(srv, id); got != tt.received {
					t.Errorf("received %s, want %s", got, tt.received)
				}
				if got := noteState(t, db, id); got != tt.state {
					t.Errorf("state %q, want %q", got, tt.state)
				}
				if tt.log != "" && !regexp.MustCompile(tt.log).MatchString(out) {
					t.Errorf("log lacks %s:\n%s", tt.log, out)
				}
				if n := rows(t, db, `SELECT COUNT(*) FROM mail_senders WHERE id <> 'live'`); n != 0 {
					t.Errorf("%d runs left in mail_senders", n)
				}
				// Later runs send nothing more on their own.
				e.Mail = mail.SMTP{Config: srv.Config()}
				if _, err := jobs.Deliveries(ctx, e, at(2026, 11, 10, 13, 5)); err != nil {
					t.Fatal(err)
				}
				if got := received(srv, id); got != tt.received {
					t.Fatalf("after another run, received %s, want %s", got, tt.received)
				}
				if tt.retriedState == "" {
					return
				}
				if notes, _, err := jobs.RetryFailed(ctx, db); err != nil || notes != 1 {
					t.Fatalf("retry failed: %d, %v", notes, err)
				}
				if _, err := jobs.Deliveries(ctx, e, at(2026, 11, 10, 13, 10)); err != nil {
					t.Fatal(err)
				}
				if got := received(srv, id); got != tt.retriedReceived {
					t.Errorf("given back, received %s, want %s", got, tt.retriedReceived)
				}
				if got := noteState(t, db, id); got != tt.retriedState {
					t.Errorf("given back, state %q, want %q", got, tt.retriedState)
				}
			})
		})
	}
}

// copyOf writes the copy of note id's email to `to` into the journal, as
// process owner left it: accepted by the server, or committed only.
func copyOf(w *tradetest.World, id, to, owner string, accepted bool) {
	var at any
	if accepted {
		at = time.Now().Add(-time.Hour).UnixMilli()
	}
	w.Exec(`INSERT INTO mail_copies (message_key, recipient, message_id, owner, committed_at, accepted_at) VALUES (?, ?, ?, ?, ?, ?)`,
		"note-"+id, to, "<note-"+id+"@primeur.local>", owner, time.Now().Add(-time.Hour).UnixMilli(), at)
}

// TestAClaimHoldsWhileItsProcessLives: a delivery note claimed by another
// process is left to it while its claim holds — renewed less than Lease
// ago, or, for a claim whose process left no row, made less than Lease
// ago — and taken back once it lapses; at once, whatever its renewals,
// when its process ran on this machine and is gone (its PID free, or
// another process's). The lease follows the wall clock, not the run's
// time.
func TestAClaimHoldsWhileItsProcessLives(t *testing.T) {
	t.Parallel()
	place, pid, start := jobs.SelfProcess()
	child := exec.Command("true")
	if err := child.Run(); err != nil {
		t.Fatal(err)
	}
	gonePID := child.Process.Pid
	wall := time.Date(2026, 11, 10, 11, 30, 0, 0, time.UTC)
	for _, tt := range []struct {
		name  string
		row   bool // the process left its row in mail_senders
		place string
		pid   int
		start int64
		ago   time.Duration // since its last renewal, or its claim without a row
		taken bool
		linux bool // needs a place (Linux)
	}{
		{name: "renewed just now", row: true, place: "ailleurs", pid: 1, ago: 0},
		{name: "renewed a second short of the lease", row: true, place: "ailleurs", pid: 1, ago: jobs.Lease - time.Second},
		{name: "renewed a lease ago", row: true, place: "ailleurs", pid: 1, ago: jobs.Lease, taken: true},
		{name: "no row, claimed a second short of the lease", ago: jobs.Lease - time.Second},
		{name: "no row, claimed a lease ago", ago: jobs.Lease, taken: true},
		{name: "alive on this machine", row: true, place: place, pid: pid, start: start, linux: true},
		{name: "gone from this machine", row: true, place: place, pid: gonePID, start: 1, linux: true, taken: true},
		{name: "its PID another process's", row: true, place: place, pid: pid, start: start + 1, linux: true, taken: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.linux && place == "" {
				t.Skip("no process identity on " + runtime.GOOS)
			}
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				w := tradetest.New(t, db)
				o := w.Order(w.Farm, w.Shop, "2026-11-01")
				d := w.Delivery(o, "2026-11-10", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
				claimed := wall.Add(-tt.ago)
				if tt.row {
					claimed = wall.Add(-time.Hour)
					w.Exec(`INSERT INTO mail_senders (id, host, place, pid, process_start, started_at, beat_at) VALUES ('other', 'h', ?, ?, ?, ?, ?)`,
						tt.place, tt.pid, tt.start, claimed.UnixMilli(), wall.Add(-tt.ago).UnixMilli())
				}
				w.Exec(`INSERT INTO sends (message_key, kind, subject_id, claim, claimed_at) VALUES (?, 'note', ?, 'other', ?)`, "note-"+d, d, claimed.UnixMilli())
				e, srv := smtpEnv(t, db)
				e.Clock, e.ClaimWait = func() time.Time { return wall }, -1
				want := map[bool]int{true: 1, false: 0}[tt.taken]
				// Whatever the run's own time.
				for _, runAt := range []time.Time{at(2026, 11, 10, 13, 0), at(2027, 1, 1, 0, 0)} {
					if r := run(t, jobs.Deliveries, e, runAt); r.Get(jobs.NotesSent) != want {
						t.Fatalf("run at %v: %s", runAt, r)
					}
					want = 0
				}
				if n := len(srv.Merged(t)); n != map[bool]int{true: 1, false: 0}[tt.taken] {
					t.Fatalf("%d messages", n)
				}
			})
		})
	}
}

// TestARunWaitsForTheClaimsOfOthers: a run that meets a note claimed by a
// process that stopped renewing it — killed a moment ago — waits for the
// claim to lapse and sends it; one whose process renews it is left to
// that process once the run's ClaimWait is over.
func TestARunWaitsForTheClaimsOfOthers(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		ago  time.Duration // since the other process's last renewal
		wait time.Duration // the run's ClaimWait (0: Lease and a Beat)
		sent int
	}{
		{"a process killed a moment ago", jobs.Lease - 300*time.Millisecond, 0, 1},
		{"a process alive", 0, 300 * time.Millisecond, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				w := tradetest.New(t, db)
				o := w.Order(w.Farm, w.Shop, "2026-11-01")
				d := w.Delivery(o, "2026-11-10", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
				beat := time.Now().Add(-tt.ago).UnixMilli()
				w.Exec(`INSERT INTO mail_senders (id, host, place, pid, process_start, started_at, beat_at) VALUES ('other', 'h', 'ailleurs', 1, 1, ?, ?)`, beat, beat)
				w.Exec(`INSERT INTO sends (message_key, kind, subject_id, claim, claimed_at) VALUES (?, 'note', ?, 'other', ?)`, "note-"+d, d, beat)
				e, srv := smtpEnv(t, db)
				e.ClaimWait = tt.wait
				if r := run(t, jobs.Deliveries, e, at(2026, 11, 10, 13, 0)); r.Get(jobs.NotesSent) != tt.sent || len(srv.Merged(t)) != tt.sent {
					t.Fatalf("%s, %d messages", r, len(srv.Merged(t)))
				}
			})
		})
	}
}

// TestARunRenewsItsClaimsWhileItSends: while the mail server keeps a note's
// message unanswered, the run sending it renews its row every Beat and
// keeps the note's claim; once answered, the note is recorded sent and
// the run's row is gone.
func TestARunRenewsItsClaimsWhileItSends(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		d := w.Delivery(o, "2026-11-10", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		e, srv := smtpEnv(t, db)
		release := srv.Hold()
		defer release()
		done := make(chan error, 1)
		go func() {
			_, err := jobs.Deliveries(ctx, e, at(2026, 11, 10, 13, 0))
			done <- err
		}()
		var run struct {
			ID      string `db:"id"`
			Started int64  `db:"started_at"`
			Beat    int64  `db:"beat_at"`
		}
		for stop := time.Now().Add(time.Minute); run.Beat <= run.Started; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(stop) {
				t.Fatal("no renewal within a minute")
			}
			if err := store.Get(ctx, db, &run, `SELECT id, started_at, beat_at FROM mail_senders`); err != nil && !store.IsNotFound(err) {
				t.Fatal(err)
			}
		}
		if got := noteState(t, db, d); got != "unsent, claimed by "+run.ID+"; copies: ferme@aravis.fr committed" || srv.Held() != 1 {
			t.Fatalf("while held: %s, %d held", got, srv.Held())
		}
		release()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if got := noteState(t, db, d); got != "sent" {
			t.Fatalf("state %q", got)
		}
		if n := rows(t, db, `SELECT COUNT(*) FROM mail_senders`); n != 0 {
			t.Fatalf("%d runs left", n)
		}
	})
}
