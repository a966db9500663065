package documents_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/documents"
	"primeur/core/orders"
)

func init() { api.DisableConfigDir() } // pdfcpu would otherwise write its configuration under $HOME

// validPDF checks a document with pdfcpu's strict validator (structure,
// cross-reference table, every object of the page tree, fonts and
// resources) and returns its page count. A PDF/A-3 document (invoices,
// credit notes) is checked in pdfcpu's relaxed mode, whose only leniency
// that matters here is the /AFRelationship of its attached XML: PDF/A-3
// adds that key to PDF 1.7, which pdfcpu's strict mode knows only from
// PDF 2.0. qpdf --check then checks its structure again, strictly.
func validPDF(t testing.TB, pdf []byte) int {
	t.Helper()
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", pdf[:min(20, len(pdf))])
	}
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationStrict
	if bytes.Contains(pdf, []byte("/AFRelationship")) {
		conf.ValidationMode = model.ValidationRelaxed
		qpdfCheck(t, pdf)
	}
	if err := api.Validate(bytes.NewReader(pdf), conf); err != nil {
		t.Fatalf("invalid PDF: %v", err)
	}
	n, err := api.PageCount(bytes.NewReader(pdf), conf)
	if err != nil {
		t.Fatalf("page count: %v", err)
	}
	return n
}

// qpdfCheck runs qpdf --check on a PDF (qpdf; .ci/run installs it): its
// structure, cross-reference table and every stream decode.
func qpdfCheck(t testing.TB, pdf []byte) {
	t.Helper()
	bin, err := exec.LookPath("qpdf")
	if err != nil {
		return // pdfcpu's validation stands alone
	}
	path := filepath.Join(t.TempDir(), "check.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--check", path)
	if out, err := cmd.CombinedOutput(); err != nil || bytes.Contains(out, []byte("WARNING")) {
		t.Fatalf("qpdf --check: %v\n%s", err, out)
	}
}

// long repeats s to about size bytes: a field as long as a hostile user
// makes it.
func long(s string, size int) string {
	if s == "" || size <= len(s) {
		return s
	}
	return strings.Repeat(s, size/len(s))
}

// party is a user whose every text field is one of the given texts.
func party(kind string, texts ...string) accounts.User {
	at := func(i int) string { return texts[i%len(texts)] }
	return accounts.User{Type: kind, ID: "u-" + kind, Email: at(0), Name: at(1), Legal: at(2), Capital: at(3),
		SIRET: at(4), Tel: at(5), TVAIntracom: at(6), APE: at(7), IBAN: at(8), BIC: at(9),
		AddressLine1: at(10), AddressLine2: at(11), AddressLine3: at(12), Certification: at(13)}
}

// fuzzNote is a note whose every text comes from the fuzzer; size makes
// the first text long, up to 10,000 bytes and more.
func fuzzNote(a, b, c string, size uint16, status uint8) delivery.Note {
	big := long(a, int(size))
	texts := []string{a, big, b, c, big + c, b + a}
	claim := []string{orders.ClaimVoid, orders.ClaimSent, orders.ClaimAccepted, orders.ClaimRejected}[status%4]
	sent := int64(1_795_000_000_000)
	n := delivery.Note{
		Order: orders.Order{ID: c, Month: b},
		Delivery: orders.Delivery{ID: "d", Status: []string{orders.Planned, orders.Done, orders.Cancelled}[status%3],
			Date: a, Chrono: int64(size), ClaimStatus: claim, ClaimSentAt: &sent, ClaimReviewedAt: &sent, UpdatedAt: sent},
		Producer: party(accounts.Producer, texts...),
		Shop:     party(accounts.Distributor, texts[2:]...),
	}
	for i, t := range texts {
		n.Lines = append(n.Lines, delivery.NoteLine{Product: t, Unit: texts[(i+1)%len(texts)], Price: 250,
			Expected: decimal.Dec(1000 * i), Sent: 900, Claimed: -50, ClaimType: texts[(i+2)%len(texts)], ClaimComment: texts[(i+3)%len(texts)]})
	}
	return n
}

