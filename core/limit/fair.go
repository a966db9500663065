package limit

import (
	"container/list"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"primeur/core"
)

// Fair is a gate whose places are shared fairly between accounts: an
// account has at most one call in the gate (waiting or running), so that
// the callers waiting are one per account and the first place freed goes to
// the account that has waited longest. Accounts are therefore served in
// turn — however many calls one account sends, another account's call waits
// at most for the call that account already had in the gate, not for the
// rest of its calls.
//
// An account's call that comes while another of its calls is in the gate
// is refused at once (core.ErrThrottled in a *Later, the gate's own
// message): it holds no place and no turn. A call that waits longer than
// the gate's wait is refused with core.ErrBusy, as Gate refuses; one whose
// context ends while it waits leaves the queue and gives its turn back. A
// call that runs keeps its place, and its account's turn, until fn returns
// or panics, whatever its context: work already started is not doubled by
// a client that leaves and sends it again.
type Fair struct {
	name    string
	size    int
	wait    time.Duration
	message string
	again   string
	retry   time.Duration

	mu       sync.Mutex
	running  int
	accounts map[string]*turn
	queue    list.List // of *turn waiting, in arrival order

	waiting     atomic.Int64
	mostRunning atomic.Int64
	done        atomic.Int64
	refused     atomic.Int64
	declined    atomic.Int64
}

// turn is an account's call in a Fair gate.
type turn struct {
	ready    chan struct{} // closed when the call gets its place
	running  bool
	deadline time.Time     // when a waiting call gives up
	elem     *list.Element // its place in the queue while it waits
}

// NewFair returns a fair gate letting size calls through at once, one per
// account. A call waits at most wait for a place, then is refused with
// message; an account's call sent while another of its calls is in the
// gate is refused with again, saying to come back after retry (plus the
// wait left to the call in the gate, when that one is still waiting).
func NewFair(name string, size int, wait time.Duration, message, again string, retry time.Duration) *Fair {
	return &Fair{
		name: name, size: max(size, 1), wait: wait, message: message, again: again, retry: retry,
		accounts: map[string]*turn{},
	}
}

// Size is how many calls run at once at most.
func (g *Fair) Size() int { return g.size }

// Wait is how long a call waits for its place at most.
func (g *Fair) Wait() time.Duration { return g.wait }

// Do runs fn for account once a place is free and it is the account's
// turn, and returns fn's error. A call refused returns, without running fn:
// a *Later wrapping core.ErrThrottled with the gate's again message when
// the account already has a call in the gate; a *Later wrapping
// core.ErrBusy with its message after the gate's wait; the context's error
// when the context ends first. A panic of fn frees the place and the turn,
// then goes on to the caller.
func (g *Fair) Do(ctx context.Context, account string, fn func() error) error {
	now := time.Now()
	g.mu.Lock()
	if other, ok := g.accounts[account]; ok {
		after := g.retry
		if !other.running {
			after += other.deadline.Sub(now)
		}
		g.mu.Unlock()
		g.declined.Add(1)
		return &Later{Err: core.Refuse(core.ErrThrottled, g.again), After: max(after, g.retry)}
	}
	t := &turn{ready: make(chan struct{})}
	g.accounts[account] = t
	if g.running < g.size && g.queue.Len() == 0 {
		g.start(t)
	} else {
		t.deadline = now.Add(g.wait)
		t.elem = g.queue.PushBack(t)
		g.waiting.Add(1)
	}
	g.mu.Unlock()
	if err := g.await(ctx, account, t); err != nil {
		return err
	}
	defer g.leave(account)
	return fn()
}

// await waits until t has its place, or refuses it: the gate's wait over,
// or the context ended. A refused call has left the queue; one given its
// place at the very moment it gave up passes the place on.
func (g *Fair) await(ctx context.Context, account string, t *turn) error {
	select {
	case <-t.ready:
		return nil
	default:
	}
	timer := time.NewTimer(g.wait)
	defer timer.Stop()
	var err error
	select {
	case <-t.ready:
		return nil
	case <-ctx.Done():
		err = fmt.Errorf("limit: %s: %w", g.name, ctx.Err())
	case <-timer.C:
		g.refused.Add(1)
		err = &Later{Err: core.Refuse(core.ErrBusy, g.message), After: g.wait}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if t.running {
		g.freeLocked(account)
		return err
	}
	g.queue.Remove(t.elem)
	g.waiting.Add(-1)
	delete(g.accounts, account)
	return err
}

// start gives t a place; g.mu is held.
func (g *Fair) start(t *turn) {
	g.running++
	t.running = true
	close(t.ready)
	if int64(g.running) > g.mostRunning.Load() {
		g.mostRunning.Store(int64(g.running))
	}
}

// leave ends account's call that ran.
func (g *Fair) leave(account string) {
	g.done.Add(1)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.freeLocked(account)
}

// freeLocked frees the place and the turn of account's running call and
// hands the place to the call that has waited longest; g.mu is held.
func (g *Fair) freeLocked(account string) {
	g.running--
	delete(g.accounts, account)
	for g.running < g.size && g.queue.Len() > 0 {
		next := g.queue.Remove(g.queue.Front()).(*turn)
		next.elem = nil
		g.waiting.Add(-1)
		g.start(next)
	}
}

// Stats returns the gate's counters. Declined counts the calls refused at
// once because their account had a call in the gate.
func (g *Fair) Stats() Stats {
	g.mu.Lock()
	running := g.running
	g.mu.Unlock()
	return Stats{
		Size: g.size, Waiting: g.waiting.Load(), Running: int64(running), MostRunning: g.mostRunning.Load(),
		Done: g.done.Load(), Refused: g.refused.Load(), Declined: g.declined.Load(),
	}
}
