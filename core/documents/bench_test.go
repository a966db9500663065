package documents

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"

	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/terms"
)

// benchInvoice is the invoice of core/jobs' BenchmarkInvoiceRun: 4
// deliveries of 3 products, between two complete profiles.
func benchInvoice() billing.Invoice {
	party := func(name, siret string) billing.Party {
		return billing.Party{Name: name, Legal: "EARL", Capital: "15000", Address: []string{"1 rue du Marché", "74000 Annecy"},
			SIRET: siret, TVA: "FR11123456782", APE: "0113Z", Email: "contact@ferme.fr", IBAN: "FR7630006000011234567890189", BIC: "AGRIFRPP882"}
	}
	inv := billing.Invoice{ID: "i", OrderID: "order-1", Month: "2026-11-01", Year: 2026, Seq: 1, Number: "FA-2026-000001",
		IssuedAt: time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC), IssueDate: "2026-12-01", DueDate: "2026-12-10",
		Seller: party("Ferme 1", "12345678200010"), Buyer: party("Magasin 1", "98765432400019"), VATRate: billing.VATRate}
	inv.Terms = billing.Terms(inv, terms.Default())
	for d := range 4 {
		date := fmt.Sprintf("2026-11-%02d", 3+7*d)
		inv.Notes = append(inv.Notes, billing.Note{Chrono: int64(d + 1), Date: date})
		for p, name := range []string{"Carotte", "Laitue", "Tomate"} {
			l := billing.Line{Position: len(inv.Lines) + 1, Chrono: int64(d + 1), Date: date, ProductID: strings.ToLower(name),
				Product: name, Unit: "kg", Quantity: 1300, Price: decimal.Dec(150 + 10*p), VATRate: billing.VATRate}
			l.Amount = billing.Amount(l.Quantity, l.Price)
			inv.Lines = append(inv.Lines, l)
		}
	}
	inv.Total()
	return inv
}

// BenchmarkInvoice renders an invoice as Primeur does: every text through
// drawable and wrap, the page, the Factur-X XML, the PDF/A-3 file.
func BenchmarkInvoice(b *testing.B) {
	inv := benchInvoice()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Invoice(inv); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInvoiceRawFPDF is fpdf's raw render of the same document: the
// same two fonts, the same texts in cells at the same sizes, one page, no
// text processing, no XML, no PDF/A: the floor any fpdf document pays
// (its font parse and subsetting included), which BenchmarkInvoice is
// compared with.
func BenchmarkInvoiceRawFPDF(b *testing.B) {
	inv := benchInvoice()
	b.ReportAllocs()
	for b.Loop() {
		f := fpdf.New("P", "mm", "A4", "")
		f.AddUTF8FontFromBytes(family, "", fontRegular)
		f.AddUTF8FontFromBytes(family, "B", fontBold)
		f.AddPage()
		f.SetFont(family, "B", 16)
		f.CellFormat(90, 9, "Facture", "", 0, "L", false, 0, "")
		f.CellFormat(90, 9, inv.Number, "", 1, "R", false, 0, "")
		f.SetFont(family, "", 8.5)
		for _, p := range []billing.Party{inv.Seller, inv.Buyer} {
			for _, l := range append([]string{p.Name, p.Legal, p.SIRET, p.TVA, p.APE, p.Email}, p.Address...) {
				f.CellFormat(85, 4.6, l, "", 2, "L", false, 0, "")
			}
		}
		for _, l := range inv.Lines {
			for _, c := range []string{billing.NoteNumber(l.Chrono), l.Date, l.Product, l.Quantity.String(), l.Unit,
				l.Price.String(), "5,5 %", l.Amount.String()} {
				f.CellFormat(22, 5.5, c, "1", 0, "L", false, 0, "")
			}
			f.Ln(-1)
		}
		for _, t := range inv.Terms {
			f.MultiCell(180, 4, t.Text, "", "L", false)
		}
		var buf bytes.Buffer
		if err := f.Output(&buf); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInvoiceNewRunes is BenchmarkInvoice with, in each invoice, a
// letter the previous fpdf.UTF8FontSubsets invoices did not use (Latin
// Extended-A and B, cycling over 400): the font subsets are cut anew for
// every document, the shared fonts' cache never hits — the worst case of
// a run whose every shop and producer write different letters.
func BenchmarkInvoiceNewRunes(b *testing.B) {
	inv := benchInvoice()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		inv.Seller.Name = "Ferme " + string(rune(0x100+i%400))
		i++
		if _, err := Invoice(inv); err != nil {
			b.Fatal(err)
		}
	}
}
