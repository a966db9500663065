//go:build unix

package daemon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon/daemontest"
)

// roundTripClients is the number of concurrent clients of the round-trip,
// as tools/loadbench loads it.
const roundTripClients = 16

// roundTrip is one client's negotiation: a producer corrects its
// commitment on a shop's need of next month, the shop accepts, again and
// again, between two quantities.
type roundTrip struct {
	need, producer string
	farm, shop     *http.Cookie
	quantities     [2]float64
	price          float64
	next           int
}

// BenchmarkProposalRoundTrip is the proposal round-trip of issue 20 in
// process: 16 goroutines, each a producer correcting its commitment on a
// shop's need of next month (PUT /api/proposals/{need}/{producer}) and the
// shop accepting it (PUT /api/proposalreview/{need}/{producer}), which
// re-plans the order's deliveries — through the daemon's whole handler
// (session, huma, JSON), without the network. One operation is one pair.
//
// It reports, besides the wall time per pair (ns/op, i.e. 1 / the pairs
// per second of all clients together), the CPU time of the process per
// pair (cpu-ns/op: steadier than wall time on a shared machine; without
// the PostgreSQL server's CPU) and the latency of one pair, p50 and p99,
// as a client sees it.
//
// The world: 4 shops and 16 producers (Monday and Thursday), each
// producer committed to one shop on two products this month and next, its
// orders planned by trade's operations (tradetest.Play; about 9 deliveries
// and 18 lines for next month, as the load bench's round-trip orders), the
// shops' needs of 60 products over 24 months. With PRIMEUR_BENCH_PLATFORM set (a SQLite data
// directory or a PostgreSQL URL seeded by `loadbench seed`), it runs on
// that platform instead, on 16 commitments of next month of 16 producers,
// at the load bench's clock; PRIMEUR_BENCH_SQL, with it, holds statements
// (separated by semicolons) run on the platform first: a schema
// experiment, such as dropping indexes.
//
//	go test ./daemon -run '^$' -bench ProposalRoundTrip -benchtime 2000x -cpuprofile cpu.out
func BenchmarkProposalRoundTrip(b *testing.B) {
	if where := os.Getenv("PRIMEUR_BENCH_PLATFORM"); where != "" {
		b.Run("platform", func(b *testing.B) {
			h, trips := platformTrips(b, where)
			benchRoundTrips(b, h, trips, nil)
		})
		return
	}
	engines := storetest.Engines()
	for _, engine := range engines {
		b.Run(engine.Name, func(b *testing.B) {
			db := engine.Open(b)
			h, trips := seedRoundTrips(b, db)
			benchRoundTrips(b, h, trips, db)
		})
	}
	// Through HTTP on loopback, as the load bench's clients (issue 42):
	// net/http's server and client, the connections kept alive, the
	// client asking for gzip as Go's does. The client's CPU is the
	// process's too; a profile tells them apart (the server's stacks
	// start at net/http.(*conn).serve).
	b.Run("sqlite-http", func(b *testing.B) {
		db := storetest.SQLite(b)
		h, trips := seedRoundTrips(b, db)
		benchRoundTrips(b, overHTTP(b, h), trips, db)
	})
}

// overHTTP serves h on a loopback listener and returns a handler that
// sends each request there with one shared client and answers with what
// came back, so the round-trip's requests pay what a real client's do.
func overHTTP(b *testing.B, h http.Handler) http.Handler {
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * roundTripClients}}
	b.Cleanup(client.CloseIdleConnections)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, err := http.NewRequestWithContext(r.Context(), r.Method, srv.URL+r.URL.RequestURI(), r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		req.Header = r.Header.Clone()
		resp, err := client.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body) // as the load bench's client
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(body)
	})
}

