package mail_test

import (
	"context"
	"errors"
	"mime"
	netmail "net/mail"
	"os"
	"path/filepath"
	"testing"

	"primeur/core/mail"
	"primeur/core/mail/mailtest"
)

// TestReplyTo: a message's Reply-To reaches every copy, over SMTP and in
// the outbox, a name in any script encoded; an address that is not one is
// refused as an error of the message, and nothing is sent.
func TestReplyTo(t *testing.T) {
	srv := mailtest.Start(t, "", "")
	outbox := mail.Outbox{Dir: t.TempDir(), From: "Primeur <no-reply@primeur.local>"}
	reply := (&netmail.Address{Name: "Ferme des Glières « Bio »", Address: "ferme@glieres.fr"}).String()
	m := message()
	m.ReplyTo = reply
	for name, s := range map[string]mail.Sender{"smtp": mail.SMTP{Config: srv.Config()}, "outbox": outbox} {
		if err := s.Send(context.Background(), m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	got := srv.Messages(t)
	for _, path := range []string{outbox.Path("note-abc"), filepath.Join(outbox.Dir, "note-abc.2.eml")} {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, mailtest.Parse(t, raw))
	}
	if len(got) != 4 {
		t.Fatalf("%d copies", len(got))
	}
	for i, c := range got {
		list, err := c.Header.AddressList("Reply-To")
		if err != nil || len(list) != 1 || list[0].Address != "ferme@glieres.fr" || list[0].Name != "Ferme des Glières « Bio »" {
			t.Errorf("copy %d: Reply-To %q (%v)", i, c.Header.Get("Reply-To"), err)
		}
		if from, _ := c.Header.AddressList("From"); len(from) != 1 || from[0].Address != "no-reply@primeur.local" {
			t.Errorf("copy %d: From %q", i, c.Header.Get("From"))
		}
	}
	// Without one, no header.
	if err := (mail.SMTP{Config: srv.Config()}).Send(context.Background(), message()); err != nil {
		t.Fatal(err)
	}
	if last := srv.Messages(t); last[len(last)-1].Header.Get("Reply-To") != "" {
		t.Error("a Reply-To nobody asked for")
	}

	before := len(srv.Messages(t))
	for _, bad := range []string{"ferme", "Ferme <ferme@glieres.fr", "a@b.fr\r\nBcc: x@y.fr", mime.QEncoding.Encode("utf-8", "é") + " <@>"} {
		m := message()
		m.ReplyTo = bad
		for name, s := range map[string]mail.Sender{"smtp": mail.SMTP{Config: srv.Config()}, "outbox": mail.Outbox{Dir: t.TempDir(), From: "no-reply@primeur.local"}} {
			if err := s.Send(context.Background(), m); !errors.Is(err, mail.ErrMessage) {
				t.Errorf("%s: Reply-To %q: %v, want an invalid message", name, bad, err)
			}
		}
	}
	if len(srv.Messages(t)) != before {
		t.Error("a message with an invalid Reply-To was sent")
	}
}
