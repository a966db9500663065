package daemon

import (
	"context"
	"time"
)

// Throttled answers are held throttleHold before they are sent (at most
// heldAtOnce at a time; beyond, they go at once): a client that tries again
// as soon as it is refused cannot turn refusals into a flood that takes the
// cores from everyone else, and holding costs a timer, not a core.
const (
	throttleHold = time.Second
	heldAtOnce   = 256
)

// hold waits throttleHold, or until the request ends, if one of the
// daemon's heldAtOnce places is free. huma's error hook (errors.go) calls
// it for a throttled refusal (core.ErrThrottled).
func (d *Daemon) hold(ctx context.Context) {
	if !d.held.TryAcquire(1) {
		return
	}
	defer d.held.Release(1)
	t := time.NewTimer(throttleHold)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
