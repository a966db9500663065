package documents_test

import (
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/billing"
	"primeur/core/documents"
	"primeur/core/documents/pdftest"
	"primeur/core/facturx/facturxtest"
	"primeur/core/orders"
	"primeur/core/payments"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// TestMixedVATRates: an invoice of tomatoes (5.5 %) and cider (20 %, an
// alcoholic drink) carries each line at its product type's rate, one VAT
// breakdown row per rate with its VAT rounded once on the rate's basis —
// two ciders of 2,53 € are 1,01 € of VAT at 20 %, not the 1,02 € of a
// rounding per line —, the sum of the rates' VAT as its total; its PDF
// names each rate with its basis, its Factur-X has a breakdown row per
// rate and each line's rate; the escompte's credit note discounts each
// rate apart, one line per rate, and the shop's account deducts the same
// amount. Both documents pass the Factur-X EN 16931 validators. Both
// engines.
func TestMixedVATRates(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		w.Exec(`INSERT INTO products (id, name, name_key, unit, share, ref_price, coefs, family_id, vat_rate)
			VALUES ('cidre-essai', 'Cidre fermier (essai)', 'cidre fermier essai', 'bouteille', 0, 0,
			'1,1,1,1,1,1,1,1,1,1,1,1', 'boissons', 2000)`)
		w.Exec(`UPDATE users SET payment_basis = 'month', payment_days = 5, payment_discount = 200, payment_discount_days = 10 WHERE id = ?`, w.Farm.ID)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Delivery(o, "2026-11-04", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 4000},
			tradetest.L{Product: "cidre-essai", Price: 253, Expected: 100})
		w.Delivery(o, "2026-11-18", orders.Done, tradetest.L{Product: "cidre-essai", Price: 253, Expected: 100})

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
		inv, err := billing.ForOrder(ctx, db, o)
		if err != nil {
			t.Fatal(err)
		}
		want := []billing.RateTotal{{Rate: 550, Basis: 10000, VAT: 550}, {Rate: 2000, Basis: 506, VAT: 101}}
		if len(inv.Breakdown) != 2 || inv.Breakdown[0] != want[0] || inv.Breakdown[1] != want[1] ||
			inv.TotalHT != 10506 || inv.TotalVAT != 651 || inv.TotalTTC != 11157 || inv.VATRate != 2000 {
			t.Fatalf("breakdown %+v, totals %d %d %d, rate %d", inv.Breakdown, inv.TotalHT, inv.TotalVAT, inv.TotalTTC, inv.VATRate)
		}
		for _, l := range inv.Lines {
			if rate := map[string]int64{"tomate": 550, "cidre-essai": 2000}[l.ProductID]; l.VATRate != rate {
				t.Errorf("line %s at %d", l.ProductID, l.VATRate)
			}
		}
		docs := map[string][]byte{}
		read := func(d billing.Invoice) (string, string) {
			t.Helper()
			pdf, err := documents.Invoice(d)
			if err != nil {
				t.Fatal(err)
			}
			pdfA(t, pdf, d.Number)
			name := string(db.Dialect) + "-" + documents.InvoiceFileName(d.Number)
			facturxtest.Keep(t, name, pdf)
			docs[name] = pdf
			x, err := documents.InvoiceXML(d)
			if err != nil {
				t.Fatal(err)
			}
			return pdftest.Lines(t, pdf), string(x)
		}
		text, x := read(inv)
		mustContain(t, text, "Cidre fermier (essai)", "bout.", "20 %", "TVA 5,5 % sur 100,00 €", "5,50 €",
			"TVA 20 % sur 5,06 €", "1,01 €", "Total TVA", "6,51 €", "111,57 €")
		if n := strings.Count(x, "<ram:ApplicableTradeTax>"); n != 2+3 { // a row per rate, a rate per line
			t.Errorf("%d ApplicableTradeTax in the XML, want 5", n)
		}
		for _, s := range []string{"<ram:CalculatedAmount>5.50</ram:CalculatedAmount>", "<ram:BasisAmount>100.00</ram:BasisAmount>",
			"<ram:CalculatedAmount>1.01</ram:CalculatedAmount>", "<ram:BasisAmount>5.06</ram:BasisAmount>",
			"<ram:RateApplicablePercent>20.00</ram:RateApplicablePercent>", `unitCode="XBO"`} {
			if !strings.Contains(x, s) {
				t.Errorf("XML without %s", s)
			}
		}

		// 2 % off each rate's basis: 2,00 € HT and 0,11 € of VAT at
		// 5.5 %, 0,10 € HT and 0,02 € at 20 %: 2,23 € off the 111,57 €.
		accs, err := payments.Accounts(ctx, db, w.Farm.ID, w.Shop.ID, "2026-12-01")
		if err != nil || len(accs) != 1 || accs[0].Documents[0].Discount != 223 {
			t.Fatalf("the escompte offered: %+v, %v", accs, err)
		}
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			_, err := payments.Record(ctx, tx, w.Farm, payments.Input{PartnerID: w.Shop.ID, Amount: 11157 - 223,
				PaidOn: "2026-12-04", Method: payments.Transfer}, tradetest.At(2026, 12, 4, 10, 0), "2026-12-04")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		cs, err := billing.Credits(ctx, db, o, "", "")
		if err != nil || len(cs) != 1 || cs[0].Kind != billing.KindDiscount || cs[0].TotalTTC != 223 {
			t.Fatalf("the escompte's credit note %+v, %v", cs, err)
		}
		credit, err := billing.GetCredit(ctx, db, cs[0].ID)
		if err != nil || len(credit.Lines) != 2 || credit.Lines[0].VATRate != 550 || credit.Lines[0].Amount != 200 ||
			credit.Lines[1].VATRate != 2000 || credit.Lines[1].Amount != 10 || credit.TotalVAT != 13 {
			t.Fatalf("credit note %+v, %v", credit, err)
		}
		text, _ = read(credit)
		mustContain(t, text, "TVA 5,5 % sur 2,00 €", "TVA 20 % sur 0,10 €", "2,23 €")
		facturxtest.ValidateBytes(t, docs)
	})
}
