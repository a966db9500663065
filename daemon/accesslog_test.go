package daemon_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

// logBuffer is a log output the daemon writes while a test reads it.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// records are the JSON records written so far; a line that is not a JSON
// object fails the test.
func (b *logBuffer) records(t *testing.T) []map[string]any {
	t.Helper()
	b.mu.Lock()
	data := bytes.Clone(b.buf.Bytes())
	b.mu.Unlock()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("a log line is not JSON: %q: %v", sc.Text(), err)
		}
		out = append(out, rec)
	}
	return out
}

// accessRecord waits for the access log record of the request whose
// X-Request-Id is id: the daemon writes it once the answer is written,
// which the client may read first.
func (b *logBuffer) accessRecord(t *testing.T, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		for _, rec := range b.records(t) {
			if rec["msg"] == "request" && rec["request_id"] == id {
				return rec
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no access log record of request %s in:\n%s", id, b.buf.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// jsonLogs makes the daemon log as serve --log-format json does, at info,
// into b, with trusted-proxies set to list.
func jsonLogs(t *testing.T, b *logBuffer, list string) daemontest.Option {
	return func(o *daemon.Options) {
		o.Log = slog.New(slog.NewJSONHandler(b, &slog.HandlerOptions{Level: slog.LevelInfo}))
		o.Config.TrustedProxies = list
		if err := o.Config.Validate(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAccessLog: every request is logged at info once answered, as one
// JSON object with the fields the README's "Logs" lists: the route as the
// mux matched it, the path without its query, the status, the duration,
// the body's bytes as sent, the client as trusted-proxies resolves it, the
// request id answered, and the account once the request carries a session
// or opens one.
func TestAccessLog(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var logs logBuffer
		s := daemontest.New(t, db, jsonLogs(t, &logs, "127.0.0.1"))
		shop, userID := s.Register("magasin@example.fr", "Épicerie", true)
		shop.Header.Set("Accept-Encoding", "identity") // bytes sent = bytes read

		res := shop.Do("GET", "/api/user?x=secret", nil).Expect(t, http.StatusOK)
		rec := logs.accessRecord(t, res.Header.Get("X-Request-Id"))
		want := map[string]any{
			"level": "INFO", "method": "GET", "route": "GET /api/user", "path": "/api/user",
			"status": float64(200), "bytes": float64(len(res.Body)), "client": "127.0.0.1", "user": userID,
		}
		for k, v := range want {
			if rec[k] != v {
				t.Errorf("%s = %#v, want %#v (record %v)", k, rec[k], v, rec)
			}
		}
		if d, ok := rec["duration_ms"].(float64); !ok || d < 0 {
			t.Errorf("duration_ms = %#v", rec["duration_ms"])
		}
		if line, _ := json.Marshal(rec); strings.Contains(string(line), "secret") {
			t.Errorf("the query is logged: %s", line)
		}

		// A login names the account it opens; a refused one none.
		visitor := s.Client()
		res = login(visitor, "magasin@example.fr", daemontest.Password).Expect(t, http.StatusOK)
		if rec := logs.accessRecord(t, res.Header.Get("X-Request-Id")); rec["user"] != userID || rec["route"] != "POST /auth/login" {
			t.Errorf("login: %v", rec)
		}
		res = login(s.Client(), "magasin@example.fr", "mauvais12").Expect(t, http.StatusUnauthorized)
		if rec := logs.accessRecord(t, res.Header.Get("X-Request-Id")); rec["user"] != nil || rec["status"] != float64(401) {
			t.Errorf("refused login: %v", rec)
		}

		// A path no API route matches: the catch-all that answered.
		res = s.Client().Do("GET", "/api/nulle-part", nil).Expect(t, http.StatusNotFound)
		if rec := logs.accessRecord(t, res.Header.Get("X-Request-Id")); rec["route"] != "GET /api/" && rec["route"] != "/api/" {
			t.Errorf("404: route %v", rec["route"])
		}

		// Behind a trusted proxy (127.0.0.1), the client it forwards.
		proxied := s.Client()
		proxied.Header.Set("X-Forwarded-For", "192.0.2.7, 198.51.100.23")
		res = proxied.Do("GET", "/healthz", nil).Expect(t, http.StatusOK)
		if rec := logs.accessRecord(t, res.Header.Get("X-Request-Id")); rec["client"] != "198.51.100.23" || rec["route"] != "GET /healthz" {
			t.Errorf("through a trusted proxy: %v", rec)
		}
		// A peer that is not one is its own client, whatever it sends.
		direct := s.ClientFrom("127.0.7.7")
		direct.Header.Set("X-Forwarded-For", "198.51.100.23")
		res = direct.Do("GET", "/healthz", nil).Expect(t, http.StatusOK)
		if rec := logs.accessRecord(t, res.Header.Get("X-Request-Id")); rec["client"] != "127.0.7.7" {
			t.Errorf("from an untrusted peer: %v", rec)
		}
	})
}
