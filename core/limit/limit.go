// Package limit bounds the expensive work a process does at once and says
// when a refused caller may come back.
//
// A Gate lets a fixed number of callers run an operation together
// (password hashing); the others queue, in order, for a short while and no
// longer than their context, then are refused with core.ErrBusy and the
// gate's French message. A Fair gate (the parsing of an Excel upload) does
// the same with one call per account at most, so that accounts are served
// in turn. Later marks an error with the delay after which trying again
// makes sense; the daemon turns it into a Retry-After header.
package limit

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"

	"primeur/core"
)

// MsgBusy is what a user reads when the server turns work away for a
// moment: a gate full past its wait, a database still busy after retries.
const MsgBusy = "Le service est momentanément surchargé. Veuillez réessayer dans quelques instants."

// Gate bounds how many callers run an operation at once.
type Gate struct {
	name    string
	size    int64
	wait    time.Duration
	message string
	sem     *semaphore.Weighted

	waiting     atomic.Int64
	running     atomic.Int64
	mostRunning atomic.Int64
	done        atomic.Int64
	refused     atomic.Int64
}

// NewGate returns a gate letting size callers through at once; a caller
// waits at most wait for its turn, then is refused with message. name
// identifies the gate in errors.
func NewGate(name string, size int, wait time.Duration, message string) *Gate {
	if size < 1 {
		size = 1
	}
	return &Gate{name: name, size: int64(size), wait: wait, message: message, sem: semaphore.NewWeighted(int64(size))}
}

// Size is how many callers run at once at most.
func (g *Gate) Size() int { return int(g.size) }

// Wait is how long a caller waits for its turn at most.
func (g *Gate) Wait() time.Duration { return g.wait }

// Do runs fn once a place is free and returns its error. A caller still
// waiting after the gate's wait gets a *Later wrapping core.ErrBusy with
// the gate's message; one whose context ends first gets the context's
// error. Waiting callers are served in arrival order.
func (g *Gate) Do(ctx context.Context, fn func() error) error {
	wctx, cancel := context.WithTimeout(ctx, g.wait)
	g.waiting.Add(1)
	err := g.sem.Acquire(wctx, 1)
	g.waiting.Add(-1)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("limit: %s: %w", g.name, ctx.Err())
		}
		g.refused.Add(1)
		return &Later{Err: core.Refuse(core.ErrBusy, g.message), After: g.wait}
	}
	defer g.sem.Release(1)
	n := g.running.Add(1)
	for {
		most := g.mostRunning.Load()
		if n <= most || g.mostRunning.CompareAndSwap(most, n) {
			break
		}
	}
	defer func() {
		g.running.Add(-1)
		g.done.Add(1)
	}()
	return fn()
}

// Stats are a gate's counters since the process started.
type Stats struct {
	// Size is how many callers run at once at most.
	Size int
	// Waiting is how many wait for a place now.
	Waiting int64
	// Running is how many run now.
	Running int64
	// MostRunning is the highest Running seen.
	MostRunning int64
	// Done counts the operations run.
	Done int64
	// Refused counts the callers turned away after waiting.
	Refused int64
	// Declined counts the callers of a Fair gate refused at once because
	// their account had a call in the gate.
	Declined int64
}

// Stats returns the gate's counters.
func (g *Gate) Stats() Stats {
	return Stats{
		Size: int(g.size), Waiting: g.waiting.Load(), Running: g.running.Load(), MostRunning: g.mostRunning.Load(),
		Done: g.done.Load(), Refused: g.refused.Load(),
	}
}

// Later is an error after which the caller may try again once After has
// passed: a throttled attempt, a saturated gate, a busy database. Its
// message and kind are those of Err.
type Later struct {
	Err   error
	After time.Duration
}

// Error returns Err's message.
func (l *Later) Error() string { return l.Err.Error() }

// Unwrap exposes Err to errors.Is and errors.As.
func (l *Later) Unwrap() error { return l.Err }

// RetryAfter returns the delay carried by the first Later in err's chain.
func RetryAfter(err error) (time.Duration, bool) {
	var l *Later
	if errors.As(err, &l) {
		return l.After, true
	}
	return 0, false
}
