package documents

import (
	"strconv"
	"strings"

	"primeur/core/decimal"

	"primeur/core/billing"
)

// InvoiceFileName is the file name of an invoice: FA-2026-000001.pdf.
func InvoiceFileName(number string) string { return number + ".pdf" }

// sellerLines are the seller's mentions: identity, legal form and capital,
// address, SIRET, VAT number, APE code.
func sellerLines(p billing.Party) []string {
	ls := []string{p.Name}
	form := p.Legal
	if p.Capital != "" {
		if form != "" {
			form += " "
		}
		form += "au capital de " + capital(p.Capital)
	}
	if form != "" {
		ls = append(ls, form)
	}
	ls = append(ls, p.Address...)
	ls = append(ls,
		"SIRET : "+orUnset(p.SIRET),
		"N° TVA intracommunautaire : "+orUnset(p.TVA),
		"Code APE : "+orUnset(p.APE),
	)
	if p.Email != "" {
		ls = append(ls, p.Email)
	}
	return ls
}

// buyerLines are the buyer's mentions: identity, billing address, SIREN and
// SIRET, VAT number, APE code, legal form and capital when known.
func buyerLines(p billing.Party) []string {
	ls := []string{p.Name}
	if p.Legal != "" || p.Capital != "" {
		form := p.Legal
		if p.Capital != "" {
			form = strings.TrimSpace(form + " au capital de " + capital(p.Capital))
		}
		ls = append(ls, form)
	}
	addr := p.BillingAddress
	if len(addr) == 0 {
		addr = p.Address
	}
	ls = append(ls, addr...)
	siret := "SIRET : " + orUnset(p.SIRET)
	if s := p.SIREN(); s != "" {
		siret = "SIREN : " + s + " — " + siret
	}
	ls = append(ls, siret, "N° TVA intracommunautaire : "+orUnset(p.TVA), "Code APE : "+orUnset(p.APE))
	return ls
}

// capital renders a share capital given in euros ("15000" → "15 000 €");
// anything but digits is printed as entered.
func capital(s string) string {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > 1e12 {
		return s
	}
	return Quantity(decimal.FromInt(n), "un") + "\u00a0€"
}

func sameLines(a, b []string) bool {
	return strings.Join(a, "\n") == strings.Join(b, "\n")
}

// Invoice renders an issued invoice from what was stored when it was
// issued: every mandatory mention of PRODUCT §16.
func Invoice(inv billing.Invoice) ([]byte, error) {
	d := newDoc("Facture "+inv.Number, "Primeur — facture "+inv.Number+" émise au nom de "+inv.Seller.Name, inv.IssuedAt)
	d.title("Facture", inv.Number)

	d.field("Date d'émission", Day(inv.IssueDate))
	d.field("Période facturée", Month(inv.Month))
	d.field("Commande", "référence "+inv.OrderID)
	d.field("Date d'échéance", Day(inv.DueDate))
	d.ln(3)
	d.boxes(
		box{title: "Vendeur", lines: sellerLines(inv.Seller)},
		box{title: "Acheteur", lines: buyerLines(inv.Buyer)},
	)
	if len(inv.Buyer.BillingAddress) > 0 && len(inv.Buyer.Address) > 0 && !sameLines(inv.Buyer.BillingAddress, inv.Buyer.Address) {
		d.field("Adresse de livraison", strings.Join(inv.Buyer.Address, ", "))
	}

	notes := make([]string, len(inv.Notes))
	for i, n := range inv.Notes {
		notes[i] = billing.NoteNumber(n.Chrono) + " du " + Day(n.Date)
	}
	d.field("Bons de livraison", strings.Join(notes, ", "))

	d.heading("Détail")
	cols := []column{
		{"Bon", 22, "L"}, {"Date", 18, "C"}, {"Produit", 46, "L"}, {"Quantité", 22, "R"},
		{"Unité", 14, "C"}, {"Prix unitaire HT", 28, "R"}, {"Montant HT", 30, "R"},
	}
	rows := make([][]string, len(inv.Lines))
	for i, l := range inv.Lines {
		rows[i] = []string{billing.NoteNumber(l.Chrono), ShortDay(l.Date), l.Product,
			Quantity(l.Quantity, l.Unit), UnitLabel(l.Unit), Euros(l.Price), Euros(l.Amount)}
	}
	d.table(cols, rows)

	// Totals, right-aligned.
	d.ln(2)
	d.total("Total HT", Euros(inv.TotalHT), false)
	if inv.VATExempt {
		d.total("TVA", "non applicable", false)
	} else {
		d.total("TVA "+Percent(inv.VATRate), Euros(inv.TotalVAT), false)
	}
	d.total("Total TTC — net à payer", Euros(inv.TotalTTC), true)
	d.ln(3)

	d.heading("Règlement")
	d.field("Échéance", Day(inv.DueDate))
	d.field("Virement", "IBAN "+orUnset(IBAN(inv.Seller.IBAN))+" — BIC "+orUnset(inv.Seller.BIC)+" — titulaire "+inv.Seller.Name)
	d.ln(2)
	for _, t := range inv.Terms {
		d.paragraph(t, 8)
		d.ln(0.8)
	}
	return d.bytes()
}
