package documents

import (
	"primeur/core/address"
	"strconv"
	"strings"

	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/facturx"
	"primeur/core/grammar"
	"primeur/core/printable"
	"primeur/core/vat"
)

// InvoiceFileName is the file name of an invoice or credit note:
// FA-2026-000001.pdf.
func InvoiceFileName(number string) string { return number + ".pdf" }

// XMLFileName is the file name of its Factur-X XML: FA-2026-000001.xml.
func XMLFileName(number string) string { return number + ".xml" }

// invoiceParty are a party's mentions: identity, legal form with its capital
// once (billing.LegalMention), the address, SIREN and SIRET, VAT number,
// APE code.
func invoiceParty(p billing.Party, address []string) []string {
	ls := []string{p.Name}
	if form := billing.LegalMention(p); form != "" {
		ls = append(ls, form)
	}
	ls = append(ls, address...)
	siret := "SIRET : " + orUnset(p.SIRET)
	if s := p.SIREN(); s != "" {
		siret = "SIREN : " + s + " — " + siret
	}
	ls = append(ls, siret, "N° TVA intracommunautaire : "+orUnset(p.TVA), "Code APE : "+orUnset(p.APE))
	if p.Email != "" {
		ls = append(ls, p.Email)
	}
	return ls
}

// buyerAddress is where the buyer is billed: its billing address, else its
// address.
func buyerAddress(p billing.Party) []string {
	if len(p.BillingAddress) > 0 {
		return p.BillingAddress
	}
	return p.Address
}

// shipTo is the delivery address when it differs from the billing address.
func shipTo(p billing.Party) []string {
	if len(p.BillingAddress) > 0 && len(p.Address) > 0 && strings.Join(p.BillingAddress, "\n") != strings.Join(p.Address, "\n") {
		return p.Address
	}
	return nil
}

// title is how a document calls itself.
func title(inv billing.Invoice) string {
	switch inv.Kind {
	case billing.KindCredit, billing.KindDiscount:
		return "Avoir"
	case billing.KindComplement:
		return "Facture complémentaire"
	}
	return "Facture"
}

