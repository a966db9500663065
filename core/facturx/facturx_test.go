package facturx_test

import (
	"fmt"
	"strings"
	"testing"

	"primeur/core/facturx"
	"primeur/core/facturx/facturxtest"
)

func seller() facturx.Party {
	return facturx.Party{Name: "Ferme des Aravis", SIREN: "123456782", SIRET: "12345678200010", VAT: "FR11123456782",
		Legal: "EARL au capital de 15 000 €", Email: "ferme@aravis.fr",
		Address: facturx.Address{Lines: []string{"12 route des Aravis"}, Postcode: "74220", City: "La Clusaz"}}
}

func buyer() facturx.Party {
	return facturx.Party{Name: "Épicerie du Lac", SIREN: "987654324", SIRET: "98765432400019", VAT: "FR14987654324",
		Address: facturx.Address{Lines: []string{"BP 42"}, Postcode: "74001", City: "Annecy Cedex"}}
}

var notes = []facturx.Note{
	{Subject: facturx.NoteRegulatory, Content: "Facture émise par Primeur au nom et pour le compte de Ferme des Aravis."},
	{Subject: facturx.NoteDiscount, Content: "Pas d'escompte pour paiement anticipé."},
	{Subject: facturx.NotePenalty, Content: "Pénalités de retard : taux BCE + 10 points."},
	{Subject: facturx.NoteRecovery, Content: "Indemnité forfaitaire pour frais de recouvrement : 40 €."},
}

// invoice is a November invoice at 5.5 %: 2 lines, 3 456.15 € HT.
func invoice() facturx.Document {
	return facturx.Document{
		Type: facturx.TypeInvoice, Number: "FA-2026-000001", IssueDate: "2026-12-01", Notes: notes,
		Seller: seller(), Buyer: buyer(),
		ShipTo:      &facturx.Address{Lines: []string{"3 quai de la Tournette"}, Postcode: "74000", City: "Annecy"},
		PeriodStart: "2026-11-01", PeriodEnd: "2026-11-30", OrderRef: "order-1", DeliveryDate: "2026-11-26",
		Lines: []facturx.Line{
			{ID: "1", Note: "BL-000001 du 19/11/2026", Name: "Tomate", Quantity: 11550, Unit: facturx.UnitKilogram,
				Price: 250, Amount: 28875, Category: facturx.Standard, Rate: 550, Date: "2026-11-19"},
			{ID: "2", Note: "BL-000003 du 26/11/2026", Name: "Laitue <batavia> & co", Quantity: 123456, Unit: facturx.UnitPiece,
				Price: 250, Amount: 308640, Category: facturx.Standard, Rate: 550, Date: "2026-11-26"},
		},
		Taxes:   []facturx.Tax{{Category: facturx.Standard, Rate: 550, Basis: 337515, Amount: 18563}},
		TotalHT: 337515, TotalVAT: 18563, TotalTTC: 356078, DueDate: "2026-12-30",
		PaymentTerms: "Virement à 30 jours après la fin de la décade de livraison.",
		IBAN:         "FR7630006000011234567890189", BIC: "AGRIFRPP882",
	}
}

// exempt is an invoice of a seller under the franchise en base, whose
// buyer has no SIREN.
func exempt() facturx.Document {
	d := invoice()
	d.Number = "FA-2026-000002"
	d.Seller.VAT, d.Seller.Legal = "", ""
	d.Buyer.SIREN, d.Buyer.SIRET, d.Buyer.VAT, d.Buyer.Email = "", "", "", "primeur@ville.fr"
	d.ShipTo, d.IBAN = nil, ""
	d.Notes = append(d.Notes, facturx.Note{Subject: facturx.NoteTax, Content: "TVA non applicable, art. 293 B du CGI"})
	for i := range d.Lines {
		d.Lines[i].Category, d.Lines[i].Rate = facturx.Exempt, 0
	}
	d.Taxes = []facturx.Tax{{Category: facturx.Exempt, Basis: 337515, ExemptionCode: facturx.FranchiseCode,
		ExemptionReason: "TVA non applicable, art. 293 B du CGI"}}
	d.TotalVAT, d.TotalTTC = 0, 337515
	return d
}

