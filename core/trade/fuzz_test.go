package trade

import (
	"math"
	"testing"

	"primeur/core/catalog"
	"primeur/core/decimal"
)

// FuzzOffer: a proposal's quantity and price are refused with a message, or
// accepted within bounds with at most two decimals (whole for pieces), zero
// quantities only in a correction and prices always above zero.
func FuzzOffer(f *testing.F) {
	for _, v := range []float64{0, 1, 12.5, 0.01, 1.005, -1, math.Copysign(0, -1), 1e6, 2.5, 10000.01, 9999.995, 2.505, 12345.675, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		f.Add(v, v, true, true)
		f.Add(v, v, false, false)
	}
	f.Fuzz(func(t *testing.T, q, p float64, pieces, correction bool) {
		unit := catalog.Kg
		if pieces {
			unit = catalog.Piece
		}
		qty, msg := parseQuantity(unit, q, correction)
		if msg != "" {
			if qty != 0 {
				t.Fatalf("refused quantity %v with a value %v", q, qty)
			}
		} else {
			want, ok := decimal.FromFloat(q)
			if !ok || qty != want || qty.Float() != q || qty < 0 || (qty == 0 && !correction) || (pieces && !qty.IsWhole()) {
				t.Fatalf("parseQuantity(%v, %s, %v) = %v", q, unit, correction, qty)
			}
		}
		price, msg := parsePrice(p)
		if msg == "" && (price <= 0 || price > MaxPrice || price.Float() != p) {
			t.Fatalf("parsePrice(%v) = %v", p, price)
		}
		if msg != "" && price != 0 {
			t.Fatalf("refused price %v with a value %v", p, price)
		}
	})
}
