package daemon_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

// securityHeaders are the headers every answer of the daemon carries, with
// their values (daemon/headers.go).
var securityHeaders = map[string]string{
	"Content-Security-Policy":    "default-src 'self'",
	"X-Content-Type-Options":     "nosniff",
	"X-Frame-Options":            "DENY",
	"Referrer-Policy":            "same-origin",
	"Cross-Origin-Opener-Policy": "same-origin",
	"Permissions-Policy":         "camera=()",
}

// checkSecured fails unless h carries every security header and the
// Cache-Control wanted.
func checkSecured(t *testing.T, h http.Header, cache string) {
	t.Helper()
	for name, part := range securityHeaders {
		if !strings.Contains(h.Get(name), part) {
			t.Errorf("%s %q, want it with %q", name, h.Get(name), part)
		}
	}
	if got := h.Get("Cache-Control"); got != cache {
		t.Errorf("Cache-Control %q, want %q", got, cache)
	}
}

// rawAnswer is an answer read off the wire.
type rawAnswer struct {
	StatusCode int
	Header     http.Header
	Body       []byte
}

// rawExchange sends a request written as it goes on the wire to the
// server at base, and reads the answer.
func rawExchange(t *testing.T, base, request string) rawAnswer {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	request = strings.ReplaceAll(request, "HOST", u.Host)
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("read answer: %v", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return rawAnswer{StatusCode: res.StatusCode, Header: res.Header, Body: body}
}

// request writes a request for rawExchange from "METHOD target", header
// lines after it, and a body after a "|".
func request(spec string) string {
	head, body, _ := strings.Cut(spec, "|")
	out := head
	if i := strings.Index(head, "\r\n"); i >= 0 {
		out = head[:i]
		head = head[i:]
	} else {
		head = ""
	}
	out += " HTTP/1.1\r\nHost: HOST" + head + "\r\n"
	if body != "" {
		out += "Content-Length: " + strconv.Itoa(len(body)) + "\r\n"
	}
	return out + "\r\n" + body
}

// TestEveryAnswerCarriesTheSecurityHeaders: the answers refused before
// any handler of the API — a path or a query breaking the text rule, the
// mux's own 404, 405 and redirect, a request from another site, huma's
// and the text checks' refusals, OPTIONS * — carry the security headers
// and Cache-Control: no-store, as the API's own answers do (ASVS 4.0.3
// 8.2.1, 14.4).
func TestEveryAnswerCarriesTheSecurityHeaders(t *testing.T) {
	t.Parallel()
	s := daemontest.New(t, storetest.SQLite(t))
	tests := []struct {
		name, request string
		status        int
	}{
		{"dot segments", "GET /a/../b", 400},
		{"dot segments under the API", "GET /api/needs/./x", 400},
		{"encoded dot segments", "GET /%2e%2e/etc/passwd", 400},
		{"double slash", "GET //api/user", 400},
		{"NUL in the path", "GET /api/needs%00", 400},
		{"NUL in the query", "GET /api/needs?from=%00", 400},
		{"bad escape in the query", "GET /api/needs?from=%zz", 400},
		{"unknown API path", "GET /api/nothing", 404},
		{"the mux's 405", "DELETE /healthz", 405},
		{"the mux's redirect", "GET /api", 307},
		{"OPTIONS *", "OPTIONS *", 0},
		{"no session", "GET /api/user", 401},
		{"from another site", "POST /auth/login\r\nSec-Fetch-Site: cross-site\r\nContent-Type: application/json|{}", 403},
		{"not JSON", "POST /auth/login\r\nContent-Type: text/plain|{}", 415},
		{"malformed JSON", "POST /auth/login\r\nContent-Type: application/json|{", 400},
		{"a NUL in a field", "POST /auth/login\r\nContent-Type: application/json|{\"email\":\"a\\u0000@b.fr\",\"password\":\"x\"}", 422},
		{"wrong password", "POST /auth/login\r\nContent-Type: application/json|{\"email\":\"nobody@b.fr\",\"password\":\"faux1234\"}", 401},
		{"huma's 404 under /auth", "GET /auth/nothing", 404},
		{"a document without session", "GET /print/invoice/x", 401},
		{"health", "GET /healthz", 200},
		{"metrics", "GET /metrics", 200},
		{"the API's document", "GET /openapi.json", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := rawExchange(t, s.URL, request(tt.request))
			if tt.status != 0 && res.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, tt.status, res.Body)
			}
			if tt.status == 0 && res.StatusCode == http.StatusOK && len(res.Body) == 0 {
				t.Fatalf("OPTIONS * answered by the server itself")
			}
			checkSecured(t, res.Header, "no-store")
		})
	}
}

