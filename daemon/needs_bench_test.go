//go:build unix

package daemon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

// Sizes of the benchmark world: a shop planning 150 products of the
// catalogue (the first by id of its several hundred) over 24 months, the
// window the user load covers (12 months back, 12 ahead).
const (
	benchProducts = 150
	benchMonths   = 24
)

// BenchmarkNeedsLoad measures what the planner screens load: the shop's user
// load (GET /api/user), its needs (GET /api/needs) and one shop's needs as a
// producer reads them (GET /api/needs?distributor=), for 150 products × 24
// months = 3,600 needs, a quarter of them committed and an eighth with a
// pending proposal. Requests go through the daemon's whole handler (session,
// security headers, huma, JSON) in process; the figures are the server's.
// SQLite always, PostgreSQL when PRIMEUR_TEST_DATABASE_URL is set.
//
// Besides wall time, each result reports cpu-ns/op: the CPU time (user +
// system) the test process spent per request, which stays meaningful on a
// machine shared with other work, where wall time mostly measures the wait
// for a core. It does not count the PostgreSQL server's own CPU.
//
//	go test ./daemon -run '^$' -bench BenchmarkNeedsLoad -benchmem
func BenchmarkNeedsLoad(b *testing.B) {
	engines := storetest.Engines()
	for _, engine := range engines {
		b.Run(engine.Name, func(b *testing.B) {
			db := engine.Open(b)
			s := daemontest.New(b, db)
			_, shopID := s.Register("shop@example.fr", "Épicerie", true)
			_, farmID := s.Producer("ferme@example.fr", "Ferme")
			needs := seedPlanner(b, db, shopID, farmID, s.Clock.Now())
			h := s.Daemon.Handler()
			shop := sessionCookie(b, h, "shop@example.fr")
			farm := sessionCookie(b, h, "ferme@example.fr")

			for _, bm := range []struct {
				name, path string
				cookie     *http.Cookie
				want       int
			}{
				// The user load carries no need since issue 42: each screen
				// reads its own (GET /api/needs).
				{"user", "/api/user", shop, 0},
				{"needs", "/api/needs", shop, needs},
				{"shop-needs-for-producer", "/api/needs?distributor=" + shopID, farm, needs},
			} {
				b.Run(bm.name, func(b *testing.B) {
					if got := countNeeds(b, serve(b, h, bm.path, bm.cookie)); got != bm.want {
						b.Fatalf("%s lists %d needs, want %d", bm.path, got, bm.want)
					}
					b.ReportAllocs()
					var size int
					cpu := cpuTime(b)
					for b.Loop() {
						size = len(serve(b, h, bm.path, bm.cookie))
					}
					b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
					b.ReportMetric(float64(size), "resp-bytes")
				})
			}
		})
	}
}

// needsClients is how many clients ask for the needs at once in
// BenchmarkNeedsLimit, as in issue 20's measurement; needsPhase is how
// many requests they make in each phase.
const (
	needsClients = 16
	needsPhase   = 64
)

