package documents_test

import (
	"strings"
	"testing"
	"time"

	"primeur/core/billing"
	"primeur/core/documents"
	"primeur/core/documents/pdftest"
	"primeur/core/payments"
	"primeur/core/vat"
)

// flatParties are a farmer under the flat-rate refund and a shop liable
// to VAT, as an invoice stores them.
func flatParties() (producer, shop billing.Party) {
	producer = billing.Party{Name: "Ferme du Coteau", Legal: "Exploitant agricole", Capital: "5000",
		Address: []string{"Chemin du Coteau", "74150 Rumilly"}, SIRET: "73282932000074", APE: "0113Z"}
	shop = billing.Party{Name: "Les Halles d'Annecy", Legal: "SARL", Capital: "8000",
		Address: []string{"3 quai de la Tournette", "74000 Annecy"}, BillingAddress: []string{"BP 42", "74001 Annecy Cedex"},
		SIRET: "98765432400019", TVA: "FR14987654324", APE: "4721Z"}
	return producer, shop
}

func flatSlip() payments.Slip {
	producer, shop := flatParties()
	p := payments.Payment{ID: "0190f2a3-b4c5-7d6e-8f90-3f9a1c2b7d4e", Amount: 6000, PaidOn: "2026-12-15",
		Method: payments.Transfer, Reference: "VIR 2026-12", Status: payments.Recorded}
	return payments.Slip{
		Number: payments.SlipNumber(p), Payment: p, Producer: producer, Shop: shop,
		Documents: []payments.SlipDocument{
			{Number: "FA-2026-000001", Kind: billing.KindInvoice, IssueDate: "2026-11-30", Total: 5900, Paid: 4900, Flat: true},
			{Number: "FA-2026-000002", Kind: billing.KindComplement, IssueDate: "2026-12-02", Total: 500, Paid: 500, Flat: true},
			{Number: "FA-2026-000003", Kind: billing.KindInvoice, IssueDate: "2026-10-31", Total: 300, Paid: 300},
		},
		Products: []payments.SlipProduct{
			{Product: "Laitue", Unit: "un", Quantity: 1000, Amount: 900, Rate: vat.FlatRateOther},
			{Product: "Tomate", Unit: "kg", Quantity: 1800, Amount: 4500, Rate: vat.FlatRateOther},
		},
		OnAccount: 300, Base: 5700,
		Rates:  []payments.RatePart{{Rate: vat.FlatRateOther, Base: 5700, Refund: 253}},
		Issued: time.Date(2026, 12, 15, 9, 30, 0, 0, time.UTC),
	}
}

// TestPurchaseSlip: the slip of a payment says who buys from whom (the
// shop's VAT number), its reference, date, method and amount, the nature
// of what it pays with quantities, the invoices it pays (one of another
// regime marked), what it left on account, the value under the refund
// and the mention of art. 265; a PDF/A-3b without Factur-X data, made
// the same whenever it is made.
func TestPurchaseSlip(t *testing.T) {
	s := flatSlip()
	pdf, err := documents.PurchaseSlip(s)
	if err != nil {
		t.Fatal(err)
	}
	again, err := documents.PurchaseSlip(s)
	if err != nil || string(again) != string(pdf) {
		t.Fatalf("not deterministic: %v", err)
	}
	pdfA(t, pdf, "")
	qpdfCheck(t, pdf)
	text := pdftest.Lines(t, pdf)
	golden(t, "purchase-slip", text, "ORDER-ID")
	// pdftotext reads a table's cells column by column: each is checked
	// whole, the order aside.
	mustContain(t, text, "Bulletin d'achat BA-20261215-3F9A1C2B7D4E", "Date du paiement : 15 décembre 2026",
		"Virement — référence VIR 2026-12", "Montant payé : 60,00 €", "Acheteur (redevable de la TVA)",
		"N° TVA intracommunautaire : FR14987654324", "SIRET : 73282932000074", "Nature des achats Produit Laitue Tomate",
		"10 pièce 9,00 € 4,43 % kg 45,00 € 4,43 % 18,00", "Facture FA-2026-000001 30 novembre 2026 59,00 € 49,00 €",
		"Facture complémentaire FA-2026-000002 2 décembre 2026 5,00 € 5,00 €",
		"Facture FA-2026-000003 (hors", "remboursement forfaitaire)", "Avance en compte, imputée sur les — prochaines factures",
		"Valeur de l'achat payé 60,00 € dont assiette du remboursement 57,00 € au taux de 4,43 % 57,00 €",
		"art. 265 de l'annexe II au CGI", "Ce document n'est pas une facture.", "au nom des Halles d'Annecy")
	if name := documents.SlipFileName(s.Number); name != "bulletin-achat-BA-20261215-3F9A1C2B7D4E.pdf" {
		t.Errorf("file name %s", name)
	}

	// A payment on account only: no product, an instalment.
	s.Documents, s.Products, s.OnAccount, s.Base = nil, nil, 6000, 6000
	pdf, err = documents.PurchaseSlip(s)
	if err != nil {
		t.Fatal(err)
	}
	pdfA(t, pdf, "")
	mustContain(t, pdftest.Lines(t, pdf), "Acompte sur les prochains achats de produits agricoles auprès de Ferme du Coteau",
		"Avance en compte, imputée sur les", "prochaines factures")
}