// Invoice renders an issued invoice, credit note or complementary invoice
// from what was stored when it was issued — every mandatory mention of
// PRODUCT §16 — as a Factur-X EN 16931 document: a PDF/A-3b with its CII
// XML attached (InvoiceXML), the same facts on the page and in the XML.
// A seller without a SIRET cannot be named in the XML (its SIREN is
// mandatory): its document is a PDF/A-3b without XML, and says so.
func Invoice(inv billing.Invoice) ([]byte, error) {
	name := title(inv)
	credit := billing.IsCredit(inv.Kind)
	issued := " émise au nom "
	if credit {
		issued = " émis au nom "
	}
	d := newDoc(name+" "+inv.Number, "Primeur — "+strings.ToLower(name)+" "+inv.Number+issued+grammar.De(printable.Line(inv.Seller.Name)), inv.IssuedAt)
	d.title(name, inv.Number)

	d.field("Date d'émission", Day(inv.IssueDate))
	if inv.Refers != nil {
		d.field("Facture corrigée", inv.Refers.Number+" du "+Day(inv.Refers.Date))
	}
	d.field("Période facturée", Month(inv.Month))
	d.field("Commande", "référence "+inv.OrderID)
	if inv.DueDate != "" {
		d.field("Date d'échéance", Day(inv.DueDate))
	}
	d.ln(3)
	d.boxes(
		box{title: "Vendeur", lines: invoiceParty(inv.Seller, inv.Seller.Address)},
		box{title: "Acheteur", lines: invoiceParty(inv.Buyer, buyerAddress(inv.Buyer))},
	)
	if to := shipTo(inv.Buyer); to != nil {
		d.field("Adresse de livraison", strings.Join(to, ", "))
	}
	notes := make([]string, len(inv.Notes))
	for i, n := range inv.Notes {
		notes[i] = billing.NoteNumber(n.Chrono) + " du " + Day(n.Date)
	}
	label := "Bons de livraison"
	switch inv.Kind {
	case billing.KindCredit, billing.KindComplement:
		label = "Bon de livraison corrigé"
	case billing.KindDiscount:
		label = "Bons de livraison de la facture"
	}
	d.field(label, strings.Join(notes, ", "))

	d.heading("Détail")
	cols := []column{
		{"Bon", 20, "L"}, {"Date", 16, "C"}, {"Produit", 40, "L"}, {"Quantité", 22, "R"},
		{"Unité", 14, "C"}, {"Prix unitaire HT", 26, "R"}, {"TVA", 14, "R"}, {"Montant HT", 28, "R"},
	}
	rows := make([][]string, len(inv.Lines))
	for i, l := range inv.Lines {
		rate := Percent(l.VATRate)
		if inv.VATExempt {
			rate = "—"
		}
		rows[i] = []string{lineNote(l), ShortDay(l.Date), l.Product,
			Quantity(l.Quantity, l.Unit), UnitLabel(l.Unit), Euros(l.Price), rate, Euros(l.Amount)}
	}
	d.table(cols, rows)
	drawMotives(d, inv)

	d.ln(2)
	d.total("Total HT", Euros(inv.TotalHT), false)
	switch {
	case inv.Regime() == vat.Flat:
		d.total("TVA", "non applicable (remboursement forfaitaire agricole)", false)
	case inv.VATExempt:
		d.total("TVA", "non applicable", false)
	case len(inv.Breakdown) > 1:
		// One row per rate, its basis named (art. 242 nonies A I-8° of
		// annexe II CGI), then their sum.
		for _, r := range inv.Breakdown {
			d.total("TVA "+Percent(r.Rate)+" sur "+Euros(r.Basis), Euros(r.VAT), false)
		}
		d.total("Total TVA", Euros(inv.TotalVAT), false)
	default:
		d.total("TVA "+Percent(inv.VATRate), Euros(inv.TotalVAT), false)
	}
	if credit {
		d.total("Total TTC — montant de l'avoir", Euros(inv.TotalTTC), true)
	} else {
		d.total("Total TTC — net à payer", Euros(inv.TotalTTC), true)
	}
	d.ln(3)

	d.heading("Règlement")
	switch {
	case inv.Kind == billing.KindDiscount:
		d.field("Imputation", "déduit du règlement de la facture "+inv.Refers.Number+", payée dans le délai de l'escompte")
	case credit:
		d.field("Imputation", "à déduire du règlement de la facture "+inv.Refers.Number)
	default:
		d.field("Échéance", Day(inv.DueDate))
		d.field("Virement", "IBAN "+orUnset(IBAN(inv.Seller.IBAN))+" — BIC "+orUnset(inv.Seller.BIC)+" — titulaire "+inv.Seller.Name)
	}
	d.ln(2)
	for _, t := range inv.Terms {
		d.paragraph(t.Text, 8)
		d.ln(0.8)
	}
	x, err := InvoiceXML(inv)
	if err != nil {
		x = nil
		why := "Document sans données Factur-X."
		if inv.Seller.SIREN() == "" {
			why = "Document sans données Factur-X : le SIRET du vendeur n'est pas renseigné, ou n'est pas valide."
		}
		d.ln(1)
		d.paragraph(why, 8)
	}
	return d.pdfA(pdfaMeta{title: name + " " + inv.Number, author: inv.Seller.Name, docType: "INVOICE"}, x)
}

// InvoiceXML is the Factur-X CII XML of an issued invoice, credit note or
// complementary invoice: what its PDF says.
func InvoiceXML(inv billing.Invoice) ([]byte, error) {
	return facturx.XML(facturXDocument(inv))
}

