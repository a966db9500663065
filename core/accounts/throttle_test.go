package accounts_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/limit"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// outcome is what a login came to: "ok", "bad" (wrong credentials, the
// password was checked) or "throttled" (refused before any check).
func outcome(t *testing.T, err error) string {
	t.Helper()
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, core.ErrUnauthenticated):
		return "bad"
	case errors.Is(err, core.ErrThrottled):
		if _, ok := limit.RetryAfter(err); !ok {
			t.Fatalf("throttled without a delay: %v", err)
		}
		return "throttled"
	}
	t.Fatalf("login: %v", err)
	return ""
}

// step is one login: from an address, right or wrong password, at a time
// after the scenario's start, with the outcome expected.
type step struct {
	times   int
	email   string // "" is the scenario's account; else a format taking a number
	client  string
	right   bool
	at      time.Duration
	want    string
	comment string
}

func TestLoginThrottling(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
	}{
		{"a stranger's failures do not block the owner", []step{
			{times: 5, client: "10.1.0.1", want: "bad"},
			{times: 5, client: "10.1.0.2", want: "bad"},
			{times: 5, client: "10.1.0.3", want: "bad"},
			{client: "10.1.0.1", want: "throttled", comment: "the stranger's pair is spent"},
			{client: "10.1.0.4", right: true, want: "ok", comment: "the owner from another address"},
		}},
		{"five failures from one address block that pair, even with the right password", []step{
			{times: 5, client: "10.2.0.1", want: "bad"},
			{client: "10.2.0.1", right: true, want: "throttled"},
			{client: "10.2.0.1", right: true, at: accounts.LoginWindow, want: "ok", comment: "the window is over"},
		}},
		{"twenty failures from one address block it for every account", []step{
			{times: 20, email: "x%d@example.fr", client: "10.3.0.1", want: "bad"},
			{client: "10.3.0.1", right: true, want: "throttled"},
			{client: "10.3.0.2", right: true, want: "ok"},
			{client: "10.3.0.1", right: true, at: accounts.LoginWindow, want: "ok"},
		}},
		{"a success clears its pair and is no failure", []step{
			{times: 4, client: "10.4.0.1", want: "bad"},
			{client: "10.4.0.1", right: true, want: "ok"},
			{times: 5, client: "10.4.0.1", want: "bad", comment: "five more"},
			{times: 11, client: "10.4.0.1", want: "bad", comment: "the address is known now: only its limit applies"},
			{client: "10.4.0.1", right: true, want: "throttled", comment: "the address's twentieth failure was the last"},
		}},
		{"colleagues mistyping at a known address do not lock out the one who types it right", []step{
			{client: "10.6.0.1", right: true, at: -24 * time.Hour, want: "ok", comment: "the shop logged in from its office yesterday"},
			{times: 5, client: "10.6.0.1", want: "bad", comment: "five colleagues mistype"},
			{client: "10.6.0.1", right: true, want: "ok", comment: "the sixth gets in"},
			{times: 12, client: "10.6.0.1", want: "bad"},
			{client: "10.6.0.1", right: true, want: "ok", comment: "seventeen failures, still under the address's limit"},
		}},
		{"at a known address the address's limit bounds the failures", []step{
			{client: "10.7.0.1", right: true, at: -24 * time.Hour, want: "ok"},
			{times: 20, client: "10.7.0.1", want: "bad"},
			{client: "10.7.0.1", right: true, want: "throttled"},
			{client: "10.7.0.2", right: true, want: "ok", comment: "from elsewhere"},
			{client: "10.7.0.1", right: true, at: accounts.LoginWindow, want: "ok", comment: "the window is over"},
		}},
		{"an address known more than 30 days ago is a stranger's again", []step{
			{client: "10.10.0.1", right: true, at: -accounts.KnownAddressFor - time.Minute, want: "ok"},
			{times: 5, client: "10.10.0.1", want: "bad"},
			{client: "10.10.0.1", right: true, want: "throttled"},
		}},
		{"a success does not clear the address", []step{
			{times: 19, email: "y%d@example.fr", client: "10.5.0.1", want: "bad"},
			{client: "10.5.0.1", right: true, want: "ok"},
			{email: "z@example.fr", client: "10.5.0.1", want: "bad", comment: "the twentieth failure"},
			{client: "10.5.0.1", right: true, want: "throttled"},
		}},
		{"IPv6 addresses of one /64 are one client", []step{
			{times: 5, client: "2001:db8:1:2::a", want: "bad"},
			{client: "2001:db8:1:2::b", right: true, want: "throttled"},
			{client: "2001:db8:1:3::a", right: true, want: "ok"},
		}},
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				start := t0.Add(time.Duration(i) * 24 * time.Hour)
				email := fmt.Sprintf("owner%d@example.fr", i)
				register(t, db, email, false)
				n := 0
				for j, s := range tt.steps {
					for k := range max(s.times, 1) {
						to := email
						if s.email != "" {
							to = fmt.Sprintf(s.email, n)
						}
						n++
						password := "mauvais12"
						if s.right {
							password = "motdepasse1"
						}
						_, _, err := accounts.Login(ctx, db, to, password, s.client, start.Add(s.at))
						if got := outcome(t, err); got != s.want {
							t.Fatalf("step %d (%s) try %d: %s, want %s", j, s.comment, k+1, got, s.want)
						}
					}
				}
			})
		}
	})
}

