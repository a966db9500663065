package httpx

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRequestID: a client's id that looks like one is kept, any other is
// replaced; the id is in the answer's header, the context and the logs.
func TestRequestID(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(LogRequestID{slog.NewTextHandler(&logs, nil)})
	for _, tt := range []struct{ sent, want string }{
		{"", "new"},
		{"proxy-42.a_b", "proxy-42.a_b"},
		{"a b", "new"},
		{"é", "new"},
		{strings.Repeat("x", 65), "new"},
	} {
		logs.Reset()
		var seen string
		h := RequestID(func() string { return "new" }, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			seen = RequestIDOf(r.Context())
			log.InfoContext(r.Context(), "hello")
		}))
		r := httptest.NewRequest("GET", "/", nil)
		if tt.sent != "" {
			r.Header.Set(RequestIDHeader, tt.sent)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if seen != tt.want || rec.Header().Get(RequestIDHeader) != tt.want || !strings.Contains(logs.String(), "request_id="+tt.want) {
			t.Errorf("%q: context %q, header %q, log %s", tt.sent, seen, rec.Header().Get(RequestIDHeader), logs.String())
		}
	}
	if RequestIDOf(context.Background()) != "" {
		t.Error("an id outside a request")
	}
}

// TestRecover: a panic before the answer is told and answered; after the
// answer began, the connection is aborted; a deliberate abort passes.
func TestRecover(t *testing.T) {
	var told []any
	recovered := func(_ *http.Request, v any) { told = append(told, v) }
	answer := func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) }
	rec := httptest.NewRecorder()
	Recover(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }), recovered, answer).
		ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != 500 || len(told) != 1 || told[0] != "boom" {
		t.Fatalf("%d, told %v", rec.Code, told)
	}
	for _, tt := range []struct {
		name    string
		handler http.HandlerFunc
		told    int
	}{
		{"after the answer began", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("x")); panic("late") }, 2},
		{"a deliberate abort", func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) }, 2},
	} {
		func() {
			defer func() {
				if v := recover(); v != http.ErrAbortHandler || len(told) != tt.told {
					t.Errorf("%s: panic %v, told %v", tt.name, v, told)
				}
			}()
			Recover(tt.handler, recovered, answer).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
		}()
	}
}
