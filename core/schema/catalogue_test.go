package schema_test

import (
	"context"
	"testing"

	"primeur/core/catalog"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestCatalogueMigrated: the products a migrated database holds are exactly
// the embedded catalogue (core/catalog's catalogue.csv, as catalog.Catalogue
// reads it). Migration 3 froze the catalogue as rows; an edit of the CSV
// that no new migration carries to existing databases fails here.
func TestCatalogueMigrated(t *testing.T) {
	want, err := catalog.Catalogue()
	if err != nil {
		t.Fatal(err)
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var got []catalog.Product
		if err := store.Select(context.Background(), db, &got,
			`SELECT id, name, name_key, unit, share, ref_price, coefs FROM products ORDER BY id`); err != nil {
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
				g.RefPrice != w.RefPrice || g.CoefsRaw != w.CoefsRaw {
				t.Errorf("product %s: database %+v, catalogue %+v", w.ID, g, w)
			}
		}
	})
}
