package daemon_test

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"primeur/core/accounts"
	"primeur/core/limit"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

// burst sends n requests at once (each goroutine waits for the same start)
// and returns their responses in order.
func burst(n int, send func(i int) *daemontest.Response) []*daemontest.Response {
	out := make([]*daemontest.Response, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = send(i)
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// statuses counts responses by status, and checks that every 429 and 503
// says when to come back.
func statuses(t *testing.T, rs []*daemontest.Response) map[int]int {
	t.Helper()
	n := map[int]int{}
	for _, r := range rs {
		n[r.Status]++
		if r.Status == http.StatusTooManyRequests || r.Status == http.StatusServiceUnavailable {
			if s, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || s < 1 {
				t.Errorf("%d without a Retry-After: %q", r.Status, r.Header.Get("Retry-After"))
			}
		}
	}
	return n
}

// only fails unless every status counted is one of want.
func only(t *testing.T, n map[int]int, want ...int) {
	t.Helper()
	for status := range n {
		ok := false
		for _, w := range want {
			ok = ok || status == w
		}
		if !ok {
			keys := make([]string, 0, len(n))
			for s, c := range n {
				keys = append(keys, fmt.Sprintf("%d×%d", c, s))
			}
			sort.Strings(keys)
			t.Fatalf("statuses %s, want only %v", strings.Join(keys, " "), want)
		}
	}
}

func login(c *daemontest.Client, email, password string) *daemontest.Response {
	return c.Do("POST", "/auth/login", map[string]any{"email": email, "password": password})
}

// TestConcurrentFailuresAreCountedBeforeTheHash: failures sent at once are
// each counted before any password is checked, so no more than the limit
// reach the hash — for one account from one address (5), and for many
// accounts from one address (20).
func TestConcurrentFailuresAreCountedBeforeTheHash(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		email func(i int) string
		limit int
	}{
		{"30 for one account from one address", 30, func(int) string { return "ferme@example.fr" }, accounts.MaxLoginFailuresPerPair},
		{"32 for 32 accounts from one address", 32, func(i int) string { return fmt.Sprintf("compte%d@example.fr", i) }, accounts.MaxLoginFailuresPerAddress},
	}
	accounts.RealHashingForTest(t) // bursts that meet while hashing
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		s.Register("ferme@example.fr", "Ferme", false)
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				c := s.ClientFrom(fmt.Sprintf("127.0.1.%d", i+1))
				hashed := accounts.Hashing.Stats().Done
				n := statuses(t, burst(tt.n, func(i int) *daemontest.Response {
					return login(c, tt.email(i), "mauvais12")
				}))
				only(t, n, http.StatusUnauthorized, http.StatusTooManyRequests, http.StatusServiceUnavailable)
				checked := accounts.Hashing.Stats().Done - hashed
				if n[401] > tt.limit || checked > int64(tt.limit) || checked != int64(n[401]) {
					t.Fatalf("%d passwords checked, %d answers 401, want at most %d", checked, n[401], tt.limit)
				}
				if n[429] < tt.n-tt.limit-n[503] {
					t.Fatalf("%d answers 429, want the %d past the limit", n[429], tt.n-tt.limit-n[503])
				}
			})
		}
	})
}

// TestStrangersCannotLockTheOwnerOut: failures from other addresses leave
// the owner's own address free.
func TestStrangersCannotLockTheOwnerOut(t *testing.T) {
	t.Parallel() // its own daemon's throttle; the global hashing gate is not read
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		s.Register("magasin@example.fr", "Épicerie", true)
		for _, ip := range []string{"127.0.2.1", "127.0.2.2", "127.0.2.3"} {
			stranger := s.ClientFrom(ip)
			for range accounts.MaxLoginFailuresPerPair {
				login(stranger, "magasin@example.fr", "mauvais12").Expect(t, 401)
			}
			p := login(stranger, "magasin@example.fr", daemontest.Password).Expect(t, 429).Problem(t)
			if p.Detail != accounts.MsgThrottled {
				t.Fatalf("throttled stranger: %q", p.Detail)
			}
		}
		owner := s.ClientFrom("127.0.2.4")
		login(owner, "magasin@example.fr", daemontest.Password).Expect(t, 200)
		owner.Do("GET", "/api/user", nil).Expect(t, 200)
	})
}

// TestRegistrationIsThrottledPerAddress: past the limit, a registration
// from the same address is refused with the French message and creates
// nothing; another address still registers.
func TestRegistrationIsThrottledPerAddress(t *testing.T) {
	t.Parallel() // its own daemon's throttle; the global hashing gate is not read
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		for _, limit := range []int{accounts.MaxRegistrationsPerAddress, 3} {
			t.Run(fmt.Sprint(limit), func(t *testing.T) { registrationsUpTo(t, db, limit) })
		}
	})
}

