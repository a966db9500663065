package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"primeur/core/mail/mailtest"
	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// answer is what a client read: the status, the Retry-After header and
// the problem's detail.
type answer struct {
	what       string
	status     int
	retryAfter string
	detail     string
	body       string
}

// call sends a JSON request (no body when body is nil) and reads the
// answer; a transport error fails the test.
func (c *client) call(method, path string, body any) answer {
	c.t.Helper()
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, c.base+path, r)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Errorf("%s %s: %v", method, path, err)
		return answer{what: method + " " + path}
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	var p struct {
		Detail string `json:"detail"`
	}
	_ = json.Unmarshal(data, &p)
	return answer{what: method + " " + path, status: res.StatusCode, retryAfter: res.Header.Get("Retry-After"),
		detail: p.Detail, body: string(data)}
}

// refusedForFault checks a fault's refusal: 503, Retry-After, the French
// message.
func refusedForFault(a answer) bool {
	return a.status == http.StatusServiceUnavailable && a.retryAfter != "" && a.detail == store.MsgFault
}

// healthOf reads /healthz: the status code, the state and the kinds of
// its reasons; a 503 without Retry-After fails the test.
func healthOf(t *testing.T, base string) (int, string, string) {
	t.Helper()
	res, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatalf("/healthz: %v", err)
	}
	defer res.Body.Close()
	var h struct {
		Status  string `json:"status"`
		Reasons []struct {
			Kind    string `json:"kind"`
			Message string `json:"message"`
		} `json:"reasons"`
	}
	if err := json.NewDecoder(res.Body).Decode(&h); err != nil {
		t.Fatalf("/healthz: %v", err)
	}
	var kinds []string
	for _, r := range h.Reasons {
		if r.Message == "" {
			t.Fatalf("/healthz: a reason %q without message", r.Kind)
		}
		kinds = append(kinds, r.Kind)
	}
	if res.StatusCode == http.StatusServiceUnavailable && res.Header.Get("Retry-After") == "" {
		t.Fatal("/healthz: 503 without Retry-After")
	}
	return res.StatusCode, h.Status, strings.Join(kinds, ",")
}

// faultLines are the lines of p saying a run of job stopped for fault.
func faultLines(p *proc, job, fault string) int {
	return p.count(func(l string) bool {
		return hasMsg(l, "job stopped by a fault; its next run takes it up") && field(l, "job") == job && field(l, "fault") == fault
	})
}

