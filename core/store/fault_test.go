package store_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lib/pq"
	"github.com/lib/pq/pqerror"

	"primeur/core"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// faultCase is an error and the fault FaultOf must see in it.
type faultCase struct {
	name string
	err  error
	want store.Fault
}

// TestFaultOf classifies real errors of both engines and of the file
// system: the faults (disk full, database unreachable) and errors that
// are not (busy, constraint, not found, canceled, a text that only says
// "full").
func TestFaultOf(t *testing.T) {
	cases := []faultCase{
		{"nil", nil, store.NoFault},
		{"a text alone", errors.New("database or disk is full"), store.NoFault},
		{"not found", fmt.Errorf("x: %w", core.ErrNotFound), store.NoFault},
		{"no rows", sql.ErrNoRows, store.NoFault},
		{"canceled", fmt.Errorf("x: %w", context.Canceled), store.NoFault},
		{"deadline", context.DeadlineExceeded, store.NoFault},
		{"a connection database/sql gave up", fmt.Errorf("store: begin: %w", driver.ErrBadConn), store.DatabaseUnavailable},
		{"a transaction on a closed connection", sql.ErrConnDone, store.DatabaseUnavailable},
		{"a network error of no database", &net.OpError{Op: "dial", Net: "tcp",
			Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 2525}, Err: errors.New("connection refused")}, store.NoFault},
	}
	cases = append(cases, sqliteFaults(t)...)
	cases = append(cases, fileFaults(t)...)
	if os.Getenv(storetest.EnvURL) != "" {
		cases = append(cases, postgresFaults(t)...)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := store.FaultOf(c.err); got != c.want {
				t.Fatalf("FaultOf(%T %v) = %q, want %q", c.err, c.err, got, c.want)
			}
		})
	}
}

