package limit_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/limit"
)

const (
	msgAgain = "Un fichier est déjà en cours, attendez."
	retry    = 2 * time.Second
)

// fairCall is a call of a fairRig: its fake work holds its place until
// released.
type fairCall struct {
	account string
	release chan struct{}
	err     chan error
	ran     atomic.Bool
}

// fairRig drives a Fair gate with calls whose work the test holds on
// channels: no timing decides anything.
type fairRig struct {
	g       *limit.Fair
	started chan *fairCall // every call whose work starts, in the order they start
}

func newFairRig(size int, wait time.Duration) *fairRig {
	return &fairRig{g: limit.NewFair("test", size, wait, msgBusy, msgAgain, retry), started: make(chan *fairCall, 256)}
}

// send makes account's call in its own goroutine.
func (r *fairRig) send(ctx context.Context, account string) *fairCall {
	c := &fairCall{account: account, release: make(chan struct{}), err: make(chan error, 1)}
	go func() {
		defer func() {
			if p := recover(); p != nil {
				c.err <- fmt.Errorf("panic: %v", p)
			}
		}()
		c.err <- r.g.Do(ctx, account, func() error {
			c.ran.Store(true)
			r.started <- c
			<-c.release
			return nil
		})
	}()
	return c
}

// next is the next call to start.
func (r *fairRig) next(t *testing.T) *fairCall {
	t.Helper()
	return <-r.started
}

// run sends account's call and returns it once it runs: the gate must have
// a free place and no one waiting.
func (r *fairRig) run(t *testing.T, account string) *fairCall {
	t.Helper()
	c := r.send(context.Background(), account)
	if got := r.next(t); got != c {
		t.Fatalf("%s's call started instead of %s's", got.account, account)
	}
	return c
}

// queue sends account's call and returns once it waits in the queue.
func (r *fairRig) queue(t *testing.T, account string) *fairCall {
	t.Helper()
	return r.queueCtx(t, context.Background(), account)
}

func (r *fairRig) queueCtx(t *testing.T, ctx context.Context, account string) *fairCall {
	t.Helper()
	waiting := r.g.Stats().Waiting
	c := r.send(ctx, account)
	for r.g.Stats().Waiting == waiting {
		select {
		case err := <-c.err:
			t.Fatalf("%s's call ended instead of waiting: %v", account, err)
		default:
			if c.ran.Load() {
				t.Fatalf("%s's call ran instead of waiting", account)
			}
			time.Sleep(50 * time.Microsecond) // poll the gate's counter; nothing is timed
		}
	}
	return c
}

// finish releases c and returns its result once its Do has returned.
func (c *fairCall) finish(t *testing.T) {
	t.Helper()
	close(c.release)
	if err := <-c.err; err != nil {
		t.Fatalf("%s's call: %v", c.account, err)
	}
}

// declined sends account's call and checks that it is refused at once,
// unrun, as a second call of an account in the gate, saying to come back
// after a delay in [least, most].
func (r *fairRig) declined(t *testing.T, account string, least, most time.Duration) {
	t.Helper()
	waiting := r.g.Stats().Waiting
	c := r.send(context.Background(), account)
	var err error
	for done := false; !done; {
		select {
		case err = <-c.err:
			done = true
		default:
			if c.ran.Load() || r.g.Stats().Waiting > waiting {
				t.Fatalf("%s's second call was let in (ran %v) instead of refused", account, c.ran.Load())
			}
			time.Sleep(50 * time.Microsecond) // poll the gate's counter; nothing is timed
		}
	}
	var refusal *core.Refusal
	after, later := limit.RetryAfter(err)
	if c.ran.Load() || !errors.Is(err, core.ErrThrottled) || !errors.As(err, &refusal) || refusal.Message != msgAgain ||
		!later || after < least || after > most {
		t.Fatalf("%s's second call: ran %v, err %v, retry after %v (%v); want refused at once with a delay in [%v, %v]",
			account, c.ran.Load(), err, after, later, least, most)
	}
}

