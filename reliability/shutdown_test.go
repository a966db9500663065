package reliability

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"primeur/core/mail/mailtest"
)

// TestGracefulStopDrainsRequestsInFlight starts an upload on a real daemon
// over a raw connection, sends SIGTERM while the daemon is reading its
// body, checks that new connections are then refused while the upload is
// still open, sends the rest of the body, and checks that the upload gets
// its normal answer (the import applied in full), and that the daemon then
// exits with status 0 (within its drain window: past it, the daemon exits
// with an error).
//
// In-flight signal: the request carries "Expect: 100-continue", so the
// daemon answers "100 Continue" only once the handler, past the session
// check, starts reading the body. The listener-closed signal is the
// daemon's own log line "listener closed, draining requests in flight",
// written once its listener is closed.
func TestGracefulStopDrainsRequestsInFlight(t *testing.T) {
	t.Parallel()
	for _, engine := range engines(t) {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			b, db := newBase(t, engine)
			// good.xlsx has 35 cells from 2027-01, future months for this clock, of
			// catalogue products (its kumquats and physalis are since migration 48).
			d, base := serve(t, "daemon", b, "2026-12-10T10:00:00+01:00")
			shop := register(t, base, "epicerie@example.fr", true)
			u, _ := url.Parse(base)
			var cookies []string
			for _, c := range shop.http.Jar.Cookies(u) {
				cookies = append(cookies, c.Name+"="+c.Value)
			}
			file, err := os.ReadFile(filepath.Join("..", "testdata", "xlsx", "good.xlsx"))
			if err != nil {
				t.Fatal(err)
			}
			contentType, body := multipartFile("besoins.xlsx", file)

			conn, err := net.Dial("tcp", u.Host)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(deadline))
			fmt.Fprintf(conn, "POST /api/needs-loader HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\nContent-Type: %s\r\n"+
				"Content-Length: %d\r\nExpect: 100-continue\r\n\r\n", u.Host, strings.Join(cookies, "; "), contentType, len(body))
			r := bufio.NewReader(conn)
			status, err := r.ReadString('\n')
			if err != nil || !strings.HasPrefix(status, "HTTP/1.1 100 ") {
				t.Fatalf("before the body: %q %v", status, err)
			}
			if blank, err := r.ReadString('\n'); err != nil || blank != "\r\n" {
				t.Fatalf("after 100 Continue: %q %v", blank, err)
			}
			// The handler is reading the body: send half of it, then stop the
			// daemon.
			half := len(body) / 2
			if _, err := conn.Write(body[:half]); err != nil {
				t.Fatal(err)
			}
			if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			d.waitMsg("listener closed, draining requests in flight")
			if c, err := net.Dial("tcp", u.Host); err == nil {
				c.Close()
				t.Fatal("a new connection was accepted after the stop signal")
			} else if !errors.Is(err, syscall.ECONNREFUSED) {
				t.Fatalf("new connection: %v, want connection refused", err)
			}
			if _, err := conn.Write(body[half:]); err != nil {
				t.Fatalf("the rest of the body: %v", err)
			}
			res, err := http.ReadResponse(r, nil)
			if err != nil {
				t.Fatalf("the answer to the upload in flight: %v", err)
			}
			data, _ := io.ReadAll(res.Body)
			res.Body.Close()
			var out importResult
			if res.StatusCode != http.StatusOK || json.Unmarshal(data, &out) != nil || out.DBSuccesses != 35 {
				t.Fatalf("the upload in flight: %d %s", res.StatusCode, data)
			}
			if code := d.wait(); code != 0 {
				t.Fatalf("the daemon exited with status %d", code)
			}
			d.waitMsg("stopped")
			var shopID string
			if err := db.Get(&shopID, db.Rebind(`SELECT id FROM users WHERE email_key = ?`), "epicerie@example.fr"); err != nil {
				t.Fatal(err)
			}
			if n := count(t, db, `SELECT COUNT(*) FROM needs WHERE distributor_id = ?`, shopID); n != 35 {
				t.Fatalf("%d needs stored by the upload in flight", n)
			}
		})
	}
}

// TestStopDoesNotWaitForAStuckJob stops the daemon while a job is stuck in
// an SMTP exchange (the test's server holds the message unanswered; the
// mail client gives up only after its own 30 s timeout, whatever the
// job's context says): the daemon must close its listener at once — new
// connections refused while the job is still stuck — and, once the server
// answers, finish the job's sends in flight, record them, leave no claim
// behind, and exit with status 0.
func TestStopDoesNotWaitForAStuckJob(t *testing.T) {
	t.Parallel()
	b, db := newBase(t, "sqlite")
	srv := mailtest.Start(t, "", "")
	tr := transport{name: "smtp", smtp: srv}
	seed(t, db, shape{producers: 1, shops: 6, done: []string{"2026-11-05"}})
	release := srv.Hold()
	t.Cleanup(release)
	d, base := serve(t, "daemon", b, december, tr.args()...)
	until(t, "a message held by the mail server", func() bool { return srv.Held() > 0 })

	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	d.waitMsg("listener closed, draining requests in flight")
	u, _ := url.Parse(base)
	if c, err := net.Dial("tcp", u.Host); err == nil {
		c.Close()
		t.Fatal("a new connection was accepted after the stop signal")
	} else if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("new connection: %v, want connection refused", err)
	}
	// The listener closed while the job was stuck, without waiting for the
	// scheduler to give up on it (what "scheduler shutdown" reports).
	if n := d.count(func(l string) bool { return hasMsg(l, "job done") && field(l, "job") == "invoices" }); n != 0 || srv.Held() == 0 {
		t.Fatal("the invoices job ended before the listener closed: the check proves nothing")
	}
	if n := d.count(func(l string) bool { return hasMsg(l, "scheduler shutdown") }); n != 0 {
		t.Fatal("the listener closed only after the scheduler gave up waiting for the stuck job")
	}
	release()
	if code := d.wait(); code != 0 {
		t.Fatalf("the daemon exited with status %d", code)
	}
	d.waitMsg("stopped")
	sent := messageCounts(srv)
	for _, inv := range invoices(t, db) {
		switch {
		case inv.SentAt.Valid && sent["invoice-"+inv.ID] == 1:
		case !inv.SentAt.Valid && !inv.Claim.Valid && sent["invoice-"+inv.ID] == 0:
		default:
			t.Fatalf("invoice %s: sent at %v, claim %v, %d messages", inv.Number, inv.SentAt, inv.Claim, sent["invoice-"+inv.ID])
		}
	}
}
