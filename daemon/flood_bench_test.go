//go:build linux

package daemon_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"primeur/core/accounts"
	"primeur/core/planning/planningtest"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

// The registration flood (issue 13): floodClients anonymous clients
// register accounts as fast as the daemon answers for floodTimes' flood,
// while one shop keeps using the API; its requests are measured alone
// first (floodTimes' idle), then under the flood.
const floodClients = 32

// floodTimes are how long the shop's requests are measured alone and under
// the flood: 4 and 10 s, or a tenth of that with -short (make test-bench,
// which runs each benchmark once to show that it still runs).
func floodTimes() (idle, flood time.Duration) {
	if testing.Short() {
		return 400 * time.Millisecond, time.Second
	}
	return 4 * time.Second, 10 * time.Second
}

// BenchmarkRegistrationFlood measures what a registration flood does to
// the other users: the real daemon over loopback (daemontest), a shop with
// 20 products planned over 12 months alternating GET /api/user and
// PUT /api/needs/{id} from one client, first alone for 4 s, then
// while 32 clients register accounts without pause for 10 s — all from
// one address, or each from its own. One operation is the whole scenario,
// on a fresh database; it reports the shop's median latencies alone and
// under the flood and their ratio, the accounts the flood created and its
// answers by status. The load and the daemon share the machine's cores.
//
//	go test ./daemon -run '^$' -bench BenchmarkRegistrationFlood -benchtime 1x
func BenchmarkRegistrationFlood(b *testing.B) {
	for _, engine := range storetest.Engines() {
		for _, sc := range []struct {
			name      string
			addresses int
		}{{"one-address", 1}, {"32-addresses", floodClients}} {
			b.Run(engine.Name+"/"+sc.name, func(b *testing.B) {
				for range b.N {
					floodRound(b, engine.Open(b), sc.addresses)
				}
			})
		}
	}
}

// floodRound runs the scenario once and reports its figures.
func floodRound(b *testing.B, db *store.DB, addresses int) {
	s := daemontest.New(b, db)
	shop, _ := s.Register("magasin@example.fr", "Épicerie", true)
	needID := planSmallShop(b, shop)

	idleFor, floodFor := floodTimes()
	idle := probe(b, shop, needID, idleFor)

	var before int
	if err := db.Get(&before, `SELECT COUNT(*) FROM users`); err != nil {
		b.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		status = map[int]int{}
		seq    atomic.Int64
	)
	for i := range floodClients {
		c := s.ClientFrom(fmt.Sprintf("127.0.8.%d", i%addresses+1))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				n := seq.Add(1)
				res := c.Do("POST", "/auth/register", map[string]any{
					"email": fmt.Sprintf("flot%d@example.fr", n), "password": daemontest.Password, "name": "Flot",
					"distributor": n%2 == 0,
				})
				mu.Lock()
				status[res.Status]++
				mu.Unlock()
			}
		}()
	}
	loaded := probe(b, shop, needID, floodFor)
	stop()
	wg.Wait()
	var after int
	if err := db.Get(&after, `SELECT COUNT(*) FROM users`); err != nil {
		b.Fatal(err)
	}

	for _, r := range []struct {
		name       string
		idle, load []float64
	}{{"get", idle.get, loaded.get}, {"put", idle.put, loaded.put}} {
		i, l := median(r.idle), median(r.load)
		b.ReportMetric(i, r.name+"-idle-p50-ms")
		b.ReportMetric(l, r.name+"-flood-p50-ms")
		b.ReportMetric(l/i, r.name+"-ratio")
		b.ReportMetric(float64(len(r.load)), r.name+"-flood-n")
	}
	b.ReportMetric(float64(idle.failed+loaded.failed), "probe-failed")
	b.ReportMetric(float64(after-before), "accounts")
	total := 0
	for code, n := range status {
		b.ReportMetric(float64(n), fmt.Sprintf("flood-%d", code))
		total += n
	}
	b.ReportMetric(float64(total)/floodFor.Seconds(), "flood-req/s")
	b.ReportMetric(0, "ns/op")
}

// planSmallShop gives the shop 20 products over 12 months and returns the
// id of one of its needs.
func planSmallShop(b *testing.B, shop *daemontest.Client) string {
	b.Helper()
	var catalogue struct {
		Products []struct {
			ID string `json:"_id"`
		} `json:"products"`
	}
	shop.Do("GET", "/api/catalogue", nil).Expect(b, 200).JSON(b, &catalogue)
	dates := make([]string, 12)
	quantities := make([]float64, 12)
	for m := range dates {
		dates[m] = time.Date(2027, time.Month(m+1), 1, 0, 0, 0, 0, time.UTC).Format("2006-01")
		quantities[m] = float64(100 + m)
	}
	for _, p := range catalogue.Products[:20] {
		shop.Do("POST", "/api/needs/bulk", map[string]any{"product": p.ID, "quantities": quantities, "dates": dates}).Expect(b, 200)
	}
	var needs []struct {
		ID string `json:"_id"`
	}
	shop.Do("GET", "/api/needs", nil).Expect(b, 200).JSON(b, &needs)
	if len(needs) != 240 {
		b.Fatalf("%d needs, want 240", len(needs))
	}
	return needs[0].ID
}

