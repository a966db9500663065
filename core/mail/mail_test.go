package mail_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"primeur/core/config"
	"primeur/core/mail"
	"primeur/core/mail/mailtest"
)

func message() mail.Message {
	return mail.Message{
		Key:     "note-abc",
		To:      []string{"ferme@aravis.fr", "epicerie@lac.fr"},
		Subject: "Bon de livraison BL-000012 du 20 novembre 2026",
		Body:    "Bonjour,\n\nVeuillez trouver ci-joint le bon de livraison. Élevé à 1 234,50 €.\n",
		Attachments: []mail.Attachment{
			{Name: "BL-000012.pdf", ContentType: "application/pdf", Data: []byte("%PDF-1.3 fake\x00\x01 bytes")},
		},
		Date: time.Date(2026, 11, 20, 12, 30, 0, 0, time.UTC),
	}
}

// check checks a copy of message() as to received it: addressed to it
// alone.
func check(t *testing.T, m mailtest.Message, to string) {
	t.Helper()
	want := message()
	if m.Subject != want.Subject {
		t.Errorf("subject %q", m.Subject)
	}
	if strings.Join(m.To, ",") != to {
		t.Errorf("to %v, want %s alone", m.To, to)
	}
	if m.Header.Get("Message-Id") != "<note-abc@primeur.local>" {
		t.Errorf("message id %q", m.Header.Get("Message-Id"))
	}
	if !strings.Contains(m.Body, "Élevé à 1 234,50 €") {
		t.Errorf("body %q", m.Body)
	}
	if len(m.Attachments) != 1 || m.Attachments[0].Name != "BL-000012.pdf" ||
		m.Attachments[0].ContentType != "application/pdf" || !bytes.Equal(m.Attachments[0].Data, want.Attachments[0].Data) {
		t.Errorf("attachments %+v", m.Attachments)
	}
}

func TestSMTP(t *testing.T) {
	srv := mailtest.Start(t, "primeur", "s3cret")
	s := mail.SMTP{Config: srv.Config()}
	if err := s.Send(context.Background(), message()); err != nil {
		t.Fatal(err)
	}
	// One copy per recipient, each addressed to it alone, one Message-ID.
	got := srv.Messages(t)
	if len(got) != 2 {
		t.Fatalf("%d messages", len(got))
	}
	for i, to := range []string{"ferme@aravis.fr", "epicerie@lac.fr"} {
		check(t, got[i], to)
		if strings.Join(got[i].Envelope, ",") != to {
			t.Errorf("envelope %v, want %s", got[i].Envelope, to)
		}
	}

	bad := srv.Config()
	bad.Password = "wrong"
	if err := (mail.SMTP{Config: bad}).Send(context.Background(), message()); err == nil {
		t.Fatal("wrong password accepted")
	}
	srv.SetFailure(errors.New("mailbox full"))
	if err := s.Send(context.Background(), message()); err == nil || !strings.Contains(err.Error(), "mailbox full") {
		t.Fatalf("refused message: %v", err)
	}
	if n := len(srv.Messages(t)); n != 2 {
		t.Fatalf("%d messages after failures", n)
	}
	// STARTTLS is required by default: this server offers none.
	strict := srv.Config()
	strict.TLS = config.TLSStartTLS
	srv.SetFailure(nil)
	if err := (mail.SMTP{Config: strict}).Send(context.Background(), message()); err == nil {
		t.Fatal("sent without TLS although starttls is required")
	}
}

func TestOutbox(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "outbox")
	o := mail.Outbox{Dir: dir, From: "Primeur <no-reply@primeur.local>"}
	for range 2 { // the same key twice keeps one file
		if err := o.Send(context.Background(), message()); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 2 || entries[0].Name() != "note-abc.2.eml" || entries[1].Name() != "note-abc.eml" {
		t.Fatalf("outbox = %v, %v", entries, err)
	}
	for key, to := range map[string]string{"note-abc": "ferme@aravis.fr", "note-abc.2": "epicerie@lac.fr"} {
		raw, err := os.ReadFile(o.Path(key))
		if err != nil {
			t.Fatal(err)
		}
		check(t, mailtest.Parse(t, raw), to)
	}
}

func TestRefusedMessages(t *testing.T) {
	o := mail.Outbox{Dir: t.TempDir(), From: "no-reply@primeur.local"}
	for _, m := range []mail.Message{
		{Key: "../escape", To: []string{"a@b.fr"}},
		{Key: "", To: []string{"a@b.fr"}},
		{Key: "ok"},
		{Key: "ok", To: []string{"not an address"}},
		{Key: "ok", To: []string{"a@b.fr", "not an address"}},
	} {
		if err := o.Send(context.Background(), m); err == nil || !errors.Is(err, mail.ErrMessage) {
			t.Errorf("%+v: %v, want an ErrMessage", m, err)
		}
	}
	if entries, err := os.ReadDir(o.Dir); err != nil || len(entries) != 0 {
		t.Errorf("a refused message wrote %v (%v)", entries, err)
	}
}

