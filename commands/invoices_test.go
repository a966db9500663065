package commands

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"primeur/core/facturx/facturxtest"
)

// TestInvoicesExport exports the demo world's documents: for one producer
// (its Factur-X PDFs, their XML, the sales journal), then for every
// producer (a folder each); every document passes the Factur-X kit, and
// the journal has one line per document. Refusals say what is wrong.
func TestInvoicesExport(t *testing.T) {
	t.Setenv("PRIMEUR_DATA_DIR", t.TempDir())
	if code, _, errOut := run(t, "", "demo"); code != 0 {
		t.Fatal(errOut)
	}
	// The last month invoiced: the previous one, or the one before early on the 1st.
	var month, out, all string
	paris, _ := time.LoadLocation("Europe/Paris")
	for back := 1; back <= 2 && month == ""; back++ {
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
		t.Fatal("the demo world has no invoice in the last two months")
	}
	out = filepath.Join(t.TempDir(), "glieres")
	code, stdout, errOut := run(t, "", "invoices", "export", "--month", month, "--producer", "ferme-des-glieres@demo.primeur.fr", "--out", out)
	if code != 0 || !strings.Contains(stdout, "fichier(s) écrits dans "+out) {
		t.Fatalf("export: %d %q %q", code, stdout, errOut)
	}
	files, _ := os.ReadDir(out)
	var pdfs, xmls int
	for _, f := range files {
		switch filepath.Ext(f.Name()) {
		case ".pdf":
			pdfs++
			if _, err := os.Stat(filepath.Join(out, strings.TrimSuffix(f.Name(), ".pdf")+".xml")); err != nil {
				t.Errorf("%s without its XML", f.Name())
			}
		case ".xml":
			xmls++
		}
	}
	journal, err := os.ReadFile(filepath.Join(out, "journal-ventes-"+month+".csv"))
	if err != nil || pdfs == 0 || pdfs != xmls {
		t.Fatalf("%d PDFs, %d XML, journal: %v", pdfs, xmls, err)
	}
	lines := strings.Split(strings.TrimSuffix(string(journal), "\r\n"), "\r\n")
	if !bytes.HasPrefix(journal, []byte("\ufeffdate;numero;type;facture_origine;client;siren_client;taux_tva;montant_ht;montant_tva;montant_ttc;echeance\r\n")) ||
		len(lines) != pdfs+1 || !strings.Contains(lines[1], ";facture;;") || !strings.Contains(lines[1], ";5,5;") {
		t.Fatalf("journal:\n%s", journal)
	}

	// Every producer: a folder each, named after it; everything validated
	// at once.
	folders, _ := os.ReadDir(all)
	check := t.TempDir()
	n := 0
	for _, f := range folders {
		if !f.IsDir() || !strings.Contains(f.Name(), "-") {
			t.Fatalf("export of every producer: %s is not a producer's folder", f.Name())
		}
		docs, _ := os.ReadDir(filepath.Join(all, f.Name()))
		for _, d := range docs {
			if ext := filepath.Ext(d.Name()); ext == ".pdf" || ext == ".xml" {
				data, _ := os.ReadFile(filepath.Join(all, f.Name(), d.Name()))
				n++
				if err := os.WriteFile(filepath.Join(check, f.Name()+"-"+d.Name()), data, 0o644); err != nil {
					t.Fatal(err)
				}
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
		{[]string{"invoices", "export", "--month", "novembre", "--out", out}, `--month "novembre"`},
		{[]string{"invoices", "export", "--month", month}, "--out"},
		{[]string{"invoices", "export", "--month", month, "--producer", "personne@nulle.part", "--out", out}, "no producer"},
		{[]string{"invoices", "export", "--month", month, "--producer", "epicerie-du-lac@demo.primeur.fr", "--out", out}, "no producer"},
	} {
		if code, _, errOut := run(t, "", tt.args...); code == 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: code %d, stderr %q", tt.args, code, errOut)
		}
	}
}
