package documents

import (
	"time"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/payments"
)

// StatementFileName is the file name of a statement: releve-2026-12-03.pdf.
func StatementFileName(today string) string { return "releve-" + today + ".pdf" }

// Statement renders a statement of account (relevé de compte) between a
// producer and a shop as of today ("YYYY-MM-DD"): every document with its
// amount, what its credit notes and payments took off it and what is left,
// the payments, and what is owed and overdue (PRODUCT §16 "Payments").
func Statement(producer, shop accounts.User, a payments.Account, today string, created time.Time) ([]byte, error) {
	d := newDoc("Relevé de compte", "Primeur — relevé de compte "+producer.Name+" / "+shop.Name+" au "+Day(today), created)
	d.title("Relevé de compte", "au "+Day(today))
	d.boxes(
		box{title: "Producteur", lines: partyLines(producer, "producer")},
		box{title: "Magasin", lines: partyLines(shop, "distributor")},
	)
	d.heading("Documents")
	cols := []column{
		{"Document", 46, "L"}, {"Émis le", 22, "C"}, {"Échéance", 22, "C"}, {"Montant TTC", 24, "R"},
		{"Avoirs, paiements", 28, "R"}, {"Reste", 20, "R"}, {"Statut", 18, "L"},
	}
	var rows [][]string
	for _, doc := range a.Documents {
		name := map[string]string{billing.KindCredit: "Avoir", billing.KindComplement: "Facture complémentaire"}[doc.Kind]
		if name == "" {
			name = "Facture"
		}
		name += " " + doc.Number
		if doc.Refers != "" {
			name += " (sur " + doc.Refers + ")"
		}
		due, left, taken := "—", "—", "—"
		amount := Euros(doc.Total)
		if doc.Kind == billing.KindCredit {
			amount = "−" + amount
		} else {
			due, left, taken = Day(doc.DueDate), Euros(doc.Balance), Euros(doc.Credited+doc.Paid)
		}
		rows = append(rows, []string{name, ShortDay(doc.IssueDate), due, amount, taken, left, statementStatus[doc.Status]})
	}
	d.table(cols, rows)

	if len(a.Payments) > 0 {
		d.heading("Paiements")
		var prows [][]string
		for _, p := range a.Payments {
			who := "enregistré par le producteur"
			if p.CreatedBy == p.DistributorID {
				who = "déclaré par le magasin"
			}
			prows = append(prows, []string{Day(p.PaidOn), methodLabel[p.Method], Euros(p.Amount), p.Reference,
				who + " — " + paymentStatus[p.Status]})
		}
		d.table([]column{{"Date", 30, "L"}, {"Moyen", 24, "L"}, {"Montant", 26, "R"}, {"Référence", 40, "L"}, {"État", 60, "L"}}, prows)
	}
	d.ln(3)
	d.total("Reste à payer", Euros(a.Owed), true)
	if a.Overdue > 0 {
		d.total("dont en retard", Euros(a.Overdue), false)
	}
	if a.OnAccount > 0 {
		d.total("Avance en compte", Euros(a.OnAccount), false)
	}
	if a.Declared > 0 {
		d.total("Déclaré, à confirmer", Euros(a.Declared), false)
	}
	d.ln(3)
	d.paragraph("Les avoirs sont déduits de la facture qu'ils corrigent. Ce qu'un paiement laisse au-delà des factures "+
		"qu'il règle reste en compte et règle les suivantes, la plus ancienne échéance d'abord. Un paiement déclaré par le "+
		"magasin compte une fois confirmé par le producteur. Relevé établi par Primeur à la date indiquée.", 8)
	return d.bytes()
}

var statementStatus = map[string]string{
	payments.Open: "À payer", payments.Partly: "Payée en partie", payments.Paid: "Payée",
	payments.Overdue: "En retard", payments.Imputed: "Déduit",
}

var methodLabel = map[string]string{
	payments.Transfer: "Virement", payments.Cheque: "Chèque", payments.Cash: "Espèces", payments.DirectDebit: "Prélèvement",
}

var paymentStatus = map[string]string{
	payments.Declared: "à confirmer", payments.Recorded: "enregistré", payments.Refused: "refusé", payments.Undone: "annulé",
}
