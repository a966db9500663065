package catalog_test

import (
	"strings"
	"testing"

	"primeur/core/catalog"
	"primeur/core/decimal"
)

// TestTheWholeUnitRule: catalog.Whole is the one rule of quantities: the
// measured units (kg, litre) take decimals, every counted one (pièce,
// douzaine, botte, barquette, bouteille, pot) whole quantities only; the
// ids listed for the API and the CHECK are the table's, each with an
// EN 16931 unit code.
func TestTheWholeUnitRule(t *testing.T) {
	measured := map[string]bool{catalog.Kg: true, catalog.Litre: true}
	var ids []string
	for _, u := range catalog.Units {
		ids = append(ids, u.ID)
		if catalog.Whole(u.ID) == measured[u.ID] {
			t.Errorf("%s: Whole %v", u.ID, catalog.Whole(u.ID))
		}
		if catalog.Fits(decimal.Dec(150), u.ID) != measured[u.ID] || !catalog.Fits(decimal.Dec(300), u.ID) {
			t.Errorf("%s: 1.5 fits %v", u.ID, catalog.Fits(decimal.Dec(150), u.ID))
		}
		if len(u.Code) != 3 || u.Singular == "" || u.Plural == "" {
			t.Errorf("%s: %+v", u.ID, u)
		}
	}
	if strings.Join(ids, ",") != catalog.UnitIDs {
		t.Errorf("UnitIDs %q, table %q", catalog.UnitIDs, strings.Join(ids, ","))
	}
	if catalog.Whole("g") || catalog.UnitCode("g") != "H87" {
		t.Error("an unknown unit is not measured, billed in pieces")
	}
	for _, c := range []struct {
		q    decimal.Dec
		unit string
		want string
	}{
		{1250, "kg", "12,50 kg"}, {300, "l", "3 L"}, {100, "un", "1 pièce"}, {200, "un", "2 pièces"},
		{200, "douzaine", "2 douzaines"}, {100, "botte", "1 botte"}, {600, "bouteille", "6 bouteilles"},
	} {
		if got := catalog.QuantityText(c.q, c.unit); got != c.want {
			t.Errorf("QuantityText(%v, %s) = %q, want %q", c.q, c.unit, got, c.want)
		}
	}
	if catalog.UnitLabel("un") != "pièce" || catalog.UnitLabel("l") != "L" || catalog.UnitName("l") != "litres (L)" {
		t.Errorf("labels %q %q %q", catalog.UnitLabel("un"), catalog.UnitLabel("l"), catalog.UnitName("l"))
	}
}

// TestSeasonCoefs: a season's months share the year's weight, wrapping
// around the new year; a wrong season is refused.
func TestSeasonCoefs(t *testing.T) {
	c, ok := catalog.SeasonCoefs("11-2")
	if !ok || c[10] != 3 || c[1] != 3 || c[2] != 0 || c[9] != 0 {
		t.Errorf("11-2: %v %v", c, ok)
	}
	if c, ok := catalog.SeasonCoefs(""); !ok || c[5] != 1 {
		t.Errorf("all year: %v", c)
	}
	for _, bad := range []string{"0-3", "5", "a-b", "3-13"} {
		if _, ok := catalog.SeasonCoefs(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestInUse: the lists shops write their files from leave retired types
// out, in their order.
func TestInUse(t *testing.T) {
	ps := []catalog.Product{{ID: "a"}, {ID: "b", Retired: true}, {ID: "c"}}
	if got := catalog.InUse(ps); len(got) != 2 || got[0].ID != "a" || got[1].ID != "c" {
		t.Errorf("InUse = %+v", got)
	}
}
