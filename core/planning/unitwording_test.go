package planning_test

import (
	"strings"
	"testing"

	"primeur/core/catalog"
	"primeur/core/planning"
)

// TestUnitRefusalsReadNaturally: for every unit of need, the import's
// refusals of a type's quantity — another unit than its own, a decimal
// number of a counted unit — name the unit as French does ("kilogrammes
// (kg)", "litres (L)", "douzaines", "pots"; never "douzaines (douzaine)"
// nor "pièces (un)") and make the catalogue the subject, so that a plural
// name needs no agreement ("le catalogue compte « Œufs de poule plein air »
// en douzaines", not "Œufs … se compte"); and the unit the refusal asks
// for, written as it says, imports. Every unit of catalog.Units has a row:
// a seeded type of it, or, for a unit no seeded type has yet (barquette),
// one an administrator would add. The whole catalogue's index, as an
// import reads it (issue 39).
func TestUnitRefusalsReadNaturally(t *testing.T) {
	all, err := catalog.Catalogue()
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		unit, product string
		// other is another unit the file writes; asked the unit the
		// refusal asks for, as a file writes it.
		other, asked string
		// wrongUnit and decimal are the refusals of other and of 2,5 (""
		// for a measured unit, which takes decimals).
		wrongUnit, decimal string
	}{
		{catalog.Kg, "Tomme de Savoie", "litres", "kg",
			"Unité en B2 (« litres ») : le catalogue compte « Tomme de Savoie » en kilogrammes (kg) ; indiquez la quantité en kilogrammes (kg).",
			""},
		{catalog.Litre, "Lait cru entier", "kg", "L",
			"Unité en B2 (« kg ») : le catalogue compte « Lait cru entier » en litres (L) ; indiquez la quantité en litres (L).",
			""},
		{catalog.Piece, "Melon", "kg", "pièces",
			"Unité en B2 (« kg ») : le catalogue compte « Melon » en pièces ; indiquez la quantité en pièces.",
			"Quantité incorrecte en C2 (« 2,5 ») : le catalogue compte « Melon » en pièces ; saisissez un nombre entier."},
		{catalog.Dozen, "Œufs de poule plein air", "kg", "douzaines",
			"Unité en B2 (« kg ») : le catalogue compte « Œufs de poule plein air » en douzaines ; indiquez la quantité en douzaines.",
			"Quantité incorrecte en C2 (« 2,5 ») : le catalogue compte « Œufs de poule plein air » en douzaines ; saisissez un nombre entier."},
		{catalog.Bunch, "Ciboulette", "kg", "bottes",
			"Unité en B2 (« kg ») : le catalogue compte « Ciboulette » en bottes ; indiquez la quantité en bottes.",
			"Quantité incorrecte en C2 (« 2,5 ») : le catalogue compte « Ciboulette » en bottes ; saisissez un nombre entier."},
		{catalog.Tray, "Fruits rouges des bois", "kg", "barquettes",
			"Unité en B2 (« kg ») : le catalogue compte « Fruits rouges des bois » en barquettes ; indiquez la quantité en barquettes.",
			"Quantité incorrecte en C2 (« 2,5 ») : le catalogue compte « Fruits rouges des bois » en barquettes ; saisissez un nombre entier."},
		{catalog.Bottle, "Cidre brut", "litres", "bouteilles",
			"Unité en B2 (« litres ») : le catalogue compte « Cidre brut » en bouteilles ; indiquez la quantité en bouteilles.",
			"Quantité incorrecte en C2 (« 2,5 ») : le catalogue compte « Cidre brut » en bouteilles ; saisissez un nombre entier."},
		{catalog.Jar, "Miel toutes fleurs", "kg", "pots",
			"Unité en B2 (« kg ») : le catalogue compte « Miel toutes fleurs » en pots ; indiquez la quantité en pots.",
			"Quantité incorrecte en C2 (« 2,5 ») : le catalogue compte « Miel toutes fleurs » en pots ; saisissez un nombre entier."},
	}
	covered := map[string]bool{}
	for _, r := range rows {
		covered[r.unit] = true
	}
	for _, u := range catalog.Units {
		if !covered[u.ID] {
			t.Errorf("unit %q has no row", u.ID)
		}
	}
	seeded := catalog.NewIndex(all)
	for _, r := range rows {
		if p, ok := seeded.ByName(r.product); ok && p.Unit != r.unit {
			t.Fatalf("%s is in %s, not %s", r.product, p.Unit, r.unit)
		} else if !ok {
			all = append(all, catalog.Product{ID: catalog.NameKey(r.product), Name: r.product, Unit: r.unit, Family: "fruits", VATRate: 550})
		}
	}
	ix := catalog.NewIndex(all)
	for _, r := range rows {
		t.Run(r.unit, func(t *testing.T) {
			row := func(unit, quantity string) string {
				return "Produit;Unité;janv. 2027\r\n" + r.product + ";" + unit + ";" + quantity + "\r\n"
			}
			for _, c := range []struct{ unit, quantity, want string }{
				{r.other, "3", r.wrongUnit},
				{r.asked, "2,5", r.decimal},
				{r.asked, "3", ""},
			} {
				imp, err := planning.ParseFile("besoins.csv", []byte(row(c.unit, c.quantity)), ix, planning.ParseOptions{})
				switch {
				case c.want == "" && err != nil:
					t.Errorf("%s %s refused: %v", c.quantity, c.unit, err)
				case c.want == "" && (len(imp.Rows) != 1 || len(imp.Rows[0].Cells) != 1):
					t.Errorf("%s %s: %+v", c.quantity, c.unit, imp.Rows)
				case c.want == "" && c.quantity == "3" && imp.Rows[0].Cells[0].Quantity != 3_00:
					t.Errorf("%s %s read %v", c.quantity, c.unit, imp.Rows[0].Cells[0].Quantity)
				case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
					t.Errorf("%s %s: got %v, want %q", c.quantity, c.unit, err, c.want)
				}
			}
		})
	}
}