func TestAccountCeiling(t *testing.T) {
	defer accounts.SetAccountCeiling(6)()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		register(t, db, "ferme@example.fr", false)
		login := func(client, password string, at time.Duration) string {
			_, _, err := accounts.Login(ctx, db, "ferme@example.fr", password, client, t0.Add(at))
			return outcome(t, err)
		}
		// The owner logged in from home last week.
		if got := login("10.9.0.1", "motdepasse1", -7*24*time.Hour); got != "ok" {
			t.Fatalf("owner's login: %s", got)
		}
		// Strangers from three addresses, two failures each: no pair is
		// spent, the account's ceiling is.
		hashed := accounts.Hashing.Stats().Done
		for i := range 3 {
			for range 2 {
				if got := login(fmt.Sprintf("10.8.0.%d", i), "mauvais12", 0); got != "bad" {
					t.Fatalf("stranger %d: %s", i, got)
				}
			}
		}
		for _, client := range []string{"10.8.0.9", "10.8.0.10"} {
			if got := login(client, "motdepasse1", time.Minute); got != "throttled" {
				t.Fatalf("past the ceiling from an unknown address %s: %s", client, got)
			}
		}
		if n := accounts.Hashing.Stats().Done - hashed; n != 6 {
			t.Fatalf("%d passwords checked, want the 6 of the ceiling", n)
		}
		// From the address it logged in from, the owner still gets in.
		if got := login("10.9.0.1", "motdepasse1", 2*time.Minute); got != "ok" {
			t.Fatalf("owner from a known address: %s", got)
		}
		// The ceiling's window ends.
		if got := login("10.8.0.9", "motdepasse1", accounts.AccountWindow); got != "ok" {
			t.Fatalf("after the window: %s", got)
		}
	})
}

func TestRegistrationThrottling(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		signUp := func(i int, client string, at time.Duration) error {
			_, token, _, err := accounts.SignUp(ctx, db, accounts.Registration{
				Email: fmt.Sprintf("u%d@example.fr", i), Password: "motdepasse1", Name: "U", Distributor: i%2 == 0,
			}, client, 0, t0.Add(at))
			if err == nil && token == "" {
				t.Fatal("a registration without a session")
			}
			return err
		}
		users := func() int {
			var n int
			if err := store.Get(ctx, db, &n, `SELECT COUNT(*) FROM users`); err != nil {
				t.Fatal(err)
			}
			return n
		}
		for i := range accounts.MaxRegistrationsPerAddress {
			if err := signUp(i, "10.7.0.1", 0); err != nil {
				t.Fatalf("registration %d: %v", i, err)
			}
		}
		// An invalid registration is refused before it is counted.
		if _, _, _, err := accounts.SignUp(ctx, db, accounts.Registration{Email: "x\x00@y.fr", Password: "motdepasse1", Name: "U"}, "10.7.0.1", 0, t0); err == nil || errors.Is(err, core.ErrThrottled) {
			t.Fatalf("invalid registration: %v", err)
		}
		err := signUp(100, "10.7.0.1", time.Minute)
		var r *core.Refusal
		after, _ := limit.RetryAfter(err)
		if !errors.Is(err, core.ErrThrottled) || !errors.As(err, &r) || r.Message != accounts.MsgRegistrationThrottled ||
			after != accounts.RegistrationWindow-time.Minute {
			t.Fatalf("registration past the limit: %v (retry after %v)", err, after)
		}
		if n := users(); n != accounts.MaxRegistrationsPerAddress {
			t.Fatalf("%d users, want %d", n, accounts.MaxRegistrationsPerAddress)
		}
		if err := signUp(101, "10.7.0.2", time.Minute); err != nil {
			t.Fatalf("another address: %v", err)
		}
		if err := signUp(102, "10.7.0.1", accounts.RegistrationWindow); err != nil {
			t.Fatalf("after the window: %v", err)
		}
	})
}

func TestClientKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"192.0.2.7", "192.0.2.7"},
		{"::ffff:192.0.2.7", "192.0.2.7"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2::9", "2001:db8:1:2::/64"},
		{"::1", "::/64"},
		{"not an address", "not an address"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := accounts.ClientKey(tt.in); got != tt.want {
			t.Errorf("ClientKey(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
