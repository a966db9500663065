package httpx

import (
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
)

// RetryLater is a huma middleware by which a 503 answer always says when
// to come back: Retry-After after, unless the handler gave its own delay.
func RetryLater(after time.Duration) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		next(&laterContext{inner: ctx, after: after})
	}
}

// inner names the embedded context: huma.Context has a Context method, so
// it cannot be embedded under its own name.
type inner = huma.Context

// laterContext adds the Retry-After header when the status is 503.
type laterContext struct {
	inner
	after time.Duration
}

// SetStatus implements huma.Context.
func (c *laterContext) SetStatus(code int) {
	if code == http.StatusServiceUnavailable {
		if _, w := humago.Unwrap(c.inner); w.Header().Get("Retry-After") == "" {
			c.SetHeader("Retry-After", RetryAfter(c.after))
		}
	}
	c.inner.SetStatus(code)
}

// Unwrap gives humago.Unwrap the context underneath.
func (c *laterContext) Unwrap() huma.Context { return c.inner }
