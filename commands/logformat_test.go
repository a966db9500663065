package commands

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"primeur/daemon"
)

// TestServeLogsJSON: serve --log-format json writes every log line as one
// JSON object: the first names the version and the database, and each
// request answered has its access log record (README "Logs").
func TestServeLogsJSON(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PRIMEUR_DATA_DIR", dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var errOut bytes.Buffer // read once Run has returned
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--log-format", "json"}, strings.NewReader(""), pw, &errOut)
		pw.Close()
	}()
	var url string
	lines := bufio.NewScanner(pr)
	for lines.Scan() {
		if i := strings.Index(lines.Text(), "http://"); i >= 0 {
			url = lines.Text()[i:]
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if url == "" {
		t.Fatal("serve printed no address")
	}
	res, err := http.Get(url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	id := res.Header.Get("X-Request-Id")
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exited %d: %s", code, errOut.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop")
	}

	var records []map[string]any
	for line := range strings.SplitSeq(strings.TrimSpace(errOut.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("a log line is not JSON: %q: %v", line, err)
		}
		records = append(records, rec)
	}
	first := records[0]
	if first["msg"] != "primeur starting" || first["version"] != daemon.Version ||
		!strings.HasPrefix(first["database"].(string), "SQLite "+dir) {
		t.Errorf("first line: %v", first)
	}
	found := false
	for _, rec := range records {
		if rec["msg"] == "request" && rec["request_id"] == id {
			found = true
			if rec["route"] != "GET /healthz" || rec["status"] != float64(200) || rec["client"] != "127.0.0.1" || rec["level"] != "INFO" {
				t.Errorf("access log: %v", rec)
			}
		}
	}
	if !found {
		t.Errorf("no access log record of request %s in:\n%s", id, errOut.String())
	}
}
