package httpx

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
)

// RequestIDHeader carries the id of each request, in every response. A
// client may send its own (a proxy's id, for instance); it is kept when it
// looks like one, else replaced.
const RequestIDHeader = "X-Request-Id"

type requestIDKey struct{}

// RequestIDOf returns the request's id (RequestID), or "" outside a
// request.
func RequestIDOf(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
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

// RequestID gives every request an id — the client's X-Request-Id when it
// looks like one, else newID() — set in the response's X-Request-Id header
// and in the context (RequestIDOf; logs written with the request's context
// carry it as request_id: LogRequestID).
func RequestID(newID func() string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(RequestIDHeader)
		if !validRequestID(id) {
			id = newID()
		}
		w.Header().Set(RequestIDHeader, id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id)))
	})
}

// Recover catches a panic of next: recovered is told (to log and count
// it), then answer writes the answer in its place. A handler that had
// already started its answer cannot be given another: its connection is
// closed, as net/http does. http.ErrAbortHandler, a deliberate abort, is
// left to net/http.
func Recover(next http.Handler, recovered func(r *http.Request, v any), answer http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &Tracker{ResponseWriter: w}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
				panic(v)
			}
			recovered(r, v)
			if rec.Wrote {
				panic(http.ErrAbortHandler)
			}
			answer(w, r)
		}()
		next.ServeHTTP(rec, r)
	})
}

// Tracker is a ResponseWriter that remembers whether its handler started
// its answer (Wrote).
type Tracker struct {
	http.ResponseWriter
	Wrote bool
}

// WriteHeader implements http.ResponseWriter.
func (h *Tracker) WriteHeader(code int) {
	h.Wrote = true
	h.ResponseWriter.WriteHeader(code)
}

// Write implements http.ResponseWriter.
func (h *Tracker) Write(b []byte) (int, error) {
	h.Wrote = true
	return h.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController the writer underneath.
func (h *Tracker) Unwrap() http.ResponseWriter { return h.ResponseWriter }

// LogRequestID is a slog handler adding the request's id (RequestIDOf) to
// every record logged with a request's context, as request_id.
type LogRequestID struct{ slog.Handler }

// Handle implements slog.Handler.
func (h LogRequestID) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestIDOf(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

// WithAttrs implements slog.Handler.
func (h LogRequestID) WithAttrs(attrs []slog.Attr) slog.Handler {
	return LogRequestID{h.Handler.WithAttrs(attrs)}
}

// WithGroup implements slog.Handler.
func (h LogRequestID) WithGroup(name string) slog.Handler {
	return LogRequestID{h.Handler.WithGroup(name)}
}
