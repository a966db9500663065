package daemon_test

import (
	"fmt"
	"net/http"
	"testing"

	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

// trustedProxies configures the daemon's trusted-proxies, and its
// registrations an hour when perHour is not 0.
func trustedProxies(t *testing.T, list string, perHour int) daemontest.Option {
	return func(o *daemon.Options) {
		o.Config.TrustedProxies = list
		if perHour > 0 {
			o.Config.RegistrationsPerHour = perHour
		}
		if err := o.Config.Validate(); err != nil {
			t.Fatal(err)
		}
	}
}

// sessionCookieOf is the session cookie an answer sets.
func sessionCookieOf(t *testing.T, res *daemontest.Response) *http.Cookie {
	t.Helper()
	for _, line := range res.Header.Values("Set-Cookie") {
		c, err := http.ParseSetCookie(line)
		if err == nil && (c.Name == "primeur_session" || c.Name == "__Host-primeur_session") {
			return c
		}
	}
	t.Fatalf("no session cookie in %v", res.Header)
	return nil
}

// TestBehindNginxEachClientIsItsOwn: behind a real nginx listed in
// trusted-proxies, the client is the address nginx forwards: one
// client's failed logins do not lock another out of the same account,
// registrations are limited per client, a client's own X-Forwarded-For
// changes nothing, and the cookie follows the scheme nginx reports. A
// peer that is not a trusted proxy is its own client, whatever it sends.
func TestBehindNginxEachClientIsItsOwn(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db, trustedProxies(t, "127.0.0.1", 2))
		nginx := s.BehindNginx()
		const email = "magasin@example.fr"
		s.Register(email, "Épicerie", true)

		// Alice mistypes the shop's password until her pair is spent.
		alice := nginx.ClientFrom("127.0.4.2")
		for range accounts.MaxLoginFailuresPerPair {
			login(alice, email, "mauvais12").Expect(t, http.StatusUnauthorized)
		}
		if p := login(alice, email, daemontest.Password).Expect(t, http.StatusTooManyRequests).Problem(t); p.Detail != accounts.MsgThrottled {
			t.Fatalf("Alice throttled: %q", p.Detail)
		}
		// Her own X-Forwarded-For is left of the address nginx appends.
		alice.Header.Set("X-Forwarded-For", "127.0.4.99")
		login(alice, email, daemontest.Password).Expect(t, http.StatusTooManyRequests)

		// Bob, another client of the same proxy, gets in: today's code
		// saw one address, nginx's, and refused him.
		bob := nginx.ClientFrom("127.0.4.3")
		res := login(bob, email, daemontest.Password).Expect(t, http.StatusOK)
		if c := sessionCookieOf(t, res); c.Name != "primeur_session" || c.Secure {
			t.Fatalf("cookie over http: %s, Secure %v", c.Name, c.Secure)
		}
		bob.Do("GET", "/api/user", nil).Expect(t, http.StatusOK)

		// A peer outside trusted-proxies is its own client: claiming to
		// be Alice does not spend her pair's refusal on it, nor free it.
		direct := s.ClientFrom("127.0.4.4")
		direct.Header.Set("X-Forwarded-For", "127.0.4.2")
		login(direct, email, daemontest.Password).Expect(t, http.StatusOK)

		// Registrations: two an hour per client, as configured.
		register := func(c *daemontest.Client, who string, i int) *daemontest.Response {
			return c.Do("POST", "/auth/register", map[string]any{
				"email": fmt.Sprintf("%s%d@example.fr", who, i), "password": daemontest.Password, "name": "Compte " + who, "distributor": true,
			})
		}
		carol := nginx.ClientFrom("127.0.4.5")
		for i := range 2 {
			register(carol, "carol", i).Expect(t, http.StatusCreated)
		}
		if p := register(carol, "carol", 2).Expect(t, http.StatusTooManyRequests).Problem(t); p.Detail != accounts.MsgRegistrationThrottled {
			t.Fatalf("Carol throttled: %q", p.Detail)
		}
		dave := nginx.ClientFrom("127.0.4.6")
		register(dave, "dave", 0).Expect(t, http.StatusCreated)
	})
}

// TestBehindNginxUntrustedEveryoneIsOne is the deployment the setting
// fixes: nginx not listed in trusted-proxies, its clients are one.
func TestBehindNginxUntrustedEveryoneIsOne(t *testing.T) {
	t.Parallel()
	s := daemontest.New(t, storetest.SQLite(t))
	nginx := s.BehindNginx()
	const email = "magasin@example.fr"
	s.Register(email, "Épicerie", true)
	alice := nginx.ClientFrom("127.0.5.2")
	for range accounts.MaxLoginFailuresPerPair {
		login(alice, email, "mauvais12").Expect(t, http.StatusUnauthorized)
	}
	login(nginx.ClientFrom("127.0.5.3"), email, daemontest.Password).Expect(t, http.StatusTooManyRequests)
}

// TestSessionCookieFollowsTheForwardedScheme: a trusted proxy's
// X-Forwarded-Proto: https gives the Secure cookie under the __Host-
// name, and a request over https reads that name only (over http, only
// the plain one); the same header from a peer that is not trusted
// changes nothing.
func TestSessionCookieFollowsTheForwardedScheme(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db, trustedProxies(t, "127.0.0.1", 0))
		const email = "magasin@example.fr"
		s.Register(email, "Épicerie", true)
		via := func(peer, proto string) *daemontest.Client {
			c := s.ClientFrom(peer)
			c.Header.Set("X-Forwarded-For", "198.51.100.7")
			c.Header.Set("X-Forwarded-Proto", proto)
			return c
		}
		c := sessionCookieOf(t, login(via("127.0.0.1", "https"), email, daemontest.Password).Expect(t, http.StatusOK))
		if c.Name != "__Host-primeur_session" || !c.Secure {
			t.Fatalf("over https through the proxy: cookie %s, Secure %v", c.Name, c.Secure)
		}
		if c := sessionCookieOf(t, login(via("127.0.6.2", "https"), email, daemontest.Password).Expect(t, http.StatusOK)); c.Name != "primeur_session" || c.Secure {
			t.Fatalf("https claimed by another peer: cookie %s, Secure %v", c.Name, c.Secure)
		}
		tests := []struct {
			cookie, proto string
			want          int
		}{
			{"__Host-primeur_session", "https", http.StatusOK},
			{"primeur_session", "https", http.StatusUnauthorized},
			{"__Host-primeur_session", "http", http.StatusUnauthorized},
			{"primeur_session", "http", http.StatusOK},
		}
		for _, tt := range tests {
			req, err := http.NewRequest("GET", s.URL+"/api/user", nil)
			if err != nil {
				t.Fatal(err)
			}
			// By hand: a cookie jar keeps a Secure cookie for https only.
			req.AddCookie(&http.Cookie{Name: tt.cookie, Value: c.Value})
			if got := via("127.0.0.1", tt.proto).Raw(req).Status; got != tt.want {
				t.Errorf("cookie %s over %s: %d, want %d", tt.cookie, tt.proto, got, tt.want)
			}
		}
	})
}
