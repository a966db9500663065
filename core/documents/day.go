package documents

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"primeur/core/catalog"
	"primeur/core/dayplan"
	"primeur/core/decimal"
)

// DayFileName is the file name of a producer's day sheets: journee-2026-11-24.pdf.
func DayFileName(date string) string { return "journee-" + date + ".pdf" }

// Large type for the day's sheets, read in a van or a cold room.
const (
	dayText  = 13.0 // a line of a sheet
	dayBig   = 15.0 // a product on the pick sheet, a shop's name
	dayTitle = 20.0
	dayRowH  = 8.5
	checkBox = "☐" // U+2610, in DejaVu Sans: ticked with a pen
)

// DayQuantity renders a quantity with its unit for the day's sheets:
// "12,50 kg", "1 pièce", "20 pièces", "3 douzaines".
func DayQuantity(d decimal.Dec, unit string) string {
	s := Quantity(d, unit)
	u, ok := catalog.UnitOf(unit)
	switch {
	case !ok:
		return s + "\u00a0" + unit
	case u.Symbol != "":
		return s + "\u00a0" + u.Symbol
	case d == decimal.FromInt(1):
		return s + "\u00a0" + u.Singular
	}
	return s + "\u00a0" + u.Plural
}

// Km renders a distance: "12,3 km".
func Km(km float64) string {
	return strings.Replace(strconv.FormatFloat(km, 'f', 1, 64), ".", ",", 1) + "\u00a0km"
}

// DaySheets renders a producer's day for print, A4 in large type: the pick
// sheet (each product's total, each shop's part below it) and the round's
// stops on the first page(s), then one packing sheet per shop, in round
// order, each on its own page with its delivery note numbers and address.
func DaySheets(day dayplan.Day, created time.Time) ([]byte, error) {
	date := Day(day.Date)
	d := newDoc("Journée de livraison du "+date, "Primeur — "+day.Producer+" — journée du "+date, created)
	d.bigTitle("Cueillette", date)
	d.font("", dayText)
	d.cell(contentW, dayRowH, day.Producer, "", 1, "L", false)
	if len(day.Pick) == 0 {
		d.cell(contentW, dayRowH, "Aucune livraison ce jour-là.", "", 1, "L", false)
		return d.bytes()
	}
	d.ln(2)
	for _, p := range day.Pick {
		d.row([]cellSpec{{checkBox, 10, "C"}, {p.Name, 110, "L"}, {DayQuantity(p.Total, p.Unit), 60, "R"}}, dayBig, "B", true)
		for _, s := range p.Shops {
			d.row([]cellSpec{{"", 10, "C"}, {"    " + s.Shop, 110, "L"}, {DayQuantity(s.Quantity, p.Unit), 60, "R"}}, dayText, "", false)
		}
	}

	d.ln(4)
	d.bigHeading(fmt.Sprintf("Tournée : %d arrêts, %s", len(day.Round.Stops), Km(day.Round.TotalKm)))
	for i, s := range day.Round.Stops {
		leg := "—"
		if s.LegKm != nil {
			leg = Km(*s.LegKm)
		}
		place := strings.Join(s.Address, ", ")
		if place == "" {
			place = "adresse non renseignée"
		}
		if s.Hours != "" {
			place += " — horaires : " + s.Hours
		}
		d.row([]cellSpec{{strconv.Itoa(i+1) + ".", 10, "R"}, {s.Shop + " — " + place, 140, "L"}, {leg, 30, "R"}}, dayText, "", false)
	}
	if day.Round.ReturnKm != nil {
		d.row([]cellSpec{{"", 10, "R"}, {"Retour à la ferme", 140, "L"}, {Km(*day.Round.ReturnKm), 30, "R"}}, dayText, "", false)
	}
	if !day.Round.Complete {
		d.paragraph("Un lieu sans position (ni coordonnées ni code postal reconnu) n'est pas compté dans la distance.", dayText-3)
	}
	d.paragraph(fmt.Sprintf("Distances à vol d'oiseau multipliées par %s pour approcher la route.",
		strings.Replace(strconv.FormatFloat(day.Round.RoadFactor, 'f', -1, 64), ".", ",", 1)), dayText-3)

	for i, p := range day.Packing {
		d.pdf.AddPage()
		d.bigTitle("Colisage", fmt.Sprintf("arrêt %d/%d", i+1, len(day.Packing)))
		d.font("B", dayBig+3)
		d.writeLines(d.wrapAtMost(drawable(p.Shop, maxBoxLine), contentW, 2), contentW, 9, "L")
		d.font("", dayText)
		place := strings.Join(p.Address, ", ")
		if place == "" {
			place = "adresse non renseignée"
		}
		d.writeLines(d.wrapAtMost(drawable(place, maxText), contentW, 3), contentW, 7, "L")
		if p.Tel != "" {
			d.cell(contentW, 7, "Tél. : "+p.Tel, "", 1, "L", false)
		}
		// The shop's own words, from its profile (issue 40).
		for _, t := range [][2]string{{"Horaires", p.Hours}, {"Consignes", p.Instructions}} {
			if t[1] != "" {
				d.writeLines(d.wrapAtMost(drawable(t[0]+" : "+strings.Join(strings.Fields(t[1]), " "), maxText), contentW, 4), contentW, 7, "L")
			}
		}
		numbers := make([]string, len(p.Notes))
		for k, n := range p.Notes {
			numbers[k] = n.Number
		}
		d.cell(contentW, 7, "Bon de livraison : "+strings.Join(numbers, ", ")+" — "+date, "", 1, "L", false)
		d.ln(3)
		d.row([]cellSpec{{"", 10, "C"}, {"Produit", 110, "L"}, {"Quantité", 60, "R"}}, dayText, "B", true)
		for _, l := range p.Lines {
			d.row([]cellSpec{{checkBox, 10, "C"}, {l.Name, 110, "L"}, {DayQuantity(l.Quantity, l.Unit), 60, "R"}}, dayBig, "", false)
		}
		if len(p.Lines) == 0 {
			d.cell(contentW, dayRowH, "Rien à livrer : les quantités de ce bon sont à zéro.", "", 1, "L", false)
		}
	}
	return d.bytes()
}

