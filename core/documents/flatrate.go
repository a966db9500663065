package documents

import (
	"strconv"
	"strings"
	"time"

	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/grammar"
	"primeur/core/payments"
	"primeur/core/printable"
	"primeur/core/vat"
)

// The buyer's documents of the agricultural flat-rate refund (PRODUCT §16
// "Buyer's documents under the flat-rate refund", core/payments'
// flatrate.go): the purchase slip of a payment and the yearly
// certificate, issued in the shop's name to a farmer under the refund.
// PDF/A-3b like the invoices, without Factur-X data: they are not
// invoices.

// Legal mentions of the buyer's documents.
const (
	// SlipMention is the purchase slip's legal basis.
	SlipMention = "Bulletin d'achat délivré par l'acheteur, redevable de la TVA au titre de la revente des produits " +
		"achetés, à l'exploitant agricole placé sous le régime du remboursement forfaitaire agricole, lors du paiement " +
		"du prix ou d'un acompte (art. 265 de l'annexe II au CGI). Avec l'attestation annuelle " +
		"de l'acheteur (art. 266-I de l'annexe II au CGI), il justifie la demande de remboursement forfaitaire de " +
		"l'exploitant (art. 298 bis et 298 quater du CGI). Ce document n'est pas une facture."
	// CertificateMention is the certificate's legal basis.
	CertificateMention = "Attestation délivrée en application de l'article 266-I de l'annexe II au CGI : elle récapitule " +
		"les paiements de l'année civile pour des produits agricoles ouvrant droit au remboursement forfaitaire, " +
		"achetés par un acheteur redevable de la TVA au titre de leur revente, pour la seule partie des versements " +
		"qui en constitue l'assiette (art. 263 de l'annexe II au CGI). Le remboursement par taux (art. 298 quater du CGI) est " +
		"indiqué pour information : l'exploitant le calcule et le demande sur sa déclaration annuelle, à laquelle il " +
		"joint cette attestation."
)

// SlipFileName is the file name of a purchase slip:
// bulletin-achat-BA-20261215-3F9A1C2B7D4E.pdf.
func SlipFileName(number string) string { return "bulletin-achat-" + number + ".pdf" }

// CertificateFileName is the file name of a yearly certificate:
// attestation-remboursement-forfaitaire-2026.pdf.
func CertificateFileName(year int) string {
	return "attestation-remboursement-forfaitaire-" + strconv.Itoa(year) + ".pdf"
}

// rateLabel names a refund rate and the products it is for.
func rateLabel(rate int64) string {
	if rate == vat.FlatRateLivestock {
		return Percent(rate) + " (lait, volailles, œufs, animaux de boucherie, céréales, oléagineux, protéagineux)"
	}
	return Percent(rate) + " (autres produits agricoles : fruits et légumes…)"
}

// documentName names a document a payment pays.
func documentName(kind, number string) string {
	if kind == billing.KindComplement {
		return "Facture complémentaire " + number
	}
	return "Facture " + number
}

// numericDay renders a "YYYY-MM-DD" date as "15/12/2026"; anything else
// as is.
func numericDay(day string) string {
	if len(day) != len("2026-12-15") || ShortDay(day) == day {
		return day
	}
	return ShortDay(day) + "/" + day[:4]
}

// flatParties are the two boxes of the buyer's documents: the shop
// issuing them first.
func (d *doc) flatParties(producer, shop billing.Party) {
	d.boxes(
		box{title: "Acheteur (redevable de la TVA)", lines: invoiceParty(shop, buyerAddress(shop))},
		box{title: "Vendeur (exploitant agricole)", lines: invoiceParty(producer, producer.Address)},
	)
}

// PurchaseSlip renders the purchase slip (bulletin d'achat) of a recorded
// payment to a farmer under the flat-rate refund: the two parties, its
// reference, the payment's date, method and amount, the nature of what it
// pays (the products of the invoices, with quantities and amounts, less
// their credit notes), the invoices it pays and what it pays of each,
// what it left on account, the value under the refund by rate, and the
// mention of art. 265 of annexe II. Rendered from what is stored, it reads
// the same whenever it is made.
func PurchaseSlip(s payments.Slip) ([]byte, error) {
	shop := printable.Line(s.Shop.Name)
	d := newDoc("Bulletin d'achat "+s.Number, "Primeur — bulletin d'achat "+s.Number+" établi au nom "+grammar.De(shop), s.Issued)
	d.title("Bulletin d'achat", s.Number)
	d.field("Date du paiement", Day(s.Payment.PaidOn))
	method := methodLabel[s.Payment.Method]
	if s.Payment.Reference != "" {
		method += " — référence " + s.Payment.Reference
	}
	d.field("Moyen de paiement", method)
	d.field("Montant payé", Euros(s.Payment.Amount))
	d.field("Identifiant du paiement", s.Payment.ID)
	d.ln(3)
	d.flatParties(s.Producer, s.Shop)

	d.heading("Nature des achats")
	if len(s.Products) > 0 {
		rows := make([][]string, len(s.Products))
		for i, p := range s.Products {
			rows[i] = []string{p.Product, Quantity(p.Quantity, p.Unit), UnitLabel(p.Unit), Euros(p.Amount), Percent(p.Rate)}
		}
		d.table([]column{{"Produit", 66, "L"}, {"Quantité", 26, "R"}, {"Unité", 18, "C"}, {"Montant", 32, "R"},
			{"Taux forfaitaire", 38, "R"}}, rows)
		d.ln(1)
		d.paragraph("Produits agricoles des factures que ce paiement règle (quantités et montants facturés, avoirs déduits), "+
			"sans TVA : le vendeur est placé sous le régime du remboursement forfaitaire agricole.", 8)
	} else {
		d.paragraph("Acompte sur les prochains achats de produits agricoles auprès "+grammar.De(printable.Line(s.Producer.Name))+
			" : aucune facture n'était à régler.", 9)
	}

	d.heading("Factures réglées par ce paiement")
	var rows [][]string
	for _, doc := range s.Documents {
		name := documentName(doc.Kind, doc.Number)
		if !doc.Flat {
			name += " (hors remboursement forfaitaire)"
		}
		rows = append(rows, []string{name, Day(doc.IssueDate), Euros(doc.Total), Euros(doc.Paid)})
	}
	if s.OnAccount > 0 {
		rows = append(rows, []string{"Avance en compte, imputée sur les prochaines factures", "—", "—", Euros(s.OnAccount)})
	}
	d.table([]column{{"Document", 72, "L"}, {"Émis le", 32, "C"}, {"Montant TTC", 30, "R"}, {"Réglé par ce paiement", 46, "R"}}, rows)

	d.ln(3)
	d.total("Valeur de l'achat payé", Euros(s.Payment.Amount), true)
	if s.Base != s.Payment.Amount {
		d.total("dont assiette du remboursement", Euros(s.Base), false)
	}
	for _, r := range s.Rates {
		d.total("au taux de "+Percent(r.Rate), Euros(r.Base), false)
	}
	d.ln(3)
	d.paragraph(SlipMention, 8)
	d.ln(1)
	d.paragraph("Établi par Primeur au nom "+grammar.De(shop)+", acheteur, d'après le paiement enregistré entre les parties.", 8)
	return d.pdfA(pdfaMeta{title: "Bulletin d'achat " + s.Number, author: s.Shop.Name}, nil)
}