// BenchmarkNeedsLimit measures GET /api/needs against its limit (issue
// 20: at least half the limit's requests per second): the shop's needs of
// BenchmarkNeedsLoad's world (3,600 needs, 1.2 MB of JSON) asked by 16
// clients at once through the daemon's whole handler, in process, and the
// same requests answered by the limit, a huma handler returning the same
// Go value built once (daemon.ConstantNeeds: the daemon's API config and
// the middlewares every answer goes through, compression included; not
// the session's lookup nor the reads). Each operation is one phase of 64
// requests on each, one after the other, so that both see the same
// machine; each answer's Accept-Encoding is the sub-benchmark's (identity;
// gzip, what Go's and most HTTP clients send; br, what a browser gets).
//
// A third phase runs the handler's reads alone (rawReads), from the same 16
// goroutines.
//
// Reported: needs-req/s and limit-req/s (requests per second of wall
// time, which on PostgreSQL includes the server's work), ratio (the first
// over the second: the goal is ≥ 0.5), needs-cpu-ms and limit-cpu-ms (the
// process's CPU time per request, without the PostgreSQL server's),
// cpu-ratio (the limit's CPU per request over the handler's), reads-cpu-ms
// (the reads alone) and floor-cpu-ratio (the limit's CPU over the limit's
// plus the reads': the best cpu-ratio these reads allow). ns/op is the
// time of the three phases and means nothing by itself.
//
//	go test ./daemon -run '^$' -bench BenchmarkNeedsLimit -benchtime 20x -count 3
func BenchmarkNeedsLimit(b *testing.B) {
	for _, engine := range storetest.Engines() {
		b.Run(engine.Name, func(b *testing.B) {
			db := engine.Open(b)
			s := daemontest.New(b, db)
			_, shopID := s.Register("shop@example.fr", "Épicerie", true)
			_, farmID := s.Producer("ferme@example.fr", "Ferme")
			seedPlanner(b, db, shopID, farmID, s.Clock.Now())
			h := s.Daemon.Handler()
			shop := sessionCookie(b, h, "shop@example.fr")
			value, err := planning.List(context.Background(), db, planning.Filter{DistributorID: shopID})
			if err != nil {
				b.Fatal(err)
			}
			limit := s.Daemon.ConstantNeeds(value)
			real, constant := serve(b, h, "/api/needs", shop), serve(b, limit, "/api/needs", shop)
			if !bytes.Equal(real, constant) {
				b.Fatalf("the limit answers %d bytes unlike the handler's %d", len(constant), len(real))
			}
			reads := rawReads(db, shopID)
			for _, accept := range []string{"identity", "gzip", "br"} {
				b.Run(accept, func(b *testing.B) {
					var needs, lim, raw phases
					for b.Loop() {
						needs.run(b, get(h, shop, accept))
						lim.run(b, get(limit, shop, accept))
						raw.run(b, reads)
					}
					b.ReportMetric(needs.perSecond(), "needs-req/s")
					b.ReportMetric(lim.perSecond(), "limit-req/s")
					b.ReportMetric(needs.perSecond()/lim.perSecond(), "ratio")
					b.ReportMetric(needs.cpuPerRequest(), "needs-cpu-ms")
					b.ReportMetric(lim.cpuPerRequest(), "limit-cpu-ms")
					b.ReportMetric(lim.cpuPerRequest()/needs.cpuPerRequest(), "cpu-ratio")
					b.ReportMetric(raw.cpuPerRequest(), "reads-cpu-ms")
					b.ReportMetric(lim.cpuPerRequest()/(lim.cpuPerRequest()+raw.cpuPerRequest()), "floor-cpu-ratio")
					b.ReportMetric(float64(len(real)), "resp-bytes")
				})
			}
		})
	}
}

// get is one GET /api/needs on h with the session cookie and the
// Accept-Encoding.
func get(h http.Handler, cookie *http.Cookie, accept string) func() error {
	return func() error {
		req := httptest.NewRequest(http.MethodGet, "/api/needs", nil)
		req.AddCookie(cookie)
		req.Header.Set("Accept-Encoding", accept)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || (accept != "identity" && rec.Header().Get("Content-Encoding") != accept) {
			return fmt.Errorf("GET /api/needs: %d, Content-Encoding %q", rec.Code, rec.Header().Get("Content-Encoding"))
		}
		return nil
	}
}

