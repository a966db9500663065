package vat_test

import (
	"strings"
	"testing"

	"primeur/core/catalog"
	"primeur/core/vat"
)

// TestFlatRateOfTheCatalogue: every fruit and vegetable of the catalogue,
// and every processed product (cheese, meat cuts, honey…), is at the
// refund's rate of the other products, 4.43 %, and so is a product the
// function does not know; eggs, poultry, milk and cereals are at 5.59 %.
// The rates are listed highest first.
func TestFlatRateOfTheCatalogue(t *testing.T) {
	ps, err := catalog.Catalogue()
	if err != nil || len(ps) == 0 {
		t.Fatalf("catalogue %d, %v", len(ps), err)
	}
	live := map[string]bool{"oeufs": true, "volailles": true}
	for _, p := range append(ps, catalog.Product{ID: "inconnu"}) {
		want := int64(vat.FlatRateOther)
		if live[p.Family] || strings.HasPrefix(p.ID, "lait-") || p.DFCType == "rabbit" || p.DFCType == "grain" ||
			p.DFCType == "peas" {
			want = vat.FlatRateLivestock
		}
		if got := vat.FlatRateOf(p.ID); got != want {
			t.Errorf("%s: %d, want %d", p.ID, got, want)
		}
	}
	if vat.FlatRateOther != 443 || vat.FlatRateLivestock != 559 || len(vat.FlatRates) != 2 ||
		vat.FlatRates[0] != vat.FlatRateLivestock || vat.FlatRates[1] != vat.FlatRateOther {
		t.Errorf("rates %v", vat.FlatRates)
	}
}
