package accounting_test

import (
	"strings"
	"testing"

	"primeur/core/accounting"
	"primeur/core/billing"
)

func TestJournal(t *testing.T) {
	docs := []billing.Invoice{
		{Number: "FA-2026-000001", IssueDate: "2026-12-01", DueDate: "2026-12-10", VATRate: 550,
			Buyer:   billing.Party{Name: "Épicerie du Lac", SIRET: "98765432400019"},
			TotalHT: 337515, TotalVAT: 18563, TotalTTC: 356078},
		{Number: "AV-2026-000001", Kind: billing.KindCredit, IssueDate: "2026-12-03", VATRate: 550,
			Refers: &billing.Reference{Number: "FA-2026-000001", Date: "2026-12-01"},
			Buyer:  billing.Party{Name: "=HYPERLINK(\"x\")\nSARL", SIRET: "123"}, TotalHT: 750, TotalVAT: 41, TotalTTC: 791},
		{Number: "FA-2026-000002", Kind: billing.KindComplement, IssueDate: "2026-12-03", DueDate: "2026-12-30", VATExempt: true,
			Refers: &billing.Reference{Number: "FA-2026-000001"}, Buyer: billing.Party{Name: "Le Primeur"},
			TotalHT: 180, TotalTTC: 180},
	}
	got := string(accounting.Journal(docs))
	want := "\ufeffdate;numero;type;facture_origine;client;siren_client;taux_tva;montant_ht;montant_tva;montant_ttc;echeance\r\n" +
		"2026-12-01;FA-2026-000001;facture;;Épicerie du Lac;987654324;5,5;3375,15;185,63;3560,78;2026-12-10\r\n" +
		"2026-12-03;AV-2026-000001;avoir;FA-2026-000001;\"'=HYPERLINK(\"\"x\"\") SARL\";;5,5;-7,50;-0,41;-7,91;\r\n" +
		"2026-12-03;FA-2026-000002;facture complémentaire;FA-2026-000001;Le Primeur;;0;1,80;0,00;1,80;2026-12-30\r\n"
	if got != want {
		t.Fatalf("journal:\n%q\nwant\n%q", got, want)
	}
}

func TestFolder(t *testing.T) {
	for _, c := range []struct {
		p    billing.Party
		want string
	}{
		{billing.Party{Name: "Ferme des Glières", SIRET: "48723155600017"}, "ferme-des-glieres-487231556"},
		{billing.Party{Name: "../../etc/passwd"}, "etc-passwd"},
		{billing.Party{Name: "🥕"}, "partenaire"},
		{billing.Party{Name: strings.Repeat("a", 80)}, strings.Repeat("a", 40)},
	} {
		if got := accounting.Folder(c.p); got != c.want {
			t.Errorf("%q: %q, want %q", c.p.Name, got, c.want)
		}
	}
}
