package catalog_test

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/catalog"
	"primeur/core/catalogadmin"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestMergedNamesFindTheKeptType: once an administrator merged a type
// into another, an import written with the merged type's name — exact,
// in the plural, or of a type merged into a merged one — finds the kept
// type; its id still finds it as it is, retired (issue 39). Both engines.
func TestMergedNamesFindTheKeptType(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			if _, err := catalogadmin.Merge(ctx, tx, "tomme-fermiere", "tomme-au-lait-cru", now); err != nil {
				return err
			}
			_, err := catalogadmin.Merge(ctx, tx, "tomme-au-lait-cru", "tomme-de-savoie", now)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		ps, err := catalog.All(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		ix := catalog.NewIndex(ps)
		for name, want := range map[string]string{
			"Tomme fermière":     "tomme-de-savoie", // merged into a merged type
			"TOMME AU LAIT CRU":  "tomme-de-savoie",
			"Tommes au lait cru": "tomme-de-savoie", // the plural, loosely
			"Tomme de Savoie":    "tomme-de-savoie",
			"Tomme de brebis":    "tomme-de-brebis", // untouched
		} {
			if p, ok := ix.Match(name); !ok || p.ID != want {
				t.Errorf("%q finds %q (%v), want %q", name, p.ID, ok, want)
			}
		}
		if p, ok := ix.ByID("tomme-fermiere"); !ok || !p.Retired || p.MergedInto != "tomme-au-lait-cru" {
			t.Errorf("by id: %+v %v", p, ok)
		}
	})
}
