package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// TestAccessLogLevels: a request answered 200 is logged at Info, one
// answered 503 at Error, and one whose client went away before the answer
// at Warn, marked canceled — over a real connection, which the client
// drops.
func TestAccessLogLevels(t *testing.T) {
	var (
		mu  sync.Mutex
		buf bytes.Buffer
	)
	log := slog.New(slog.NewJSONHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	}), nil))
	answered := make(chan struct{}, 3)
	h := AccessLog(log, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() { answered <- struct{}{} }()
		switch r.URL.Path {
		case "/ok":
			w.WriteHeader(http.StatusOK)
		case "/busy":
			w.WriteHeader(http.StatusServiceUnavailable)
		case "/wait":
			<-r.Context().Done() // the client goes away
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}), func(context.Context) (string, string) { return "route", "" })
	srv := httptest.NewServer(h)
	defer srv.Close()

	for _, path := range []string{"/ok", "/busy"} {
		res, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		<-answered
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/wait", nil)
	if res, err := srv.Client().Do(req); err == nil {
		res.Body.Close()
		t.Fatal("the request to /wait was answered")
	}
	select {
	case <-answered:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler did not see its client go")
	}

	want := map[string][2]any{"/ok": {"INFO", nil}, "/busy": {"ERROR", nil}, "/wait": {"WARN", true}}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
		mu.Unlock()
		if len(lines) == len(want) || time.Now().After(deadline) {
			for _, line := range lines {
				var rec map[string]any
				if err := json.Unmarshal(line, &rec); err != nil {
					t.Fatalf("%q: %v", line, err)
				}
				w, ok := want[rec["path"].(string)]
				if !ok || rec["level"] != w[0] || rec["canceled"] != w[1] {
					t.Errorf("%v: want level %v, canceled %v", rec, w[0], w[1])
				}
				delete(want, rec["path"].(string))
			}
			if len(want) > 0 {
				t.Errorf("no record of %v", want)
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// writerFunc is an io.Writer of a function.
type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
