package sepa_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"primeur/core/sepa"
)

// validate checks files with xmllint against the EPC's pain.001.001.09
// schema (testdata/sepa).
func validate(t *testing.T, files map[string][]byte) {
	t.Helper()
	if _, err := exec.LookPath("xmllint"); err != nil {
		t.Skip("xmllint is not installed (apt-get install libxml2-utils; .ci/run does)")
	}
	dir := t.TempDir()
	args := []string{"--noout", "--nonet", "--schema", filepath.Join("..", "..", "testdata", "sepa", "pain.001.001.09.xsd")}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, path)
	}
	if out, err := exec.Command("xmllint", args...).CombinedOutput(); err != nil {
		t.Fatalf("the EPC schema refuses the file: %v\n%s", err, out)
	}
}

func file() sepa.File {
	return sepa.File{
		MsgID: "PRIMEUR-20261203-a1b2c3", Created: time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC), Execution: "2026-12-04",
		Debtor: sepa.Party{Name: "Épicerie du Lac", IBAN: "FR76 3000 6000 0112 3456 7890 189", BIC: "AGRIFRPP882"},
		Transfers: []sepa.Transfer{
			{Creditor: sepa.Party{Name: "Ferme des Glières", IBAN: "FR7610107001011234567890129", BIC: "CCBPFRPPMTG"},
				Amount: 12345, EndToEnd: "FA-2026-000001", Remittance: "Factures FA-2026-000001"},
			{Creditor: sepa.Party{Name: "GAEC Lœuf & Fils — « Les Prés »", IBAN: "FR7630006000011234567890189"},
				Amount: 1, EndToEnd: "FA-2026-000007", Remittance: strings.Repeat("FA-2026-000007 ", 20)},
			{Creditor: sepa.Party{Name: strings.Repeat("Très longue ferme ", 10), IBAN: "DE89370400440532013000", BIC: "COBADEFF"},
				Amount: 99_999_999_999, EndToEnd: strings.Repeat("x", 50), Remittance: "湖の農場 🥕"},
		},
	}
}

func TestFilesPassTheEPCSchema(t *testing.T) {
	f := file()
	x, err := f.XML()
	if err != nil {
		t.Fatal(err)
	}
	s := string(x)
	for _, want := range []string{
		"<NbOfTxs>3</NbOfTxs>", "<CtrlSum>1000000123.45</CtrlSum>", "<Nm>Epicerie du Lac</Nm>",
		"<IBAN>FR7630006000011234567890189</IBAN>", "<Nm>GAEC Loeuf Fils Les Pres</Nm>", `<InstdAmt Ccy="EUR">0.01</InstdAmt>`,
		`<InstdAmt Ccy="EUR">999999999.99</InstdAmt>`, "<Ustrd>Factures FA-2026-000001</Ustrd>", "<BICFI>COBADEFF</BICFI>",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("no %s in\n%s", want, s)
		}
	}
	if strings.Contains(s, "湖") || strings.Contains(s, "é") {
		t.Error("a character outside the SEPA set")
	}
	// IBAN-only debtor: its bank is NOTPROVIDED.
	g := file()
	g.Debtor.BIC = ""
	y, err := g.XML()
	if err != nil || !strings.Contains(string(y), "<Othr>\n            <Id>NOTPROVIDED</Id>") && !strings.Contains(string(y), "NOTPROVIDED") {
		t.Fatalf("IBAN-only debtor: %v", err)
	}
	validate(t, map[string][]byte{"three.xml": x, "iban-only.xml": y})
}

func TestRefusals(t *testing.T) {
	for name, c := range map[string]struct {
		change func(*sepa.File)
		want   error
	}{
		"no transfer":       {func(f *sepa.File) { f.Transfers = nil }, sepa.ErrEmpty},
		"debtor's IBAN":     {func(f *sepa.File) { f.Debtor.IBAN = "FR7630006000011234567890180" }, sepa.ErrDebtor},
		"debtor's BIC":      {func(f *sepa.File) { f.Debtor.BIC = "AGRI" }, sepa.ErrDebtor},
		"creditor's IBAN":   {func(f *sepa.File) { f.Transfers[1].Creditor.IBAN = "" }, sepa.ErrCreditor},
		"zero":              {func(f *sepa.File) { f.Transfers[0].Amount = 0 }, sepa.ErrAmount},
		"above one billion": {func(f *sepa.File) { f.Transfers[0].Amount = 100_000_000_000 }, sepa.ErrAmount},
	} {
		f := file()
		c.change(&f)
		if _, err := f.XML(); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	f := file()
	f.Transfers[1].Creditor.IBAN = "FR00"
	var ce sepa.CreditorError
	if _, err := f.XML(); !errors.As(err, &ce) || ce.Name != "GAEC Lœuf & Fils — « Les Prés »" {
		t.Fatalf("the creditor is not named: %v", err)
	}
}

func TestLatin(t *testing.T) {
	for in, want := range map[string]string{
		"Épicerie du Lac":           "Epicerie du Lac",
		"Œufs & Cœurs":              "OEufs Coeurs",
		"L’Atelier (74) : 1/2 + 3?": "L'Atelier (74) : 1/2 + 3?",
		"\x1b[31mRouge\r\n":         "31mRouge",
		"🥕🥕":                        "",
		"Straße":                    "Strasse",
		strings.Repeat("a", 100):    strings.Repeat("a", 70),
	} {
		if got := sepa.Latin(in, 70); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
