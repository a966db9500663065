package limit

import (
	"sync"
	"time"

	"primeur/core"
)

// Window lets each account make at most n calls in a window of time (a
// fixed window, from the account's first call in it): the calls that
// reach out of the process on a user's behalf — a test of a producer's
// approved platform calls an address the producer typed — so that one
// account cannot turn the server into a caller of its own at the rate it
// sends requests. Past n, a call is refused with a *Later wrapping
// core.ErrThrottled and the window's French message, to come back when the
// account's window ends.
//
// It keeps one entry per account seen in the last window, in memory: the
// limit is each process's (two replicas allow twice as many), and the
// entries are pruned whenever they grow past the accounts still counted,
// so that the memory it holds is bounded by the accounts active in one
// window.
type Window struct {
	n       int
	window  time.Duration
	message string

	mu      sync.Mutex
	entries map[string]*span
	prune   int // the number of entries that makes the next Take prune
}

// span is an account's count in its current window.
type span struct {
	start time.Time
	calls int
}

// NewWindow returns a window letting each account make n calls (at least
// one) per window, refusing the next ones with message.
func NewWindow(n int, window time.Duration, message string) *Window {
	return &Window{n: max(n, 1), window: window, message: message, entries: map[string]*span{}, prune: 64}
}

// N is how many calls an account may make in a window.
func (w *Window) N() int { return w.n }

// Take counts a call of account at now, or refuses it (a *Later, after
// which the account's window ends) when the account made n calls already
// in its window. A refused call is not counted.
func (w *Window) Take(account string, now time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.entries) >= w.prune {
		for k, s := range w.entries {
			if !now.Before(s.start.Add(w.window)) {
				delete(w.entries, k)
			}
		}
		w.prune = max(64, 2*len(w.entries))
	}
	s, ok := w.entries[account]
	if !ok || !now.Before(s.start.Add(w.window)) {
		w.entries[account] = &span{start: now, calls: 1}
		return nil
	}
	if s.calls >= w.n {
		return &Later{Err: core.Refuse(core.ErrThrottled, w.message), After: s.start.Add(w.window).Sub(now)}
	}
	s.calls++
	return nil
}
