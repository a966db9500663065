package mail

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestCopiesWrittenOnceAreGoMailsOwn: each copy of a message written once
// (render, writeTo) is byte for byte what go-mail writes for that copy —
// the message readdressed to its recipient alone and written again — a
// display name to encode and a folded To header included.
func TestCopiesWrittenOnceAreGoMailsOwn(t *testing.T) {
	pdf := bytes.Repeat([]byte("%PDF-1.7 \x00\x01\x02\xff"), 4096)
	long := "Épicerie coopérative du Lac et des Montagnes de Haute-Savoie rayon des fruits et légumes <epicerie@lac.fr>"
	for _, c := range []struct {
		name string
		to   []string
	}{
		{"one recipient", []string{"ferme@aravis.fr"}},
		{"three recipients", []string{"ferme@aravis.fr", "compta@lac.fr", "epicerie@lac.fr"}},
		{"names to encode and to fold", []string{"Ferme des Aravis <ferme@aravis.fr>", long}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := Message{Key: "invoice-abc", To: c.to, Subject: "Facture FA-2026-000001 — Ferme des Aravis — novembre 2026",
				Body: "Bonjour,\n\nVeuillez trouver ci-joint la facture. Montant TTC : 1 234,50 €.\n",
				Date: time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC),
				Attachments: []Attachment{{Name: "FA-2026-000001.pdf", ContentType: "application/pdf", Data: pdf},
					{Name: "factur-x.xml", ContentType: "text/xml", Data: []byte("<x>é</x>")}}}
			cs := copies(m)
			msg, err := build("Primeur <no-reply@primeur.local>", cs[0])
			if err != nil {
				t.Fatal(err)
			}
			r, err := render(msg)
			if err != nil {
				t.Fatal(err)
			}
			for _, cp := range cs {
				var got, want bytes.Buffer
				if err := r.writeTo(&got, cp.To); err != nil {
					t.Fatal(err)
				}
				if err := msg.To(cp.To...); err != nil {
					t.Fatal(err)
				}
				if _, err := msg.WriteTo(&want); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Fatalf("the copy to %s differs from go-mail's:\n%s\n---\n%s", cp.To[0], head(got.String()), head(want.String()))
				}
				if !strings.Contains(head(got.String()), "\r\nTo:") {
					t.Fatalf("no To header:\n%s", head(got.String()))
				}
			}
		})
	}
}

// head is a written message's header block.
func head(msg string) string {
	h, _, _ := strings.Cut(msg, "\r\n\r\n")
	return h
}
