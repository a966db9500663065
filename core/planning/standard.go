package planning

import (
	"math"

	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
)

// ShopMarkup is the factor between the producer price and the shop price
// assumed by the standard import and the planner's price hint (a 30 %
// margin, PRODUCT §2).
const ShopMarkup = 1.3

// StandardLine is one product's simulated monthly quantities.
type StandardLine struct {
	Product catalog.Product
	// Quantities are per month, in the order of the months asked.
	Quantities []decimal.Dec
}

// Standard simulates a shop's needs from its annual fruit-and-vegetable
// turnover in euros, already corrected (PRODUCT §9): for product p and month m,
// value = turnover / 12 × share(p) × coef(p, m) and quantity = value /
// (refPrice(p) × 1.3), rounded to 2 decimals for kg and to whole pieces.
// Products whose every month rounds to zero are left out.
func Standard(products []catalog.Product, turnover float64, months []calendar.Month) []StandardLine {
	var out []StandardLine
	for _, p := range products {
		line := StandardLine{Product: p, Quantities: make([]decimal.Dec, len(months))}
		any := false
		for i, m := range months {
			value := turnover / 12 * p.ShareFraction() * p.Coefs[m.Number()-1]
			q := value / (p.RefPrice.Float() * ShopMarkup)
			if catalog.Whole(p.Unit) {
				line.Quantities[i] = decimal.FromInt(int64(math.Round(q)))
			} else {
				line.Quantities[i] = decimal.Round(q)
			}
			any = any || line.Quantities[i] > 0
		}
		if any {
			out = append(out, line)
		}
	}
	return out
}