// TestFairServesAnotherAccountAfterOneCall: however many calls account A
// sends, B's call starts after at most one of A's — the one A had in the
// gate — and A's next call comes after B's. The rows hold A's first call
// running, or waiting behind another account's; the gate has one place or
// two (the other held by a third account).
func TestFairServesAnotherAccountAfterOneCall(t *testing.T) {
	tests := []struct {
		name   string
		size   int
		aWaits bool
	}{
		{"one place, A's call running", 1, false},
		{"one place, A's call waiting", 1, true},
		{"two places, A's call running", 2, false},
		{"two places, A's call waiting", 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const wait = time.Hour
			r := newFairRig(tt.size, wait)
			var others []*fairCall
			for i := range tt.size - 1 {
				others = append(others, r.run(t, fmt.Sprintf("other-%d", i)))
			}
			var first *fairCall
			if tt.aWaits {
				blocker := r.run(t, "blocker")
				first = r.queue(t, "A")
				for range 12 { // A's flood: each refused at once, with the wait left to A's call
					r.declined(t, "A", retry, retry+wait)
				}
				b := r.queue(t, "B")
				blocker.finish(t)
				if got := r.next(t); got != first {
					t.Fatalf("%s's call started before A's first", got.account)
				}
				r.served(t, first, b)
			} else {
				first = r.run(t, "A")
				for range 12 {
					r.declined(t, "A", retry, retry)
				}
				b := r.queue(t, "B")
				r.served(t, first, b)
			}
			for _, o := range others {
				o.finish(t)
			}
			if st := r.g.Stats(); st.Running != 0 || st.Waiting != 0 || st.Declined != 12 || st.Refused != 0 ||
				st.MostRunning != int64(tt.size) {
				t.Fatalf("stats at the end: %+v", st)
			}
		})
	}
}

// served ends A's running call, the gate being full with B's waiting: B's
// call must start next, and A's next call, sent as soon as its first
// returned, after B's.
func (r *fairRig) served(t *testing.T, first, b *fairCall) {
	t.Helper()
	first.finish(t)
	again := r.send(context.Background(), "A")
	if got := r.next(t); got != b {
		t.Fatalf("%s's call started before B's, which waited", got.account)
	}
	b.finish(t)
	if got := r.next(t); got != again {
		t.Fatalf("%s's call started instead of A's next", got.account)
	}
	again.finish(t)
}

// TestFairTakesAccountsInTurn: three accounts that each send a new call as
// soon as their last one returns are served A, B, C, A, B, C… however the
// calls arrive; on a FIFO of calls an account that sent first would be
// served first every time.
func TestFairTakesAccountsInTurn(t *testing.T) {
	r := newFairRig(1, time.Hour)
	blocker := r.run(t, "blocker")
	calls := map[string]*fairCall{}
	for _, a := range []string{"A", "B", "C"} {
		calls[a] = r.queue(t, a)
		r.declined(t, a, retry, retry+time.Hour) // the flood: a second call of each, refused
	}
	blocker.finish(t)
	var order []string
	for range 9 {
		c := r.next(t)
		order = append(order, c.account)
		for range 3 {
			r.declined(t, c.account, retry, retry)
		}
		c.finish(t)
		if len(order) < 7 {
			calls[c.account] = r.queue(t, c.account)
		}
	}
	if got := strings.Join(order, " "); got != "A B C A B C A B C" {
		t.Fatalf("served %s", got)
	}
}

// TestFairRefusesAWaitPastTheGates: a call still waiting after the gate's
// wait is refused with core.ErrBusy and the gate's message, after the
// wait; its account may then send again.
func TestFairRefusesAWaitPastTheGates(t *testing.T) {
	const wait = 10 * time.Millisecond
	r := newFairRig(1, wait)
	blocker := r.run(t, "blocker")
	c := r.send(context.Background(), "A")
	err := <-c.err
	var refusal *core.Refusal
	after, later := limit.RetryAfter(err)
	if c.ran.Load() || !errors.Is(err, core.ErrBusy) || !errors.As(err, &refusal) || refusal.Message != msgBusy ||
		!later || after != wait {
		t.Fatalf("err = %v (retry after %v, %v), want a busy refusal after %v", err, after, later, wait)
	}
	again := r.queue(t, "A")
	blocker.finish(t)
	if r.next(t) != again {
		t.Fatal("A's call after the refusal did not run")
	}
	again.finish(t)
	if st := r.g.Stats(); st.Refused != 1 || st.Done != 2 || st.Running != 0 || st.Waiting != 0 {
		t.Fatalf("stats %+v", st)
	}
}

