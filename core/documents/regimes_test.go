package documents_test

import (
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/documents"
	"primeur/core/documents/pdftest"
	"primeur/core/facturx/facturxtest"
	"primeur/core/orders"
	"primeur/core/payments"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/core/vat"
)

// TestRegimesDatesAndEscompte: a month's invoices, issued by the run on
// its last day at 21:00, are dated within the month and due on or after
// their issue; each states its producer's VAT regime — VAT at 5.5 %, the
// franchise en base (category E) or the agricultural flat-rate refund
// (category O: no rate, no VAT number) —; a producer named with an
// article reads "des Jardins d'Alby"; the escompte a shop deducted within
// its window is granted by a credit note of kind discount, which settles
// the invoice. Every document passes the Factur-X validators.
func TestRegimesDatesAndEscompte(t *testing.T) {
	db := storetest.SQLite(t)
	w := tradetest.New(t, db)
	farm := func(email, name, tva, regime string) accounts.User {
		return w.User(accounts.User{Type: accounts.Producer, Email: email, Name: name, Legal: "EI", Capital: "1000",
			SIRET: "73282932000074", TVAIntracom: tva, VATRegime: regime, AddressLine1: "Chemin des Vergers",
			AddressLine2: "81990 Cambon", IBAN: "FR7630006000011234567890189", BIC: "AGRIFRPP882"})
	}
	alby := farm("jardins@alby.fr", "Les Jardins d'Alby", "", vat.Flat)
	micro := farm("micro@ferme.fr", "Micro-ferme du Lac", "", vat.Franchise)
	// The VAT-registered farm of the world grants 2 % for a payment within
	// 10 days, 5 days after the end of the month.
	w.Exec(`UPDATE users SET payment_basis = 'month', payment_days = 5, payment_discount = 200, payment_discount_days = 10 WHERE id = ?`, w.Farm.ID)
	order := func(f accounts.User) string {
		o := w.Order(f, w.Shop, "2026-11-01")
		w.Delivery(o, "2026-11-04", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 4000})
		w.Delivery(o, "2026-11-30", orders.Planned, tradetest.L{Product: "laitue", Price: 90, Expected: 1000})
		return o
	}
	flat, franchise, normal := order(alby), order(micro), order(w.Farm)

	// The run of 30 November at 21:00: the last deliveries locked first,
	// then every invoice issued that day.
	run := tradetest.At(2026, 11, 30, 21, 0)
	if _, err := rules.LockDue(ctx, db, run); err != nil {
		t.Fatal(err)
	}
	ids, err := billing.Due(ctx, db, run, tradetest.Paris)
	if err != nil || len(ids) != 3 {
		t.Fatalf("due %v, %v", ids, err)
	}
	for _, id := range ids {
		if _, err := billing.IssueDue(ctx, db, id, run, tradetest.Paris); err != nil {
			t.Fatal(err)
		}
	}
	docs := map[string][]byte{}
	read := func(inv billing.Invoice) (string, string) {
		t.Helper()
		pdf, err := documents.Invoice(inv)
		if err != nil {
			t.Fatal(err)
		}
		pdfA(t, pdf, inv.Number)
		facturxtest.Keep(t, inv.Seller.Name+"-"+documents.InvoiceFileName(inv.Number), pdf)
		docs[inv.Seller.Name+"-"+documents.InvoiceFileName(inv.Number)] = pdf
		x, err := documents.InvoiceXML(inv)
		if err != nil {
			t.Fatal(err)
		}
		return pdftest.Lines(t, pdf), string(x)
	}
	get := func(o string) billing.Invoice {
		inv, err := billing.ForOrder(ctx, db, o)
		if err != nil {
			t.Fatal(err)
		}
		if inv.IssueDate != "2026-11-30" || inv.DueDate < inv.IssueDate {
			t.Fatalf("%s issued %s, due %s", inv.Number, inv.IssueDate, inv.DueDate)
		}
		return inv
	}

	inv := get(flat)
	text, x := read(inv)
	if inv.VATRegime != vat.Flat || !inv.VATExempt || inv.TotalVAT != 0 || inv.DueDate != "2026-12-10" {
		t.Fatalf("flat-rate invoice %+v", inv)
	}
	mustContain(t, text, "Date d'émission : 30 novembre 2026", "Date d'échéance : 10 décembre 2026",
		"TVA non applicable (remboursement forfaitaire agricole)", vat.FlatMention,
		"Facture émise par Primeur au nom et pour le compte des Jardins d'Alby",
		"Primeur — facture "+inv.Number+" émise au nom des Jardins d'Alby")
	if strings.Contains(text, "293 B") || strings.Contains(text, "5,5 %") || strings.Contains(text, "EI au capital") {
		t.Error("a flat-rate invoice of a sole trader mentions 293 B, 5.5 % or a capital")
	}
	for _, want := range []string{"<ram:CategoryCode>O</ram:CategoryCode>", "<ram:ExemptionReason>" + vat.FlatReason} {
		if !strings.Contains(x, want) {
			t.Errorf("flat-rate XML without %s", want)
		}
	}
	if strings.Contains(x, "RateApplicablePercent") || strings.Contains(x, `schemeID="VA"`) {
		t.Error("flat-rate XML with a VAT rate or a VAT number (BR-O-02, BR-O-05)")
	}

	inv = get(franchise)
	text, x = read(inv)
	mustContain(t, text, vat.FranchiseMention, "au nom et pour le compte de Micro-ferme du Lac")
	if !strings.Contains(x, "<ram:CategoryCode>E</ram:CategoryCode>") || !strings.Contains(x, "VATEX-FR-FRANCHISE") {
		t.Error("franchise XML without category E and its VATEX code")
	}

	inv = get(normal)
	text, _ = read(inv)
	// 40 kg at 2,50 € and 10 lettuces at 0,90 €: 109,00 € HT, 6,00 € VAT
	// (5,995 rounded half away from zero). Due 5 December, the escompte's
	// window ends then: 2 % of 109 € is 2,18 € HT and 0,12 € of VAT, 2,30 €
	// off the 115,00 € due.
	if inv.TotalTTC != 11500 || inv.DueDate != "2026-12-05" || inv.Discount != 200 || inv.DiscountUntil != "2026-12-05" {
		t.Fatalf("invoice with an escompte %+v", inv)
	}
	mustContain(t, text, "TVA 5,5 %", "Escompte de 2 % pour un paiement reçu au plus tard le 5 décembre 2026")
	accs, err := payments.Accounts(ctx, db, w.Farm.ID, w.Shop.ID, "2026-12-01")
	if err != nil || len(accs) != 1 || accs[0].Documents[0].Discount != 230 || accs[0].Documents[0].DiscountUntil != "2026-12-05" {
		t.Fatalf("the escompte offered: %+v, %v", accs, err)
	}
	var paid payments.Payment
	if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		paid, err = payments.Record(ctx, tx, w.Farm, payments.Input{PartnerID: w.Shop.ID, Amount: 11500 - 230,
			PaidOn: "2026-12-04", Method: payments.Transfer}, tradetest.At(2026, 12, 4, 10, 0), "2026-12-04")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	cs, err := billing.Credits(ctx, db, normal, "", "")
	if err != nil || len(cs) != 1 || cs[0].Kind != billing.KindDiscount || cs[0].TotalHT != 218 || cs[0].TotalVAT != 12 ||
		cs[0].TotalTTC != 230 || cs[0].IssueDate != "2026-12-04" {
		t.Fatalf("the escompte's credit note %+v, %v", cs, err)
	}
	credit, err := billing.GetCredit(ctx, db, cs[0].ID)
	if err != nil || credit.PaymentID != paid.ID || credit.DeliveryID != "" {
		t.Fatalf("credit note %+v, %v", credit, err)
	}
	text, x = read(credit)
	mustContain(t, text, "Avoir", credit.Number, "Facture corrigée : "+inv.Number+" du 30 novembre 2026",
		"Escompte 2 %", // the cell wraps before "paiement anticipé"
		"Imputation : déduit du règlement de la facture "+inv.Number+", payée dans le délai de l'escompte",
		"Total TTC — montant de l'avoir", "2,30 €", "Pas d'escompte pour paiement anticipé.")
	if !strings.Contains(x, "<rsm:TypeCode>381</rsm:TypeCode>") && !strings.Contains(x, "<ram:TypeCode>381</ram:TypeCode>") {
		t.Error("the escompte's credit note is not of type 381")
	}
	accs, err = payments.Accounts(ctx, db, w.Farm.ID, w.Shop.ID, "2026-12-10")
	if err != nil || len(accs[0].Documents) != 2 || accs[0].Owed != 0 || accs[0].Overdue != 0 {
		t.Fatalf("after the escompte: %+v, %v", accs, err)
	}
	for _, d := range accs[0].Documents {
		if d.Kind == billing.KindInvoice && (d.Status != payments.Paid || d.Credited != 230 || d.Discount != 0) ||
			d.Kind == billing.KindDiscount && d.Status != payments.Imputed {
			t.Fatalf("after the escompte: %+v", d)
		}
	}
	facturxtest.ValidateBytes(t, docs)
}
