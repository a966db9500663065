package daemon

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"primeur/core/store"
	"primeur/daemon/httpx"
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

// retryLater is a middleware of every operation: a 503 answer always says
// when to come back (Retry-After), store.BusyRetryAfter unless the handler
// gave its own delay. A 503 comes from a database still busy after
// store.DB.Tx's retries, a full gate, or a request cut short.
func retryLater(ctx huma.Context, next func(huma.Context)) {
	next(&laterContext{inner: ctx})
}

// inner names the embedded context: huma.Context has a Context method, so
// it cannot be embedded under its own name.
type inner = huma.Context

// laterContext adds the Retry-After header when the status is 503.
type laterContext struct {
	inner
}

// SetStatus implements huma.Context.
func (c *laterContext) SetStatus(code int) {
	if code == http.StatusServiceUnavailable {
		if _, w := humago.Unwrap(c.inner); w.Header().Get("Retry-After") == "" {
			c.SetHeader("Retry-After", httpx.RetryAfter(store.BusyRetryAfter))
		}
	}
	c.inner.SetStatus(code)
}

// Unwrap gives humago.Unwrap the context underneath.
func (c *laterContext) Unwrap() huma.Context { return c.inner }
