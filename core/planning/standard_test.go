package planning

import (
	"testing"
	"time"

	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
)

func TestStandard(t *testing.T) {
	flat := [12]float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	summer := [12]float64{0.1, 0.1, 0.2, 0.4, 1, 2, 2.8, 2.7, 1.6, 0.6, 0.3, 0.2}
	ps := []catalog.Product{
		{ID: "carotte", Unit: catalog.Kg, Share: 530, RefPrice: 66, Coefs: flat},
		{ID: "melon", Unit: catalog.Piece, Share: 330, RefPrice: 144, Coefs: summer},
		{ID: "rare", Unit: catalog.Piece, Share: 1, RefPrice: 1000, Coefs: flat},
	}
	lines := Standard(ps, 120000, []calendar.Month{calendar.MonthOfParts(2026, time.July), calendar.MonthOfParts(2026, time.December)})
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2 (a product rounding to zero everywhere is dropped)", len(lines))
	}
	// Carrot: 120000/12 × 5.3 % × 1 = 530 € → 530 / (0.66 × 1.3) = 617.7156… kg.
	if lines[0].Quantities[0] != decimal.Dec(61772) || lines[0].Quantities[1] != 61772 {
		t.Errorf("carotte = %v", lines[0].Quantities)
	}
	// Melon in July: 10000 × 3.3 % × 2.8 = 924 € → 924 / (1.44 × 1.3) = 493.6 → 494 pieces;
	// in December: 10000 × 3.3 % × 0.2 = 66 € → 35.26 → 35 pieces.
	if lines[1].Quantities[0] != decimal.FromInt(494) || lines[1].Quantities[1] != decimal.FromInt(35) {
		t.Errorf("melon = %v", lines[1].Quantities)
	}
}
