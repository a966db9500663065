// Package supplyui shows the supply projection (core/supply) in a
// terminal: the plain-text grid and advice of `primeur simulate supply`,
// and the interactive viewer of `primeur supply` (a bubbletea model fed by
// the daemon's HTTP API). Texts are French, as in the web screen.
//
// Names come from other users (producers) and from the server: every text
// of a projection, the shop's name and an error's text pass through
// printable.Line (see Printable) before anything is drawn, so no escape
// sequence, line break or bidirectional override of a name reaches the
// terminal; cells are cut by display width, grapheme by grapheme (wide
// characters and emoji count two columns).
package supplyui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/printable"
	"primeur/core/supply"
)

// Printable returns a copy of p whose every text is one printable line
// (core/printable): ids, names, units and dates.
func Printable(p supply.Projection) supply.Projection {
	line := printable.Line
	lines := func(ss []string) []string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = line(s)
		}
		return out
	}
	incoming := func(in []supply.Incoming) []supply.Incoming {
		out := make([]supply.Incoming, len(in))
		for i, x := range in {
			x.Producer = line(x.Producer)
			out[i] = x
		}
		return out
	}
	p.Start, p.End, p.Today, p.Dates = line(p.Start), line(p.End), line(p.Today), lines(p.Dates)
	producers := make([]supply.Producer, len(p.Producers))
	for i, x := range p.Producers {
		producers[i] = supply.Producer{ID: line(x.ID), Name: line(x.Name)}
	}
	p.Producers = producers
	products := make([]supply.ProductProjection, len(p.Products))
	for i, x := range p.Products {
		x.Product, x.Name, x.Unit = line(x.Product), line(x.Name), line(x.Unit)
		days := make([]supply.DayProjection, len(x.Days))
		for j, d := range x.Days {
			d.Date, d.NextDate = line(d.Date), line(d.NextDate)
			d.Deliveries, d.NextDeliveries = incoming(d.Deliveries), incoming(d.NextDeliveries)
			days[j] = d
		}
		x.Days = days
		products[i] = x
	}
	p.Products = products
	return p
}

// fit cuts s to w terminal cells, marking the cut.
func fit(s string, w int) string {
	return ansi.Truncate(s, w, "…")
}

var (
	weekdays      = [7]string{"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"}
	shortWeekdays = [7]string{"dim", "lun", "mar", "mer", "jeu", "ven", "sam"}
	months        = [12]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}
)

// LongDate is "mercredi 18 novembre 2026"; an unreadable date is returned
// as is.
func LongDate(s string) string {
	d, ok := calendar.ParseDate(s)
	if !ok {
		return s
	}
	return weekdays[d.Weekday()] + " " + strings.TrimPrefix(s[8:10], "0") + " " + months[monthIndex(s)] + " " + s[:4]
}

// ShortDate is "mer 18/11".
func ShortDate(s string) string {
	d, ok := calendar.ParseDate(s)
	if !ok {
		return s
	}
	return shortWeekdays[d.Weekday()] + " " + s[8:10] + "/" + s[5:7]
}

// NumericDate is "18/11/2026".
func NumericDate(s string) string {
	if _, ok := calendar.ParseDate(s); !ok {
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
	Title      = "Évolution des stocks et conseils d'approvisionnement"
	msgNoRows  = "Aucun besoin ni aucune livraison sur cette période."
	msgAtRisk  = "Produits à risque (livraisons des 7 jours avant aujourd'hui inférieures à 7 fois les ventes moyennes) : "
	msgNoRisk  = "Aucun produit à risque."
	msgProduct = "Produit"
	msgSales   = "Ventes/j"
)

// NoDeliveries is the message of a window without deliveries (PRODUCT §2),
// with how to move the window in this interface.
func NoDeliveries(p supply.Projection, how string) string {
	return "Aucune livraison n'est prévue entre le " + NumericDate(p.Start) + " et le " + NumericDate(p.End) + " : " + how
}