// bigTitle writes a sheet's heading in large type and its reference on the
// right.
func (d *doc) bigTitle(title, reference string) {
	d.font("B", dayTitle)
	d.cell(contentW/2, 11, title, "", 0, "L", false)
	d.font("B", dayBig)
	d.cell(contentW/2, 11, reference, "", 1, "R", false)
	d.pdf.SetDrawColor(60, 120, 60)
	d.pdf.SetLineWidth(0.8)
	d.pdf.Line(margin, d.pdf.GetY()+1, pageW-margin, d.pdf.GetY()+1)
	d.pdf.SetLineWidth(0.2)
	d.pdf.SetDrawColor(0, 0, 0)
	d.ln(4)
}

// bigHeading writes a section heading in large type.
func (d *doc) bigHeading(text string) {
	d.font("B", dayBig)
	d.cell(contentW, 10, text, "", 1, "L", false)
}

// cellSpec is one cell of a row: text, width and alignment.
type cellSpec struct {
	text  string
	width float64
	align string
}

// row writes one row of cells in type of size and style, wrapped (three
// lines at most a cell), with a rule below and a filled background when
// filled; it starts a new page when the row does not fit.
func (d *doc) row(cells []cellSpec, size float64, style string, filled bool) {
	d.font(style, size)
	lineHeight := size * 0.5
	wrapped := make([][]string, len(cells))
	h := dayRowH
	for i, c := range cells {
		wrapped[i] = d.wrapAtMost(drawable(c.text, maxCell), c.width, 3)
		h = max(h, float64(len(wrapped[i]))*lineHeight+2)
	}
	if d.pdf.GetY()+h > pageH-bottom {
		d.pdf.AddPage()
		d.font(style, size)
	}
	x, y := d.pdf.GetXY()
	if filled {
		d.pdf.SetFillColor(236, 244, 236)
		d.pdf.Rect(x, y, contentW, h, "F")
	}
	for i, c := range cells {
		d.pdf.SetXY(x, y+1)
		d.writeLines(wrapped[i], c.width, lineHeight, c.align)
		x += c.width
	}
	d.pdf.SetDrawColor(160, 160, 160)
	d.pdf.Line(margin, y+h, pageW-margin, y+h)
	d.pdf.SetDrawColor(0, 0, 0)
	d.pdf.SetXY(margin, y+h)
}
