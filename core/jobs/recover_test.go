package jobs_test

import (
	"primeur/core/documents/pdftest"

	"bytes"
	"errors"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"primeur/core/billing"
	"primeur/core/delivery"
	"primeur/core/documents"
	"primeur/core/jobs"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// heard counts what the jobs tell their Observer.
type heard struct {
	mu     sync.Mutex
	counts map[string]int
}

func (h *heard) observer() jobs.Observer {
	h.counts = map[string]int{}
	count := func(prefix string) func(string) {
		return func(s string) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.counts[prefix+" "+s]++
		}
	}
	return jobs.Observer{EmailSent: count("sent"), EmailFailed: count("failed"), EmailDropped: count("dropped"), PanicRecovered: count("panic")}
}

func (h *heard) get(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.counts[key]
}

// logs keeps a run's log lines.
type logs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// take returns the lines logged since the last call.
func (l *logs) take() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.buf.String()
	l.buf.Reset()
	return s
}

func (l *logs) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// TestHostileNamesAreEmailed: a producer named with an emoji and a shop
// whose name carries control characters and a line break get their
// delivery note and invoice by email, as before any name: the PDFs read the
// names in the documents' form, the subject stays one header and the body
// one line per sentence, the message goes to its two recipients only.
func TestHostileNamesAreEmailed(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		w.Exec(`UPDATE users SET name = ? WHERE id = ?`, "Ferme du Lac 🥕", w.Farm.ID)
		w.Exec(`UPDATE users SET name = ? WHERE id = ?`, "Épicerie\x1b[31m du Lac\r\nBcc: intrus@example.fr", w.Shop.ID)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		d := w.Delivery(o, "2026-11-20", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		e, srv := smtpEnv(t, db)
		var h heard
		e.Observe = h.observer()

		r := run(t, jobs.Deliveries, e, at(2026, 11, 20, 12, 30))
		if r.Get(jobs.Locked) != 1 || r.Get(jobs.NotesSent) != 1 {
			t.Fatalf("deliveries: %s", r)
		}
		if r := run(t, jobs.Invoices, e, at(2026, 12, 1, 6, 0)); r.Get(jobs.InvoicesIssued) != 1 || r.Get(jobs.InvoicesSent) != 1 {
			t.Fatalf("invoices: %s", r)
		}
		msgs := srv.Merged(t)
		if len(msgs) != 2 {
			t.Fatalf("%d messages", len(msgs))
		}
		note, invoice := msgs[0], msgs[1]
		if note.Header.Get("Message-Id") != "<note-"+d+"@primeur.local>" {
			note, invoice = invoice, note
		}
		for _, m := range msgs {
			// A note goes to both owners; an invoice also to the shop's accounting address.
			if m.Header.Get("Bcc") != "" || len(m.Envelope) < 2 || len(m.Envelope) > 3 || slices.Contains(m.Envelope, "intrus@example.fr") {
				t.Errorf("%q: headers %v, envelope %v", m.Subject, m.Header, m.Envelope)
			}
		}
		if !strings.Contains(note.Body, "La livraison du 20 novembre 2026 de Ferme du Lac 🥕 à Épicerie[31m du Lac Bcc: intrus@example.fr est validée") {
			t.Errorf("note body: %q", note.Body)
		}
		if invoice.Subject != "Facture FA-2026-000001 — Ferme du Lac 🥕 — novembre 2026" ||
			!strings.Contains(invoice.Body, "au nom et pour le compte de Ferme du Lac 🥕 (mandat de facturation), pour les livraisons de novembre 2026 à Épicerie[31m du Lac Bcc: intrus@example.fr.") {
			t.Errorf("invoice %q: %q", invoice.Subject, invoice.Body)
		}
		pdfAttachment(t, note, "BL-000001.pdf")
		pdfAttachment(t, invoice, "FA-2026-000001.pdf")
		for _, m := range msgs {
			text := pdftest.Text(t, m.Attachments[0].Data)
			if !strings.Contains(text, "Ferme du Lac �") || !strings.Contains(text, "Épicerie[31m du Lac Bcc: intrus@example.fr") {
				t.Errorf("%s reads: %s", m.Attachments[0].Name, text)
			}
		}
		if h.get("sent note") != 1 || h.get("sent invoice") != 1 || h.get("failed note")+h.get("failed invoice")+h.get("panic send note") != 0 {
			t.Errorf("observed %v", h.counts)
		}
	})
}

