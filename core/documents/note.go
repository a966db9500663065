package documents

import (
	"strings"
	"time"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/delivery"
	"primeur/core/orders"
)

// NoteFileName is the file name of a delivery note: BL-000012.pdf.
func NoteFileName(chrono int64) string { return billing.NoteNumber(chrono) + ".pdf" }

func partyLines(u accounts.User, role string) []string {
	ls := []string{u.Name}
	if u.Legal != "" {
		ls = append(ls, u.Legal)
	}
	ls = append(ls, addressLines(u.AddressLine1, u.AddressLine2, u.AddressLine3)...)
	ls = append(ls, "SIRET : "+orUnset(u.SIRET))
	if u.Tel != "" {
		ls = append(ls, "Tél. : "+u.Tel)
	}
	ls = append(ls, u.Email)
	if role == "producer" && u.Certification != "" {
		ls = append(ls, "Certification : "+u.Certification)
	}
	return ls
}

// statusText says where the delivery stands.
func statusText(n delivery.Note, r delivery.Rules) string {
	switch n.Delivery.Status {
	case orders.Planned:
		return "Livraison prévue — bon modifiable par le magasin jusqu'à " + r.LockLabel() + " le jour de la livraison"
	case orders.Done:
		return "Livraison effectuée"
	default:
		return "Livraison annulée"
	}
}

func claimTypeLabel(t string) string {
	switch t {
	case orders.ClaimQuality:
		return "Qualité"
	case orders.ClaimQuantity:
		return "Quantité"
	}
	return ""
}

func stampDay(ms *int64, loc *time.Location) string {
	if ms == nil {
		return ""
	}
	return calendar.DateOf(time.UnixMilli(*ms).In(loc)).French()
}

// claimStatusText describes the claim of a delivery.
func claimStatusText(d orders.Delivery, loc *time.Location) string {
	sent := stampDay(d.ClaimSentAt, loc)
	if d.ClaimBy == orders.ByShop {
		sent += " par le magasin à sa réception"
	}
	switch d.ClaimStatus {
	case orders.ClaimSent:
		if d.ClaimBy == orders.ByShop {
			return "envoyée le " + sent + ", en attente de la réponse du producteur"
		}
		return "envoyée le " + sent + ", en attente de la réponse du magasin"
	case orders.ClaimAccepted:
		return "envoyée le " + sent + ", acceptée le " + stampDay(d.ClaimReviewedAt, loc)
	case orders.ClaimRejected:
		return "envoyée le " + sent + ", refusée le " + stampDay(d.ClaimReviewedAt, loc)
	}
	return ""
}

// Note renders a delivery note: both parties, the BL number (the
// producer's chrono), the order reference, the delivery date and place, the
// lines with the quantities ordered and delivered, and the claim if any.
func Note(n delivery.Note, r delivery.Rules) ([]byte, error) {
	number := billing.NoteNumber(n.Delivery.Chrono)
	d := newDoc("Bon de livraison "+number, "Primeur — bon de livraison "+number, time.UnixMilli(n.Delivery.UpdatedAt))
	d.title("Bon de livraison", number)

	d.field("Date de livraison", Day(n.Delivery.Date))
	d.field("Statut", statusText(n, r))
	d.field("Commande", Month(n.Order.Month)+" — référence "+n.Order.ID)
	place := addressLines(n.Shop.AddressLine1, n.Shop.AddressLine2, n.Shop.AddressLine3)
	if len(place) == 0 {
		place = []string{"adresse du magasin non renseignée"}
	}
	d.field("Lieu de livraison", n.Shop.Name+", "+strings.Join(place, ", "))
	d.ln(3)
	d.boxes(
		box{title: "Expéditeur (producteur)", lines: partyLines(n.Producer, "producer")},
		box{title: "Destinataire (magasin)", lines: partyLines(n.Shop, "distributor")},
	)

	d.heading("Produits")
	cols := []column{
		{"Produit", 56, "L"}, {"Unité", 16, "C"}, {"Prix unit. HT", 26, "R"},
		{"Qté commandée", 29, "R"}, {"Qté livrée", 29, "R"}, {"Écart", 24, "R"},
	}
	rows := make([][]string, len(n.Lines))
	for i, l := range n.Lines {
		gap := ""
		if diff := l.Sent - l.Expected; diff != 0 {
			gap = Signed(diff, l.Unit)
		}
		rows[i] = []string{l.Product, UnitLabel(l.Unit), Euros(l.Price), Quantity(l.Expected, l.Unit), Quantity(l.Sent, l.Unit), gap}
	}
	d.table(cols, rows)

	if n.Delivery.ClaimStatus != orders.ClaimVoid {
		d.heading("Demande d'avoir")
		d.field("Statut", claimStatusText(n.Delivery, r.Location))
		var claims [][]string
		for _, l := range n.Lines {
			if l.Claimed != 0 {
				claims = append(claims, []string{l.Product, Signed(l.Claimed, l.Unit) + " " + UnitLabel(l.Unit),
					claimTypeLabel(l.ClaimType), l.ClaimComment})
			}
		}
		d.ln(1)
		d.table([]column{{"Produit", 52, "L"}, {"Quantité réclamée", 30, "R"}, {"Type", 22, "C"}, {"Commentaire", 76, "L"}}, claims)
		d.ln(1)
		d.paragraph("Si la demande est acceptée, le magasin est facturé de la quantité livrée augmentée de la quantité réclamée, au lieu de la quantité livrée.", 8)
	}

	d.ln(4)
	reserves, signed := box{title: "Réserves à la réception", minH: 28}, box{title: "Signature du destinataire", minH: 28}
	if at := n.Delivery.ReceivedAt; at != nil {
		signed.lines = []string{ReceivedText(*at, deref(n.Delivery.ReceivedBy), r.Location)}
		signed.png = n.Signature
		for _, l := range n.Lines {
			if l.ReceptionReason == "" {
				continue
			}
			line := l.Product + " : reçu " + Quantity(l.Received, l.Unit) + " " + UnitLabel(l.Unit) + " sur " +
				Quantity(l.Sent, l.Unit) + " " + UnitLabel(l.Unit) + " (" + receptionReasonLabel(l.ReceptionReason) + ")"
			if l.ReceptionComment != "" {
				line += " — " + l.ReceptionComment
			}
			if l.Photo {
				line += " — photo jointe"
			}
			reserves.lines = append(reserves.lines, line)
		}
		if len(reserves.lines) == 0 {
			reserves.lines = []string{"Aucune : chaque ligne reçue comme le bon l'indique."}
		}
	}
	d.boxes(reserves, signed)
	return d.bytes()
}

// ReceivedText is the note's "reçu le … par …" of a reception at ms
// (Unix milliseconds) by a person, in loc: "Reçu le 23/11/2026 à 08h55
// par Léa Martin".
func ReceivedText(ms int64, by string, loc *time.Location) string {
	return "Reçu le " + time.UnixMilli(ms).In(loc).Format("02/01/2006 à 15h04") + " par " + by
}

// receptionReasonLabel names why a line was received otherwise.
func receptionReasonLabel(reason string) string {
	if reason == orders.ClaimQuality {
		return "qualité refusée"
	}
	return "quantité manquante"
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