// fuzzInvoice is an invoice whose every text comes from the fuzzer.
func fuzzInvoice(a, b, c string, size uint16, exempt bool) billing.Invoice {
	big := long(a, int(size))
	texts := []string{a, big, b, c, big + c, b + a}
	p := func(texts ...string) billing.Party {
		at := func(i int) string { return texts[i%len(texts)] }
		return billing.Party{Name: at(0), Legal: at(1), Address: texts, BillingAddress: texts[1:], SIRET: at(2), TVA: at(3),
			APE: at(4), Capital: at(5), Email: at(6), Tel: at(7), IBAN: at(8), BIC: at(9), Certification: at(10), EmailAccounting: at(11)}
	}
	inv := billing.Invoice{ID: "i", OrderID: c, Month: b, Number: a, IssuedAt: time.UnixMilli(1_795_000_000_000),
		IssueDate: c, DueDate: big, Seller: p(texts...), Buyer: p(texts[3:]...), VATRate: 550, VATExempt: exempt,
		TotalHT: 1000, TotalVAT: 55, TotalTTC: 1055}
	for i, t := range texts {
		inv.Terms = append(inv.Terms, billing.Term{Subject: []string{"REG", "AAB", "PMD", "PMT", billing.SubjectPayment}[i%5], Text: t})
	}
	for i, t := range texts {
		inv.Notes = append(inv.Notes, billing.Note{Chrono: int64(i), Date: t})
		inv.Lines = append(inv.Lines, billing.Line{Position: i, Chrono: int64(i), Date: texts[(i+1)%len(texts)], Product: t,
			Unit: texts[(i+2)%len(texts)], Quantity: 100, Price: 250, Amount: 250})
	}
	return inv
}

// seeds are hostile texts every target starts from (the corpus of
// testdata/fuzz adds the same and more).
var seeds = []struct {
	a, b, c string
	size    uint16
}{
	{"Ferme du Lac 🥕", "𝔘𝔫 𝔧𝔞𝔯𝔡𝔦𝔫", "👨\u200d👩\u200d👧", 0},
	{"مزرعة البحيرة", "חוות האגם (12)", "湖の農場", 0},
	{"Z\u0335\u0321a\u0334l\u0336g\u0337o", "a\u200db\u200c\u00ad", "\u202egnp.exe", 0},
	{"\x1b[31m\r\nBcc: x@y.fr\x00", "\xff\xfe\xc3", "\t\v\f\u2028\u2029", 0},
	{"Très long nom ", "x", "🥕", 10000},
	{"🥕", "", "", 40000},
}

// FuzzNote renders delivery notes whose every text field holds arbitrary
// text (any Unicode, invalid UTF-8, controls, 10,000-character names):
// always a valid PDF, of a bounded number of pages (the texts are cut).
func FuzzNote(f *testing.F) {
	for _, s := range seeds {
		f.Add(s.a, s.b, s.c, s.size, uint8(1))
	}
	rules := delivery.DefaultRules()
	f.Fuzz(func(t *testing.T, a, b, c string, size uint16, status uint8) {
		pdf, err := documents.Note(fuzzNote(a, b, c, size, status), rules)
		if err != nil {
			t.Fatalf("note: %v", err)
		}
		if n := validPDF(t, pdf); n > 12 {
			t.Fatalf("a note of %d pages", n)
		}
	})
}

// FuzzInvoice is FuzzNote for invoices.
func FuzzInvoice(f *testing.F) {
	for _, s := range seeds {
		f.Add(s.a, s.b, s.c, s.size, false)
	}
	f.Fuzz(func(t *testing.T, a, b, c string, size uint16, exempt bool) {
		pdf, err := documents.Invoice(fuzzInvoice(a, b, c, size, exempt))
		if err != nil {
			t.Fatalf("invoice: %v", err)
		}
		if n := validPDF(t, pdf); n > 12 {
			t.Fatalf("an invoice of %d pages", n)
		}
	})
}
