package planning

import (
	"math"
	"strconv"
	"strings"
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
// with at most two decimals, whole for pieces, and exactly the number
// sent; a number whose shortest text has at most two decimals (whole for
// pieces) within bounds is accepted.
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
		// The rule from its definition, on the shortest 'f' text.
		text := strconv.FormatFloat(v, 'f', -1, 64)
		decimals := 0
		if i := strings.IndexByte(text, '.'); i >= 0 {
			decimals = len(text) - i - 1
		}
		follows := !math.IsNaN(v) && !math.IsInf(v, 0) && v >= 0 && v <= 1e6 && decimals <= 2 && (!pieces || decimals == 0)
		if err != nil {
			if follows {
				t.Fatalf("ParseQuantity(%v) refused: %v", v, err)
			}
			return
		}
		if !follows || d.Float() != v {
			t.Fatalf("ParseQuantity(%v) = %v accepted", v, d)
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
