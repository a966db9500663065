package accounting_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"primeur/core"
	"primeur/core/accounting"
	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/payments"
)

// postings writes an entry's lines as "account aux D|C amount", one per line.
func postings(e accounting.Entry) string {
	var b strings.Builder
	for _, p := range e.Postings {
		side, amount := "D", p.Debit
		if p.Credit != 0 {
			side, amount = "C", p.Credit
		}
		fmt.Fprintf(&b, "%s %s %s %d; ", p.Account, p.AuxNum, side, amount)
	}
	return strings.TrimSuffix(b.String(), "; ")
}

// TestDocumentEntry: each kind of document in the seller's and the
// buyer's books, with and without VAT, by hand.
func TestDocumentEntry(t *testing.T) {
	l := accounting.Defaults()
	seller := billing.Party{Name: "Ferme des Aravis", SIRET: "12345678900012"}
	buyer := billing.Party{Name: "Épicerie du Lac", SIRET: "98765432100021"}
	doc := func(kind string, exempt bool) billing.Invoice {
		d := billing.Invoice{ID: "d", Kind: kind, Number: "FA-2026-000001", IssueDate: "2026-11-30", Seller: seller, Buyer: buyer,
			VATRate: 550, TotalHT: 4500, TotalVAT: 248, TotalTTC: 4748}
		if kind == billing.KindCredit || kind == billing.KindDiscount {
			d.Number = "AV-2026-000001"
		}
		if kind != billing.KindInvoice && kind != "" {
			d.Refers = &billing.Reference{InvoiceID: "i", Number: "FA-2026-000001", Date: "2026-11-30"}
		}
		if exempt {
			d.VATExempt, d.VATRate, d.TotalVAT, d.TotalTTC = true, 0, 0, 4500
		}
		return d
	}
	shop, farm := accounting.Partner{Num: "987654321", Label: "Épicerie du Lac"}, accounting.Partner{Num: "123456789", Label: "Ferme des Aravis"}
	for _, tt := range []struct {
		side    accounting.Side
		kind    string
		exempt  bool
		journal string
		want    string
		label   string
	}{
		{accounting.Seller, billing.KindInvoice, false, "VT", "411 987654321 D 4748; 701  C 4500; 44571  C 248",
			"Facture FA-2026-000001 Épicerie du Lac"},
		{accounting.Seller, "", true, "VT", "411 987654321 D 4500; 701  C 4500", "Facture FA-2026-000001 Épicerie du Lac"},
		{accounting.Seller, billing.KindComplement, false, "VT", "411 987654321 D 4748; 701  C 4500; 44571  C 248",
			"Facture complémentaire FA-2026-000001 (facture FA-2026-000001) Épicerie du Lac"},
		{accounting.Seller, billing.KindCredit, false, "VT", "411 987654321 C 4748; 701  D 4500; 44571  D 248",
			"Avoir AV-2026-000001 (facture FA-2026-000001) Épicerie du Lac"},
		{accounting.Seller, billing.KindCredit, true, "VT", "411 987654321 C 4500; 701  D 4500",
			"Avoir AV-2026-000001 (facture FA-2026-000001) Épicerie du Lac"},
		{accounting.Seller, billing.KindDiscount, false, "VT", "411 987654321 C 4748; 665  D 4500; 44571  D 248",
			"Avoir d'escompte AV-2026-000001 (facture FA-2026-000001) Épicerie du Lac"},
		{accounting.Buyer, billing.KindInvoice, false, "AC", "401 123456789 C 4748; 607  D 4500; 44566  D 248",
			"Facture FA-2026-000001 Ferme des Aravis"},
		{accounting.Buyer, billing.KindInvoice, true, "AC", "401 123456789 C 4500; 607  D 4500", "Facture FA-2026-000001 Ferme des Aravis"},
		{accounting.Buyer, billing.KindComplement, false, "AC", "401 123456789 C 4748; 607  D 4500; 44566  D 248",
			"Facture complémentaire FA-2026-000001 (facture FA-2026-000001) Ferme des Aravis"},
		{accounting.Buyer, billing.KindCredit, false, "AC", "401 123456789 D 4748; 607  C 4500; 44566  C 248",
			"Avoir AV-2026-000001 (facture FA-2026-000001) Ferme des Aravis"},
		{accounting.Buyer, billing.KindDiscount, false, "AC", "401 123456789 D 4748; 765  C 4500; 44566  C 248",
			"Avoir d'escompte AV-2026-000001 (facture FA-2026-000001) Ferme des Aravis"},
	} {
		name := fmt.Sprintf("%s %q exempt=%v", tt.side, tt.kind, tt.exempt)
		partner := shop
		if tt.side == accounting.Buyer {
			partner = farm
		}
		e, err := accounting.DocumentEntry(tt.side, l, doc(tt.kind, tt.exempt), partner, "2026-12-01")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := postings(e); got != tt.want || e.Journal != tt.journal || e.Label != tt.label ||
			e.Date != "2026-11-30" || e.PieceDate != "2026-11-30" || e.ValidDate != "2026-12-01" || e.Source != "d" {
			t.Errorf("%s: %s %s %q %s %s\nwant %s %s %q", name, e.Journal, got, e.Label, e.Date, e.ValidDate, tt.journal, tt.want, tt.label)
		}
	}
	// Validated before its date (a clock behind): the entry is validated
	// on its date.
	if e, _ := accounting.DocumentEntry(accounting.Seller, l, doc(billing.KindInvoice, false), shop, "2026-11-29"); e.ValidDate != "2026-11-30" {
		t.Fatalf("validated %s", e.ValidDate)
	}
	// Amounts that do not add up are an error, never an unbalanced entry.
	bad := doc(billing.KindInvoice, false)
	bad.TotalTTC++
	if _, err := accounting.DocumentEntry(accounting.Seller, l, bad, shop, "2026-12-01"); err == nil {
		t.Fatal("HT + TVA ≠ TTC accepted")
	}
	// The accounts the user set.
	mine, err := accounting.Check(map[string]string{accounting.Customers: "4110000", accounting.Sales: "7011", accounting.VATCollected: " 445711 "})
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := accounting.DocumentEntry(accounting.Seller, mine, doc(billing.KindInvoice, false), shop, "2026-12-01"); postings(e) != "4110000 987654321 D 4748; 7011  C 4500; 445711  C 248" {
		t.Fatalf("accounts set: %s", postings(e))
	}
}