// credit is a credit note of 2.50 kg of tomatoes on FA-2026-000001.
func credit() facturx.Document {
	d := invoice()
	d.Type, d.Number, d.IssueDate = facturx.TypeCreditNote, "AV-2026-000001", "2026-12-03"
	d.Preceding = &facturx.Reference{Number: "FA-2026-000001", Date: "2026-12-01"}
	d.Lines = d.Lines[:1]
	d.Lines[0].Quantity, d.Lines[0].Amount = 250, 625
	d.Taxes = []facturx.Tax{{Category: facturx.Standard, Rate: 550, Basis: 625, Amount: 34}}
	d.TotalHT, d.TotalVAT, d.TotalTTC = 625, 34, 659
	d.DueDate = ""
	d.PaymentTerms = "Avoir à déduire du règlement de la facture FA-2026-000001."
	return d
}

func TestDocumentsPassTheRules(t *testing.T) {
	docs := map[string][]byte{}
	for name, d := range map[string]facturx.Document{"invoice.xml": invoice(), "exempt.xml": exempt(), "credit.xml": credit()} {
		x, err := facturx.XML(d)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		docs[name] = x
	}
	if s := string(docs["invoice.xml"]); !strings.Contains(s, "Laitue &lt;batavia&gt; &amp; co") ||
		!strings.Contains(s, `<ram:BilledQuantity unitCode="H87">1234.56</ram:BilledQuantity>`) ||
		!strings.Contains(s, "<ram:GrandTotalAmount>3560.78</ram:GrandTotalAmount>") {
		t.Fatalf("unexpected XML:\n%s", s)
	}
	facturxtest.ValidateBytes(t, docs)
}

// TestCheckRefuses: a document whose figures disagree, or that lacks
// what the rules require, is refused before any XML is written.
func TestCheckRefuses(t *testing.T) {
	for name, breakIt := range map[string]func(*facturx.Document){
		"total":              func(d *facturx.Document) { d.TotalTTC++ },
		"line sum":           func(d *facturx.Document) { d.Lines[0].Amount++ },
		"VAT":                func(d *facturx.Document) { d.Taxes[0].Amount++ },
		"no SIREN":           func(d *facturx.Document) { d.Seller.SIREN = "" },
		"bad SIREN":          func(d *facturx.Document) { d.Seller.SIREN = "12345678" },
		"credit without ref": func(d *facturx.Document) { d.Type = facturx.TypeCreditNote },
		"no line":            func(d *facturx.Document) { d.Lines = nil },
		"bad date":           func(d *facturx.Document) { d.DueDate = "30/12/2026" },
		"type":               func(d *facturx.Document) { d.Type = "999" },
	} {
		d := invoice()
		breakIt(&d)
		if _, err := facturx.XML(d); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestTheKitCatchesABrokenDocument proves the validation is not a
// formality: a grand total off by a cent, which Check would refuse, is
// written past Check and fails the EN 16931 rules.
func TestTheKitCatchesABrokenDocument(t *testing.T) {
	x, err := facturx.XML(invoice())
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(x), "<ram:GrandTotalAmount>3560.78<", "<ram:GrandTotalAmount>3560.79<", 1)
	if ok, _ := facturxtest.Available(); !ok {
		t.Skip("no validation kit")
	}
	ft := &failing{T: t}
	facturxtest.ValidateBytes(ft, map[string][]byte{"broken.xml": []byte(broken)})
	if !ft.failed || !strings.Contains(ft.msg, "BR-CO-15") {
		t.Fatalf("the broken total passed the kit: %s", ft.msg)
	}
}

// failing records a failure instead of failing the test.
type failing struct {
	*testing.T
	failed bool
	msg    string
}

func (f *failing) Fatalf(format string, args ...any) {
	f.failed = true
	f.msg = fmt.Sprintf(format, args...)
}

func (f *failing) Helper() {}