// TestHostileSubjects: a subject built from any name arrives as one line,
// whole, without a header of its own: no CR LF reaches the header.
func TestHostileSubjects(t *testing.T) {
	srv := mailtest.Start(t, "", "")
	s := mail.SMTP{Config: srv.Config()}
	for i, tt := range []struct{ subject, want string }{
		{"Facture — Ferme du Lac 🥕", "Facture — Ferme du Lac 🥕"},
		{"Facture — Ferme\r\nBcc: victime@example.fr", "Facture — Ferme Bcc: victime@example.fr"},
		{"Facture — Ferme\nX-Injected: 1\n\nbody", "Facture — Ferme X-Injected: 1  body"},
		{"Facture — \x1b[31mRouge\x00", "Facture — [31mRouge"},
		{"Facture — \u202egnp.exe \xff", "Facture — gnp.exe \ufffd"},
		{"Facture — مزرعة 湖 𝔘", "Facture — مزرعة 湖 𝔘"},
	} {
		m := message()
		m.Key = fmt.Sprintf("subject-%d", i)
		m.Subject = tt.subject
		m.To = m.To[:1]
		if err := s.Send(context.Background(), m); err != nil {
			t.Fatalf("%q: %v", tt.subject, err)
		}
		got := srv.Messages(t)[i]
		if got.Subject != tt.want || got.Header.Get("Bcc") != "" || got.Header.Get("X-Injected") != "" ||
			strings.Join(got.Envelope, ",") != "ferme@aravis.fr" {
			t.Errorf("subject %q arrived as %q, headers %v, envelope %v", tt.subject, got.Subject, got.Header, got.Envelope)
		}
	}
}

func TestNewChoosesOutboxWithoutHost(t *testing.T) {
	cfg := config.Defaults()
	cfg.DataDir = "/srv/primeur"
	if o, ok := mail.New(cfg).(mail.Outbox); !ok || o.Dir != "/srv/primeur/outbox" {
		t.Fatalf("without host: %#v", mail.New(cfg))
	}
	cfg.SMTP.Host = "smtp.example.org"
	if _, ok := mail.New(cfg).(mail.SMTP); !ok {
		t.Fatalf("with host: %#v", mail.New(cfg))
	}
}

// TestMessageIDOnTheSendersDomain: a Message-ID is on the domain of
// smtp.from, whatever its form; primeur.local only when it has none.
func TestMessageIDOnTheSendersDomain(t *testing.T) {
	for _, c := range []struct{ from, want string }{
		{"Primeur <factures@Exemple.FR>", "<note-abc@exemple.fr>"},
		{"no-reply@marche-local.fr", "<note-abc@marche-local.fr>"},
		{`"Primeur, Savoie" <no-reply@primeur.coop>`, "<note-abc@primeur.coop>"},
	} {
		dir := t.TempDir()
		o := mail.Outbox{Dir: dir, From: c.from}
		if err := o.Send(context.Background(), message()); err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(o.Path("note-abc"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(raw), "Message-ID: "+c.want+"\r\n") {
			t.Errorf("from %q: no Message-ID %s in\n%s", c.from, c.want, raw[:min(len(raw), 600)])
		}
	}
}

// TestHTMLAlternative: the HTML part says what the text says, escaped,
// with its paragraphs, lines and links.
func TestHTMLAlternative(t *testing.T) {
	got := mail.HTML("Bonjour,\n\nLa livraison de <Ferme & Fils> est validée.\nVoir https://primeur.example/dis/deliveries?x=1&y=2.\n\n\n-- \nPrimeur")
	for _, want := range []string{
		`<html lang="fr">`,
		"<p>Bonjour,</p>",
		"<p>La livraison de &lt;Ferme &amp; Fils&gt; est validée.<br>\nVoir " +
			`<a href="https://primeur.example/dis/deliveries?x=1&amp;y=2">https://primeur.example/dis/deliveries?x=1&amp;y=2</a>.</p>`,
		"<p>-- <br>\nPrimeur</p>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("HTML lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "<Ferme") {
		t.Errorf("unescaped text in\n%s", got)
	}
}

// TestLongSubjectsAreCut: a subject made of a very long name stays within
// mail.MaxSubject characters, cut with an ellipsis.
func TestLongSubjectsAreCut(t *testing.T) {
	m := message()
	m.Subject = "Facture FA-2026-000001 — " + strings.Repeat("Épicerie ", 60)
	srv := mailtest.Start(t, "", "")
	if err := (mail.SMTP{Config: srv.Config()}).Send(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	got := srv.Messages(t)[0].Subject
	if n := utf8.RuneCountInString(got); n != mail.MaxSubject || !strings.HasSuffix(got, "…") || !strings.HasPrefix(got, "Facture FA-2026-000001 — Épicerie") {
		t.Fatalf("subject of %d characters: %q", n, got)
	}
}

// TestOneCopyPerRecipient: recipients repeated in another case get one
// copy; a message without recipient is refused.
func TestOneCopyPerRecipient(t *testing.T) {
	srv := mailtest.Start(t, "", "")
	m := message()
	m.To = []string{"ferme@aravis.fr", "FERME@Aravis.fr ", "epicerie@lac.fr"}
	if err := (mail.SMTP{Config: srv.Config()}).Send(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	copies := srv.Copies()["<note-abc@primeur.local>"]
	if len(copies) != 2 || copies["ferme@aravis.fr"] != 1 || copies["epicerie@lac.fr"] != 1 {
		t.Fatalf("copies %v", copies)
	}
}

// BenchmarkOutboxSend writes an invoice's email — a 55 KB PDF attached, to
// two recipients — into the outbox: one operation is both copies.
func BenchmarkOutboxSend(b *testing.B) {
	o := mail.Outbox{Dir: filepath.Join(b.TempDir(), "outbox"), From: "no-reply@primeur.local"}
	m := message()
	pdf := make([]byte, 55<<10)
	for i := range pdf {
		pdf[i] = byte(i * 7919 >> 3)
	}
	m.Attachments[0].Data = pdf
	b.ReportAllocs()
	for b.Loop() {
		if err := o.Send(context.Background(), m); err != nil {
			b.Fatal(err)
		}
	}
}
