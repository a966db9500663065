package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core/config"
	"primeur/core/jobs"
	"primeur/core/store/storetest"
)

// syncBuffer is a log sink safe for the goroutines that write to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// records returns the JSON log records whose message is msg.
func (s *syncBuffer) records(t *testing.T, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(s.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if rec["msg"] == msg {
			out = append(out, rec)
		}
	}
	return out
}

// seamDaemon is a daemon on a real database with its logs in a buffer, its
// recovered panics counted, and two extra operations: one returning
// an unexpected error as it is (the database refusing a password), one
// panicking.
func seamDaemon(t *testing.T) (*Daemon, *syncBuffer, func() []string) {
	t.Helper()
	logs := &syncBuffer{}
	d := New(Options{Config: config.Defaults(), DB: storetest.SQLite(t),
		Log: slog.New(slog.NewJSONHandler(logs, nil))})
	var (
		mu     sync.Mutex
		panics []string
	)
	d.observe.PanicRecovered = func(where string) {
		mu.Lock()
		defer mu.Unlock()
		panics = append(panics, where)
	}
	huma.Register(d.api, huma.Operation{OperationID: "test-fails", Method: http.MethodGet, Path: "/test/fails"},
		func(ctx context.Context, _ *struct{}) (*struct{}, error) {
			return nil, errors.New("store: dial tcp 10.0.0.7:5432: password authentication failed for user admin")
		})
	huma.Register(d.api, huma.Operation{OperationID: "test-panics", Method: http.MethodGet, Path: "/test/panics"},
		func(ctx context.Context, _ *struct{}) (*struct{}, error) {
			var m map[string]int
			m["boom"]++ //nolint:staticcheck // SA5000 is the point: a nil map, a real runtime panic
			return nil, nil
		})
	counted := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), panics...)
	}
	return d, logs, counted
}

// TestOneErrorSeam: an error no handler turned into a problem, and a panic
// in a handler, both answer the generic French 500 quoting the request id
// — never the error's text — while the log has the error and the same id;
// every response carries the id; the daemon keeps answering.
func TestOneErrorSeam(t *testing.T) {
	t.Parallel()
	d, logs, panics := seamDaemon(t)
	srv := httptest.NewServer(d.Handler())
	defer srv.Close()

	for _, path := range []string{"/test/fails", "/test/panics"} {
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatalf("%s: %v (the request died without an answer)", path, err)
		}
		var p huma.ErrorModel
		if err := json.NewDecoder(res.Body).Decode(&p); err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		id := res.Header.Get(RequestIDHeader)
		if res.StatusCode != 500 || id == "" {
			t.Fatalf("%s: %d, request id %q", path, res.StatusCode, id)
		}
		if !strings.Contains(p.Detail, id) || !strings.HasPrefix(p.Detail, "Erreur interne du serveur.") || p.Instance != "urn:primeur:request:"+id {
			t.Fatalf("%s: problem %+v does not quote the request id %s", path, p, id)
		}
		body, _ := json.Marshal(p)
		for _, secret := range []string{"10.0.0.7", "password", "nil map", "boom"} {
			if strings.Contains(string(body), secret) {
				t.Fatalf("%s: the answer leaks %q: %s", path, secret, body)
			}
		}
		found := false
		for _, msg := range []string{"request failed", "panic recovered"} {
			for _, rec := range logs.records(t, msg) {
				if rec["request_id"] == id {
					found = true
				}
			}
		}
		if !found {
			t.Fatalf("%s: no log record with request_id %s:\n%s", path, id, logs)
		}
	}
	if !strings.Contains(logs.String(), "password authentication failed") || !strings.Contains(logs.String(), "nil map") {
		t.Fatalf("the log misses the errors:\n%s", logs)
	}
	if got := panics(); len(got) != 1 || got[0] != "http" {
		t.Fatalf("panics counted: %v", got)
	}

	// Every response has an id; a client's own well-formed id is kept, a
	// hostile one replaced.
	for _, tt := range []struct{ path, sent string }{
		{"/healthz", ""}, {"/openapi.json", ""}, {"/api/user", ""}, {"/print/invoice/x", ""},
		{"/public/other/products.csv", "proxy-4f2a.1"}, {"/dis/needs", "bad id\twith tab"}, {"/a//b", ""},
	} {
		req, _ := http.NewRequest("GET", srv.URL+tt.path, nil)
		if tt.sent != "" {
			req.Header.Set(RequestIDHeader, tt.sent)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		got := res.Header.Get(RequestIDHeader)
		switch {
		case got == "":
			t.Fatalf("%s: no %s header (status %d)", tt.path, RequestIDHeader, res.StatusCode)
		case tt.sent == "proxy-4f2a.1" && got != tt.sent:
			t.Fatalf("%s: id %q, want the client's %q", tt.path, got, tt.sent)
		case strings.Contains(got, "\t"):
			t.Fatalf("%s: hostile id kept: %q", tt.path, got)
		}
	}
	res, err := http.Get(srv.URL + "/healthz")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("after the failures, /healthz: %v %v", res, err)
	}
	res.Body.Close()
}

// TestPanicsDoNotEndTheDaemon: a job that panics, and a goroutine started
// with goSafe that panics, are recovered, logged with their stack and
// counted, and the daemon keeps serving.
func TestPanicsDoNotEndTheDaemon(t *testing.T) {
	t.Parallel()
	d, logs, panics := seamDaemon(t)
	boom := jobs.Job{Name: "boom", Run: func(context.Context, jobs.Env, time.Time) (jobs.Report, error) {
		var s []int
		_ = s[3] // index out of range, as go-pdf's SplitText did
		return jobs.Report{}, nil
	}}
	d.runJob(context.Background(), jobs.Env{}, boom)
	done := make(chan struct{})
	d.goSafe("test goroutine", func() {
		defer close(done)
		panic("goroutine panic")
	})
	<-done
	// goSafe's recovery runs after fn's own deferred close: wait until
	// it is counted.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if len(panics()) == 2 || time.Now().After(deadline) {
			break
		}
	}
	recs := logs.records(t, "panic recovered")
	if len(recs) != 2 {
		t.Fatalf("%d panics logged, want 2:\n%s", len(recs), logs)
	}
	for _, rec := range recs {
		if stack, _ := rec["stack"].(string); !strings.Contains(stack, "goroutine") {
			t.Fatalf("no stack in %v", rec)
		}
	}
	if got := strings.Join(panics(), ","); got != "job boom,test goroutine" {
		t.Fatalf("panics counted: %v", got)
	}
	rec := httptest.NewRecorder()
	d.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if rec.Code != 200 {
		t.Fatalf("healthz after the panics: %d", rec.Code)
	}
}
