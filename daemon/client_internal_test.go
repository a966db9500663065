package daemon

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"

	"primeur/core/config"
)

// TestResolveClient: the one rule of a request's client (client.go).
func TestResolveClient(t *testing.T) {
	local, err := config.ParseProxies("127.0.0.1, ::1")
	if err != nil {
		t.Fatal(err)
	}
	chain, err := config.ParseProxies("127.0.0.1, 10.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	type header struct{ name, value string }
	tests := []struct {
		name    string
		proxies string // "local", "chain" or none
		peer    string
		tls     bool
		headers []header
		want    client
	}{
		{name: "no proxy: the peer", peer: "203.0.113.7:5000",
			want: client{addr: "203.0.113.7"}},
		{name: "no proxy: headers ignored", peer: "203.0.113.7:5000",
			headers: []header{{"X-Forwarded-For", "198.51.100.1"}, {"X-Forwarded-Proto", "https"}},
			want:    client{addr: "203.0.113.7", forwarded: true}},
		{name: "no proxy: a loopback peer's headers ignored", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "198.51.100.1"}},
			want:    client{addr: "127.0.0.1", forwarded: true}},
		{name: "untrusted peer with a proxy list", proxies: "local", peer: "203.0.113.7:5000",
			headers: []header{{"X-Forwarded-For", "127.0.0.1"}, {"X-Forwarded-Proto", "https"}},
			want:    client{addr: "203.0.113.7", forwarded: true}},
		{name: "TLS on the connection", peer: "203.0.113.7:5000", tls: true,
			want: client{addr: "203.0.113.7", https: true}},
		{name: "IPv4-mapped peer", peer: "[::ffff:203.0.113.7]:5000",
			want: client{addr: "203.0.113.7"}},
		{name: "IPv6 peer with a zone", peer: "[fe80::1%eth0]:5000",
			want: client{addr: "fe80::1"}},
		{name: "not an IP peer", peer: "@",
			want: client{addr: "@"}},

		{name: "trusted proxy: its client", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "198.51.100.1"}, {"X-Forwarded-Proto", "https"}},
			want:    client{addr: "198.51.100.1", https: true, forwarded: true, believed: true}},
		{name: "trusted proxy over IPv6", proxies: "local", peer: "[::1]:5000",
			headers: []header{{"X-Forwarded-For", "2001:db8::7"}, {"X-Forwarded-Proto", "http"}},
			want:    client{addr: "2001:db8::7", forwarded: true, believed: true}},
		{name: "the rightmost untrusted, not the forged leftmost", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "1.1.1.1, 198.51.100.1"}},
			want:    client{addr: "198.51.100.1", forwarded: true, believed: true}},
		{name: "a forged trusted address left of the client", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "127.0.0.1, 198.51.100.1"}},
			want:    client{addr: "198.51.100.1", forwarded: true, believed: true}},
		{name: "a chain of trusted proxies", proxies: "chain", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "6.6.6.6, 198.51.100.1, 10.0.0.2, 10.0.0.3"}},
			want:    client{addr: "198.51.100.1", forwarded: true, believed: true}},
		{name: "several X-Forwarded-For lines are one list", proxies: "chain", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "6.6.6.6, 198.51.100.1"}, {"X-Forwarded-For", "10.0.0.2"}},
			want:    client{addr: "198.51.100.1", forwarded: true, believed: true}},
		{name: "every hop trusted: the leftmost", proxies: "chain", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "10.1.2.3, 10.0.0.2"}},
			want:    client{addr: "10.1.2.3", forwarded: true, believed: true}},
		{name: "hops with ports and brackets", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "[2001:db8::9]:443, 198.51.100.1:8080"}},
			want:    client{addr: "198.51.100.1", forwarded: true, believed: true}},
		{name: "an unreadable hop: the peer, not believed", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "198.51.100.1, unknown"}},
			want:    client{addr: "127.0.0.1", forwarded: true}},
		{name: "an unreadable hop left of the client does not matter", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "garbage, 198.51.100.1"}},
			want:    client{addr: "198.51.100.1", forwarded: true, believed: true}},
		{name: "an empty X-Forwarded-For", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", ""}},
			want:    client{addr: "127.0.0.1", forwarded: true}},
		{name: "an unspecified address names nobody", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "0.0.0.0"}},
			want:    client{addr: "127.0.0.1", forwarded: true}},
		{name: "X-Real-IP is never believed", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Real-Ip", "198.51.100.1"}},
			want:    client{addr: "127.0.0.1", forwarded: true}},
		{name: "a trusted proxy without forwarding header", proxies: "local", peer: "127.0.0.1:5000",
			want: client{addr: "127.0.0.1"}},

		{name: "Forwarded", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"Forwarded", `for=198.51.100.1;proto=https;by=127.0.0.1`}},
			want:    client{addr: "198.51.100.1", https: true, forwarded: true, believed: true}},
		{name: "Forwarded with IPv6, quoted, and a port", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"Forwarded", `for=1.1.1.1, For="[2001:db8:cafe::17]:4711";proto=http`}},
			want:    client{addr: "2001:db8:cafe::17", forwarded: true, believed: true}},
		{name: "Forwarded: separators inside quotes are text", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"Forwarded", `for=198.51.100.1;host="a,b;c", for=10.9.9.9`}},
			want:    client{addr: "10.9.9.9", forwarded: true, believed: true}},
		{name: "Forwarded: an obfuscated node names nobody", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"Forwarded", `for=198.51.100.1, for=_hidden`}},
			want:    client{addr: "127.0.0.1", forwarded: true}},
		{name: "Forwarded: an element without for=", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"Forwarded", `proto=https`}},
			want:    client{addr: "127.0.0.1", https: true, forwarded: true}},
		{name: "both headers naming the same client", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "198.51.100.1"}, {"Forwarded", "for=198.51.100.1"}},
			want:    client{addr: "198.51.100.1", forwarded: true, believed: true}},
		{name: "both headers disagreeing: neither believed", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "198.51.100.1"}, {"Forwarded", "for=203.0.113.9"}},
			want:    client{addr: "127.0.0.1", forwarded: true}},
		{name: "X-Forwarded-Proto: the nearest proxy's", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "198.51.100.1"}, {"X-Forwarded-Proto", "http, https"}},
			want:    client{addr: "198.51.100.1", https: true, forwarded: true, believed: true}},
		{name: "X-Forwarded-Proto over Forwarded's proto", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"Forwarded", "for=198.51.100.1;proto=https"}, {"X-Forwarded-Proto", "http"}},
			want:    client{addr: "198.51.100.1", forwarded: true, believed: true}},
		{name: "an unknown scheme changes nothing", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "198.51.100.1"}, {"X-Forwarded-Proto", "gopher"}},
			want:    client{addr: "198.51.100.1", forwarded: true, believed: true}},
		{name: "headers too long are not read", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", longList(maxForwarded) + "198.51.100.1"}},
			want:    client{addr: "127.0.0.1", forwarded: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.peer
			if tt.tls {
				r.TLS = &tls.ConnectionState{}
			}
			for _, h := range tt.headers {
				r.Header.Add(h.name, h.value)
			}
			proxies := map[string][]netip.Prefix{"local": local, "chain": chain}[tt.proxies]
			if got := resolveClient(r, proxies); got != tt.want {
				t.Errorf("client %+v, want %+v", got, tt.want)
			}
		})
	}
}

