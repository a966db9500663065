package httpx

import (
	"context"
	"log/slog"
	"net/http"
	"time"
	"unicode/utf8"
)

// Recorder remembers the status a handler wrote and the bytes of its
// body, for the metrics and the access log. Its Status starts at 200.
type Recorder struct {
	http.ResponseWriter
	Status int
	Bytes  int64
}

// NewRecorder records what is written to w.
func NewRecorder(w http.ResponseWriter) *Recorder {
	return &Recorder{ResponseWriter: w, Status: http.StatusOK}
}

// WriteHeader implements http.ResponseWriter.
func (s *Recorder) WriteHeader(code int) {
	s.Status = code
	s.ResponseWriter.WriteHeader(code)
}

// Write implements http.ResponseWriter.
func (s *Recorder) Write(b []byte) (int, error) {
	n, err := s.ResponseWriter.Write(b)
	s.Bytes += int64(n)
	return n, err
}

// Unwrap gives http.ResponseController the writer underneath.
func (s *Recorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// The access log (README "Logs"): one record per request, once it is
// answered, at Info — at Error for a 5xx, at Warn for one whose request
// ended before its answer (the client gone: a page closed, a navigation
// elsewhere), marked canceled —, with
//
//	method       the request's method
//	route        the pattern of the route that answered ("GET /api/needs/{id}",
//	             "/" for the interface; "unmatched" for a request refused
//	             before routing), as the metrics' route label (about's)
//	path         the path asked for, without the query (which may carry a
//	             link's token), cut at maxLoggedPath bytes
//	status       the status answered
//	duration_ms  the time to answer, in milliseconds (microsecond precision)
//	bytes        the body's bytes as sent, compressed when it was
//	client       the client's address as trusted-proxies resolves it
//	             (client.go): the TCP peer, or the address a trusted proxy
//	             forwards
//	user         the account's id, when the request carried a live session or
//	             logged in or registered one (about's)
//	request_id   the X-Request-Id answered (LogRequestID adds it)
//	canceled     true when the request ended before its answer
//
// in the format of log's handler (the daemon's log-format: text: logfmt;
// json: one object a line). AccessLog writes it for next, asking about
// for the route and the user once the answer is written.
func AccessLog(log *slog.Logger, next http.Handler, about func(ctx context.Context) (route, user string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := NewRecorder(w)
		next.ServeHTTP(rec, r)
		level := slog.LevelInfo
		// The request's context ends with the client's connection: what
		// the handler answered then (503 "Requête interrompue.") reached
		// no one, and is no fault of the daemon's.
		canceled := r.Context().Err() != nil
		switch {
		case canceled:
			level = slog.LevelWarn
		case rec.Status >= 500:
			level = slog.LevelError
		}
		ctx := r.Context()
		if !log.Enabled(ctx, level) {
			return
		}
		route, user := about(ctx)
		attrs := make([]slog.Attr, 0, 10)
		attrs = append(attrs,
			slog.String("method", r.Method),
			slog.String("route", route),
			slog.String("path", loggedPath(r.URL.Path)),
			slog.Int("status", rec.Status),
			slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
			slog.Int64("bytes", rec.Bytes),
			slog.String("client", ClientOf(r).Addr))
		if user != "" {
			attrs = append(attrs, slog.String("user", user))
		}
		if canceled {
			attrs = append(attrs, slog.Bool("canceled", true))
		}
		log.LogAttrs(ctx, level, "request", attrs...)
	})
}

// maxLoggedPath bounds the path an access log record quotes: a client
// chooses it, up to the server's header limit.
const maxLoggedPath = 256

// loggedPath is p cut at maxLoggedPath bytes (on a character boundary),
// marked with "…" when cut.
func loggedPath(p string) string {
	if len(p) <= maxLoggedPath {
		return p
	}
	cut := maxLoggedPath
	for cut > 0 && !utf8.RuneStart(p[cut]) {
		cut--
	}
	return p[:cut] + "…"
}