// leftovers lists what a write cut short would leave in the outbox: its
// temporary files.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "outbox"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestDiskFull runs the daemon on a SQLite data directory on a small file
// system of its own (a tmpfs the test mounts: skipped, saying why, where
// it may not) and fills it:
//
//   - with the data directory full, every write answers 503 with
//     Retry-After and the French message, never 500, while reads go on;
//     /healthz answers 503 "degraded" with the reason "disk"; a daemon
//     started then runs its jobs: the invoices job, with work to write,
//     stops at the fault with one log line and issues nothing; no job
//     fails otherwise;
//   - with the data directory freed and the outbox (another small file
//     system) full, writes pass again and /healthz is ok; the invoices
//     job issues the month's invoices, fails to write their emails
//     (ENOSPC), says so in one line and releases each claim: no email is
//     half written, none is held;
//   - with the outbox freed, the next run emails every invoice, once and
//     whole; the database passes its integrity check and the invoices are
//     numbered without gap.
func TestDiskFull(t *testing.T) {
	t.Parallel()
	data := storetest.SmallDisk(t, "48m")
	outbox := storetest.SmallDisk(t, "8m")
	ctx := context.Background()
	if err := os.Symlink(outbox.Dir, filepath.Join(data.Dir, "outbox")); err != nil {
		t.Fatal(err)
	}
	b := base{name: "sqlite", dir: data.Dir}
	db, err := store.Open(ctx, "", filepath.Join(b.dir, "primeur.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := schema.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	b.db = db
	w := seed(t, db, shape{producers: 2, shops: 3, done: []string{"2026-11-05", "2026-11-19"}})

	// A daemon on the eve of the month's end: nothing of the invoices is
	// due yet.
	d1, url := serve(t, "daemon 1", b, "2026-11-30T07:00:00+01:00")
	d1.jobsDone("deliveries", "claims", "invoices", "reminders", "cutoff", "notifications", "purge")
	shop := register(t, url, "epicerie@example.fr", true)
	if a := shop.call("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-12", "quantity": 100}); a.status != http.StatusCreated {
		t.Fatalf("a need before the disk filled: %d %s", a.status, a.body)
	}
	if code, state, _ := healthOf(t, url); code != http.StatusOK || state != "ok" {
		t.Fatalf("/healthz before the disk filled: %d %s", code, state)
	}

	// 1. The data directory full: the WAL emptied, then the disk filled,
	// so that any write needs room.
	if _, err := db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	data.Fill(t)
	load := []struct {
		method, path string
		body         any
		write        bool
	}{
		{"GET", "/api/user", nil, false},
		{"GET", "/api/needs", nil, false},
		{"POST", "/api/needs", map[string]any{"product": "carotte", "date": "2026-12", "quantity": 5}, true},
		{"PUT", "/api/user", map[string]any{"tel": "0612345678"}, true},
		{"POST", "/auth/login", map[string]any{"email": "epicerie@example.fr", "password": password}, true},
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var wrong []answer
	refused := 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				l := load[i%len(load)]
				c := shop
				if l.path == "/auth/login" {
					c = &client{t: t, base: url, http: &http.Client{}}
				}
				a := c.call(l.method, l.path, l.body)
				mu.Lock()
				switch {
				case l.write && refusedForFault(a):
					refused++
				case !l.write && a.status == http.StatusOK:
				default:
					wrong = append(wrong, a)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(wrong) > 0 {
		t.Fatalf("on a full disk, %d answers were not a read's 200 nor a write's 503 with Retry-After and %q; the first: %s %d (Retry-After %q) %s",
			len(wrong), store.MsgFault, wrong[0].what, wrong[0].status, wrong[0].retryAfter, wrong[0].body)
	}
	if code, state, reasons := healthOf(t, url); code != http.StatusServiceUnavailable || state != "degraded" || reasons != "disk" {
		t.Fatalf("/healthz on a full disk: %d %s %s", code, state, reasons)
	}
	t.Logf("on a full disk: %d writes refused with 503, every read answered", refused)

	// A daemon started now, as of December: its jobs meet the full disk.
	// The invoices job has work to write and meets the fault; the others
	// (the deliveries are all done) may have nothing to write.
	d2, _ := serve(t, "daemon 2", b, december)
	d2.waitLine("the fault of job invoices", 0, func(l string) bool {
		return hasMsg(l, "job stopped by a fault; its next run takes it up") && field(l, "job") == "invoices"
	})
	if n := faultLines(d2, "invoices", string(store.DiskFull)); n != 1 {
		t.Fatalf("daemon 2: the invoices job said %d times it met a full disk, want once", n)
	}
	if n := d2.count(func(l string) bool { return hasMsg(l, "job failed") }); n != 0 {
		t.Fatalf("daemon 2: %d jobs failed other than for the fault", n)
	}
	if code := d2.term(); code != 0 {
		t.Fatalf("daemon 2 stopped with status %d", code)
	}
	if n := count(t, db, `SELECT COUNT(*) FROM documents WHERE kind = 'invoice'`); n != 0 {
		t.Fatalf("%d invoices issued on a full disk", n)
	}

	// 2. The data directory freed, the outbox full.
	data.Free(t)
	outbox.Fill(t)
	if a := shop.call("POST", "/api/needs", map[string]any{"product": "carotte", "date": "2026-12", "quantity": 5}); a.status != http.StatusCreated {
		t.Fatalf("a need once the disk was freed: %d %s", a.status, a.body)
	}
	if code, state, _ := healthOf(t, url); code != http.StatusOK || state != "ok" {
		t.Fatalf("/healthz once the disk was freed: %d %s", code, state)
	}
	d3, _ := serve(t, "daemon 3", b, december)
	d3.waitLine("the fault of job invoices", 0, func(l string) bool {
		return hasMsg(l, "job stopped by a fault; its next run takes it up") && field(l, "job") == "invoices"
	})
	if n := faultLines(d3, "invoices", string(store.DiskFull)); n != 1 {
		t.Fatalf("daemon 3: the invoices job said %d times it met a full outbox, want once", n)
	}
	if code := d3.term(); code != 0 {
		t.Fatalf("daemon 3 stopped with status %d", code)
	}
	invs := invoices(t, db)
	if len(invs) != len(w.orders) {
		t.Fatalf("%d invoices issued for %d orders", len(invs), len(w.orders))
	}
	checkNumbering(t, db, invs)
	for _, inv := range invs {
		if inv.SentAt.Valid || inv.Claim.Valid {
			t.Fatalf("invoice %s with a full outbox: sent %v, claim %v", inv.Number, inv.SentAt, inv.Claim)
		}
	}
	if files := leftovers(t, b.dir); len(files) > 0 {
		t.Fatalf("half-written emails in the outbox: %v", files)
	}
	for _, k := range outboxKeys(t, b.dir) {
		if strings.HasPrefix(k, "invoice-") {
			t.Fatalf("an invoice's email %s written to a full outbox", k)
		}
	}

	// 3. The outbox freed: the next run emails them.
	outbox.Free(t)
	cmd := start(t, "jobs run deliveries", append([]string{"jobs", "run", "deliveries", "--at", december, "--force"}, b.args()...)...)
	if code := cmd.wait(); code != 0 {
		t.Fatalf("jobs run deliveries: status %d", code)
	}
	integrity(t, b, db)
	invs = checkInvoices(t, db, w)
	if files := leftovers(t, b.dir); len(files) > 0 {
		t.Fatalf("half-written emails in the outbox: %v", files)
	}
	for _, inv := range invs {
		raw, err := os.ReadFile(filepath.Join(b.dir, "outbox", "invoice-"+inv.ID+".eml"))
		if err != nil {
			t.Fatal(err)
		}
		m := mailtest.Parse(t, raw)
		if len(m.Attachments) != 1 || m.Attachments[0].Name != inv.Number+".pdf" ||
			!bytes.HasSuffix(bytes.TrimSpace(m.Attachments[0].Data), []byte("%%EOF")) {
			t.Fatalf("the email of %s is not whole: %q, %d attachments", inv.Number, m.Subject, len(m.Attachments))
		}
	}
	if code := d1.term(); code != 0 {
		t.Fatalf("daemon 1 stopped with status %d", code)
	}
}

// TestDatabaseDown runs the daemon on a PostgreSQL database of the test's
// own, under load from several clients, and makes the database
// unreachable for two seconds — it refuses every connection and its
// sessions are ended, as in a restart, while the server the other tests
// use goes on: no answer is a 500, every refusal is a 503 with Retry-After
// and the French message, /healthz answers 503 "unavailable" with the
// reason "database" and Retry-After meanwhile; once the database is back,
// every request passes again without a restart.
func TestDatabaseDown(t *testing.T) {
	t.Parallel()
	if !strings.Contains(strings.Join(engines(t), ","), "postgres") {
		t.Skip(storetest.EnvURL + " is not set")
	}
	binary(t)
	d := storetest.NewDedicated(t)
	ctx := context.Background()
	db, err := store.Open(ctx, d.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := schema.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	b := base{name: "postgres", url: d.URL, dir: t.TempDir(), db: db}
	p, url := serve(t, "daemon", b, "2026-11-20T10:00:00+01:00")
	var shops []*client
	for i := range 4 {
		shops = append(shops, register(t, url, fmt.Sprintf("magasin%d@example.fr", i), true))
	}

	var (
		mu                sync.Mutex
		ok, refused       int
		wrong             []answer
		stop              = make(chan struct{})
		wg                sync.WaitGroup
		products          = []string{"tomate", "carotte", "pomme", "poire", "courgette"}
		healthDuring      []string
		outage, recovered = make(chan struct{}), make(chan struct{})
	)
	for i, c := range shops {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				var a answer
				switch n % 3 {
				case 0:
					a = c.call("GET", "/api/user", nil)
				case 1:
					a = c.call("POST", "/api/needs", map[string]any{"product": products[(i+n)%len(products)],
						"date": fmt.Sprintf("2027-%02d", 1+n%6), "quantity": 1 + n%50})
				default:
					a = c.call("GET", "/api/needs", nil)
				}
				mu.Lock()
				switch {
				case a.status >= 200 && a.status < 300, a.status == http.StatusConflict:
					ok++
				case refusedForFault(a):
					refused++
				default:
					wrong = append(wrong, a)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Add(1)
	go func() { // /healthz polled through the outage
		defer wg.Done()
		<-outage
		for {
			select {
			case <-recovered:
				return
			case <-time.After(100 * time.Millisecond):
			}
			code, state, reasons := healthOf(t, url)
			mu.Lock()
			healthDuring = append(healthDuring, fmt.Sprintf("%d %s %s", code, state, reasons))
			mu.Unlock()
		}
	}()

	time.Sleep(500 * time.Millisecond)
	restore := d.Cut(t)
	close(outage)
	time.Sleep(2 * time.Second)
	d.Terminate(t) // a session a request opened since, if any
	restore()
	close(recovered)
	time.Sleep(time.Second)
	close(stop)
	wg.Wait()

	if len(wrong) > 0 {
		t.Fatalf("%d answers neither passed nor were a 503 with Retry-After and %q; the first: %s %d (Retry-After %q) %s",
			len(wrong), store.MsgFault, wrong[0].what, wrong[0].status, wrong[0].retryAfter, wrong[0].body)
	}
	if refused == 0 {
		t.Fatal("no request was refused while the database was down: the outage did not bite")
	}
	unavailable := 0
	for _, h := range healthDuring {
		if h == "503 unavailable database" {
			unavailable++
		}
	}
	if unavailable == 0 {
		t.Fatalf("/healthz while the database was down: %v", healthDuring)
	}
	t.Logf("database down for 2 s: %d answers passed, %d refused with 503; /healthz %v", ok, refused, healthDuring)

	// Back: every kind of request passes, on the same daemon.
	for _, c := range shops {
		for _, a := range []answer{
			c.call("GET", "/api/user", nil),
			c.call("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2027-07", "quantity": 3}),
		} {
			if a.status != http.StatusOK && a.status != http.StatusCreated {
				t.Fatalf("after the outage, %s: %d %s", a.what, a.status, a.body)
			}
		}
	}
	if code, state, _ := healthOf(t, url); code != http.StatusOK || state != "ok" {
		t.Fatalf("/healthz after the outage: %d %s", code, state)
	}
	if n := p.count(func(l string) bool { return field(l, "status") == "500" }); n != 0 {
		t.Fatalf("the daemon logged %d answers 500", n)
	}
	if code := p.term(); code != 0 {
		t.Fatalf("the daemon stopped with status %d", code)
	}
}