// TestPaymentEntry: a payment in the seller's and the buyer's books, to the
// bank or in cash.
func TestPaymentEntry(t *testing.T) {
	l := accounting.Defaults()
	partner := accounting.Partner{Num: "987654321", Label: "Épicerie du Lac"}
	for _, tt := range []struct {
		side    accounting.Side
		method  string
		ref     string
		journal string
		want    string
		label   string
	}{
		{accounting.Seller, payments.Transfer, "VIR 42", "BQ", "512  D 1234; 411 987654321 C 1234", "Règlement par virement Épicerie du Lac réf. VIR 42"},
		{accounting.Seller, payments.Cheque, "", "BQ", "512  D 1234; 411 987654321 C 1234", "Règlement par chèque Épicerie du Lac"},
		{accounting.Seller, payments.DirectDebit, "", "BQ", "512  D 1234; 411 987654321 C 1234", "Règlement par prélèvement Épicerie du Lac"},
		{accounting.Seller, payments.Cash, "", "CA", "530  D 1234; 411 987654321 C 1234", "Règlement par espèces Épicerie du Lac"},
		{accounting.Buyer, payments.Transfer, "", "BQ", "401 987654321 D 1234; 512  C 1234", "Règlement par virement Épicerie du Lac"},
		{accounting.Buyer, payments.Cash, "", "CA", "401 987654321 D 1234; 530  C 1234", "Règlement par espèces Épicerie du Lac"},
	} {
		p := payments.Payment{ID: "p1", Amount: 1234, PaidOn: "2026-11-20", Method: tt.method, Reference: tt.ref, Status: payments.Recorded}
		e := accounting.PaymentEntry(tt.side, l, p, partner, "2026-11-22")
		if got := postings(e); got != tt.want || e.Journal != tt.journal || e.Label != tt.label || e.PieceRef != "p1" ||
			e.Date != "2026-11-20" || e.PieceDate != "2026-11-20" || e.ValidDate != "2026-11-22" {
			t.Errorf("%s %s: %s %s %q", tt.side, tt.method, e.Journal, got, e.Label)
		}
	}
}

