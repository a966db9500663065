package vat_test

import (
	"testing"

	"primeur/core/catalog"
	"primeur/core/vat"
)

// TestFlatRateOfTheCatalogue: every product of the catalogue, a fruit or
// a vegetable, is at the refund's rate of the other products, 4.43 %; so
// is a product the function does not know. The rates are listed highest
// first.
func TestFlatRateOfTheCatalogue(t *testing.T) {
	ps, err := catalog.Catalogue()
	if err != nil || len(ps) == 0 {
		t.Fatalf("catalogue %d, %v", len(ps), err)
	}
	for _, p := range append(ps, catalog.Product{ID: "inconnu"}) {
		if got := vat.FlatRateOf(p.ID); got != vat.FlatRateOther {
			t.Errorf("%s: %d, want %d", p.ID, got, vat.FlatRateOther)
		}
	}
	if vat.FlatRateOther != 443 || vat.FlatRateLivestock != 559 || len(vat.FlatRates) != 2 ||
		vat.FlatRates[0] != vat.FlatRateLivestock || vat.FlatRates[1] != vat.FlatRateOther {
		t.Errorf("rates %v", vat.FlatRates)
	}
}
