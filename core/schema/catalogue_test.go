package schema_test

import (
	"context"
	"testing"

	"primeur/core/catalog"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestCatalogueMigrated: the products a migrated database holds are exactly
// the embedded catalogue (core/catalog's types.csv and catalogue.csv, as
// catalog.Catalogue reads them), family, VAT rate and DFC type included. Migration 3 froze the catalogue as rows; an edit of the CSV
// that no new migration carries to existing databases fails here.
func TestCatalogueMigrated(t *testing.T) {
	want, err := catalog.Catalogue()
	if err != nil {
		t.Fatal(err)
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var got []catalog.Product
		if err := store.Select(context.Background(), db, &got,
			`SELECT id, name, name_key, unit, share, ref_price, coefs, family_id, vat_rate, dfc_type FROM products ORDER BY id`); err != nil {
			t.Fatal(err)
		}
		byID := map[string]catalog.Product{}
		for _, p := range got {
			byID[p.ID] = p
		}
		if len(got) != len(want) {
			t.Errorf("%d products in the database, %d in the catalogue", len(got), len(want))
		}
		for _, w := range want {
			g, ok := byID[w.ID]
			if !ok || g.Name != w.Name || g.NameKey != w.NameKey || g.Unit != w.Unit || g.Share != w.Share ||
				g.RefPrice != w.RefPrice || g.CoefsRaw != w.CoefsRaw || g.Family != w.Family || g.VATRate != w.VATRate ||
				g.DFCType != w.DFCType {
				t.Errorf("product %s: database %+v, catalogue %+v", w.ID, g, w)
			}
		}
	})
}

// TestUnitsOfNeed: after migration 46, products.unit takes every unit of
// catalog.Units and nothing else, on both engines (SQLite's CHECK was
// rewritten in place), and a SQLite database so changed passes its
// integrity check.
func TestUnitsOfNeed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for i, u := range catalog.Units {
			id := "unite-" + u.ID
			if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO products (id, name, name_key, unit, share, ref_price, coefs, family_id)
				VALUES (?, ?, ?, ?, 0, 0, '1,1,1,1,1,1,1,1,1,1,1,1', 'epicerie')`), id, id, id, u.ID); err != nil {
				t.Errorf("unit %d %q refused: %v", i, u.ID, err)
			}
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO products (id, name, name_key, unit, share, ref_price, coefs)
			VALUES ('x', 'x', 'x', 'g', 0, 0, '')`); err == nil {
			t.Error("unit g accepted")
		}
		if db.Dialect == store.SQLite {
			if err := db.IntegrityCheck(ctx); err != nil {
				t.Error(err)
			}
		}
	})
}
