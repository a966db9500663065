package daemon_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

// The timing test of "Mot de passe oublié" (docs/SECURITY.md "Password
// reset"): forgotPairs requests for known emails and as many for unknown
// ones, alternated, through the real daemon; their medians must differ by
// at most forgotBound of the smaller. A round that misses the bound is
// measured again, up to forgotRounds times: noise (another package's tests
// on the same cores) passes some round, a difference of the answer's work
// fails them all: the code that wrote the known account's link in the
// answer, and started its email at once, missed the bound by 30 % to
// 170 % on both engines, in every round.
const (
	forgotPairs  = 200
	forgotBound  = 0.10
	forgotRounds = 3
	// forgotQuiet is the pause after each request: longer than the daemon
	// waits before the account's work, which then has the time to end.
	forgotQuiet = 15 * time.Millisecond
)

// TestForgotPasswordTimingTellsNothing: "Mot de passe oublié" answers in
// the same time whether an account has the email or not, on both engines.
func TestForgotPasswordTimingTellsNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("measures 2 × 200 requests a round")
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		ctx := context.Background()
		known := make([]string, forgotPairs)
		for i := range known {
			known[i] = fmt.Sprintf("connu-%03d@timing.fr", i)
			u := accounts.User{ID: core.NewID(), Type: accounts.Distributor, Email: known[i], EmailKey: known[i],
				Name: "Magasin", PasswordHash: "x", DeliveryDays: "0000000",
				CreatedAt: s.Clock.Now().UnixMilli(), UpdatedAt: s.Clock.Now().UnixMilli()}
			if err := accounts.Insert(ctx, db, u); err != nil {
				t.Fatal(err)
			}
		}
		outbox := s.Config.OutboxDir()
		// One client, one kept-alive connection: what is measured is the
		// request's way through the daemon, not a connection's setup.
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
		defer client.CloseIdleConnections()
		mails := 0
		var end time.Time
		ask := func(email string) time.Duration {
			t.Helper()
			body := []byte(`{"email":"` + email + `"}`)
			req, err := http.NewRequest(http.MethodPost, s.URL+"/auth/password/forgot", bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			start := time.Now()
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_, err = io.Copy(io.Discard, res.Body)
			end = time.Now()
			took := end.Sub(start)
			res.Body.Close()
			if err != nil || res.StatusCode != http.StatusOK {
				t.Fatalf("%s: status %d (%v)", email, res.StatusCode, err)
			}
			return took
		}
		// settle waits until what the last request left to do after its
		// answer (the known email's link and email) is done, so that it
		// never runs during the next measured request, and pauses as long
		// after either kind.
		settle := func() {
			t.Helper()
			for i := 0; ; i++ {
				files, _ := os.ReadDir(outbox)
				if len(files) >= mails && time.Since(end) >= forgotQuiet {
					break
				}
				if i == 5000 {
					t.Fatalf("%d emails in the outbox, want %d", len(files), mails)
				}
				time.Sleep(time.Millisecond)
			}
		}
		var last string
		for round := 1; round <= forgotRounds; round++ {
			var k, u []float64
			for i := range forgotPairs {
				// Throttling allows 10 requests an hour from one address and 3
				// for one email: the clock moves an hour every 5 pairs.
				if i%5 == 0 {
					s.Clock.Advance(accounts.ResetWindow)
				}
				unknown := fmt.Sprintf("inconnu-%d-%03d@timing.fr", round, i)
				// Alternated: either kind first in turn.
				for j := range 2 {
					if (i+j)%2 == 0 {
						mails++
						k = append(k, ms(ask(known[i])))
					} else {
						u = append(u, ms(ask(unknown)))
					}
					settle()
				}
			}
			mk, mu := median(k), median(u)
			slower := 0
			for i := range k {
				if k[i] > u[i] {
					slower++
				}
			}
			last = fmt.Sprintf("round %d: median %.3f ms for known emails, %.3f ms for unknown ones (%+.1f %%); the known slower in %d %% of pairs",
				round, mk, mu, 100*(mk-mu)/min(mk, mu), 100*slower/len(k))
			t.Log(last)
			if mk <= mu*(1+forgotBound) && mu <= mk*(1+forgotBound) {
				return
			}
		}
		t.Fatalf("the answer's time tells whether the account exists, in every round; last %s", last)
	})
}
