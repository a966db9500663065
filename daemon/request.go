package daemon

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"primeur/core"
	"primeur/core/store"
	"primeur/daemon/httpx"
)

// RequestIDHeader carries the id of each request, in every response. A
// client may send its own (a proxy's id, for instance); it is kept when it
// looks like one, else replaced.
const RequestIDHeader = "X-Request-Id"

type requestKey struct{}

// requestInfo is what the daemon knows of a request wherever it is: its id
// and the daemon's logger, for the places that only see a context (huma's
// error hook).
type requestInfo struct {
	id  string
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

// requestIDOf returns the request's id, or "" outside a request.
func requestIDOf(ctx context.Context) string {
	if info := requestOf(ctx); info != nil {
		return info.id
	}
	return ""
}

// validRequestID accepts a client's id made of at most 64 letters, digits,
// dashes, dots and underscores: it goes to logs and headers as it is.
func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '.', c == '_':
		default:
			return false
		}
	}
	return true
}

// identify gives every request an id, set in the response's
// X-Request-Id header and in the context (logs written with the request's
// context carry it as request_id).
func (d *Daemon) identify(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(RequestIDHeader)
		if !validRequestID(id) {
			id = core.NewID()
		}
		w.Header().Set(RequestIDHeader, id)
		ctx := context.WithValue(r.Context(), requestKey{}, &requestInfo{id: id, log: d.log, fault: d.metrics.fault, hold: d.hold})
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// recoverPanics answers 500 to a request whose handler panicked, logs the
// panic with its stack and counts it; the daemon keeps serving. A handler
// that had already started its answer cannot be given another: its
// connection is closed, as net/http does. http.ErrAbortHandler, a
// deliberate abort, is left to net/http.
func (d *Daemon) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &headerTracker{ResponseWriter: w}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
				panic(v)
			}
			d.recovered(r.Context(), "http", v, "method", r.Method, "path", r.URL.Path)
			if rec.wrote {
				panic(http.ErrAbortHandler)
			}
			d.resetHeaders(w.Header(), httpx.ClientOf(r))
			writeProblem(w, internalProblem(r.Context()))
		}()
		next.ServeHTTP(rec, r)
	})
}

// headerTracker remembers whether a handler started its answer.
type headerTracker struct {
	http.ResponseWriter
	wrote bool
}

func (h *headerTracker) WriteHeader(code int) {
	h.wrote = true
	h.ResponseWriter.WriteHeader(code)
}

func (h *headerTracker) Write(b []byte) (int, error) {
	h.wrote = true
	return h.ResponseWriter.Write(b)
}

func (h *headerTracker) Unwrap() http.ResponseWriter { return h.ResponseWriter }

// withRequestID is a slog handler adding the request's id to every record
// logged with a request's context.
type withRequestID struct{ slog.Handler }

func (h withRequestID) Handle(ctx context.Context, r slog.Record) error {
	if id := requestIDOf(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h withRequestID) WithAttrs(attrs []slog.Attr) slog.Handler {
	return withRequestID{h.Handler.WithAttrs(attrs)}
}

func (h withRequestID) WithGroup(name string) slog.Handler {
	return withRequestID{h.Handler.WithGroup(name)}
}
