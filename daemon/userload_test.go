package daemon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/delivery"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

// TestUserLoadJSON pins the bytes of GET /api/user and GET /api/orders on a shop's year of
// trade (the user load benchmark's world: needs, commitments, pending
// proposals, done, short, cancelled and claimed deliveries, invoices and
// credit notes): for the shop and for one of its producers, the answer
// is exactly encoding/json's encoding of the load the daemon builds, as
// huma's default JSON format writes it (no HTML escaping, a newline), and
// the orders of GET /api/orders (12 months back) are those orders.Load
// reads with sqlx and orders.Views shapes. Whatever writes the answer faster (issue 20) must
// keep these bytes.
func TestUserLoadJSON(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		// The longest test of the package: both engines at once.
		t.Parallel()
		ctx := context.Background()
		s := daemontest.New(t, db)
		seedUserLoads(t, db, s.Clock.Now(), delivery.RulesOf(s.Config), typicalShop)
		h := s.Daemon.Handler()
		emails := []string{typicalShop.email, "ferme-00@bench.primeur.fr", "ferme-03@bench.primeur.fr"}
		answers := map[string][]byte{} // by email, then by email and "/needs"
		for _, email := range emails {
			req := httptest.NewRequest(http.MethodGet, "/api/user", nil)
			req.AddCookie(loadLogin(t, h, email))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				t.Fatalf("%s: %d %s", email, rec.Code, rec.Body)
			}
			load, err := s.Daemon.UserLoadOn(ctx, db, email)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(load); err != nil {
				t.Fatal(err)
			}
			if got := rec.Body.Bytes(); !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("%s: the answer (%d bytes) is not encoding/json's (%d bytes), first difference at byte %d:\n got …%s…\nwant …%s…",
					email, len(got), want.Len(), firstDiff(got, want.Bytes()), around(got, firstDiff(got, want.Bytes())),
					around(want.Bytes(), firstDiff(got, want.Bytes())))
			}
			answers[email] = want.Bytes()

			u, err := accounts.ByEmail(ctx, db, email)
			if err != nil {
				t.Fatal(err)
			}
			f := orders.Filter{ProducerID: u.ID, From: calendar.MonthOf(s.Clock.Now()).AddMonths(-12).String()}
			if u.IsDistributor() {
				f = orders.Filter{DistributorID: u.ID, From: f.From}
			}
			fs, err := orders.Load(ctx, db, f)
			if err != nil {
				t.Fatal(err)
			}
			wantOrders, _ := json.Marshal(orders.Views(fs, u.ID))
			req = httptest.NewRequest(http.MethodGet, "/api/orders", nil)
			req.AddCookie(loadLogin(t, h, email))
			rec = httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			gotOrders := bytes.TrimSuffix(rec.Body.Bytes(), []byte("\n"))
			if rec.Code != http.StatusOK || len(fs) == 0 {
				t.Fatalf("%s: GET /api/orders %d, %d orders", email, rec.Code, len(fs))
			}
			if !bytes.Equal(gotOrders, wantOrders) {
				at := firstDiff(gotOrders, wantOrders)
				t.Fatalf("%s: the load's orders differ from orders.Load's at byte %d:\n got …%s…\nwant …%s…",
					email, at, around(gotOrders, at), around(wantOrders, at))
			}
		}
		concurrentAnswers(t, h, emails, answers)
	})
}

// concurrentAnswers checks that GET /api/user and GET /api/needs answer
// each user its own bytes when many are served at once: 8 clients, 6 requests each, users and routes in
// turn. answers holds each user's load; the needs are those a request
// alone gets.
func concurrentAnswers(t *testing.T, h http.Handler, emails []string, answers map[string][]byte) {
	t.Helper()
	get := func(path string, cookie *http.Cookie) (int, []byte) {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.AddCookie(cookie)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code, rec.Body.Bytes()
	}
	type call struct {
		email, path string
		cookie      *http.Cookie
	}
	var calls []call
	for _, email := range emails {
		c := loadLogin(t, h, email)
		calls = append(calls, call{email, "/api/user", c}, call{email, "/api/needs", c})
		code, body := get("/api/needs", c)
		if code != http.StatusOK || len(body) < 100 {
			t.Fatalf("%s: GET /api/needs: %d %.200s", email, code, body)
		}
		answers[email+"/needs"] = body
	}
	want := func(c call) []byte {
		if c.path == "/api/needs" {
			return answers[c.email+"/needs"]
		}
		return answers[c.email]
	}
	errs := make(chan string, 8*6)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 6 {
				c := calls[(g+i)%len(calls)]
				if code, body := get(c.path, c.cookie); code != http.StatusOK || !bytes.Equal(body, want(c)) {
					errs <- fmt.Sprintf("%s %s: %d, %d bytes, want %d", c.email, c.path, code, len(body), len(want(c)))
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// firstDiff is the index of the first byte where a and b differ.
func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// around is b's text within 120 bytes of i.
func around(b []byte, i int) string {
	return string(b[max(0, i-120):min(len(b), i+120)])
}
