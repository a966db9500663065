package planning

import (
	"math"
	"testing"

	"primeur/core/catalog"
	"primeur/core/decimal"
)

// FuzzParseMonth: any text either is refused or gives the first day of a
// month that parses back to itself.
func FuzzParseMonth(f *testing.F) {
	for _, s := range []string{"2026-12", "2026-12-01", "2026-02-29", "2024-02-29", "12/2026", "", "2026-13", "0000-00", "2026-1-1", "９９９９-12"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMonth("date", s)
		if err != nil {
			if m != "" {
				t.Fatalf("error with a value %q", m)
			}
			return
		}
		if len(m) != 10 || m[7:] != "-01" {
			t.Fatalf("ParseMonth(%q) = %q, not a first day", s, m)
		}
		again, err := ParseMonth("date", m)
		if err != nil || again != m {
			t.Fatalf("ParseMonth(%q) = %q does not parse back (%q, %v)", s, m, again, err)
		}
	})
}

// FuzzParseQuantity: a quantity is refused, or is finite, within bounds,
// with at most two decimals, and whole for pieces.
func FuzzParseQuantity(f *testing.F) {
	for _, v := range []float64{0, 1, 12.5, 0.01, 1.005, -1, 1e6, 1e6 + 0.01, 2.5, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		f.Add(v, true)
		f.Add(v, false)
	}
	f.Fuzz(func(t *testing.T, v float64, pieces bool) {
		unit := catalog.Kg
		if pieces {
			unit = catalog.Piece
		}
		d, err := ParseQuantity("quantity", unit, v)
		if err != nil {
			return
		}
		if d < 0 || d > MaxQuantity || math.IsNaN(v) {
			t.Fatalf("ParseQuantity(%v) = %v out of bounds", v, d)
		}
		if pieces && !d.IsWhole() {
			t.Fatalf("ParseQuantity(%v, pieces) = %v not whole", v, d)
		}
		if back, ok := decimal.FromFloat(d.Float()); !ok || back != d {
			t.Fatalf("ParseQuantity(%v) = %v does not round-trip", v, d)
		}
	})
}
