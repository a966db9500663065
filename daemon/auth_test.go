package daemon_test

import (
	"net/http"
	"testing"
	"time"

	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

func TestRegister(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		tests := []struct {
			name   string
			body   any
			status int
			field  string
			msg    string
		}{
			{"missing everything", map[string]any{}, 422, "body.email", accounts.MsgEmailRequired},
			{"bad email", map[string]any{"email": "x@y", "password": "abcdefg1", "name": "N"}, 422, "body.email", accounts.MsgEmailInvalid},
			{"NUL in the email", map[string]any{"email": "x\u0000y@y.fr", "password": "abcdefg1", "name": "N"}, 422, "body.email", accounts.MsgEmailInvalid},
			{"line break in the email", map[string]any{"email": "x@y.fr\r\nBcc: z@y.fr", "password": "abcdefg1", "name": "N"}, 422, "body.email", accounts.MsgEmailInvalid},
			{"escape in the email", map[string]any{"email": "x\u001b[2Jy@y.fr", "password": "abcdefg1", "name": "N"}, 422, "body.email", accounts.MsgEmailInvalid},
			{"bidi override in the email", map[string]any{"email": "x\u202ey@y.fr", "password": "abcdefg1", "name": "N"}, 422, "body.email", accounts.MsgEmailInvalid},
			{"emails differ", map[string]any{"email": "x@y.fr", "email2": "z@y.fr", "password": "abcdefg1", "name": "N"}, 422, "body.email2", accounts.MsgEmailsDiffer},
			{"email2 empty", map[string]any{"email": "x@y.fr", "email2": "", "password": "abcdefg1", "name": "N"}, 422, "body.email2", accounts.MsgEmail2Required},
			{"weak password", map[string]any{"email": "x@y.fr", "password": "abcdefgh", "name": "N"}, 422, "body.password", accounts.MsgPasswordInvalid},
			{"passwords differ", map[string]any{"email": "x@y.fr", "password": "abcdefg1", "password2": "abcdefg2", "name": "N"}, 422, "body.password2", accounts.MsgPasswordsDiffer},
			{"no name", map[string]any{"email": "x@y.fr", "password": "abcdefg1", "name": "  "}, 422, "body.name", accounts.MsgNameRequired},
			{"unknown field", map[string]any{"email": "x@y.fr", "password": "abcdefg1", "name": "N", "admin": true}, 422, "body.admin", ""},
			{"wrong type", map[string]any{"email": "x@y.fr", "password": "abcdefg1", "name": "N", "distributor": "yes"}, 422, "body.distributor", ""},
			{"malformed json", `{"email":`, 400, "", ""},
			{"ok", map[string]any{"email": "Shop@Y.fr", "email2": "shop@y.fr", "password": "abcdefg1", "password2": "abcdefg1", "name": "Shop", "distributor": true}, 201, "", ""},
			{"taken (any case)", map[string]any{"email": "SHOP@y.fr", "password": "abcdefg1", "name": "Other"}, 409, "", accounts.MsgEmailTaken},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := s.Client().Do("POST", "/auth/register", tt.body).Expect(t, tt.status)
				if tt.status == 201 {
					if res.Header.Get("Set-Cookie") == "" {
						t.Fatal("registration must log in")
					}
					// The browser keeps the cookie as long as the session can
					// live; the daemon ends it earlier when it is left idle.
					if c := (&http.Response{Header: res.Header}).Cookies(); len(c) != 1 || c[0].MaxAge != int(accounts.SessionMax.Seconds()) {
						t.Fatalf("session cookie = %+v, want Max-Age %v", c, accounts.SessionMax)
					}
					return
				}
				p := res.Problem(t)
				if tt.msg != "" && p.Detail != tt.msg && (len(p.Errors) == 0 || p.Errors[0].Message != tt.msg) {
					t.Fatalf("problem = %+v, want %q", p, tt.msg)
				}
				if tt.field != "" {
					found := false
					for _, e := range p.Errors {
						found = found || e.Location == tt.field
					}
					if !found {
						t.Fatalf("problem %+v does not name %s", p, tt.field)
					}
				}
			})
		}
		var n int
		if err := db.Get(&n, `SELECT COUNT(*) FROM users`); err != nil || n != 1 {
			t.Fatalf("%d users after the refused registrations, want 1 (%v)", n, err)
		}
	})
}