func longList(n int) string {
	b := make([]byte, 0, n+16)
	for len(b) < n {
		b = append(b, "10.0.0.1, "...)
	}
	return string(b)
}

// TestClientOfReadsWhatFrontResolved: a handler reads the client front
// resolved, whatever the request says further in.
func TestClientOfReadsWhatFrontResolved(t *testing.T) {
	cfg := config.Defaults()
	cfg.TrustedProxies = "127.0.0.1"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	d := &Daemon{cfg: cfg}
	var seen client
	h := d.front(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.RemoteAddr = "192.0.2.99:1" // what a handler would not do; clientOf keeps front's
		seen = clientOf(r)
		if clientFrom(r.Context()) != seen {
			t.Errorf("clientFrom %+v, clientOf %+v", clientFrom(r.Context()), seen)
		}
	}))
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "127.0.0.1:4000"
	r.Header.Set("X-Forwarded-For", "198.51.100.1")
	h.ServeHTTP(httptest.NewRecorder(), r)
	if seen.addr != "198.51.100.1" || !seen.believed {
		t.Fatalf("client %+v", seen)
	}
}

// TestMetricsThroughATrustedProxy: /metrics answers a loopback client
// that a trusted proxy names, not one it forwards from elsewhere, nor a
// forwarded request whose client is not believed.
func TestMetricsThroughATrustedProxy(t *testing.T) {
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
