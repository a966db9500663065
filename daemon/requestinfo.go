package daemon

import (
	"context"
	"log/slog"
	"net/http"

	"primeur/core"
	"primeur/core/store"
	"primeur/daemon/httpx"
)

// RequestIDHeader carries the id of each request, in every response
// (httpx.RequestID).
const RequestIDHeader = httpx.RequestIDHeader

type requestKey struct{}

// requestInfo is what the daemon knows of a request wherever it is: the
// daemon's logger and its counters, for the places that only see a
// context (huma's error hook); its id is httpx.RequestIDOf's.
type requestInfo struct {
	log *slog.Logger
	// fault counts a fault the request met (faultModel).
	fault func(store.Fault)
	// hold holds a throttled refusal before it is answered (limits.go).
	hold func(context.Context)
	// route is the pattern of the route that answers (instrument), and
	// user the account the request acts as (noteUser): for the access
	// log (web.go). Each is written by the request's own goroutine, before
	// the log reads it.
	route, user string
}

// requestOf returns the request's info, or nil outside a request.
func requestOf(ctx context.Context) *requestInfo {
	info, _ := ctx.Value(requestKey{}).(*requestInfo)
	return info
}

// identify gives every request an id (httpx.RequestID: the X-Request-Id
// header of the response, request_id in logs written with the request's
// context) and the daemon's requestInfo.
func (d *Daemon) identify(next http.Handler) http.Handler {
	return httpx.RequestID(core.NewID, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), requestKey{}, &requestInfo{log: d.log, fault: d.metrics.fault, hold: d.hold})
		next.ServeHTTP(w, r.WithContext(ctx))
	}))
}

// recoverPanics answers 500 to a request whose handler panicked, logs the
// panic with its stack and counts it; the daemon keeps serving
// (httpx.Recover). The answer carries the security headers again, none of
// the one the handler had begun to describe (resetHeaders).
func (d *Daemon) recoverPanics(next http.Handler) http.Handler {
	return httpx.Recover(next,
		func(r *http.Request, v any) {
			d.recovered(r.Context(), "http", v, "method", r.Method, "path", r.URL.Path)
		},
		func(w http.ResponseWriter, r *http.Request) {
			d.resetHeaders(w.Header(), httpx.ClientOf(r))
			writeProblem(w, internalProblem(r.Context()))
		})
}
