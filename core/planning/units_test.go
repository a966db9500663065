package planning_test

import (
	"context"
	"strings"
	"testing"

	"primeur/core/accounts"
	"primeur/core/decimal"
	"primeur/core/planning"
	"primeur/core/sheets/sheetstest"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestImportOfEveryUnit: an Excel file of needs for the catalogue's new
// types imports in their units — raw milk in litres with decimals, eggs by
// the dozen, cider by the bottle, a cheese by the kilo, "Oeufs" matching
// "Œufs" —, and a decimal number of dozens is refused, saying the type is
// counted in dozens; a retired type takes no new need and keeps its own.
// Both engines.
func TestImportOfEveryUnit(t *testing.T) {
	data := book(t, sheetstest.Workbook{Sheets: []sheetstest.Sheet{{Name: "Besoins", Cells: map[string]any{
		"A1": "Produit", "B1": "Unité", "C1": "janv. 2027", "D1": "févr. 2027",
		"A2": "Lait cru entier", "B2": "litres", "C2": 120.5, "D2": 98,
		"A3": "Oeufs de poule plein air", "B3": "douzaines", "C3": 30,
		"A4": "Cidre brut", "B4": "bouteilles", "C4": 24,
		"A5": "Tomme de Savoie", "B5": "kg", "C5": 12.75,
	}}}})
	halfDozen := book(t, sheetstest.Workbook{Sheets: []sheetstest.Sheet{{Name: "Besoins", Cells: map[string]any{
		"A1": "Produit", "B1": "févr. 2027", "A2": "Œufs de poule plein air", "B2": 2.5,
	}}}})
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		shop, err := accounts.Register(ctx, db, accounts.Registration{Email: "shop@x.fr", Password: "motdepasse1", Name: "Épicerie", Distributor: true}, now)
		if err != nil {
			t.Fatal(err)
		}
		res, err := planning.ImportXLSX(ctx, db, shop.ID, "besoins.xlsx", data, now, planning.ImportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.DBSuccesses != 5 || len(res.ProductsMissing) != 0 {
			t.Fatalf("%d written, missing %v, problems %+v", res.DBSuccesses, res.ProductsMissing, res)
		}
		for _, c := range []struct {
			product, month string
			want           decimal.Dec
		}{
			{"lait-cru-entier", "2027-01-01", 12050}, {"lait-cru-entier", "2027-02-01", 9800},
			{"oeufs-de-poule-plein-air", "2027-01-01", 3000}, {"oeufs-de-poule-plein-air", "2027-02-01", -1},
			{"cidre-brut", "2027-01-01", 2400}, {"tomme-de-savoie", "2027-01-01", 1275},
		} {
			if got := quantity(t, db, shop.ID, c.product, c.month); got != c.want {
				t.Errorf("%s in %s: %v, want %v", c.product, c.month, got, c.want)
			}
		}
		_, err = planning.ImportXLSX(ctx, db, shop.ID, "oeufs.xlsx", halfDozen, now, planning.ImportOptions{})
		if err == nil || !strings.Contains(err.Error(), "le catalogue compte « Œufs de poule plein air » en douzaines ; saisissez un nombre entier") {
			t.Errorf("a half dozen not refused as such: %v", err)
		}

		// Retired, the cider keeps its need and takes no new one.
		if _, err := db.ExecContext(ctx, `UPDATE products SET retired_at = 1 WHERE id = 'cidre-brut'`); err != nil {
			t.Fatal(err)
		}
		if _, err := planning.Create(ctx, db, shop.ID, planning.NeedInput{ProductID: "cidre-brut", Date: "2027-03", Quantity: 6}, now); refusalMessage(err) != planning.MsgRetired {
			t.Errorf("a new need of a retired type: %v", err)
		}
		if _, err := planning.Write(ctx, db, shop.ID, []planning.Cell{{ProductID: "cidre-brut", Month: "2027-01-01", Quantity: 3000}}, now); err != nil ||
			quantity(t, db, shop.ID, "cidre-brut", "2027-01-01") != 3000 {
			t.Errorf("the retired type's need: %v", err)
		}
	})
}
