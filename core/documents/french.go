package documents

import (
	"strconv"
	"strings"

	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
)

// Day renders a "YYYY-MM-DD" date the French way: "20 novembre 2026",
// "1er décembre 2026". Anything else is returned as is.
func Day(day string) string {
	d, ok := calendar.ParseDate(day)
	if !ok {
		return day
	}
	return d.French()
}

// ShortDay renders a "YYYY-MM-DD" date as "20/11". Anything else is
// returned as is.
func ShortDay(day string) string {
	d, ok := calendar.ParseDate(day)
	if !ok {
		return day
	}
	return d.Short()
}

// Month renders a month ("YYYY-MM-01"): "novembre 2026". Anything else is
// returned as is.
func Month(month string) string {
	m, ok := calendar.ParseMonth(month)
	if !ok {
		return month
	}
	return m.French()
}

// Euros renders an amount in cents: "1 234,50 €", thousands separated by a
// narrow no-break space and the sign kept off the line end by a no-break
// space.
func Euros(d decimal.Dec) string { return d.French() + "\u00a0€" }

// Quantity renders a quantity in its unit's precision: "12,50" for kg,
// "3" for pieces (any unit counted whole, catalog.Whole).
func Quantity(d decimal.Dec, unit string) string {
	if catalog.Whole(unit) && d.IsWhole() {
		s := d.French()
		return s[:len(s)-3]
	}
	return d.French()
}

// Signed renders a signed quantity with its sign: "+2", "−3,50".
func Signed(d decimal.Dec, unit string) string {
	if d < 0 {
		return "−" + Quantity(-d, unit)
	}
	return "+" + Quantity(d, unit)
}

// UnitLabel names a product unit in a document's unit column: "kg", "L",
// "pièce", "douz.", "bout." (catalog.ShortLabel).
func UnitLabel(unit string) string { return catalog.ShortLabel(unit) }

// Percent renders a rate in hundredths of a percent: 550 → "5,5 %".
func Percent(rate int64) string {
	s := strconv.FormatFloat(float64(rate)/100, 'f', -1, 64)
	return strings.Replace(s, ".", ",", 1) + "\u00a0%"
}

// IBAN groups an IBAN by four characters.
func IBAN(iban string) string {
	var b strings.Builder
	for i, c := range strings.ReplaceAll(iban, " ", "") {
		if i > 0 && i%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(c)
	}
	return b.String()
}