// TestGoAnswersMalformedRequestsItself documents the answers the daemon
// never sees (daemon/headers.go): Go's server refuses a request it cannot
// parse on the connection, before any handler, in plain text that echoes
// nothing of the request — so no header can be added, and none is needed.
func TestGoAnswersMalformedRequestsItself(t *testing.T) {
	t.Parallel()
	s := daemontest.New(t, storetest.SQLite(t))
	const marker = "<script>alert(1)</script>"
	tests := []struct {
		name, request string
		status        int
	}{
		{"no Host", "GET / HTTP/1.1\r\n\r\n", 400},
		{"malformed Host", "GET / HTTP/1.1\r\nHost: a b" + marker + "\r\n\r\n", 400},
		{"invalid header name", "GET / HTTP/1.1\r\nHost: HOST\r\nBad" + marker + ": x\r\n\r\n", 400},
		{"unsupported version", "GET / HTTP/2.7\r\nHost: HOST\r\n\r\n", 505},
		{"unsupported transfer encoding", "POST / HTTP/1.1\r\nHost: HOST\r\nTransfer-Encoding: " + marker + "\r\n\r\n", 501},
		{"an expectation", "GET / HTTP/1.1\r\nHost: HOST\r\nExpect: " + marker + "\r\n\r\n", 417},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := rawExchange(t, s.URL, tt.request)
			body := res.Body
			if res.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, tt.status, body)
			}
			if strings.Contains(string(body), "script") || res.Header.Get("Set-Cookie") != "" {
				t.Fatalf("the server's own answer echoes the request: %q", body)
			}
			if ct := res.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "text/plain") {
				t.Fatalf("Content-Type %q", ct)
			}
		})
	}
}

// TestCachingOfEachAnswer: every answer of a session — the API's, the
// authentication's — is no-store, the API's GET answers with an ETag the UI
// revalidates from memory (httpx.Revalidate); the UI's files keep their
// caching and their ETags, the public files are revalidated.
func TestCachingOfEachAnswer(t *testing.T) {
	t.Parallel()
	ui := fstest.MapFS{
		"index.html":          {Data: []byte("<html>app</html>")},
		"assets/index-abc.js": {Data: []byte("console.log(1)")},
		"favicon.svg":         {Data: []byte("<svg/>")},
	}
	s := daemontest.New(t, storetest.SQLite(t), daemontest.WithUI(ui))
	shop, _ := s.Register("magasin@example.fr", "Épicerie", true)
	visitor := s.Client()
	tests := []struct {
		name   string
		client *daemontest.Client
		method string
		path   string
		body   any
		status int
		cache  string
		etag   bool
	}{
		{"the user load", shop, "GET", "/api/user", nil, 200, "no-store", true},
		{"the needs", shop, "GET", "/api/needs", nil, 200, "no-store", true},
		{"the activity", shop, "GET", "/api/events", nil, 200, "no-store", true},
		{"a refused write", shop, "PUT", "/api/user", map[string]any{"name": ""}, 422, "no-store", false},
		{"a login", visitor, "POST", "/auth/login", map[string]any{"email": "magasin@example.fr", "password": daemontest.Password}, 200, "no-store", false},
		{"the UI's page", visitor, "GET", "/", nil, 200, "no-cache, must-revalidate", true},
		{"a client route", visitor, "GET", "/dis/needs", nil, 200, "no-cache, must-revalidate", true},
		{"a hashed asset", visitor, "GET", "/assets/index-abc.js", nil, 200, "public, max-age=31536000, immutable", true},
		{"another file of the UI", visitor, "GET", "/favicon.svg", nil, 200, "no-cache", true},
		{"a missing asset", visitor, "GET", "/assets/missing.js", nil, 404, "no-store", false},
		{"the public catalogue", visitor, "GET", "/public/other/products.csv", nil, 200, "no-cache", false},
		{"logout", shop, "GET", "/auth/logout", nil, 204, "no-store", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := tt.client.Do(tt.method, tt.path, tt.body).Expect(t, tt.status)
			checkSecured(t, res.Header, tt.cache)
			if tt.etag != (res.Header.Get("ETag") != "") {
				t.Errorf("ETag %q", res.Header.Get("ETag"))
			}
		})
	}
}
