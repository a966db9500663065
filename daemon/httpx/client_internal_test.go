package httpx

import (
	"crypto/tls"
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
		want    Client
	}{
		{name: "no proxy: the peer", peer: "203.0.113.7:5000",
			want: Client{Addr: "203.0.113.7"}},
		{name: "no proxy: headers ignored", peer: "203.0.113.7:5000",
			headers: []header{{"X-Forwarded-For", "198.51.100.1"}, {"X-Forwarded-Proto", "https"}},
			want:    Client{Addr: "203.0.113.7", Forwarded: true}},
		{name: "no proxy: a loopback peer's headers ignored", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "198.51.100.1"}},
			want:    Client{Addr: "127.0.0.1", Forwarded: true}},
		{name: "untrusted peer with a proxy list", proxies: "local", peer: "203.0.113.7:5000",
			headers: []header{{"X-Forwarded-For", "127.0.0.1"}, {"X-Forwarded-Proto", "https"}},
			want:    Client{Addr: "203.0.113.7", Forwarded: true}},
		{name: "TLS on the connection", peer: "203.0.113.7:5000", tls: true,
			want: Client{Addr: "203.0.113.7", HTTPS: true}},
		{name: "IPv4-mapped peer", peer: "[::ffff:203.0.113.7]:5000",
			want: Client{Addr: "203.0.113.7"}},
		{name: "IPv6 peer with a zone", peer: "[fe80::1%eth0]:5000",
			want: Client{Addr: "fe80::1"}},
		{name: "not an IP peer", peer: "@",
			want: Client{Addr: "@"}},

		{name: "trusted proxy: its client", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "198.51.100.1"}, {"X-Forwarded-Proto", "https"}},
			want:    Client{Addr: "198.51.100.1", HTTPS: true, Forwarded: true, Believed: true}},
		{name: "trusted proxy over IPv6", proxies: "local", peer: "[::1]:5000",
			headers: []header{{"X-Forwarded-For", "2001:db8::7"}, {"X-Forwarded-Proto", "http"}},
			want:    Client{Addr: "2001:db8::7", Forwarded: true, Believed: true}},
		{name: "the rightmost untrusted, not the forged leftmost", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "1.1.1.1, 198.51.100.1"}},
			want:    Client{Addr: "198.51.100.1", Forwarded: true, Believed: true}},
		{name: "a forged trusted address left of the client", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "127.0.0.1, 198.51.100.1"}},
			want:    Client{Addr: "198.51.100.1", Forwarded: true, Believed: true}},
		{name: "a chain of trusted proxies", proxies: "chain", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "6.6.6.6, 198.51.100.1, 10.0.0.2, 10.0.0.3"}},
			want:    Client{Addr: "198.51.100.1", Forwarded: true, Believed: true}},
		{name: "several X-Forwarded-For lines are one list", proxies: "chain", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "6.6.6.6, 198.51.100.1"}, {"X-Forwarded-For", "10.0.0.2"}},
			want:    Client{Addr: "198.51.100.1", Forwarded: true, Believed: true}},
		{name: "every hop trusted: the leftmost", proxies: "chain", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "10.1.2.3, 10.0.0.2"}},
			want:    Client{Addr: "10.1.2.3", Forwarded: true, Believed: true}},
		{name: "hops with ports and brackets", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "[2001:db8::9]:443, 198.51.100.1:8080"}},
			want:    Client{Addr: "198.51.100.1", Forwarded: true, Believed: true}},
		{name: "an unreadable hop: the peer, not believed", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "198.51.100.1, unknown"}},
			want:    Client{Addr: "127.0.0.1", Forwarded: true}},
		{name: "an unreadable hop left of the client does not matter", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "garbage, 198.51.100.1"}},
			want:    Client{Addr: "198.51.100.1", Forwarded: true, Believed: true}},
		{name: "an empty X-Forwarded-For", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", ""}},
			want:    Client{Addr: "127.0.0.1", Forwarded: true}},
		{name: "an unspecified address names nobody", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "0.0.0.0"}},
			want:    Client{Addr: "127.0.0.1", Forwarded: true}},
		{name: "X-Real-IP is never believed", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Real-Ip", "198.51.100.1"}},
			want:    Client{Addr: "127.0.0.1", Forwarded: true}},
		{name: "a trusted proxy without forwarding header", proxies: "local", peer: "127.0.0.1:5000",
			want: Client{Addr: "127.0.0.1"}},

		{name: "Forwarded", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"Forwarded", `for=198.51.100.1;proto=https;by=127.0.0.1`}},
			want:    Client{Addr: "198.51.100.1", HTTPS: true, Forwarded: true, Believed: true}},
		{name: "Forwarded with IPv6, quoted, and a port", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"Forwarded", `for=1.1.1.1, For="[2001:db8:cafe::17]:4711";proto=http`}},
			want:    Client{Addr: "2001:db8:cafe::17", Forwarded: true, Believed: true}},
		{name: "Forwarded: separators inside quotes are text", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"Forwarded", `for=198.51.100.1;host="a,b;c", for=10.9.9.9`}},
			want:    Client{Addr: "10.9.9.9", Forwarded: true, Believed: true}},
		{name: "Forwarded: an obfuscated node names nobody", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"Forwarded", `for=198.51.100.1, for=_hidden`}},
			want:    Client{Addr: "127.0.0.1", Forwarded: true}},
		{name: "Forwarded: an element without for=", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"Forwarded", `proto=https`}},
			want:    Client{Addr: "127.0.0.1", HTTPS: true, Forwarded: true}},
		{name: "both headers naming the same client", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "198.51.100.1"}, {"Forwarded", "for=198.51.100.1"}},
			want:    Client{Addr: "198.51.100.1", Forwarded: true, Believed: true}},
		{name: "both headers disagreeing: neither believed", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "198.51.100.1"}, {"Forwarded", "for=203.0.113.9"}},
			want:    Client{Addr: "127.0.0.1", Forwarded: true}},
		{name: "X-Forwarded-Proto: the nearest proxy's", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "198.51.100.1"}, {"X-Forwarded-Proto", "http, https"}},
			want:    Client{Addr: "198.51.100.1", HTTPS: true, Forwarded: true, Believed: true}},
		{name: "X-Forwarded-Proto over Forwarded's proto", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"Forwarded", "for=198.51.100.1;proto=https"}, {"X-Forwarded-Proto", "http"}},
			want:    Client{Addr: "198.51.100.1", Forwarded: true, Believed: true}},
		{name: "an unknown scheme changes nothing", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", "198.51.100.1"}, {"X-Forwarded-Proto", "gopher"}},
			want:    Client{Addr: "198.51.100.1", Forwarded: true, Believed: true}},
		{name: "headers too long are not read", proxies: "local", peer: "127.0.0.1:5000",
			headers: []header{{"X-Forwarded-For", longList(maxForwarded) + "198.51.100.1"}},
			want:    Client{Addr: "127.0.0.1", Forwarded: true}},
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
			if got := ResolveClient(r, proxies); got != tt.want {
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
