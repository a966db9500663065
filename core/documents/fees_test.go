package documents_test

import (
	"strings"
	"testing"

	"primeur/core/billing"
	"primeur/core/documents"
	"primeur/core/documents/pdftest"
	"primeur/core/facturx/facturxtest"
	"primeur/core/fees"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// TestDeliveryFeesOnTheInvoice: PRODUCT §16 "Minimum order and delivery
// fees". A producer charging 12 € a delivery, free from 150 € of goods,
// invoices a month of three deliveries: the first, 100 € of tomatoes
// (5.5 %) and 25 € of cider (20 %), carries a fee split in proportion of
// the goods at each rate (9,60 € at 5.5 %, 2,40 € at 20 %: two lines); the
// second, 200 € of tomatoes, none (free from 150 €); the producer then
// raises its fee to 20 € on the 20th, and the third, 25 € of tomatoes
// locked on the 25th, bears 20 € at 5.5 % (one line) while the first keeps
// the 12 € fixed at its lock: a change of terms applies to the deliveries
// locked after it only (issue 40). The fee lines name their delivery
// note, count in each rate's basis and VAT, and the invoice's PDF and
// Factur-X (lines of their own, each with its VAT category and rate) pass
// the Factur-X EN 16931 validators. Both engines.
func TestDeliveryFeesOnTheInvoice(t *testing.T) {
	docs := map[string][]byte{} // both engines' invoices, validated in one call (a Java start each)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		w.Exec(`INSERT INTO products (id, name, name_key, unit, share, ref_price, coefs, family_id, vat_rate)
			VALUES ('cidre-essai', 'Cidre fermier (essai)', 'cidre fermier essai', 'bouteille', 0, 0,
			'1,1,1,1,1,1,1,1,1,1,1,1', 'boissons', 2000)`)
		if _, err := fees.Set(ctx, db, w.Farm.ID, fees.Input{Fee: 12, FreeAbove: 150}, tradetest.At(2026, 11, 1, 9, 0)); err != nil {
			t.Fatal(err)
		}
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Delivery(o, "2026-11-04", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 4000},
			tradetest.L{Product: "cidre-essai", Price: 500, Expected: 500})
		w.Delivery(o, "2026-11-18", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 8000})
		// Mid-month, the producer raises its fee to 20 €: the deliveries
		// locked before keep the fee fixed at their lock, the next one
		// bears the new one (issue 40).
		if _, err := fees.Set(ctx, db, w.Farm.ID, fees.Input{Fee: 20, FreeAbove: 150}, tradetest.At(2026, 11, 20, 9, 0)); err != nil {
			t.Fatal(err)
		}
		w.Delivery(o, "2026-11-25", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})

		run := tradetest.At(2026, 11, 30, 21, 0)
		ids, err := billing.Due(ctx, db, run, tradetest.Paris)
		if err != nil || len(ids) != 1 {
			t.Fatalf("due %v, %v", ids, err)
		}
		if _, err := billing.IssueDue(ctx, db, ids[0], run, tradetest.Paris); err != nil {
			t.Fatal(err)
		}
		inv, err := billing.ForOrder(ctx, db, o)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range inv.Lines {
			if strings.HasPrefix(l.Product, billing.FeeLine) {
				got = append(got, l.Product+" "+billing.NoteNumber(l.Chrono)+" "+l.Amount.French()+" "+string(rune('0'+l.VATRate/1000)))
			}
		}
		first, third := billing.NoteNumber(inv.Notes[0].Chrono), billing.NoteNumber(inv.Notes[2].Chrono)
		want := []string{
			"Frais de livraison — TVA 5,5 % " + first + " 9,60 0",
			"Frais de livraison — TVA 20 % " + first + " 2,40 2",
			"Frais de livraison " + third + " 20,00 0",
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("fee lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// 5.5 %: 325 € of tomatoes and 29,60 € of fees, 19,50 € of VAT;
		// 20 %: 25 € of cider and 2,40 € of fee, 5,48 €.
		wantRates := []billing.RateTotal{{Rate: 550, Basis: 35460, VAT: 1950}, {Rate: 2000, Basis: 2740, VAT: 548}}
		if len(inv.Breakdown) != 2 || inv.Breakdown[0] != wantRates[0] || inv.Breakdown[1] != wantRates[1] ||
			inv.TotalHT != 38200 || inv.TotalVAT != 2498 || inv.TotalTTC != 40698 {
			t.Fatalf("breakdown %+v, totals %d %d %d", inv.Breakdown, inv.TotalHT, inv.TotalVAT, inv.TotalTTC)
		}

		pdf, err := documents.Invoice(inv)
		if err != nil {
			t.Fatal(err)
		}
		mustContain(t, pdftest.Lines(t, pdf), "Frais de livraison", "TVA 5,5 % sur 354,60 €", "TVA 20 % sur 27,40 €", "406,98 €")
		x, err := documents.InvoiceXML(inv)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"<ram:Name>Frais de livraison — TVA 20 %</ram:Name>", "<ram:LineTotalAmount>2.40</ram:LineTotalAmount>",
			"<ram:BasisAmount>354.60</ram:BasisAmount>", "<ram:CalculatedAmount>5.48</ram:CalculatedAmount>"} {
			if !strings.Contains(string(x), s) {
				t.Errorf("XML without %s", s)
			}
		}
		name := string(db.Dialect) + "-" + documents.InvoiceFileName(inv.Number)
		facturxtest.Keep(t, name, pdf)
		docs[name] = pdf
	})
	facturxtest.ValidateBytes(t, docs)
}
