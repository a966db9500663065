package documents_test

import (
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/billing"
	"primeur/core/delivery"
	"primeur/core/documents"
	"primeur/core/documents/pdftest"
	"primeur/core/facturx/facturxtest"
	"primeur/core/orders"
	"primeur/core/trade/tradetest"
)

// TestSettlementStatesItsReason: the invoice of November is issued on
// 1 December; the producer then claims, within two working days of their
// delivery, on two deliveries it billed — one claimed down (a réfaction
// for quality on one line, a quantity missing on another), one claimed up
// (a crate more than noted) — and the shop accepts both after the invoice.
// Each answer is settled at once by a credit note or a complementary
// invoice that states the delivery note it corrects and, per line, its
// reason with the producer's comment, on the page and in the Factur-X XML
// (validated); the reason is the one stored at issue, whatever happens to
// the delivery line afterwards.
func TestSettlementStatesItsReason(t *testing.T) {
	s := newScene(t)
	s.lockPlanned(t)
	w := s.w
	friday := w.Delivery(s.order, "2026-11-27", orders.Done,
		tradetest.L{Product: "tomate", Price: 250, Expected: 1200, Sent: tradetest.Dec(1000)})
	monday := w.Delivery(s.order, "2026-11-30", orders.Done,
		tradetest.L{Product: "tomate", Price: 250, Expected: 12000, Sent: tradetest.Dec(11550)},
		tradetest.L{Product: "laitue", Price: 90, Expected: 4000, Sent: tradetest.Dec(4000)})
	inv := issue(t, s.db, s.order)

	claim := func(id string, at time.Time, lines ...delivery.LineClaim) {
		t.Helper()
		for i := range lines {
			lines[i].ID = w.Line(id, lines[i].ID)
		}
		if err := s.db.Tx(ctx, func(tx *sqlx.Tx) error {
			_, err := rules.SendClaim(ctx, tx, w.Farm.ID, s.order, id, delivery.Claim{Lines: lines}, at)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	accept := func(id string, at time.Time) []billing.Invoice {
		t.Helper()
		var docs []billing.Invoice
		if err := s.db.Tx(ctx, func(tx *sqlx.Tx) error {
			if _, err := rules.Review(ctx, tx, w.Shop.ID, s.order, id, true, at); err != nil {
				return err
			}
			var err error
			docs, err = billing.SettleOrder(ctx, tx, s.order, at, tradetest.Paris)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return docs
	}
	f := func(v float64) *float64 { return &v }
	str := func(v string) *string { return &v }
	claim(monday, at(2026, 12, 1, 10, 0),
		delivery.LineClaim{ID: "tomate", QuantityClaimed: f(-2.5), ClaimType: str("quality"), ClaimComment: str("  Tomates éclatées ")},
		delivery.LineClaim{ID: "laitue", QuantityClaimed: f(-2), ClaimType: str("quantity"), ClaimComment: str("deux laitues manquantes")})
	// Friday's window closes on Tuesday 1 December at midnight.
	claim(friday, at(2026, 12, 1, 23, 0),
		delivery.LineClaim{ID: "tomate", QuantityClaimed: f(1), ClaimType: str("quantity"), ClaimComment: str("une caisse livrée en plus")})
	credit := accept(monday, at(2026, 12, 2, 9, 0))
	complement := accept(friday, at(2026, 12, 3, 9, 0))
	if len(credit) != 1 || credit[0].Kind != billing.KindCredit || len(complement) != 1 || complement[0].Kind != billing.KindComplement {
		t.Fatalf("settled %+v, %+v", credit, complement)
	}

	// What is stored is what was claimed, comment trimmed; the delivery
	// line changed afterwards (as no operation does) changes nothing.
	w.Exec(`UPDATE delivery_lines SET claim_comment = 'autre chose', claim_type = 'quantity' WHERE delivery_id = ?`, monday)
	docs := map[string][]byte{}
	read := func(id string) (billing.Invoice, string, string) {
		t.Helper()
		doc, err := billing.GetCredit(ctx, s.db, id)
		if err != nil {
			t.Fatal(err)
		}
		pdf, err := documents.Invoice(doc)
		if err != nil {
			t.Fatal(err)
		}
		pdfA(t, pdf, doc.Number)
		facturxtest.Keep(t, documents.InvoiceFileName(doc.Number), pdf)
		docs[documents.InvoiceFileName(doc.Number)] = pdf
		x, err := documents.InvoiceXML(doc)
		if err != nil {
			t.Fatal(err)
		}
		return doc, pdftest.Lines(t, pdf), string(x)
	}

	c, text, x := read(credit[0].ID)
	if c.Lines[0].Product != "Laitue" || c.Lines[0].ClaimType != "quantity" || c.Lines[0].ClaimComment != "deux laitues manquantes" ||
		c.Lines[1].Product != "Tomate" || c.Lines[1].ClaimType != "quality" || c.Lines[1].ClaimComment != "Tomates éclatées" {
		t.Fatalf("stored reasons %+v", c.Lines)
	}
	// (pdftotext reads the no-break spaces inside the quotes as spaces.)
	mustContain(t, text,
		"Avoir", c.Number, "Facture corrigée : "+inv.Number+" du 1er décembre 2026",
		"Bon de livraison corrigé : BL-000005 du 30 novembre 2026",
		"Motif — Laitue : correction de quantité : quantité livrée inférieure au bon de livraison — « deux laitues manquantes »",
		"Motif — Tomate : réfaction pour défaut de qualité — « Tomates éclatées »")
	for _, want := range []string{
		"<ram:Content>BL-000005 du 2026-11-30 — Motif : réfaction pour défaut de qualité — «\u00a0Tomates éclatées\u00a0»</ram:Content>",
		"<ram:SubjectCode>ACD</ram:SubjectCode>",
		"Correction du bon de livraison BL-000005 du 30 novembre 2026. Motif : Laitue : correction de quantité",
		"<ram:IssuerAssignedID>BL-000005</ram:IssuerAssignedID>", // BT-16, the despatch advice
	} {
		if !strings.Contains(x, want) {
			t.Errorf("credit note XML without %s", want)
		}
	}
	if strings.Contains(text, "remise") || strings.Contains(text, "rabais") {
		t.Error("a credit note of fresh produce reads as a rebate")
	}

	c, text, x = read(complement[0].ID)
	mustContain(t, text,
		"Facture complémentaire", c.Number, "Bon de livraison corrigé : BL-000004 du 27 novembre 2026",
		"Motif : correction de quantité : quantité livrée supérieure au bon de livraison — « une caisse livrée en plus »")
	if !strings.Contains(x, "Correction du bon de livraison BL-000004 du 27 novembre 2026. Motif : correction de quantité : quantité livrée supérieure") {
		t.Errorf("complementary invoice XML without its reason:\n%s", x)
	}
	facturxtest.ValidateBytes(t, docs)
}
