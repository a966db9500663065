package daemon_test

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"slices"
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
// ones, in pairs, either kind first in turn, through the real daemon. The
// pairs' differences are compared by Wilcoxon's signed-rank test, which
// asks no shape of the distributions and, the two of a pair being
// neighbours in time, cancels what drifts during a round (the load of
// other tests on the machine, the database server's): its z-score must be
// within forgotZ. A round past it is measured again, up to forgotRounds
// times: chance passes some round (|z| > 4 happens once in 16,000), a
// difference of the answer's work fails them all — the code that wrote
// the known account's link in the answer and started its email at once
// had the known email slower in 73 to 94 % of pairs, its median 30 to
// 190 % higher, on both engines, in every round (z from 6 to 11). The medians
// are logged, for docs/SECURITY.md.
const (
	forgotPairs  = 200
	forgotZ      = 4.0
	forgotRounds = 3
	// forgotQuiet is the pause after each request: longer than the daemon
	// waits before the account's work, which then has the time to end.
	forgotQuiet = 15 * time.Millisecond
)

// TestForgotPasswordTimingTellsNothing: "Mot de passe oublié" answers in
// the same time whether an account has the email or not, on both engines.
func TestForgotPasswordTimingTellsNothing(t *testing.T) {
	// Beside the other parallel tests: their load is what the pairs and
	// the signed-rank test cancel.
	t.Parallel()
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
			z := signedRankZ(k, u)
			last = fmt.Sprintf("round %d: median %.3f ms for known emails, %.3f ms for unknown ones (%+.1f %%); the known slower in %d %% of pairs; signed-rank z %+.2f",
				round, mk, mu, 100*(mk-mu)/min(mk, mu), 100*slower/len(k), z)
			t.Log(last)
			if math.Abs(z) <= forgotZ {
				return
			}
		}
		t.Fatalf("the answer's time tells whether the account exists, in every round; last %s", last)
	})
}

// signedRankZ is the z-score of Wilcoxon's signed-rank statistic of the
// differences a[i] - b[i] (ties of |a[i] - b[i]| given their mean rank,
// zero differences left out): about normal, centred on 0 and of standard
// deviation 1 when neither of a pair is systematically the larger.
func signedRankZ(a, b []float64) float64 {
	var d []float64
	for i := range a {
		if a[i] != b[i] {
			d = append(d, a[i]-b[i])
		}
	}
	slices.SortFunc(d, func(x, y float64) int { return cmp.Compare(math.Abs(x), math.Abs(y)) })
	var w float64 // the sum of the positive differences' ranks
	for i := 0; i < len(d); {
		j := i
		for j < len(d) && math.Abs(d[j]) == math.Abs(d[i]) {
			j++
		}
		rank := float64(i+j+1) / 2 // ranks i+1 … j, averaged
		for ; i < j; i++ {
			if d[i] > 0 {
				w += rank
			}
		}
	}
	n := float64(len(d))
	if n == 0 {
		return 0
	}
	return (w - n*(n+1)/4) / math.Sqrt(n*(n+1)*(2*n+1)/24)
}

// TestSignedRankZ checks signedRankZ on pairs worked out by hand.
func TestSignedRankZ(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b []float64
		want float64
	}{
		// d = 1, 2, 3, 4: W = 10, mean 5, variance 7.5.
		{"all larger", []float64{2, 4, 6, 8}, []float64{1, 2, 3, 4}, 5 / math.Sqrt(7.5)},
		// d = -1, -2, -3, -4: W = 0.
		{"all smaller", []float64{1, 2, 3, 4}, []float64{2, 4, 6, 8}, -5 / math.Sqrt(7.5)},
		// d = +1, -1, +2, -2: ranks 1.5, 1.5, 3.5, 3.5; W = 5 = the mean.
		{"balanced with ties", []float64{2, 1, 4, 2}, []float64{1, 2, 2, 4}, 0},
		// A zero difference is left out: d = 3, -1 (n = 2): W = 2, mean
		// 1.5, variance 1.25.
		{"a zero difference", []float64{5, 1, 7}, []float64{5, 2, 4}, 0.5 / math.Sqrt(1.25)},
		{"no difference", []float64{1, 2}, []float64{1, 2}, 0},
	} {
		if got := signedRankZ(c.a, c.b); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: z = %v, want %v", c.name, got, c.want)
		}
	}
}
