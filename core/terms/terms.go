// Package terms holds a producer's payment terms (PRODUCT §16 "Payment
// terms") and the one rule that turns them into an invoice's due date: at
// the latest the legal date for perishable food (art. L441-11 II 1° of the
// Code de commerce: under a periodic invoice, 30 days after the end of the
// décade of delivery), and never before the invoice's issue. The monthly
// invoice is issued on the last day of the month of its deliveries
// (art. 289 I-3 CGI), so terms are bounded for that date to come first.
package terms

import (
	"fmt"
	"strings"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/decimal"
)

// Bases of a payment term: days after the end of the décade of the first
// delivery billed, or after the end of its month.
const (
	Decade = "decade"
	Month  = "month"
)

// LegalDays is the longest term the law allows for perishable food under
// a periodic invoice: 30 days after the end of the décade of delivery.
const LegalDays = 30

// MaxMonthDays is the longest term after the end of the month a producer
// may set: past it, a delivery of the month's first décade would be due
// after its legal date in a 31-day month. Due caps every date at the law's
// anyway.
const MaxMonthDays = 9

// MinDecadeDays is the shortest term after the end of the décade: the
// monthly invoice is issued on the month's last day, and a delivery of the
// first décade (ending on the 10th) must not fall due before it, even in a
// 31-day month (10 + 21 = 31).
const MinDecadeDays = 21

// MaxDiscount is the highest early-payment discount, in hundredths of a
// percent (10 %), and MaxDiscountDays its longest window.
const (
	MaxDiscount     = 1000
	MaxDiscountDays = 30
)

// French refusals.
const (
	MsgBasis    = "Choisissez la base du délai de paiement : fin de décade ou fin de mois."
	MsgDays     = "Le délai de paiement va de 21 à 30 jours après la fin de la décade, ou de 0 à 9 jours après la fin du mois : la facture du mois est émise le dernier jour du mois, et 30 jours après la fin de la décade est le maximum légal pour les denrées périssables."
	MsgDiscount = "L'escompte pour paiement anticipé va de 0 à 10 %, pour un paiement dans les 1 à 30 jours suivant l'émission de la facture (et au plus tard à son échéance)."
)

// Terms are a producer's payment terms, as the profile shows them: every
// field present, the basis one of two. The daemon reads what a client
// sends without a bound in its schema: Validate refuses what is out of
// bounds with a French message per field.
type Terms struct {
	// Basis is Decade or Month.
	Basis string `json:"basis" enum:"decade,month" doc:"decade or month: days counted after the end of the décade of the first delivery billed, or of its month"`
	// Days after the end of the décade or month.
	Days int `json:"days" doc:"21-30 after the décade, 0-9 after the month (the monthly invoice is issued on the month's last day; 30 days after the décade is the legal maximum for perishables)"`
	// Discount for early payment, in hundredths of a percent (200: 2 %);
	// 0 is none.
	Discount int64 `json:"discount" doc:"Early-payment discount in hundredths of a percent (200 = 2 %, at most 1000); 0: none"`
	// DiscountDays is the window of the discount, in days after the issue.
	DiscountDays int `json:"discountDays" doc:"The discount applies to a payment within this many days of the issue (1-30), and never after the due date"`
}

// Default are the terms of a producer who set none: the legal maximum, no
// discount.
func Default() Terms { return Terms{Basis: Decade, Days: LegalDays} }

// Validate refuses terms outside the law or the bounds above, field by
// field (paymentTerms.basis, .days, .discount).
func (t Terms) Validate() error {
	v := &core.ValidationError{}
	switch t.Basis {
	case Decade:
		if t.Days < MinDecadeDays || t.Days > LegalDays {
			v.Add("paymentTerms.days", MsgDays)
		}
	case Month:
		if t.Days < 0 || t.Days > MaxMonthDays {
			v.Add("paymentTerms.days", MsgDays)
		}
	default:
		v.Add("paymentTerms.basis", MsgBasis)
	}
	if t.Discount < 0 || t.Discount > MaxDiscount || t.DiscountDays < 0 || t.DiscountDays > MaxDiscountDays ||
		(t.Discount > 0 && t.DiscountDays == 0) {
		v.Add("paymentTerms.discount", MsgDiscount)
	}
	return v.Err()
}

// Due is the due date of an invoice issued on issue ("YYYY-MM-DD") whose
// first delivery billed is on firstDelivery: the terms' date, never later
// than the legal one (30 days after the end of that delivery's décade) and
// never before the issue. By law each delivery falls due 30 days after
// the end of its own décade; the earliest of these dates, for the whole
// invoice, keeps every delivery within the law and gives the shop one date
// to pay. Terms that Validate accepts never reach the floor for an invoice
// issued on the last day of its deliveries' month; an invoice issued late
// (a daemon stopped at the month's end) is due on its issue at the latest.
func (t Terms) Due(firstDelivery, issue string) string {
	d, _ := calendar.ParseDate(firstDelivery)
	legal := d.DecadeEnd().AddDays(LegalDays)
	due := d.DecadeEnd().AddDays(t.Days)
	if t.Basis == Month {
		due = d.Month().Last().AddDays(t.Days)
	}
	return max(min(due, legal).String(), issue)
}

// DiscountUntil is the last day of the escompte's window of an invoice
// issued on issue and due on due: DiscountDays after the issue, and never
// after the due date, past which nothing is paid early; "" without a
// discount.
func (t Terms) DiscountUntil(issue, due string) string {
	d, ok := calendar.ParseDate(issue)
	if t.Discount <= 0 || t.DiscountDays <= 0 || !ok {
		return ""
	}
	return min(d.AddDays(t.DiscountDays).String(), due)
}

// Mention is the payment terms as the invoice states them.
func (t Terms) Mention() string {
	after := "la fin de la décade de la première livraison facturée"
	if t.Basis == Month {
		after = "la fin du mois de la première livraison facturée, sans dépasser 30 jours après la fin de sa décade"
	}
	return fmt.Sprintf("Paiement par virement au plus tard à la date d'échéance : %d jours après %s "+
		"(art. L441-11 du Code de commerce, denrées périssables).", t.Days, after)
}

// DiscountMention is the early-payment discount as the invoice states
// it — its rate, the last day of its window (DiscountUntil) and how it is
// granted — or that there is none (no rate, or no window: a credit note).
func DiscountMention(rate int64, until string) string {
	d, ok := calendar.ParseDate(until)
	if rate <= 0 || !ok {
		return "Pas d'escompte pour paiement anticipé."
	}
	return fmt.Sprintf("Escompte de %s %% pour un paiement reçu au plus tard le %s : il est accordé par un avoir "+
		"d'escompte qui réduit d'autant le montant HT et la TVA de la facture (art. 267 II-1° et 272-1 du CGI).",
		Percent(rate), d.French())
}

// Discount is the escompte of a rate (hundredths of a percent) on an
// amount HT, in cents rounded half away from zero.
func Discount(ht decimal.Dec, rate int64) decimal.Dec {
	return decimal.MulDiv(ht, rate, 10000)
}

// Percent writes hundredths of a percent in French: 250 is "2,5".
func Percent(r int64) string {
	s := fmt.Sprintf("%d,%02d", r/100, r%100)
	return strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(s, "0"), "0"), ",")
}