// TestCertificate: the yearly certificate states the shop's attestation
// with its VAT number, the year's payments by refund rate with the refund
// of each for information, every payment with its slip, the mention of
// art. 266-I; one of the year under way says it is provisional.
func TestCertificate(t *testing.T) {
	producer, shop := flatParties()
	s := flatSlip()
	second := flatSlip()
	second.Payment.ID, second.Payment.PaidOn, second.Payment.Method = "0190f2a3-b4c5-7d6e-8f90-00000000abcd", "2026-12-31", payments.Cheque
	second.Number, second.Base, second.OnAccount = payments.SlipNumber(second.Payment), 1000, 0
	second.Documents = second.Documents[:1]
	c := payments.Certificate{Year: 2026, Producer: producer, Shop: shop, Slips: []payments.Slip{s, second}, Base: 6700,
		Rates: []payments.RatePart{{Rate: vat.FlatRateLivestock, Base: 1000, Refund: 56}, {Rate: vat.FlatRateOther, Base: 5700, Refund: 253}}}
	pdf, err := documents.Certificate(c, "2027-01-04", time.Date(2027, 1, 4, 8, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	pdfA(t, pdf, "")
	qpdfCheck(t, pdf)
	text := pdftest.Lines(t, pdf)
	golden(t, "flat-certificate", text, "ORDER-ID")
	mustContain(t, text, "Attestation annuelle Année 2026", "Période : du 1er janvier au 31 décembre 2026",
		"Établie le : 4 janvier 2027", "Les Halles d'Annecy, redevables de la TVA", "(n° TVA intracommunautaire FR14987654324), attestent avoir payé à Ferme du Coteau",
		"5,59 % (lait, volailles", "10,00 € 0,56 €", "4,43 % (autres produits agricoles", "57,00 € 2,53 €", "Total 67,00 € 3,09 €",
		"15/12/2026 BA-20261215-3F9A1C2B7D4E FA-2026-000001, FA-2026-000002, Virement 57,00 €",
		"avance en compte 31/12/2026 BA-20261231-00000000ABCD FA-2026-000001", "Chèque 10,00 €",
		"Total de l'année 67,00 €",
		"article 266-I de l'annexe II au CGI", "au nom des Halles d'Annecy")
	if name := documents.CertificateFileName(2026); name != "attestation-remboursement-forfaitaire-2026.pdf" {
		t.Errorf("file name %s", name)
	}

	// The year under way.
	pdf, err = documents.Certificate(c, "2026-12-31", time.Date(2026, 12, 31, 8, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, pdftest.Lines(t, pdf), "Attestation provisoire : l'année 2026 n'est pas terminée",
		"celle établie à partir du 1er janvier 2027")
}

// TestFlatRateDocumentsWithHostileNames: names of any text and length,
// and a reference full of controls, render as every document's do.
func TestFlatRateDocumentsWithHostileNames(t *testing.T) {
	s := flatSlip()
	long := strings.Repeat("Ferme 🥕 של הגליל ", 600)
	s.Shop.Name, s.Producer.Name = "Les \u202eHalles\u0000 d'Annecy\n", long
	s.Payment.Reference = "VIR\r\n\u200b" + long
	s.Products[0].Product = long
	pdf, err := documents.PurchaseSlip(s)
	if err != nil {
		t.Fatal(err)
	}
	pdfA(t, pdf, "")
	qpdfCheck(t, pdf)
	mustContain(t, pdftest.Text(t, pdf), "Les Halles d'Annecy", "Ferme � ")
	c := payments.Certificate{Year: 2026, Producer: s.Producer, Shop: s.Shop, Slips: []payments.Slip{s}, Base: s.Base, Rates: s.Rates}
	if pdf, err = documents.Certificate(c, "2027-01-04", s.Issued); err != nil {
		t.Fatal(err)
	}
	pdfA(t, pdf, "")
	qpdfCheck(t, pdf)
}