// TestLetters: what settles what, lettered only where the lines balance
// to the cent.
func TestLetters(t *testing.T) {
	doc := func(id, kind, refers, number, date string, amount decimal.Dec) accounting.Item {
		return accounting.Item{ID: id, Kind: kind, Refers: refers, Number: number, Date: date, Amount: amount}
	}
	pay := func(id, date string, amount decimal.Dec) accounting.Item {
		return accounting.Item{ID: id, Kind: "payment", Date: date, Amount: amount}
	}
	alloc := func(p, d string, amount decimal.Dec) payments.Allocation {
		return payments.Allocation{PaymentID: p, DocumentID: d, Amount: amount}
	}
	docs := []accounting.Item{
		// Paid by two payments after a credit note.
		doc("i1", "invoice", "", "FA-2026-000001", "2026-11-01", 4748),
		doc("c1", billing.KindCredit, "i1", "AV-2026-000001", "2026-12-03", 528),
		// Two invoices paid by one payment.
		doc("i2", "invoice", "", "FA-2026-000002", "2026-12-01", 1000),
		doc("x2", billing.KindComplement, "i2", "FA-2026-000003", "2026-12-01", 211),
		// Partly paid.
		doc("i4", "invoice", "", "FA-2026-000004", "2026-12-01", 5000),
		// Overpaid: the rest of the payment is on account.
		doc("i5", "invoice", "", "FA-2026-000005", "2026-12-01", 700),
		// Paid, then a credit note: more came back than was due.
		doc("i6", "invoice", "", "FA-2026-000006", "2026-12-01", 900),
		doc("c6", billing.KindCredit, "i6", "AV-2026-000002", "2026-12-20", 100),
		// A discount's credit note and the rest paid.
		doc("i7", "invoice", "", "FA-2026-000007", "2026-12-01", 10000),
		doc("d7", billing.KindDiscount, "i7", "AV-2026-000003", "2026-12-05", 200),
		// Unpaid.
		doc("i8", "invoice", "", "FA-2026-000008", "2026-12-01", 300),
	}
	pays := []accounting.Item{
		pay("p1", "2026-11-20", 3000), pay("p2", "2026-12-10", 1220),
		pay("p3", "2026-12-12", 1211),
		pay("p4", "2026-12-15", 2000),
		pay("p5", "2026-12-16", 1000),
		pay("p6", "2026-12-17", 900),
		pay("p7", "2026-12-06", 9800),
	}
	allocs := []payments.Allocation{
		alloc("p1", "i1", 3000), alloc("p2", "i1", 1220),
		alloc("p3", "i2", 1000), alloc("p3", "x2", 211),
		alloc("p4", "i4", 2000),
		alloc("p5", "i5", 700),
		alloc("p6", "i6", 900),
		alloc("p7", "i7", 9800),
		// An allocation of a payment not recorded (declared, undone) is
		// not in the books.
		alloc("declared", "i8", 300),
	}
	got := accounting.Letters(docs, pays, allocs)
	want := map[string]accounting.Lettering{
		"i1": {"FA2026000001", "2026-12-10"}, "c1": {"FA2026000001", "2026-12-10"}, "p1": {"FA2026000001", "2026-12-10"},
		"p2": {"FA2026000001", "2026-12-10"},
		"i2": {"FA2026000002", "2026-12-12"}, "x2": {"FA2026000002", "2026-12-12"}, "p3": {"FA2026000002", "2026-12-12"},
		"i7": {"FA2026000007", "2026-12-06"}, "d7": {"FA2026000007", "2026-12-06"}, "p7": {"FA2026000007", "2026-12-06"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("lettering:\n got %v\nwant %v", got, want)
	}
}

// TestCheck: the accounts a user sets — digits, 3 to 10 of them, starting
// with their purpose's prefix; refused with a French message per field,
// the default for what is not sent.
func TestCheck(t *testing.T) {
	l, err := accounting.Check(nil)
	if err != nil || fmt.Sprint(l) != fmt.Sprint(accounting.Defaults()) {
		t.Fatalf("nothing sent: %v, %v", l, err)
	}
	want := map[string]string{"customers": "411", "sales": "701", "vatCollected": "44571", "discountsGiven": "665",
		"suppliers": "401", "purchases": "607", "vatDeductible": "44566", "discountsReceived": "765", "bank": "512", "cash": "530"}
	if fmt.Sprint(l) != fmt.Sprint(accounting.Ledger(want)) {
		t.Fatalf("defaults %v", l)
	}
	for _, tt := range []struct {
		purpose, number string
		ok              bool
		message         string
	}{
		{"customers", "411000", true, ""},
		{"customers", "4110000000", true, ""},
		{"customers", "41100000000", false, "Le compte clients doit être un numéro de 3 à 10 chiffres commençant par 411."},
		{"customers", "401", false, "Le compte clients doit être un numéro de 3 à 10 chiffres commençant par 411."},
		{"customers", "411A", false, "Le compte clients doit être un numéro de 3 à 10 chiffres commençant par 411."},
		{"sales", "706", true, ""},
		{"sales", "7011", true, ""},
		{"sales", "601", false, "Le compte de ventes doit être un numéro de 3 à 10 chiffres commençant par 70."},
		{"sales", "70", false, "Le compte de ventes doit être un numéro de 3 à 10 chiffres commençant par 70."},
		{"vatCollected", "445710", true, ""},
		{"vatCollected", "44566", false, "Le compte de TVA collectée doit être un numéro de 3 à 10 chiffres commençant par 4457."},
		{"discountsGiven", "6650", true, ""},
		{"discountsGiven", "765", false, "Le compte d'escomptes accordés doit être un numéro de 3 à 10 chiffres commençant par 665."},
		{"suppliers", "401000", true, ""},
		{"suppliers", "411", false, "Le compte fournisseurs doit être un numéro de 3 à 10 chiffres commençant par 401."},
		{"purchases", "6071", true, ""},
		{"purchases", "701", false, "Le compte d'achats doit être un numéro de 3 à 10 chiffres commençant par 60."},
		{"vatDeductible", "445660", true, ""},
		{"vatDeductible", "44571", false, "Le compte de TVA déductible doit être un numéro de 3 à 10 chiffres commençant par 4456."},
		{"discountsReceived", "765", true, ""},
		{"discountsReceived", "665", false, "Le compte d'escomptes obtenus doit être un numéro de 3 à 10 chiffres commençant par 765."},
		{"bank", "5121", true, ""},
		{"bank", "530", false, "Le compte de banque doit être un numéro de 3 à 10 chiffres commençant par 51."},
		{"cash", "531", true, ""},
		{"cash", "512", false, "Le compte de caisse doit être un numéro de 3 à 10 chiffres commençant par 53."},
		{"cash", "５３０", false, "Le compte de caisse doit être un numéro de 3 à 10 chiffres commençant par 53."},
		{"cash", "-530", false, "Le compte de caisse doit être un numéro de 3 à 10 chiffres commençant par 53."},
	} {
		l, err := accounting.Check(map[string]string{tt.purpose: tt.number})
		var v *core.ValidationError
		switch {
		case tt.ok && (err != nil || l.Number(tt.purpose) != tt.number):
			t.Errorf("%s %q: %v, %v", tt.purpose, tt.number, l, err)
		case !tt.ok && (!errors.As(err, &v) || len(v.Fields) != 1 || v.Fields[0].Field != tt.purpose || v.Fields[0].Message != tt.message):
			t.Errorf("%s %q: %v", tt.purpose, tt.number, err)
		}
	}
}
