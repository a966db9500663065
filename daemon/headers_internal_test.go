package daemon

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"primeur/core/config"
	"primeur/daemon/httpx"
)

// TestAPanicAnswersWithTheSecurityHeaders: the 500 of a handler that
// panicked after describing another answer carries the security headers
// and no-store, and none of that answer's headers.
func TestAPanicAnswersWithTheSecurityHeaders(t *testing.T) {
	t.Parallel()
	d := New(Options{Config: config.Defaults()})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /boom", func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("Content-Disposition", `attachment; filename="x.pdf"`)
		h.Set("ETag", `"abc"`)
		h.Del("Content-Security-Policy")
		panic("boum")
	})
	rec := httptest.NewRecorder()
	d.middlewares(mux).ServeHTTP(rec, httptest.NewRequest("GET", "/boom", nil))
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status %d", rec.Code)
	}
	h := rec.Header()
	for _, name := range []string{"Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options",
		"Referrer-Policy", "Cross-Origin-Opener-Policy", "Permissions-Policy", RequestIDHeader} {
		if h.Get(name) == "" {
			t.Errorf("no %s", name)
		}
	}
	if h.Get("Cache-Control") != httpx.NoStore || h.Get("Content-Disposition") != "" || h.Get("ETag") != "" {
		t.Errorf("the abandoned answer's headers: %v", h)
	}
	if !strings.Contains(h.Get("Content-Type"), "problem+json") {
		t.Errorf("Content-Type %q", h.Get("Content-Type"))
	}
}

// TestHSTSFollowsTheScheme: HSTS over https, as the client reached the
// daemon (a trusted proxy's X-Forwarded-Proto), or always with
// secure-cookies.
func TestHSTSFollowsTheScheme(t *testing.T) {
	t.Parallel()
	proxied := config.Defaults()
	proxied.TrustedProxies = "127.0.0.1"
	secure := config.Defaults()
	secure.SecureCookies = true
	for _, c := range []*config.Config{proxied, secure} {
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		cfg   *config.Config
		peer  string
		proto string
		want  bool
	}{
		{"plain http", config.Defaults(), "127.0.0.1:1", "", false},
		{"a client's own X-Forwarded-Proto", config.Defaults(), "127.0.0.1:1", "https", false},
		{"https through a trusted proxy", proxied, "127.0.0.1:1", "https", true},
		{"http through a trusted proxy", proxied, "127.0.0.1:1", "http", false},
		{"https claimed by another peer", proxied, "192.0.2.1:1", "https", false},
		{"secure-cookies", secure, "192.0.2.1:1", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &Daemon{cfg: tt.cfg}
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.peer
			if tt.proto != "" {
				r.Header.Set("X-Forwarded-Proto", tt.proto)
			}
			rec := httptest.NewRecorder()
			d.front(http.NotFoundHandler()).ServeHTTP(rec, r)
			if got := rec.Header().Get("Strict-Transport-Security") != ""; got != tt.want {
				t.Errorf("HSTS %v, want %v", got, tt.want)
			}
		})
	}
}

// TestClientOfReadsWhatFrontResolved: a handler reads the client front
// resolved, whatever the request says further in.
func TestClientOfReadsWhatFrontResolved(t *testing.T) {
	t.Parallel()
	cfg := config.Defaults()
	cfg.TrustedProxies = "127.0.0.1"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	d := &Daemon{cfg: cfg}
	var seen httpx.Client
	h := d.front(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.RemoteAddr = "192.0.2.99:1" // what a handler would not do; ClientOf keeps front's
		seen = httpx.ClientOf(r)
		if httpx.ClientFrom(r.Context()) != seen {
			t.Errorf("clientFrom %+v, clientOf %+v", httpx.ClientFrom(r.Context()), seen)
		}
	}))
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "127.0.0.1:4000"
	r.Header.Set("X-Forwarded-For", "198.51.100.1")
	h.ServeHTTP(httptest.NewRecorder(), r)
	if seen.Addr != "198.51.100.1" || !seen.Believed {
		t.Fatalf("client %+v", seen)
	}
}

// TestMetricsThroughATrustedProxy: /metrics answers a loopback client
// that a trusted proxy names, not one it forwards from elsewhere, nor a
// forwarded request whose client is not believed.
func TestMetricsThroughATrustedProxy(t *testing.T) {
	t.Parallel()
	cfg := config.Defaults()
	cfg.TrustedProxies = "127.0.0.1"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	d := &Daemon{cfg: cfg}
	tests := []struct {
		name, peer, xff, fwd string
		want                 bool
	}{
		{"this machine through the proxy", "127.0.0.1:1", "127.0.0.1", "", true},
		{"another machine through the proxy", "127.0.0.1:1", "203.0.113.7", "", false},
		{"a forged loopback left of the client", "127.0.0.1:1", "127.0.0.1, 203.0.113.7", "", false},
		{"headers that disagree", "127.0.0.1:1", "127.0.0.1", "for=203.0.113.7", false},
		{"an unreadable hop", "127.0.0.1:1", "unknown", "", false},
		{"a loopback peer not listed, forwarding", "127.0.0.2:1", "127.0.0.1", "", false},
		{"a loopback peer, no forwarding", "127.0.0.2:1", "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/metrics", nil)
			r.RemoteAddr = tt.peer
			if tt.xff != "" {
				r.Header.Set("X-Forwarded-For", tt.xff)
			}
			if tt.fwd != "" {
				r.Header.Set("Forwarded", tt.fwd)
			}
			var got bool
			d.front(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = d.mayReadMetrics(r) })).
				ServeHTTP(httptest.NewRecorder(), r)
			if got != tt.want {
				t.Errorf("may read %v, want %v", got, tt.want)
			}
		})
	}
}
