package accounting_test

import (
	"strings"
	"testing"

	"primeur/core/accounting"
	"primeur/core/accounting/fectest"
	"primeur/core/calendar"
)

// TestFEC: entries written as a FEC and read back — sorted by validation
// day, numbered within each journal, amounts and dates in the FEC's
// format, text in ISO 8859-15 on one line; an unbalanced entry or one
// outside the month is refused.
func TestFEC(t *testing.T) {
	month, _ := calendar.ParseMonth("2026-11")
	sale := accounting.Entry{Journal: accounting.JournalSales, Date: "2026-11-30", PieceRef: "FA-2026-000002", PieceDate: "2026-11-30",
		Label: "Facture FA-2026-000002 L’Épicerie\t|\nœuf 🥕", ValidDate: "2026-12-01", Postings: []accounting.Posting{
			{Account: "411", AccountLabel: "Clients", AuxNum: "987654321", AuxLabel: "L’Épicerie", Debit: 123456, Let: "FA2026000002", LetDate: "2026-12-10"},
			{Account: "701", AccountLabel: "Ventes de produits finis", Credit: 117020},
			{Account: "44571", AccountLabel: "TVA collectée", Credit: 6436},
		}}
	early := accounting.Entry{Journal: accounting.JournalSales, Date: "2026-11-02", PieceRef: "FA-2026-000001", PieceDate: "2026-11-02",
		Label: "Facture FA-2026-000001", ValidDate: "2026-11-02", Postings: []accounting.Posting{
			{Account: "411", AccountLabel: "Clients", AuxNum: "x", AuxLabel: "X", Debit: 5},
			{Account: "701", AccountLabel: "Ventes de produits finis", Credit: 5},
		}}
	paid := accounting.Entry{Journal: accounting.JournalBank, Date: "2026-11-02", PieceRef: "p1", PieceDate: "2026-11-02",
		Label: "Règlement par virement X", ValidDate: "2026-11-02", Postings: []accounting.Posting{
			{Account: "512", AccountLabel: "Banque", Debit: 5},
			{Account: "411", AccountLabel: "Clients", AuxNum: "x", AuxLabel: "X", Credit: 5},
		}}
	data, err := accounting.FEC(month, []accounting.Entry{sale, paid, early})
	if err != nil {
		t.Fatal(err)
	}
	name := accounting.FECName("123456789", month)
	if name != "123456789FEC20261130.txt" || accounting.FECName("", month) != "FEC20261130.txt" {
		t.Fatalf("names %q", name)
	}
	lines := fectest.Parse(t, name, data, month)
	var got []string
	for _, l := range lines {
		got = append(got, strings.Join([]string{l["JournalCode"], l["EcritureNum"], l["EcritureDate"], l["CompteNum"],
			l["CompAuxNum"], l["PieceRef"], l["Debit"], l["Credit"], l["EcritureLet"], l["DateLet"], l["ValidDate"], l["EcritureLib"]}, " "))
	}
	want := []string{
		"VT VT202611-00001 20261102 411 x FA-2026-000001 0,05 0,00   20261102 Facture FA-2026-000001",
		"VT VT202611-00001 20261102 701  FA-2026-000001 0,00 0,05   20261102 Facture FA-2026-000001",
		"BQ BQ202611-00001 20261102 512  p1 0,05 0,00   20261102 Règlement par virement X",
		"BQ BQ202611-00001 20261102 411 x p1 0,00 0,05   20261102 Règlement par virement X",
		"VT VT202611-00002 20261130 411 987654321 FA-2026-000002 1234,56 0,00 FA2026000002 20261210 20261201 Facture FA-2026-000002 L'Épicerie œuf ?",
		"VT VT202611-00002 20261130 701  FA-2026-000002 0,00 1170,20   20261201 Facture FA-2026-000002 L'Épicerie œuf ?",
		"VT VT202611-00002 20261130 44571  FA-2026-000002 0,00 64,36   20261201 Facture FA-2026-000002 L'Épicerie œuf ?",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("FEC:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	for _, tt := range []struct {
		name string
		e    accounting.Entry
	}{
		{"unbalanced", func() accounting.Entry {
			e := early
			e.Postings = []accounting.Posting{early.Postings[0], {Account: "701", Credit: 4}}
			return e
		}()},
		{"both sides", func() accounting.Entry {
			e := early
			e.Postings = []accounting.Posting{{Account: "411", Debit: 5, Credit: 5}, {Account: "701", Debit: 0, Credit: 0}}
			return e
		}()},
		{"one line", func() accounting.Entry {
			e := early
			e.Postings = []accounting.Posting{{Account: "411", Debit: 0}}
			return e
		}()},
		{"another month", func() accounting.Entry { e := early; e.Date = "2026-12-01"; return e }()},
	} {
		if _, err := accounting.FEC(month, []accounting.Entry{tt.e}); err == nil {
			t.Errorf("%s: written", tt.name)
		}
	}
	if empty, err := accounting.FEC(month, nil); err != nil || string(empty) != strings.Join(accounting.FECHeader, "\t")+"\r\n" {
		t.Fatalf("no entry: %q, %v", empty, err)
	}
}
