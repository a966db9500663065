package documents_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/delivery"
	"primeur/core/documents/pdftest"
	"primeur/core/images"
)

// TestNoteOfAReception: the note of a delivery received on a phone says
// "Reçu le … par …", draws the signature, and lists the line received
// otherwise under "Réserves à la réception" (PRODUCT §16 "Reception").
func TestNoteOfAReception(t *testing.T) {
	s := newScene(t)
	drawn := image.NewNRGBA(image.Rect(0, 0, 300, 100))
	for x := 20; x < 280; x++ {
		drawn.Set(x, 50+x%20, color.Black)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, drawn); err != nil {
		t.Fatal(err)
	}
	signature, err := images.Process(ctx, "signature", buf.Bytes(), images.Signature)
	if err != nil {
		t.Fatal(err)
	}
	received, whole := 1000.0, 25.0
	reason, comment := "quality", "Tomates éclatées"
	typed := at(2026, 11, 26, 8, 55)
	if err := s.db.Tx(ctx, func(tx *sqlx.Tx) error {
		_, err := rules.Receive(ctx, tx, s.w.Shop.ID, s.order, s.planned, delivery.Reception{
			Key: "note-reception-key", By: "Léa Martin", At: &typed, Signature: &signature,
			Lines: []delivery.ReceivedLine{
				{ID: s.w.Line(s.planned, "tomate"), Received: &received, Reason: &reason, Comment: &comment},
				{ID: s.w.Line(s.planned, "courgette"), Received: &whole},
			},
		}, at(2026, 11, 26, 9, 0))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	pdf := s.note(t, s.planned)
	text := pdftest.Lines(t, pdf)
	// The two boxes stand side by side: their lines interleave.
	mustContain(t, text, "Réserves à la réception", "Tomate : reçu 1 000,00 kg sur 1 234,56 kg (qualité", "refusée) — Tomates éclatées",
		"Signature du destinataire", "Reçu le 26/11/2026 à 08h55 par Léa Martin",
		"Demande d'avoir", "envoyée le 26 novembre 2026 par le magasin à sa réception, en attente de la réponse du producteur")
	if strings.Contains(text, "Courgette : reçu") {
		t.Error("a line received whole is listed among the reserves")
	}
	if !bytes.Contains(pdf, []byte("/Subtype /Image")) {
		t.Error("the signature is not drawn")
	}
}
