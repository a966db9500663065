// Package supplyui shows the supply projection (core/supply) in a
// terminal: the plain-text grid and advice of `primeur simulate supply`,
// and the interactive viewer of `primeur supply` (a bubbletea model fed by
// the daemon's HTTP API). Texts are French, as in the web screen.
package supplyui

import (
	"strings"

	"primeur/core/decimal"
	"primeur/core/supply"
)

var (
	weekdays      = [7]string{"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"}
	shortWeekdays = [7]string{"dim", "lun", "mar", "mer", "jeu", "ven", "sam"}
	months        = [12]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}
)

// LongDate is "mercredi 18 novembre 2026"; an unreadable date is returned
// as is.
func LongDate(s string) string {
	d, ok := supply.ParseDate(s)
	if !ok {
		return s
	}
	return weekdays[d.Weekday()] + " " + strings.TrimPrefix(s[8:10], "0") + " " + months[monthIndex(s)] + " " + s[:4]
}

// ShortDate is "mer 18/11".
func ShortDate(s string) string {
	d, ok := supply.ParseDate(s)
	if !ok {
		return s
	}
	return shortWeekdays[d.Weekday()] + " " + s[8:10] + "/" + s[5:7]
}

// NumericDate is "18/11/2026".
func NumericDate(s string) string {
	if _, ok := supply.ParseDate(s); !ok {
		return s
	}
	return s[8:10] + "/" + s[5:7] + "/" + s[:4]
}

func monthIndex(s string) int {
	return int(s[5]-'0')*10 + int(s[6]-'0') - 1
}

// Number is a quantity the French way without trailing zeros: "25,5",
// "16", "1 250,75" (thin spaces between thousands are left out: the grid
// is narrow).
func Number(d decimal.Dec) string {
	return strings.Replace(d.String(), ".", ",", 1)
}

// Quantity is a number with its unit: "25,5 kg", "3 un".
func Quantity(d decimal.Dec, unit string) string {
	return Number(d) + " " + unit
}

// RiskLabel names a risk level.
func RiskLabel(r int) string {
	switch r {
	case supply.RiskPartial:
		return "couverture partielle"
	case supply.RiskEmpty:
		return "stock vide"
	}
	return "besoin couvert"
}

// riskMark is the risk of a cell in plain text.
func riskMark(r int) string {
	switch r {
	case supply.RiskPartial:
		return "!"
	case supply.RiskEmpty:
		return "!!"
	}
	return ""
}

// cellText is a cell of the grid: the morning stock, then what comes in.
func cellText(d supply.DayProjection) string {
	s := Number(d.MorningStock)
	if d.Delivered > 0 || len(d.Deliveries) > 0 {
		s += " +" + Number(d.Delivered)
	}
	return s
}

// rowLabel is a product with its unit, "Tomate (kg)".
func rowLabel(p supply.ProductProjection) string {
	return p.Name + " (" + p.Unit + ")"
}

// producerNames maps producer ids to names.
func producerNames(p supply.Projection) map[string]string {
	m := make(map[string]string, len(p.Producers))
	for _, x := range p.Producers {
		m[x.ID] = x.Name
	}
	return m
}

// Messages shared by the report and the viewer.
const (
	Title      = "Evolution des stocks et conseils d'approvisionnement"
	msgNoRows  = "Aucun besoin ni aucune livraison sur cette période."
	msgAtRisk  = "Produits à risque (livraisons des 7 jours avant aujourd'hui inférieures à 7 fois les ventes moyennes) : "
	msgNoRisk  = "Aucun produit à risque."
	msgProduct = "Produit"
	msgSales   = "Ventes/j"
)

// NoDeliveries is the message of a window without deliveries (SPEC §2),
// with how to move the window in this interface.
func NoDeliveries(p supply.Projection, how string) string {
	return "Aucune livraison n'est prévue entre le " + NumericDate(p.Start) + " et le " + NumericDate(p.End) + " : " + how
}