// benchRoundTrips runs b.N pairs over the clients of h, each client one
// goroutine with its own trip. With db, on SQLite, it also reports where a
// pair's time went (issue 42, "lock wait vs work"): the time its writes
// waited in line for the process's write lock (wait-ms/op, summed over
// the pair's two writes) and held it (held-ms/op: their transactions'
// work, SQLite's commit included), and how many writes shared a commit
// (writes/commit, core/store/group.go); the rest of a pair's latency is
// the handler's work outside the lock (session, JSON, reads before the
// write) and, for a write whose commit is shared, the wait for it.
func benchRoundTrips(b *testing.B, h http.Handler, trips []*roundTrip, db *store.DB) {
	for _, t := range trips { // each need to its first quantity
		if err := t.pair(h); err != nil {
			b.Fatal(err)
		}
	}
	var (
		left  atomic.Int64
		mu    sync.Mutex
		lats  []time.Duration
		first error
	)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime(b)
	var writer store.WriterTime
	if db != nil {
		writer = db.WriterTime()
	}
	start := time.Now()
	left.Store(int64(b.N))
	var wg sync.WaitGroup
	for _, t := range trips {
		wg.Go(func() {
			own := make([]time.Duration, 0, b.N/len(trips)+1)
			for left.Add(-1) >= 0 {
				at := time.Now()
				err := t.pair(h)
				own = append(own, time.Since(at))
				if err != nil {
					mu.Lock()
					first = cmpError(first, err)
					mu.Unlock()
					break
				}
			}
			mu.Lock()
			lats = append(lats, own...)
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	used := cpuTime(b) - cpu
	b.StopTimer()
	if first != nil {
		b.Fatal(first)
	}
	slices.Sort(lats)
	q := func(p float64) float64 {
		return float64(lats[min(len(lats)-1, int(math.Ceil(p*float64(len(lats))))-1)]) / 1e6
	}
	b.ReportMetric(float64(used)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "pairs/s")
	if db != nil && db.Dialect == store.SQLite {
		w := db.WriterTime().Sub(writer)
		b.ReportMetric(float64(w.Waited)/1e6/float64(b.N), "wait-ms/op")
		b.ReportMetric(float64(w.Held)/1e6/float64(b.N), "held-ms/op")
		if w.Commits > 0 {
			b.ReportMetric(float64(w.Turns)/float64(w.Commits), "writes/commit")
		}
	}
}

func cmpError(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// pair runs one round-trip: the producer's correction, the shop's
// acceptance.
func (t *roundTrip) pair(h http.Handler) error {
	path := "/" + t.need + "/" + t.producer
	q := t.quantities[t.next%2]
	t.next++
	if err := put(h, "/api/proposals"+path, t.farm, map[string]float64{"quantity": q, "price": t.price}); err != nil {
		return err
	}
	return put(h, "/api/proposalreview"+path, t.shop, map[string]bool{"accepted": true})
}

func put(h http.Handler, path string, cookie *http.Cookie, body any) error {
	data, _ := json.Marshal(body)
	// A context that ends, as net/http gives every request (the drivers
	// watch such a context for each statement; httptest's never ends).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req := httptest.NewRequestWithContext(ctx, http.MethodPut, path, bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/json")
	req.AddCookie(cookie)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		return fmt.Errorf("PUT %s: %d %s", path, rec.Code, rec.Body)
	}
	return nil
}

// seedRoundTrips writes the benchmark's world on db and returns the
// daemon's handler and the trips, logged in.
func seedRoundTrips(b testing.TB, db *store.DB) (http.Handler, []*roundTrip) {
	b.Helper()
	ctx := context.Background()
	s := daemontest.New(b, db)
	now := s.Clock.Now()
	rules := delivery.RulesOf(s.Config)
	hash, err := accounts.HashPassword(ctx, daemontest.Password)
	if err != nil {
		b.Fatal(err)
	}
	const shops, months = 4, 24
	this := calendar.MonthOf(now)
	next := this.AddMonths(1).String()
	type farm struct{ id, email, shop, need, product string }
	var farms []farm
	var shopIDs []string
	var qty [2]decimal.Dec
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		user := func(id, kind, name, days string) error {
			return accounts.Insert(ctx, tx, accounts.User{ID: id, Type: kind, Email: id + "@bench.fr", EmailKey: id + "@bench.fr",
				Name: name, PasswordHash: hash, SIRET: "12345678200010", TVAIntracom: "FR11123456782",
				IBAN: "FR7630006000011234567890189", BIC: "AGRIFRPP882", AddressLine1: "1 rue du Marché",
				AddressLine2: "74000 Annecy", DeliveryDays: days})
		}
		products, err := catalog.All(ctx, tx)
		if err != nil {
			return err
		}
		var batch tradetest.Batch
		for k := range shops {
			id := fmt.Sprintf("rt-shop%d", k)
			if err := user(id, accounts.Distributor, fmt.Sprintf("Magasin %d", k), "0000000"); err != nil {
				return err
			}
			shopIDs = append(shopIDs, id)
			for _, p := range products {
				for m := range months {
					batch.Needs = append(batch.Needs, planning.Need{DistributorID: id, ProductID: p.ID,
						Month: this.AddMonths(m - 12).String(), Quantity: 100_00, CreatedAt: now.AddDate(-1, 0, 0).UnixMilli(),
						UpdatedAt: now.AddDate(-1, 0, 0).UnixMilli()})
				}
			}
		}
		kg := slices.DeleteFunc(slices.Clone(products), func(p catalog.Product) bool { return p.Unit != catalog.Kg })
		qty = [2]decimal.Dec{54_00, 60_00}
		for i := range roundTripClients {
			f := farm{id: fmt.Sprintf("rt-farm%02d", i), shop: shopIDs[i%shops]}
			f.email = f.id + "@bench.fr"
			if err := user(f.id, accounts.Producer, fmt.Sprintf("Ferme %d", i), "1001000"); err != nil {
				return err
			}
			// Two products of its own per shop: producers i, i+4, … share
			// a shop.
			a, c := kg[2*(i/shops)], kg[2*(i/shops)+1]
			f.product = a.ID
			for _, month := range []string{this.String(), next} {
				at := now.AddDate(0, 0, -1)
				if month == this.String() {
					at = this.Start(rules.Location).Add(9 * time.Hour)
				}
				batch.Agreements = append(batch.Agreements, tradetest.Agreement{
					ProducerID: f.id, ShopID: f.shop, Month: month, At: at,
					Commitments: []tradetest.Commitment{{ProductID: a.ID, Quantity: qty[1], Price: 2_35}, {ProductID: c.ID, Quantity: 40_00, Price: 1_80}},
				})
			}
			farms = append(farms, f)
		}
		if _, err := tradetest.Play(ctx, tx, rules, batch); err != nil {
			return err
		}
		for i := range farms {
			if err := store.Get(ctx, tx, &farms[i].need, `SELECT id FROM needs WHERE distributor_id = ? AND product_id = ? AND month = ?`,
				farms[i].shop, farms[i].product, next); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	h := s.Daemon.Handler()
	cookies := map[string]*http.Cookie{}
	for _, id := range shopIDs {
		cookies[id] = sessionCookie(b, h, id+"@bench.fr")
	}
	var trips []*roundTrip
	for _, f := range farms {
		trips = append(trips, &roundTrip{need: f.need, producer: f.id, farm: sessionCookie(b, h, f.email), shop: cookies[f.shop],
			quantities: [2]float64{qty[0].Float(), qty[1].Float()}, price: 2.35})
	}
	return h, trips
}

// platformTrips opens a platform seeded by tools/loadbench and picks 16
// commitments of next month, of 16 producers, as the load bench does.
func platformTrips(b *testing.B, where string) (http.Handler, []*roundTrip) {
	b.Helper()
	ctx := context.Background()
	var (
		db  *store.DB
		err error
	)
	if strings.HasPrefix(where, "postgres://") {
		db, err = store.Open(ctx, where, "")
	} else {
		db, err = store.Open(ctx, "", filepath.Join(where, "primeur.db"))
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	// A schema experiment (docs/BENCHMARKS.md): statements run on the
	// platform first, each run of the benchmark (so idempotent, e.g.
	// DROP INDEX IF EXISTS …).
	if x := os.Getenv("PRIMEUR_BENCH_SQL"); x != "" {
		for _, q := range strings.Split(x, ";") {
			if strings.TrimSpace(q) == "" {
				continue
			}
			if _, err := db.ExecContext(ctx, q); err != nil {
				b.Fatal(q, err)
			}
		}
	}
	s := daemontest.New(b, db)
	s.Clock.Set(time.Date(2026, 11, 18, 9, 0, 0, 0, s.Config.Location))
	next := calendar.MonthOf(s.Clock.Now()).AddMonths(1).String()
	var rows []struct {
		Need     string      `db:"need_id"`
		Producer string      `db:"producer_id"`
		Farm     string      `db:"farm"`
		Shop     string      `db:"shop"`
		Quantity decimal.Dec `db:"quantity"`
		Price    decimal.Dec `db:"price"`
		Unit     string      `db:"unit"`
	}
	// Commitments without an open proposal beside them, of the shops
	// past the two the load bench measures.
	if err := store.Select(ctx, db, &rows, `SELECT p.need_id, p.producer_id, f.email AS farm, s.email AS shop, p.quantity, p.price, pr.unit
		FROM proposals p JOIN needs n ON n.id = p.need_id JOIN users f ON f.id = p.producer_id
		JOIN users s ON s.id = n.distributor_id JOIN products pr ON pr.id = n.product_id
		WHERE n.month = ? AND p.status = 'accepted' AND p.quantity > 200
		AND NOT EXISTS (SELECT 1 FROM proposals o WHERE o.need_id = p.need_id AND o.producer_id = p.producer_id AND o.status <> 'accepted')
		ORDER BY s.email, p.producer_id, n.product_id`, next); err != nil {
		b.Fatal(err)
	}
	h := s.Daemon.Handler()
	cookies := map[string]*http.Cookie{}
	cookie := func(email string) *http.Cookie {
		if cookies[email] == nil {
			cookies[email] = loginAs(b, h, email, "loadbench2026")
		}
		return cookies[email]
	}
	var trips []*roundTrip
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r.Producer] || strings.HasPrefix(r.Shop, "magasin-00-00@") || strings.HasPrefix(r.Shop, "magasin-00-01@") {
			continue
		}
		seen[r.Producer] = true
		step := decimal.Dec(100)
		if r.Unit == catalog.Kg {
			step = max(1, r.Quantity/10)
		}
		trips = append(trips, &roundTrip{need: r.Need, producer: r.Producer, farm: cookie(r.Farm), shop: cookie(r.Shop),
			quantities: [2]float64{(r.Quantity - step).Float(), r.Quantity.Float()}, price: r.Price.Float()})
		if len(trips) == roundTripClients {
			break
		}
	}
	if len(trips) < roundTripClients {
		b.Fatalf("the platform has %d commitments of next month to correct, want %d", len(trips), roundTripClients)
	}
	return h, trips
}