// attempts reads a delivery note's failed attempts.
func attempts(t *testing.T, db *store.DB, deliveryID string) int {
	t.Helper()
	var n int
	if err := store.Get(ctx, db, &n, `SELECT COALESCE(SUM(attempts), 0) FROM sends WHERE message_key = ?`, "note-"+deliveryID); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestARenderingPanicIsRecoveredRetriedThenLeftForAnAdministrator makes
// the rendering of one delivery note out of three panic (through
// Env.Render): each run recovers it, logs it with its stack, counts a
// failed attempt and sends the two others; the next runs retry it, the
// third failure leaves it for an administrator with one Error line; runs
// then leave it alone, and --retry-failed (RetryFailed) gives it back.
func TestARenderingPanicIsRecoveredRetriedThenLeftForAnAdministrator(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		var ids []string
		for _, day := range []string{"2026-11-10", "2026-11-11", "2026-11-12"} {
			ids = append(ids, w.Delivery(o, day, orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000}))
		}
		bad := ids[1]
		e, srv := smtpEnv(t, db)
		var h heard
		var log logs
		e.Observe, e.Log = h.observer(), log.logger()
		var mu sync.Mutex
		broken := true
		e.Render.Note = func(n delivery.Note, r delivery.Rules) ([]byte, error) {
			mu.Lock()
			defer mu.Unlock()
			if broken && n.Delivery.ID == bad {
				var widths []int
				_ = widths[n.Delivery.Chrono+65535] // index out of range, as fpdf did
			}
			return documents.Note(n, r)
		}
		now := at(2026, 11, 20, 12, 0)

		for attempt := 1; attempt <= jobs.MaxAttempts; attempt++ {
			sent := 0 // the two others, at the first run
			if attempt == 1 {
				sent = 2
			}
			r, err := jobs.Deliveries(ctx, e, now)
			if err == nil || !strings.Contains(err.Error(), "panic") || r.Get(jobs.NotesSent) != sent {
				t.Fatalf("attempt %d: %s, %v", attempt, r, err)
			}
			if got := attempts(t, db, bad); got != attempt {
				t.Fatalf("attempt %d: %d attempts recorded", attempt, got)
			}
			if got := w.Get(bad); got.NoteSentAt != nil {
				t.Fatalf("attempt %d: note_sent_at %v", attempt, got.NoteSentAt)
			}
			var claim *string
			if err := store.Get(ctx, db, &claim, `SELECT claim FROM sends WHERE message_key = ?`, "note-"+bad); err != nil || claim != nil {
				t.Fatalf("attempt %d: claim %v, %v", attempt, claim, err)
			}
			out := log.take()
			if !strings.Contains(out, `level=ERROR msg="panic recovered" where="send note" panic="runtime error: index out of range`) ||
				!strings.Contains(out, "runtime/debug.Stack") {
				t.Fatalf("attempt %d: log\n%s", attempt, out)
			}
			abandoned := regexp.MustCompile(`level=ERROR msg="jobs: email abandoned after 3 failed attempts; .*--retry-failed.*" document=BL-000002 kind=note id=` + bad)
			if got := len(abandoned.FindAllString(out, -1)); got != map[bool]int{true: 1, false: 0}[attempt == jobs.MaxAttempts] {
				t.Fatalf("attempt %d: %d abandon lines in\n%s", attempt, got, out)
			}
			if h.get("panic send note") != attempt || h.get("failed note") != attempt || h.get("sent note") != 2 {
				t.Fatalf("attempt %d: observed %v", attempt, h.counts)
			}
			now = now.Add(5 * time.Minute)
		}
		// Left for an administrator: runs pass it by, quietly, and say so.
		r, err := jobs.Deliveries(ctx, e, now)
		if err != nil || r.Get(jobs.NotesSent) != 0 || r.Get(jobs.Abandoned) != 1 ||
			!strings.Contains(r.String(), "envois abandonnés (à relancer par primeur jobs run deliveries --retry-failed) : 1") {
			t.Fatalf("after the last attempt: %s, %v", r, err)
		}
		if out := log.take(); strings.Contains(out, "level=ERROR") || attempts(t, db, bad) != jobs.MaxAttempts {
			t.Fatalf("after the last attempt: log\n%s", out)
		}
		if n := len(srv.Merged(t)); n != 2 {
			t.Fatalf("%d messages", n)
		}

		// The administrator fixes the cause and gives it back.
		mu.Lock()
		broken = false
		mu.Unlock()
		if notes, invoices, err := jobs.RetryFailed(ctx, db); err != nil || notes != 1 || invoices != 0 {
			t.Fatalf("retry failed: %d, %d, %v", notes, invoices, err)
		}
		if r := run(t, jobs.Deliveries, e, now); r.Get(jobs.NotesSent) != 1 || r.Get(jobs.Abandoned) != 0 {
			t.Fatalf("after --retry-failed: %s", r)
		}
		if got := w.Get(bad); got.NoteSentAt == nil {
			t.Fatal("not sent after --retry-failed")
		}
		if n := len(srv.Merged(t)); n != 3 {
			t.Fatalf("%d messages", n)
		}
	})
}