// rawReads are the reads GET /api/needs makes for a shop (planning.List's
// two queries: keep them in step), each row scanned into any and dropped:
// what reading the answer costs the engine and the driver alone, without
// the views, the session, huma or JSON. The limit's CPU plus theirs is
// the least the handler can cost with these reads (floor-cpu-ratio).
func rawReads(db *store.DB, shopID string) func() error {
	queries := []string{
		`SELECT n.id, n.product_id, n.month, n.quantity, n.updated_at FROM needs n
			WHERE n.distributor_id = ? ORDER BY n.month, n.product_id, n.id`,
		`SELECT p.id, p.need_id, p.producer_id, p.status, p.origin, p.quantity, p.price, p.created_at, p.updated_at
			FROM proposals p JOIN needs n ON n.id = p.need_id WHERE n.distributor_id = ?`,
	}
	read := func(q string) error {
		rows, err := db.QueryContext(context.Background(), db.Rebind(q), shopID)
		if err != nil {
			return err
		}
		defer rows.Close()
		cols, err := rows.Columns()
		if err != nil {
			return err
		}
		vals := make([]any, len(cols))
		dest := make([]any, len(cols))
		for i := range vals {
			dest[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(dest...); err != nil {
				return err
			}
		}
		return rows.Err()
	}
	return func() error {
		for _, q := range queries {
			if err := read(q); err != nil {
				return err
			}
		}
		return nil
	}
}

// phases adds up the phases of requests run on one handler.
type phases struct {
	requests int
	wall     time.Duration
	cpu      int64 // ns
}

// run makes needsPhase requests (calls of request) from needsClients
// goroutines, each taking the next request until they are all made.
func (p *phases) run(b *testing.B, request func() error) {
	var next atomic.Int64
	var failed atomic.Value
	var wg sync.WaitGroup
	start, cpu := time.Now(), cpuTime(b)
	for range needsClients {
		wg.Go(func() {
			for next.Add(1) <= needsPhase {
				if err := request(); err != nil {
					failed.Store(err)
				}
			}
		})
	}
	wg.Wait()
	p.cpu += cpuTime(b) - cpu
	p.wall += time.Since(start)
	p.requests += needsPhase
	if err := failed.Load(); err != nil {
		b.Fatal(err)
	}
}

func (p *phases) perSecond() float64 { return float64(p.requests) / p.wall.Seconds() }

func (p *phases) cpuPerRequest() float64 { return float64(p.cpu) / 1e6 / float64(p.requests) }

// seedPlanner adds the synthetic products and the shop's needs, with
// commitments and pending proposals of one producer, and returns the number
// of needs.
func seedPlanner(b *testing.B, db *store.DB, shopID, farmID string, now time.Time) int {
	b.Helper()
	ctx := context.Background()
	var products []string
	if err := db.Select(&products, db.Rebind(`SELECT id FROM products ORDER BY id LIMIT ?`), benchProducts); err != nil {
		b.Fatal(err)
	}
	if len(products) != benchProducts {
		b.Fatalf("%d products, want %d", len(products), benchProducts)
	}
	first := calendar.MonthOf(now).AddMonths(-12).String()
	cells := make([]planning.Cell, 0, len(products)*benchMonths)
	for _, p := range products {
		for m := range benchMonths {
			cells = append(cells, planning.Cell{ProductID: p, Month: calendar.AddMonthsTo(first, m), Quantity: decimal.Dec(100_00 + 25*m)})
		}
	}
	var res planning.Result
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		// Written as of the first month, so that none is refused as past.
		res, err = planning.Write(ctx, tx, shopID, cells, now.AddDate(0, -13, 0))
		if err != nil {
			return err
		}
		ms := now.UnixMilli()
		for i, n := range res.Needs {
			status := ""
			switch {
			case i%4 == 0:
				status = planning.StatusAccepted
			case i%8 == 1:
				status = planning.StatusProposed
			default:
				continue
			}
			if _, err := store.Exec(ctx, tx, `INSERT INTO proposals (id, need_id, producer_id, status, origin, quantity, price, created_at, updated_at)
				VALUES (?, ?, ?, ?, 'producer', ?, ?, ?, ?)`, core.NewID(), n.ID, farmID, status, decimal.Dec(40_00), decimal.Dec(1_80), ms, ms); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if len(res.Needs) != len(cells) {
		b.Fatalf("wrote %d needs of %d", len(res.Needs), len(cells))
	}
	return len(res.Needs)
}

// sessionCookie logs in through the handler and returns the session cookie.
func sessionCookie(b testing.TB, h http.Handler, email string) *http.Cookie {
	b.Helper()
	return loginAs(b, h, email, daemontest.Password)
}

// loginAs logs in with a password through the handler and returns the
// session cookie.
func loginAs(b testing.TB, h http.Handler, email, password string) *http.Cookie {
	b.Helper()
	body, _ := json.Marshal(map[string]string{"email": email, "password": password})
	req := httptest.NewRequest(http.MethodPost, "/auth/login", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Fatalf("login %s: %d %s", email, rec.Code, rec.Body)
	}
	for _, c := range rec.Result().Cookies() {
		if c.Value != "" {
			return c
		}
	}
	b.Fatalf("login %s: no session cookie", email)
	return nil
}

// serve runs one GET through the handler and returns the body of its 200.
func serve(b *testing.B, h http.Handler, path string, cookie *http.Cookie) []byte {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.AddCookie(cookie)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
	}
	return rec.Body.Bytes()
}

// countNeeds reads the needs of a user load or of a needs list.
func countNeeds(b *testing.B, body []byte) int {
	b.Helper()
	if bytes.HasPrefix(body, []byte("[")) {
		var list []json.RawMessage
		if err := json.Unmarshal(body, &list); err != nil {
			b.Fatal(err)
		}
		return len(list)
	}
	var load struct {
		Needs []json.RawMessage `json:"needs"`
	}
	if err := json.Unmarshal(body, &load); err != nil {
		b.Fatal(err)
	}
	return len(load.Needs)
}

// cpuTime is the CPU time (user + system) the process has used, in ns.
func cpuTime(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
