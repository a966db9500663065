package httpx

import (
	"time"

	"github.com/danielgtaylor/huma/v2"
)

// WholeRequestTime gives every operation the request time d (the server's
// ReadTimeout) instead of huma's BodyReadTimeout. huma sets an operation's
// body deadline on the connection as the handler starts, 5 s unless the
// operation says otherwise; reached while the handler still runs (a login
// waiting its turn at the hashing gate, an upload at the parsing gate, a
// photo at the decoding gate, a busy database's retries), Go's server takes
// the connection for gone and cancels the request, which then answered
// 503 "Requête interrompue." to a request being served. A deadline earlier
// than d from now is moved to d from now; none (huma's "no deadline") is
// left as it is. The body's size stays bounded by each operation's
// MaxBodyBytes, its arrival by the server's own ReadTimeout.
func WholeRequestTime(d time.Duration) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		next(&patientContext{inner: ctx, d: d})
	}
}

// patientContext moves the read deadlines huma sets to at least d from now.
type patientContext struct {
	inner
	d time.Duration
}

// SetReadDeadline implements huma.Context.
func (c *patientContext) SetReadDeadline(t time.Time) error {
	if least := time.Now().Add(c.d); !t.IsZero() && t.Before(least) {
		t = least
	}
	return c.inner.SetReadDeadline(t)
}

// Unwrap gives humago.Unwrap the context underneath.
func (c *patientContext) Unwrap() huma.Context { return c.inner }