// latencies are a probe's request times in ms, and how many of its
// requests did not answer 200.
type latencies struct {
	get, put []float64
	failed   int
}

// probe alternates the shop's GET /api/user and PUT /api/needs/{id} for d
// (a request under way at the end is finished and counted).
func probe(b *testing.B, shop *daemontest.Client, needID string, d time.Duration) latencies {
	b.Helper()
	var l latencies
	end := time.Now().Add(d)
	for i := 0; time.Now().Before(end); i++ {
		t := time.Now()
		if shop.Do("GET", "/api/user", nil).Status != 200 {
			l.failed++
		}
		l.get = append(l.get, ms(time.Since(t)))
		t = time.Now()
		if shop.Do("PUT", "/api/needs/"+needID, map[string]any{"quantity": 100 + i%50}).Status != 200 {
			l.failed++
		}
		l.put = append(l.put, ms(time.Since(t)))
	}
	return l
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkExpensiveCallsMemory measures the peak resident memory of the
// test process (the daemon in it) during expensive calls sent at once: 32
// logins, each from its own address with the right password (each an
// argon2id check of 19 MiB), and 4 uploads (of 4 shops) of a 1.9 MB Excel
// file whose shared strings inflate to 15 MB. The peak is /proc's VmHWM, reset just
// before the calls (clear_refs), after a GC that returned the free heap to
// the system; "rss-before" is VmRSS then. SQLite; the memory is the
// hashing's and the parsing's, not the database's.
//
//	go test ./daemon -run '^$' -bench BenchmarkExpensiveCallsMemory -benchtime 1x
func BenchmarkExpensiveCallsMemory(b *testing.B) {
	b.Run("32-logins", func(b *testing.B) {
		for range b.N {
			s := daemontest.New(b, storetest.SQLite(b))
			ctx := context.Background()
			for i := range 32 {
				if _, err := accounts.Register(ctx, s.DB, accounts.Registration{
					Email: fmt.Sprintf("compte%d@example.fr", i), Password: daemontest.Password, Name: "Compte",
				}, s.Clock.Now()); err != nil {
					b.Fatal(err)
				}
			}
			clients := make([]*daemontest.Client, 32)
			for i := range clients {
				clients[i] = s.ClientFrom(fmt.Sprintf("127.0.9.%d", i+1))
			}
			measureMemory(b, len(clients), func(i int) *daemontest.Response {
				return login(clients[i], fmt.Sprintf("compte%d@example.fr", i), daemontest.Password)
			})
		}
	})
	b.Run("4-uploads", func(b *testing.B) {
		data, err := planningtest.HeavyStrings(15 << 20)
		if err != nil {
			b.Fatal(err)
		}
		for range b.N {
			s := daemontest.New(b, storetest.SQLite(b))
			shops := make([]*daemontest.Client, 4) // a shop has one file at a time in the gate
			for i := range shops {
				shops[i], _ = s.Register(fmt.Sprintf("magasin%d@example.fr", i), "Épicerie", true)
			}
			measureMemory(b, len(shops), func(i int) *daemontest.Response {
				return shops[i].Upload("/api/needs-loader", "importfile", "besoins.xlsx", data)
			})
		}
	})
}

// measureMemory sends n calls at once and reports the resident memory
// before and at its peak, the wall time, and the answers by status.
func measureMemory(b *testing.B, n int, call func(i int) *daemontest.Response) {
	b.Helper()
	runtime.GC()
	debug.FreeOSMemory()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Fatalf("reset the peak RSS: %v", err)
	}
	before := procStatus(b, "VmRSS")
	start := time.Now()
	rs := burst(n, call)
	wall := time.Since(start)
	peak := procStatus(b, "VmHWM")
	codes := map[int]int{}
	for _, r := range rs {
		codes[r.Status]++
	}
	b.ReportMetric(before/1024, "rss-before-MiB")
	b.ReportMetric(peak/1024, "rss-peak-MiB")
	b.ReportMetric((peak-before)/1024, "rss-rise-MiB")
	b.ReportMetric(ms(wall), "wall-ms")
	for code, c := range codes {
		b.ReportMetric(float64(c), fmt.Sprintf("status-%d", code))
	}
	b.ReportMetric(0, "ns/op")
}

// procStatus reads a kB field of /proc/self/status.
func procStatus(b *testing.B, field string) float64 {
	b.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if ok && name == field {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb
		}
	}
	b.Fatalf("no %s in /proc/self/status", field)
	return 0
}