// facturXDocument maps an issued document to the Factur-X model.
func facturXDocument(inv billing.Invoice) facturx.Document {
	// Under the normal regime, one breakdown row per rate of its lines
	// (BG-23, category S), each line at its own rate (BT-152).
	category := facturx.Standard
	var taxes []facturx.Tax
	for _, r := range inv.Breakdown {
		taxes = append(taxes, facturx.Tax{Category: category, Rate: r.Rate, Basis: facturx.Cents(r.Basis),
			Amount: facturx.Cents(r.VAT)})
	}
	switch inv.Regime() {
	case vat.Flat:
		// Not subject to VAT (category O): no rate, and neither party's
		// VAT number (BR-O-02).
		category = facturx.NotSubject
		taxes = []facturx.Tax{{Category: category, Basis: facturx.Cents(inv.TotalHT), ExemptionReason: vat.FlatReason}}
	case vat.Franchise:
		category = facturx.Exempt
		taxes = []facturx.Tax{{Category: category, Basis: facturx.Cents(inv.TotalHT), ExemptionCode: facturx.FranchiseCode,
			ExemptionReason: billing.VATExemptMention}}
	}
	doc := facturx.Document{
		Type: facturx.TypeInvoice, Number: inv.Number, IssueDate: inv.IssueDate,
		Seller: xmlParty(inv.Seller, inv.Seller.Address), Buyer: xmlParty(inv.Buyer, buyerAddress(inv.Buyer)),
		OrderRef: inv.OrderID, Taxes: taxes, DueDate: inv.DueDate,
		TotalHT: facturx.Cents(inv.TotalHT), TotalVAT: facturx.Cents(inv.TotalVAT), TotalTTC: facturx.Cents(inv.TotalTTC),
		IBAN: strings.ReplaceAll(inv.Seller.IBAN, " ", ""), BIC: inv.Seller.BIC,
	}
	doc.Seller.Legal = billing.LegalMention(inv.Seller)
	if category == facturx.NotSubject {
		doc.Seller.VAT, doc.Buyer.VAT = "", ""
	}
	if billing.IsCredit(inv.Kind) {
		doc.Type, doc.IBAN, doc.BIC = facturx.TypeCreditNote, "", ""
	}
	if inv.Refers != nil {
		doc.Preceding = &facturx.Reference{Number: inv.Refers.Number, Date: inv.Refers.Date}
	}
	if m, ok := calendar.ParseMonth(inv.Month); ok {
		doc.PeriodStart, doc.PeriodEnd = m.First().String(), m.Last().String()
	}
	if to := shipTo(inv.Buyer); to != nil {
		a := xmlAddress(to)
		doc.ShipTo = &a
	}
	if len(inv.Notes) == 1 {
		doc.Despatch = billing.NoteNumber(inv.Notes[0].Chrono)
	}
	for _, n := range inv.Notes {
		doc.DeliveryDate = max(doc.DeliveryDate, n.Date)
	}
	for _, t := range inv.Terms {
		if t.Subject == billing.SubjectPayment {
			doc.PaymentTerms = printable.Line(t.Text)
			continue
		}
		doc.Notes = append(doc.Notes, facturx.Note{Subject: t.Subject, Content: printable.Line(t.Text)})
	}
	for _, l := range inv.Lines {
		unit := catalog.UnitCode(l.Unit)
		note := ""
		if l.Chrono != 0 {
			note = billing.NoteNumber(l.Chrono) + " du " + l.Date
		}
		doc.Lines = append(doc.Lines, facturx.Line{
			ID: strconv.Itoa(l.Position), Note: note, Name: printable.Line(l.Product),
			Quantity: facturx.Hundredths(l.Quantity), Unit: unit, Price: facturx.Cents(l.Price), Amount: facturx.Cents(l.Amount),
			Category: category, Rate: lineRate(category, l.VATRate), Date: l.Date,
		})
	}
	xmlMotives(&doc, inv)
	return doc
}

// lineNote is the delivery note a line bills, "—" for a line of none (an
// escompte's credit note).
func lineNote(l billing.Line) string {
	if l.Chrono == 0 {
		return "—"
	}
	return billing.NoteNumber(l.Chrono)
}

// xmlParty is a party as the XML names it.
func xmlParty(p billing.Party, address []string) facturx.Party {
	return facturx.Party{
		Name: printable.Line(p.Name), SIREN: p.SIREN(), SIRET: strings.TrimSpace(p.SIRET), VAT: strings.TrimSpace(p.TVA),
		Email: strings.TrimSpace(p.Email), Address: xmlAddress(address),
	}
}

// xmlAddress splits address lines into street lines and the postcode and
// city of the last line that starts with a French postcode.
func xmlAddress(lines []string) facturx.Address {
	var a facturx.Address
	city, postcode, name := address.City(lines)
	if city >= 0 {
		a.Postcode, a.City = postcode, printable.Line(name)
	}
	for i, l := range lines {
		if i != city && len(a.Lines) < 3 {
			a.Lines = append(a.Lines, printable.Line(l))
		}
	}
	return a
}

// lineRate is a line's VAT rate in the XML: its own under the normal
// regime (category S), none for a document without VAT.
func lineRate(category string, rate int64) int64 {
	if category != facturx.Standard {
		return 0
	}
	return rate
}