// Certificate renders the yearly certificate (attestation annuelle) of
// what a shop paid a farmer under the flat-rate refund in a calendar year:
// the two parties, the shop's statement, the year's total split by refund
// rate with the refund of each for information, each payment (date, slip,
// invoices, amount), and the mention of art. 266-I of annexe II. today
// ("YYYY-MM-DD") dates it; a certificate of the year under way says it is
// provisional.
func Certificate(c payments.Certificate, today string, created time.Time) ([]byte, error) {
	shop, producer := printable.Line(c.Shop.Name), printable.Line(c.Producer.Name)
	year := strconv.Itoa(c.Year)
	d := newDoc("Attestation annuelle "+year, "Primeur — attestation annuelle "+year+" établie au nom "+grammar.De(shop), created)
	d.title("Attestation annuelle", "Année "+year)
	d.field("Période", "du 1er janvier au 31 décembre "+year)
	d.field("Établie le", Day(today))
	d.ln(3)
	d.flatParties(c.Producer, c.Shop)

	vatNumber := strings.TrimSpace(c.Shop.TVA)
	d.paragraph(shop+", "+grammar.Agree(shop, "redevable", "redevables")+" de la TVA au titre de la revente des produits "+
		"achetés (n° TVA intracommunautaire "+vatNumber+"), "+grammar.Agree(shop, "atteste", "attestent")+" avoir payé "+
		grammar.A(producer)+", exploitant agricole placé sous le régime du remboursement "+
		"forfaitaire agricole, au cours de l'année "+year+", les sommes ci-dessous pour des achats de produits agricoles "+
		"ouvrant droit au remboursement forfaitaire.", 9)
	if strings.HasPrefix(today, year) {
		d.ln(1)
		d.paragraph("Attestation provisoire : l'année "+year+" n'est pas terminée. L'attestation à joindre à la demande de "+
			"remboursement est celle établie à partir du 1er janvier "+strconv.Itoa(c.Year+1)+".", 9)
	}

	d.heading("Récapitulatif par taux du remboursement forfaitaire")
	var rows [][]string
	var refund decimal.Dec
	for _, r := range c.Rates {
		rows = append(rows, []string{rateLabel(r.Rate), Euros(r.Base), Euros(r.Refund)})
		refund += r.Refund
	}
	rows = append(rows, []string{"Total", Euros(c.Base), Euros(refund)})
	d.table([]column{{"Taux du remboursement forfaitaire", 90, "L"}, {"Paiements", 34, "R"},
		{"Remboursement (pour information)", 56, "R"}}, rows)

	d.heading("Paiements de l'année")
	rows = rows[:0]
	for _, s := range c.Slips {
		var docs []string
		for _, doc := range s.Documents {
			if doc.Flat {
				docs = append(docs, doc.Number)
			}
		}
		if s.OnAccount > 0 {
			docs = append(docs, "avance en compte")
		}
		rows = append(rows, []string{numericDay(s.Payment.PaidOn), s.Number, strings.Join(docs, ", "), methodLabel[s.Payment.Method],
			Euros(s.Base)})
	}
	d.table([]column{{"Date", 22, "L"}, {"Bulletin d'achat", 50, "L"}, {"Factures réglées", 58, "L"}, {"Moyen", 22, "L"},
		{"Montant", 28, "R"}}, rows)
	d.ln(3)
	d.total("Total de l'année", Euros(c.Base), true)
	d.ln(3)
	d.paragraph(CertificateMention, 8)
	d.ln(1)
	d.paragraph("Établie par Primeur au nom "+grammar.De(shop)+", acheteur, d'après les paiements enregistrés entre les parties.", 8)
	return d.pdfA(pdfaMeta{title: "Attestation annuelle " + year, author: c.Shop.Name}, nil)
}