// TestWhatCountsAsAnAttempt: a document that cannot be rendered, or whose
// message is refused as invalid, counts an attempt; a mail server refusing
// it does not (retried without limit, as a server may come back).
func TestWhatCountsAsAnAttempt(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Emailed(o, "2026-11-10", tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		e, srv := smtpEnv(t, db)
		var h heard
		e.Observe = h.observer()
		mailAttempts := func() int {
			var n int
			if err := store.Get(ctx, db, &n, `SELECT COALESCE(SUM(attempts), 0) FROM sends WHERE kind = 'invoice'`); err != nil {
				t.Fatal(err)
			}
			return n
		}

		srv.SetFailure(errors.New("service unavailable"))
		if _, err := jobs.Invoices(ctx, e, at(2026, 12, 1, 6, 0)); err == nil || mailAttempts() != 0 {
			t.Fatalf("server failure: %v, %d attempts", err, mailAttempts())
		}
		srv.SetFailure(nil)

		e.Render.Invoice = func(billing.Invoice) ([]byte, error) { return nil, errors.New("documents: broken font") }
		if _, err := jobs.Invoices(ctx, e, at(2026, 12, 1, 6, 5)); err == nil || !strings.Contains(err.Error(), "broken font") || mailAttempts() != 1 {
			t.Fatalf("rendering error: %v, %d attempts", err, mailAttempts())
		}
		e.Render.Invoice = nil

		// An address the mail package refuses, yet confirmed (only a broken
		// row can hold one).
		w.Exec(`UPDATE people SET email = 'pas une adresse', email_key = 'pas une adresse', email_confirmed = 'pas une adresse' WHERE id = ?`, w.Shop.ID)
		if _, err := jobs.Invoices(ctx, e, at(2026, 12, 1, 6, 10)); err == nil || mailAttempts() != 2 {
			t.Fatalf("invalid recipient: %v, %d attempts", err, mailAttempts())
		}
		if h.get("failed invoice") != 3 || h.get("sent invoice") != 0 || len(srv.Merged(t)) != 0 {
			t.Fatalf("observed %v", h.counts)
		}
	})
}
