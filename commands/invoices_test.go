package commands

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"primeur/core/accounting/fectest"
	"primeur/core/calendar"
	"primeur/core/facturx/facturxtest"
)

// TestInvoicesExport exports the demo world's books of a month: for one
// producer (its FEC, its Factur-X PDFs, their XML, the sales register), for
// one shop (the FEC of its purchases, the documents it received in a
// folder per producer), then for every producer (a folder each); every
// FEC parses as art. A47 A-1 LPF wants it, every document passes the
// Factur-X kit, and the register has one line per document. Refusals say
// what is wrong.
func TestInvoicesExport(t *testing.T) {
	withDemo(t)
	// The last month with invoices issued: this one, or one before.
	var month, out, all string
	paris, _ := time.LoadLocation("Europe/Paris")
	for back := 0; back <= 2 && month == ""; back++ {
		m := time.Now().In(paris).AddDate(0, -back, 1-time.Now().In(paris).Day()).Format("2006-01")
		dir := filepath.Join(t.TempDir(), "all")
		code, stdout, errOut := run(t, "", "invoices", "export", "--month", m, "--out", dir)
		if code != 0 {
			t.Fatalf("export all: %s", errOut)
		}
		if !strings.Contains(stdout, " 0 facture(s)") {
			month, all = m, dir
		}
	}
	if month == "" {
		t.Fatal("the demo world has no invoice in the last months")
	}
	cm, _ := calendar.ParseMonth(month)
	out = filepath.Join(t.TempDir(), "glieres")
	code, stdout, errOut := run(t, "", "invoices", "export", "--month", month, "--producer", "ferme-des-glieres@demo.primeur.fr", "--out", out)
	if code != 0 || !strings.Contains(stdout, "fichier(s) écrits dans "+out) {
		t.Fatalf("export: %d %q %q", code, stdout, errOut)
	}
	files, _ := os.ReadDir(out)
	var pdfs, xmls, fecs int
	for _, f := range files {
		switch filepath.Ext(f.Name()) {
		case ".pdf":
			pdfs++
			if _, err := os.Stat(filepath.Join(out, strings.TrimSuffix(f.Name(), ".pdf")+".xml")); err != nil {
				t.Errorf("%s without its XML", f.Name())
			}
		case ".xml":
			xmls++
		case ".txt":
			fecs++
			data, _ := os.ReadFile(filepath.Join(out, f.Name()))
			// The month's sales (VT), among its bank entries (BQ) since
			// the demo's shops pay their invoices: the entries come in
			// date order.
			lines := fectest.Parse(t, f.Name(), data, cm)
			if !slices.ContainsFunc(lines, func(l fectest.Line) bool { return l["JournalCode"] == "VT" }) {
				t.Fatalf("the producer's FEC has no sale: %v", lines)
			}
		}
	}
	journal, err := os.ReadFile(filepath.Join(out, "journal-ventes-"+month+".csv"))
	if err != nil || pdfs == 0 || pdfs != xmls || fecs != 1 {
		t.Fatalf("%d PDFs, %d XML, %d FEC, register: %v", pdfs, xmls, fecs, err)
	}
	lines := strings.Split(strings.TrimSuffix(string(journal), "\r\n"), "\r\n")
	if !bytes.HasPrefix(journal, []byte("\ufeffdate;numero;type;facture_origine;client;siren_client;taux_tva;montant_ht;montant_tva;montant_ttc;echeance\r\n")) ||
		len(lines) != pdfs+1 || !strings.Contains(lines[1], ";facture;;") || !strings.Contains(lines[1], ";5,5;") {
		t.Fatalf("register:\n%s", journal)
	}

	// A shop's purchases: its FEC at the top, a folder per producer.
	shop := filepath.Join(t.TempDir(), "lac")
	if code, stdout, errOut := run(t, "", "invoices", "export", "--month", month, "--distributor", "epicerie-du-lac@demo.primeur.fr", "--out", shop); code != 0 ||
		!strings.Contains(stdout, "fichier(s) écrits dans "+shop) {
		t.Fatalf("shop's export: %d %q %q", code, stdout, errOut)
	}
	entries, _ := os.ReadDir(shop)
	var producers int
	for _, f := range entries {
		switch {
		case f.IsDir():
			producers++
		case strings.HasSuffix(f.Name(), ".txt"):
			data, _ := os.ReadFile(filepath.Join(shop, f.Name()))
			// Its purchases (AC), among its payments (BQ).
			lines := fectest.Parse(t, f.Name(), data, cm)
			if !slices.ContainsFunc(lines, func(l fectest.Line) bool { return l["JournalCode"] == "AC" }) {
				t.Fatalf("the shop's FEC has no purchase: %v", lines)
			}
		case f.Name() != "journal-achats-"+month+".csv":
			t.Fatalf("the shop's export holds %s", f.Name())
		}
	}
	if producers == 0 {
		t.Fatal("the shop's export has no producer's folder")
	}

	// Every producer: a folder each, named after it, with its FEC;
	// every document validated at once.
	folders, _ := os.ReadDir(all)
	check := t.TempDir()
	n := 0
	for _, f := range folders {
		if !f.IsDir() || !strings.Contains(f.Name(), "-") {
			t.Fatalf("export of every producer: %s is not a producer's folder", f.Name())
		}
		docs, _ := os.ReadDir(filepath.Join(all, f.Name()))
		for _, d := range docs {
			data, _ := os.ReadFile(filepath.Join(all, f.Name(), d.Name()))
			switch filepath.Ext(d.Name()) {
			case ".pdf", ".xml":
				n++
				if err := os.WriteFile(filepath.Join(check, f.Name()+"-"+d.Name()), data, 0o644); err != nil {
					t.Fatal(err)
				}
			case ".txt":
				fectest.Parse(t, d.Name(), data, cm)
			}
		}
	}
	if len(folders) < 2 || n == 0 {
		t.Fatalf("%d folders, %d documents", len(folders), n)
	}
	facturxtest.ValidateDir(t, check)

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"invoices", "export", "--month", "novembre", "--out", out}, "--month « novembre » : un mois AAAA-MM est attendu"},
		{[]string{"invoices", "export", "--month", month}, "--out"},
		{[]string{"invoices", "export", "--month", month, "--producer", "personne@nulle.part", "--out", out}, "aucun producteur n'a cet email"},
		{[]string{"invoices", "export", "--month", month, "--producer", "epicerie-du-lac@demo.primeur.fr", "--out", out}, "aucun producteur n'a cet email"},
		{[]string{"invoices", "export", "--month", month, "--distributor", "ferme-des-glieres@demo.primeur.fr", "--out", out}, "aucun magasin n'a cet email"},
		{[]string{"invoices", "export", "--month", month, "--producer", "ferme-des-glieres@demo.primeur.fr",
			"--distributor", "epicerie-du-lac@demo.primeur.fr", "--out", out}, "les comptes d'un seul utilisateur à la fois"},
	} {
		if code, _, errOut := run(t, "", tt.args...); code == 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: code %d, stderr %q", tt.args, code, errOut)
		}
	}
}