// sqliteFaults are SQLite's: SQLITE_FULL (a connection whose database may
// not grow: max_page_count, the error a full disk gives), busy and a
// constraint.
func sqliteFaults(t *testing.T) []faultCase {
	ctx := context.Background()
	db := storetest.SQLite(t)
	conn, err := db.Connx(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var pages int
	if err := conn.GetContext(ctx, &pages, `PRAGMA page_count`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, pages)); err != nil {
		t.Fatal(err)
	}
	_, full := conn.ExecContext(ctx, `INSERT INTO throttle (key, attempts, window_start, window_end) VALUES (?, 1, 0, 0)`,
		strings.Repeat("x", 64<<10))
	if full == nil {
		t.Fatal("a database at its max_page_count grew")
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA max_page_count = 4294967294`); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Exec(ctx, db, `INSERT INTO throttle (key, attempts, window_start, window_end) VALUES ('k', 1, 0, 0)`); err != nil {
		t.Fatal(err)
	}
	_, unique := store.Exec(ctx, db, `INSERT INTO throttle (key, attempts, window_start, window_end) VALUES ('k', 1, 0, 0)`)
	return []faultCase{
		{"sqlite full", fmt.Errorf("store: commit: %w", full), store.DiskFull},
		{"sqlite busy", sqliteBusy(t), store.NoFault},
		{"sqlite unique violation", unique, store.NoFault},
	}
}

// fileFaults are the errors of a file written on a full disk: /dev/full
// answers every write with ENOSPC.
func fileFaults(t *testing.T) []faultCase {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Logf("no /dev/full (%v): ENOSPC is left to the disk-full reliability test", err)
		return nil
	}
	defer f.Close()
	_, enospc := f.Write([]byte("message"))
	if enospc == nil {
		t.Fatal("a write to /dev/full succeeded")
	}
	_, missing := os.Open(filepath.Join(t.TempDir(), "none"))
	return []faultCase{
		{"a file write on a full disk", fmt.Errorf("mail: outbox: write note-1: %w", enospc), store.DiskFull},
		{"a missing file", missing, store.NoFault},
	}
}

// postgresFaults are PostgreSQL's, each made for real on a database of the
// test's own: refused (ALLOW_CONNECTIONS false), terminated in a
// transaction (57P01), connections refused and reset (through a proxy
// the test cuts), a database that cannot be opened; and the server's
// codes of a full disk and of too many connections.
func postgresFaults(t *testing.T) []faultCase {
	ctx := context.Background()
	var cases []faultCase

	d := storetest.NewDedicated(t)
	db, err := store.Open(ctx, d.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, `SELECT 1`); err != nil {
		t.Fatal(err)
	}
	restore := d.Cut(t)
	_, terminated := tx.ExecContext(ctx, `SELECT 1`)
	_ = tx.Rollback()
	var one int
	refused := store.Get(ctx, db, &one, `SELECT 1`)
	restore()
	if err := store.Get(ctx, db, &one, `SELECT 1`); err != nil {
		t.Fatalf("the database after it came back: %v", err)
	}
	_, unique := store.Exec(ctx, db, `CREATE TABLE u (k TEXT PRIMARY KEY); INSERT INTO u VALUES ('a'); INSERT INTO u VALUES ('a')`)
	cases = append(cases,
		faultCase{"postgres session terminated in a transaction", terminated, store.DatabaseUnavailable},
		faultCase{"postgres database not accepting connections", refused, store.DatabaseUnavailable},
		faultCase{"postgres unique violation", unique, store.NoFault},
	)

	p := newProxy(t, d.URL)
	viaProxy, err := store.Open(ctx, p.url, "")
	if err != nil {
		t.Fatal(err)
	}
	// Open while its errors are classified: a network error is the
	// database's when it names the server of an open one.
	t.Cleanup(func() { viaProxy.Close() })
	reset := make(chan error, 1)
	go func() { reset <- store.Get(ctx, viaProxy, &one, `SELECT 1 FROM pg_sleep(30)`) }()
	waitActive(t, db, `SELECT 1 FROM pg_sleep(30)`)
	p.cut()
	cases = append(cases, faultCase{"postgres connection reset mid-query", <-reset, store.DatabaseUnavailable})
	cases = append(cases, faultCase{"postgres connection refused", store.Get(ctx, viaProxy, &one, `SELECT 1`), store.DatabaseUnavailable})
	_, openRefused := store.Open(ctx, p.url, "")
	cases = append(cases, faultCase{"postgres refused at open", openRefused, store.DatabaseUnavailable})

	for _, c := range []struct {
		code, severity string
		want           store.Fault
	}{
		{"53100", "ERROR", store.DiskFull},            // disk_full
		{"53300", "FATAL", store.DatabaseUnavailable}, // too_many_connections
		{"57P03", "FATAL", store.DatabaseUnavailable}, // cannot_connect_now
		{"57P01", "ERROR", store.DatabaseUnavailable}, // admin_shutdown, were it not fatal
		{"08006", "ERROR", store.DatabaseUnavailable}, // connection_failure
		{"40001", "ERROR", store.NoFault},             // serialization_failure: busy
		{"22P02", "ERROR", store.NoFault},             // invalid_text_representation
	} {
		cases = append(cases, faultCase{"postgres " + c.code, fmt.Errorf("x: %w", &pq.Error{Code: pqerror.Code(c.code), Severity: c.severity}), c.want})
	}
	return cases
}

// proxy forwards TCP connections to a PostgreSQL server until cut: then
// its port refuses connections and the connections it carried are reset.
type proxy struct {
	url string
	ln  net.Listener

	mu    sync.Mutex
	conns []net.Conn
}

// newProxy listens on a free port of the loopback and forwards to the
// server of target; its url is target's through the proxy.
func newProxy(t *testing.T, target string) *proxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	server := u.Host
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u.Host = ln.Addr().String()
	p := &proxy{url: u.String(), ln: ln}
	t.Cleanup(p.cut)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", server)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, s)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(s, c); s.Close() }()
			go func() { _, _ = io.Copy(c, s); c.Close() }()
		}
	}()
	return p
}

// waitActive waits until a session of db's server runs query.
func waitActive(t *testing.T, db *store.DB, query string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		var n int
		if err := store.Get(context.Background(), db, &n,
			`SELECT COUNT(*) FROM pg_stat_activity WHERE state = 'active' AND query = ?`, query); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no session runs %s", query)
		}
	}
}

// cut closes the port and resets every connection carried.
func (p *proxy) cut() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetLinger(0) // a reset, not an orderly close
		}
		c.Close()
	}
	p.conns = nil
}
