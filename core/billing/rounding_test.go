package billing_test

import (
	"testing"

	"primeur/core/billing"
	"primeur/core/decimal"
)

// TestAmountsRoundHalfAwayFromZero: a line's amount and its VAT are
// rounded to the cent half away from zero (PRODUCT §16), never
// truncated: each case below has a remainder, and those of exactly half a
// cent or more go up (down, for a negative amount of a credit note).
func TestAmountsRoundHalfAwayFromZero(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		got  decimal.Dec
		want decimal.Dec
	}{
		{"VAT 5.5 % of 0.10 € = 0.55 c", billing.VAT(10, 550), 1},
		{"VAT 5.5 % of 1.00 € = 5.5 c", billing.VAT(100, 550), 6},
		{"VAT 5.5 % of 0.09 € = 0.495 c", billing.VAT(9, 550), 0},
		{"VAT 20 % of 0.13 € = 2.6 c", billing.VAT(13, 2000), 3},
		{"VAT 20 % of 0.12 € = 2.4 c", billing.VAT(12, 2000), 2},
		{"VAT 10 % of −1.05 € = −10.5 c", billing.VAT(-105, 1000), -11},
		{"VAT 5.5 % of −1.00 € = −5.5 c", billing.VAT(-100, 550), -6},
		{"1.50 kg at 0.03 € = 4.5 c", billing.Amount(150, 3), 5},
		{"1.49 kg at 0.03 € = 4.47 c", billing.Amount(149, 3), 4},
		{"−1.50 kg at 0.03 € = −4.5 c", billing.Amount(-150, 3), -5},
		{"2.35 kg at 1.99 € = 467.65 c", billing.Amount(235, 199), 468},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d cents, want %d", c.name, int64(c.got), int64(c.want))
		}
	}
}