func TestLoginLogoutAndSessions(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		s.Register("ferme@example.fr", "Ferme", false)

		anon := s.Client()
		p := anon.Do("GET", "/api/user", nil).Expect(t, 401).Problem(t)
		if p.Detail != daemon.MsgNoToken {
			t.Fatalf("no session: %q", p.Detail)
		}

		bad := anon.Do("POST", "/auth/login", map[string]any{"email": "ferme@example.fr", "password": "mauvais12"}).Expect(t, 401).Problem(t)
		if bad.Detail != accounts.MsgBadCredentials {
			t.Fatalf("bad password: %q", bad.Detail)
		}
		unknown := anon.Do("POST", "/auth/login", map[string]any{"email": "nobody@example.fr", "password": "mauvais12"}).Expect(t, 401).Problem(t)
		if unknown.Detail != accounts.MsgBadCredentials {
			t.Fatalf("unknown email: %q", unknown.Detail)
		}

		c := s.Client()
		res := c.Do("POST", "/auth/login", map[string]any{"email": "FERME@example.fr", "password": daemontest.Password}).Expect(t, 200)
		var out struct{ User accounts.Profile }
		res.JSON(t, &out)
		if out.User.Type != accounts.Producer || out.User.DefaultDeliveryDays == nil {
			t.Fatalf("login user = %+v", out.User)
		}
		c.Do("GET", "/api/user", nil).Expect(t, 200)

		// Idle expiry: 15 days without use ends the session.
		s.Clock.Advance(15 * 24 * time.Hour)
		if p := c.Do("GET", "/api/user", nil).Expect(t, 401).Problem(t); p.Detail != daemon.MsgNoToken {
			t.Fatalf("expired session: %q", p.Detail)
		}

		c.Do("POST", "/auth/login", map[string]any{"email": "ferme@example.fr", "password": daemontest.Password}).Expect(t, 200)
		c.Do("GET", "/api/user", nil).Expect(t, 200)
		// A logout from another site's link is refused.
		c.Header.Set("Sec-Fetch-Site", "cross-site")
		c.Do("GET", "/auth/logout", nil).Expect(t, 403)
		c.Do("GET", "/api/user", nil).Expect(t, 200)
		c.Header.Del("Sec-Fetch-Site")
		var before int
		if err := db.Get(&before, `SELECT COUNT(*) FROM sessions`); err != nil {
			t.Fatal(err)
		}
		res = c.Do("GET", "/auth/logout", nil).Expect(t, 204)
		if res.Header.Get("Set-Cookie") == "" {
			t.Fatal("logout must clear the cookie")
		}
		c.Do("GET", "/api/user", nil).Expect(t, 401)
		var sessions int
		if err := db.Get(&sessions, `SELECT COUNT(*) FROM sessions`); err != nil || sessions != before-1 {
			t.Fatalf("%d sessions after logout, want %d (%v)", sessions, before-1, err)
		}
	})
}

func TestLoginThrottling(t *testing.T) {
	t.Parallel() // its own daemon's throttle; the global hashing gate is not read
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		s.Register("ferme@example.fr", "Ferme", false)
		c := s.Client()
		for i := 0; i < 5; i++ {
			c.Do("POST", "/auth/login", map[string]any{"email": "ferme@example.fr", "password": "mauvais12"}).Expect(t, 401)
		}
		p := c.Do("POST", "/auth/login", map[string]any{"email": "ferme@example.fr", "password": daemontest.Password}).Expect(t, 429).Problem(t)
		if p.Detail != accounts.MsgThrottled {
			t.Fatalf("throttled: %q", p.Detail)
		}
		s.Clock.Advance(16 * time.Minute)
		c.Do("POST", "/auth/login", map[string]any{"email": "ferme@example.fr", "password": daemontest.Password}).Expect(t, 200)
	})
}

func TestCrossSiteRequestsAreRefused(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		c, _ := s.Register("shop@example.fr", "Shop", true)
		tests := []struct {
			name    string
			headers map[string]string
			status  int
		}{
			{"same origin", map[string]string{"Sec-Fetch-Site": "same-origin"}, 200},
			{"no browser headers (scripts)", nil, 200},
			{"origin of another site", map[string]string{"Origin": "https://evil.example"}, 403},
			{"fetch metadata cross-site", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
			{"same-site subdomain", map[string]string{"Sec-Fetch-Site": "same-site"}, 403},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				c.Header = http.Header{}
				for k, v := range tt.headers {
					c.Header.Set(k, v)
				}
				c.Do("PUT", "/api/user", map[string]any{"tel": "0612345678"}).Expect(t, tt.status)
				c.Do("POST", "/auth/login", map[string]any{"email": "shop@example.fr", "password": daemontest.Password}).Expect(t, tt.status)
			})
		}
		c.Header = http.Header{"Origin": {"https://evil.example"}}
		c.Do("PUT", "/api/user", map[string]any{"tel": "0699999999"}).Expect(t, 403)
		c.Header = http.Header{}
		var out struct{ User accounts.Profile }
		c.Do("GET", "/api/user", nil).Expect(t, 200).JSON(t, &out)
		if out.User.Tel != "0612345678" {
			t.Fatalf("a refused cross-site PUT changed the profile: %q", out.User.Tel)
		}
	})
}

func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	s := daemontest.New(t, storetest.SQLite(t))
	for _, path := range []string{"/", "/api/user", "/healthz", "/docs"} {
		res := s.Client().Do("GET", path, nil)
		for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"} {
			if res.Header.Get(h) == "" {
				t.Errorf("%s: no %s", path, h)
			}
		}
	}
}