// TestFairCallerWhoLeavesGivesItsTurnBack: a call whose context ends while
// it waits leaves the queue at once, unrun: the next account's call is
// served in its place, and its account may send again (its new call waits
// behind those already waiting). A running call keeps its account's turn
// whatever its context, until its work returns.
func TestFairCallerWhoLeavesGivesItsTurnBack(t *testing.T) {
	r := newFairRig(1, time.Hour)
	blocker := r.run(t, "blocker")
	ctx, cancel := context.WithCancel(context.Background())
	a := r.queueCtx(t, ctx, "A")
	b := r.queue(t, "B")
	cancel()
	if err := <-a.err; !errors.Is(err, context.Canceled) || a.ran.Load() {
		t.Fatalf("A's call after its caller left: %v (ran %v)", err, a.ran.Load())
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	again := r.queueCtx(t, ctx, "A")
	blocker.finish(t)
	if got := r.next(t); got != b {
		t.Fatalf("%s's call started instead of B's", got.account)
	}
	b.finish(t)
	if got := r.next(t); got != again {
		t.Fatalf("%s's call started instead of A's new one", got.account)
	}
	cancel() // A's caller leaves while its call runs: the turn stays A's
	r.declined(t, "A", retry, retry)
	again.finish(t)
	if st := r.g.Stats(); st.Waiting != 0 || st.Running != 0 || st.Done != 3 || st.Declined != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// TestFairPanicFreesThePlace: fn's panic reaches the caller, and frees the
// place (given to the call waiting) and the account's turn.
func TestFairPanicFreesThePlace(t *testing.T) {
	r := newFairRig(1, time.Hour)
	release := make(chan struct{})
	panicked := make(chan any, 1)
	go func() {
		defer func() { panicked <- recover() }()
		_ = r.g.Do(context.Background(), "A", func() error {
			<-release
			panic("boom")
		})
	}()
	for r.g.Stats().Running == 0 {
		time.Sleep(50 * time.Microsecond) // poll the gate's counter
	}
	b := r.queue(t, "B")
	close(release)
	if p := <-panicked; p != "boom" {
		t.Fatalf("recovered %v", p)
	}
	if got := r.next(t); got != b {
		t.Fatalf("%s's call started instead of B's", got.account)
	}
	again := r.queue(t, "A")
	b.finish(t)
	if r.next(t) != again {
		t.Fatal("A could not send again after its call panicked")
	}
	again.finish(t)
}

// TestFairBoundsConcurrency: calls from many accounts sent together, each
// account retrying its refused calls, run at most Size at once and one per
// account at once; every call runs once.
func TestFairBoundsConcurrency(t *testing.T) {
	for _, size := range []int{1, 2, 5} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			g := limit.NewFair("test", size, time.Hour, msgBusy, msgAgain, retry)
			const accounts, perAccount = 8, 8
			var now, most atomic.Int64
			var mine [accounts]atomic.Int64
			var wg sync.WaitGroup
			for a := range accounts {
				for range perAccount {
					wg.Add(1)
					go func() {
						defer wg.Done()
						defer func() {
							if p := recover(); p != nil {
								t.Error(p)
							}
						}()
						for {
							err := g.Do(context.Background(), fmt.Sprint(a), func() error {
								if mine[a].Add(1) > 1 {
									t.Errorf("account %d ran twice at once", a)
								}
								n := now.Add(1)
								for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
								}
								time.Sleep(100 * time.Microsecond) // hold the place so that callers pile up
								now.Add(-1)
								mine[a].Add(-1)
								return nil
							})
							if !errors.Is(err, core.ErrThrottled) {
								if err != nil {
									t.Error(err)
								}
								return
							}
							runtime.Gosched() // another call of the account is in the gate: try again
						}
					}()
				}
			}
			wg.Wait()
			st := g.Stats()
			if most.Load() > int64(size) || st.MostRunning > int64(size) || st.MostRunning < 1 {
				t.Fatalf("at most %d at once, seen %d (gate says %d)", size, most.Load(), st.MostRunning)
			}
			if st.Done != accounts*perAccount || st.Refused != 0 || st.Running != 0 || st.Waiting != 0 {
				t.Fatalf("stats = %+v", st)
			}
		})
	}
}