// registrationsUpTo checks, on a daemon configured for limit registrations
// an hour from one address, that the next one is refused.
func registrationsUpTo(t *testing.T, db *store.DB, limit int) {
	s := daemontest.New(t, db, func(o *daemon.Options) { o.Config.RegistrationsPerHour = limit })
	c := s.ClientFrom(fmt.Sprintf("127.0.3.%d", limit))
	register := func(c *daemontest.Client, i int) *daemontest.Response {
		return c.Do("POST", "/auth/register", map[string]any{
			"email": fmt.Sprintf("compte%d-%d@example.fr", limit, i), "password": daemontest.Password, "name": "Compte", "distributor": i%2 == 0,
		})
	}
	for i := range limit {
		register(c, i).Expect(t, 201)
	}
	count := func() (users, sessions int) {
		if err := db.Get(&users, `SELECT COUNT(*) FROM users`); err != nil {
			t.Fatal(err)
		}
		if err := db.Get(&sessions, `SELECT COUNT(*) FROM sessions`); err != nil {
			t.Fatal(err)
		}
		return users, sessions
	}
	users, sessions := count()
	res := register(c, 100).Expect(t, 429)
	if p := res.Problem(t); p.Detail != accounts.MsgRegistrationThrottled {
		t.Fatalf("throttled registration: %q", p.Detail)
	}
	if after, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || after != int(accounts.RegistrationWindow.Seconds()) {
		t.Fatalf("Retry-After %q, want the window's end", res.Header.Get("Retry-After"))
	}
	if u, ss := count(); u != users || ss != sessions {
		t.Fatalf("a refused registration created %d users and %d sessions", u-users, ss-sessions)
	}
	register(s.ClientFrom("127.0.3.100"), 101).Expect(t, 201)
}

// TestFloodsNeverAnswer500: registrations and logins at once, from many
// addresses, are answered — created, refused, throttled or "come back
// later" — but never with a server error.
func TestFloodsNeverAnswer500(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		s.Register("ferme@example.fr", "Ferme", false)
		clients := make([]*daemontest.Client, 8)
		for i := range clients {
			clients[i] = s.ClientFrom(fmt.Sprintf("127.0.4.%d", i+1))
		}
		rs := burst(64, func(i int) *daemontest.Response {
			c := clients[i%len(clients)]
			switch i % 4 {
			case 0:
				return login(c, "ferme@example.fr", daemontest.Password)
			case 1:
				return login(c, "ferme@example.fr", "mauvais12")
			default:
				return c.Do("POST", "/auth/register", map[string]any{
					"email": fmt.Sprintf("flot%d@example.fr", i), "password": daemontest.Password, "name": "Flot",
				})
			}
		})
		n := statuses(t, rs)
		only(t, n, http.StatusOK, http.StatusCreated, http.StatusUnauthorized, http.StatusTooManyRequests, http.StatusServiceUnavailable)
		if n[200]+n[201] == 0 {
			t.Fatalf("nothing succeeded: %v", n)
		}
		st := accounts.Hashing.Stats()
		if st.MostRunning > int64(st.Size) {
			t.Fatalf("%d passwords hashed at once, the gate allows %d", st.MostRunning, st.Size)
		}
	})
}

// TestHashingIsBounded: of many logins at once, no more run argon2 at a
// time than the gate's size; every one that passed the throttle is
// checked.
func TestHashingIsBounded(t *testing.T) {
	accounts.RealHashingForTest(t) // logins that meet at the gate
	s := daemontest.New(t, storetest.SQLite(t))
	clients := make([]*daemontest.Client, 4)
	for i := range clients {
		clients[i] = s.ClientFrom(fmt.Sprintf("127.0.5.%d", i+1))
	}
	before := accounts.Hashing.Stats()
	n := statuses(t, burst(32, func(i int) *daemontest.Response {
		return login(clients[i%len(clients)], fmt.Sprintf("inconnu%d@example.fr", i), "mauvais12")
	}))
	only(t, n, http.StatusUnauthorized, http.StatusServiceUnavailable)
	after := accounts.Hashing.Stats()
	if after.MostRunning > int64(after.Size) || after.MostRunning < 1 {
		t.Fatalf("at most %d hashes at once seen, the gate allows %d", after.MostRunning, after.Size)
	}
	if after.Done-before.Done != int64(n[401]) {
		t.Fatalf("%d hashes for %d answers 401", after.Done-before.Done, n[401])
	}
}

// TestFullHashingGateAnswers503: a login that cannot get a turn at the
// hashing gate answers 503 with a French message and Retry-After, and its
// attempt does not count against the account.
func TestFullHashingGateAnswers503(t *testing.T) {
	db := storetest.SQLite(t)
	s := daemontest.New(t, db)
	s.Register("ferme@example.fr", "Ferme", false)
	release := make(chan struct{})
	started := make(chan struct{})
	var wg sync.WaitGroup
	for range accounts.Hashing.Size() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = accounts.Hashing.Do(context.Background(), func() error {
				started <- struct{}{}
				<-release
				return nil
			})
		}()
	}
	for range accounts.Hashing.Size() {
		<-started
	}
	c := s.ClientFrom("127.0.6.1")
	res := login(c, "ferme@example.fr", daemontest.Password)
	close(release)
	wg.Wait()
	res.Expect(t, 503)
	if p := res.Problem(t); p.Detail != limit.MsgBusy {
		t.Fatalf("busy: %q", p.Detail)
	}
	if res.Header.Get("Retry-After") != strconv.Itoa(int(accounts.HashWait.Seconds())) {
		t.Fatalf("Retry-After %q", res.Header.Get("Retry-After"))
	}
	var counted int
	if err := db.Get(&counted, `SELECT COALESCE(SUM(attempts), 0) FROM throttle WHERE key LIKE 'login:%'`); err != nil || counted != 0 {
		t.Fatalf("%d attempts still counted after a 503 (%v)", counted, err)
	}
	login(c, "ferme@example.fr", daemontest.Password).Expect(t, 200)
}
