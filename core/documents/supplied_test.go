package documents_test

import (
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/billing"
	"primeur/core/delivery"
	"primeur/core/documents"
	"primeur/core/documents/pdftest"
	"primeur/core/facturx/facturxtest"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/supplied"
	"primeur/core/trade"
	"primeur/core/trade/tradetest"
)

// TestSuppliedProductOnDocuments: a shop plans tomme in kg, the dairy
// proposes its own product, a 1.5 kg piece with the AOP label, the shop
// accepts; the delivery notes and the invoice name the product with its
// sale unit and label, the quantities in kg (the type's unit), and the
// invoice passes the Factur-X EN 16931 validators (issue 39, PRODUCT §3
// "Producers' products"). Both engines.
func TestSuppliedProductOnDocuments(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		var tomme supplied.Product
		need := w.Need(w.Shop.ID, "tomme-de-savoie", "2026-11-01", 1200)
		agreed := tradetest.Accepted("2026-11-01")
		if err := db.Tx(ctx, func(tx *sqlx.Tx) (err error) {
			tomme, err = supplied.Create(ctx, tx, w.Farm.ID, supplied.Input{Type: "tomme-de-savoie",
				Name: "Tomme de Savoie fermière", Packaging: "pièce", UnitQuantity: 1.5, Labels: []string{"aop"},
				Months: []int{11}, RefPrice: 14.5}, agreed)
			if err != nil {
				return err
			}
			out, err := trade.Propose(ctx, tx, w.Farm, need, w.Farm.ID, trade.Offer{Quantity: 12, Price: 14.5, Product: &tomme.ID}, agreed)
			if err != nil {
				return err
			}
			if ps := out.Need.Proposals; len(ps) != 1 || ps[0].SuppliedProduct == nil || *ps[0].SuppliedProduct != tomme.ID {
				t.Errorf("the proposal names %+v", ps)
			}
			out, err = trade.Review(ctx, tx, w.Shop, need, w.Farm.ID, true, agreed)
			if err == nil && (out.Order == nil || out.Need.Proposals[0].SuppliedProduct == nil) {
				t.Errorf("the commitment %+v, order %+v", out.Need.Proposals, out.Order)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		const name = "Tomme de Savoie fermière (pièce de 1,5 kg) · AOP"

		run := tradetest.At(2026, 11, 30, 21, 0)
		if _, err := rules.LockDue(ctx, db, run); err != nil {
			t.Fatal(err)
		}
		ids, err := billing.Due(ctx, db, run, tradetest.Paris)
		if err != nil || len(ids) != 1 {
			t.Fatalf("due %v, %v", ids, err)
		}
		if _, err := billing.IssueDue(ctx, db, ids[0], run, tradetest.Paris); err != nil {
			t.Fatal(err)
		}
		inv, err := billing.ForOrder(ctx, db, ids[0])
		if err != nil {
			t.Fatal(err)
		}
		var kg int64
		for _, l := range inv.Lines {
			if l.Product != name || l.Unit != "kg" || l.ProductID != "tomme-de-savoie" {
				t.Errorf("invoice line %+v", l)
			}
			kg += int64(l.Quantity)
		}
		if kg != 1200 {
			t.Errorf("%d hundredths of kg billed, want 1200", kg)
		}
		pdf, err := documents.Invoice(inv)
		if err != nil {
			t.Fatal(err)
		}
		pdfName := string(db.Dialect) + "-supplied-" + documents.InvoiceFileName(inv.Number)
		facturxtest.Keep(t, pdfName, pdf)
		mustContain(t, pdftest.Lines(t, pdf), "Tomme de Savoie fermière (pièce de 1,5 kg)", "AOP", "kg")
		x, err := documents.InvoiceXML(inv)
		if err != nil || !strings.Contains(string(x), "<ram:Name>"+name+"</ram:Name>") || !strings.Contains(string(x), `unitCode="KGM"`) {
			t.Errorf("XML %v:\n%s", err, x)
		}

		var deliveryID string
		if err := store.Get(ctx, db, &deliveryID, `SELECT id FROM deliveries WHERE order_id = ? AND chrono = ?`,
			ids[0], inv.Notes[0].Chrono); err != nil {
			t.Fatal(err)
		}
		n, err := delivery.LoadNote(ctx, db, ids[0], deliveryID)
		if err != nil {
			t.Fatal(err)
		}
		if len(n.Lines) != 1 || n.Lines[0].Product != name || n.Lines[0].Unit != "kg" {
			t.Fatalf("note lines %+v", n.Lines)
		}
		notePDF, err := documents.Note(n, rules)
		if err != nil {
			t.Fatal(err)
		}
		// The note's narrower column wraps the name.
		mustContain(t, pdftest.Lines(t, notePDF), "Tomme de Savoie fermière (pièce", "de 1,5 kg) · AOP")
		if db.Dialect == store.SQLite { // the validators take seconds: the same document on both engines
			facturxtest.ValidateBytes(t, map[string][]byte{pdfName: pdf})
		}
	})
}
