package daemon_test

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"slices"
	"testing"

	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

// healthJSON is the answer of /healthz.
type healthJSON struct {
	Status  string `json:"status"`
	Reasons []struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"reasons"`
}

// expectHealth checks /healthz: the status code, the state, the kinds of
// its reasons, each with a message, and Retry-After on a 503.
func expectHealth(t *testing.T, s *daemontest.Server, code int, state string, kinds ...string) {
	t.Helper()
	res := s.Client().Do("GET", "/healthz", nil).Expect(t, code)
	var h healthJSON
	res.JSON(t, &h)
	got := []string{}
	for _, r := range h.Reasons {
		if r.Message == "" {
			t.Errorf("/healthz: a reason %s without message", r.Kind)
		}
		got = append(got, r.Kind)
	}
	if h.Status != state || !slices.Equal(got, append([]string{}, kinds...)) {
		t.Fatalf("/healthz: %s, want %s with reasons %v", res.Body, state, kinds)
	}
	if (code == http.StatusServiceUnavailable) != (res.Header.Get("Retry-After") != "") {
		t.Fatalf("/healthz %d with Retry-After %q", code, res.Header.Get("Retry-After"))
	}
}

// faults reads primeur_faults_total{fault=f}.
func faults(t *testing.T, s *daemontest.Server, f store.Fault) float64 {
	t.Helper()
	m := sample(scrape(t, s), "primeur_faults_total", map[string]string{"fault": string(f)})
	if m == nil {
		t.Fatalf("no primeur_faults_total{fault=%q}", f)
	}
	return m.GetCounter().GetValue()
}

// TestDiskFullAnswers503: with the SQLite data directory on a full disk,
// every write — through a huma operation, the session, a login or a
// registration, an upload — answers 503 with Retry-After and the French
// store.MsgFault and changes nothing; reads go on; /healthz says
// "degraded" for the disk; /metrics counts the faults. Once space is
// freed, writes pass again and the database is intact.
func TestDiskFullAnswers503(t *testing.T) {
	t.Parallel()
	disk := storetest.SmallDisk(t, "16m")
	ctx := context.Background()
	db, err := store.Open(ctx, "", filepath.Join(disk.Dir, "primeur.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := schema.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	s := daemontest.New(t, db, func(o *daemon.Options) { o.Config.DataDir = disk.Dir })
	shop, _ := s.Register("shop@example.fr", "Épicerie", true)
	shop.Do("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-12", "quantity": 100}).Expect(t, 201)
	expectHealth(t, s, http.StatusOK, daemon.HealthOK)

	// The WAL emptied, then the disk filled: any write needs room.
	if _, err := db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	disk.Fill(t)
	expectHealth(t, s, http.StatusServiceUnavailable, daemon.HealthDegraded, "disk")
	shop.Do("GET", "/api/user", nil).Expect(t, http.StatusOK)
	shop.Do("GET", "/api/needs", nil).Expect(t, http.StatusOK)
	s.Client().Do("GET", "/public/other/products.csv", nil).Expect(t, http.StatusOK)

	full := func(name, method, path string, client *daemontest.Client, body any) daemontest.Refused {
		return daemontest.Refused{Name: name, Client: client, Method: method, Path: path, Body: body,
			Status: http.StatusServiceUnavailable, Detail: store.MsgFault}
	}
	before := faults(t, s, store.DiskFull)
	rows := []daemontest.Refused{
		full("a need", "POST", "/api/needs", shop, map[string]any{"product": "carotte", "date": "2026-12", "quantity": 5}),
		full("a profile", "PUT", "/api/user", shop, map[string]any{"tel": "0612345678"}),
		full("a login", "POST", "/auth/login", s.Client(), map[string]any{"email": "shop@example.fr", "password": daemontest.Password}),
		full("a registration", "POST", "/auth/register", s.Client(),
			map[string]any{"email": "new@example.fr", "password": daemontest.Password, "name": "Nouveau", "distributor": true}),
		{Name: "an import", Send: func() *daemontest.Response {
			return shop.Upload("/api/needs-loader", "importfile", "besoins.xlsx", xlsxFixture(t, "good.xlsx"))
		}, Status: http.StatusServiceUnavailable, Detail: store.MsgFault},
	}
	s.Refuses(t, rows)
	if got := faults(t, s, store.DiskFull) - before; got < float64(len(rows)) {
		t.Fatalf("primeur_faults_total{fault=disk_full} grew by %v for %d refusals", got, len(rows))
	}

	disk.Free(t)
	expectHealth(t, s, http.StatusOK, daemon.HealthOK)
	shop.Do("POST", "/api/needs", map[string]any{"product": "carotte", "date": "2026-12", "quantity": 5}).Expect(t, 201)
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Fatalf("integrity after the disk was freed: %v", err)
	}
}

// TestDatabaseDownAnswers503: while the PostgreSQL database refuses
// connections and its sessions are ended, every path — huma operations
// behind the session, a login, a registration, an upload, the documents,
// the public files, the export — answers 503 with Retry-After and the
// French store.MsgFault, never 500, and /healthz 503 "unavailable" with
// the reason "database"; /metrics counts the faults; once the database
// takes connections again, everything answers as before and nothing was
// written meanwhile.
func TestDatabaseDownAnswers503(t *testing.T) {
	t.Parallel()
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
	s := daemontest.New(t, db)
	shop, _ := s.Register("shop@example.fr", "Épicerie", true)
	shop.Do("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-12", "quantity": 100}).Expect(t, 201)
	before := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...)
	counted := faults(t, s, store.DatabaseUnavailable)

	restore := d.Cut(t)
	calls := []struct {
		name, method, path string
		client             *daemontest.Client
		body               any
		send               func() *daemontest.Response
	}{
		{name: "the user load", method: "GET", path: "/api/user", client: shop},
		{name: "a need", method: "POST", path: "/api/needs", client: shop,
			body: map[string]any{"product": "carotte", "date": "2026-12", "quantity": 5}},
		{name: "a login", method: "POST", path: "/auth/login", client: s.Client(),
			body: map[string]any{"email": "shop@example.fr", "password": daemontest.Password}},
		{name: "a registration", method: "POST", path: "/auth/register", client: s.Client(),
			body: map[string]any{"email": "new@example.fr", "password": daemontest.Password, "name": "Nouveau", "distributor": true}},
		{name: "an import", send: func() *daemontest.Response {
			return shop.Upload("/api/needs-loader", "importfile", "besoins.xlsx", xlsxFixture(t, "good.xlsx"))
		}},
		{name: "a document", method: "GET", path: "/print/delivery/o/d", client: shop},
		{name: "the export", method: "GET", path: "/print/mydata", client: shop},
		{name: "the catalogue", method: "GET", path: "/public/other/products.csv", client: s.Client()},
		{name: "the example file", method: "GET", path: "/public/other/exemple_import.xlsx", client: s.Client()},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			var res *daemontest.Response
			if c.send != nil {
				res = c.send()
			} else {
				res = c.client.Do(c.method, c.path, c.body)
			}
			var p daemontest.Problem
			_ = json.Unmarshal(res.Body, &p)
			if res.Status != http.StatusServiceUnavailable || p.Detail != store.MsgFault || res.Header.Get("Retry-After") == "" {
				t.Fatalf("%d (Retry-After %q): %s", res.Status, res.Header.Get("Retry-After"), res.Body)
			}
		})
	}
	expectHealth(t, s, http.StatusServiceUnavailable, daemon.HealthUnavailable, "database")
	restore()

	if got := faults(t, s, store.DatabaseUnavailable) - counted; got < float64(len(calls)) {
		t.Fatalf("primeur_faults_total{fault=database_unavailable} grew by %v for %d refusals", got, len(calls))
	}
	expectHealth(t, s, http.StatusOK, daemon.HealthOK)
	shop.Do("GET", "/api/user", nil).Expect(t, http.StatusOK)
	if after := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...); after != before {
		t.Fatalf("refused calls changed the database:\n%s", storetest.Changes(before, after))
	}
	shop.Do("POST", "/api/needs", map[string]any{"product": "carotte", "date": "2026-12", "quantity": 5}).Expect(t, 201)
}
