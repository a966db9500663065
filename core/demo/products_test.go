package demo

import (
	"context"
	"slices"
	"testing"

	"primeur/core/accounts"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/supplied"
)

// seededProducts: the demo's dairy and meat producer list products with
// labels and photos, and the dairy's proposal on the first shop's tomme
// names its own product (issue 39).
func seededProducts(t *testing.T, db *store.DB) {
	ctx := context.Background()
	labels := map[string]bool{}
	var tomme string
	for k, m := range makers {
		u, err := accounts.ByEmail(ctx, db, m.email)
		if err != nil || !u.IsProducer() {
			t.Fatalf("%s: %+v %v", m.email, u, err)
		}
		ps, err := supplied.List(ctx, db, u.ID)
		if err != nil || len(ps) < 2 {
			t.Fatalf("%s lists %d products (%v)", m.name, len(ps), err)
		}
		for _, p := range ps {
			if p.Photo == nil {
				t.Errorf("%s has no photo", p.Name)
			}
			for _, l := range p.Labels {
				labels[l] = true
			}
			if k == 0 && p.Type == "tomme-de-savoie" {
				tomme = p.ID
			}
		}
	}
	for _, l := range []string{"igp", "aop", "ab", "label-rouge"} {
		if !labels[l] {
			t.Errorf("no demo product is %s", l)
		}
	}
	shop, err := accounts.ByEmail(ctx, db, shops[0].email)
	if err != nil {
		t.Fatal(err)
	}
	views, err := planning.List(ctx, db, planning.Filter{DistributorID: shop.ID})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(views, func(v planning.View) bool { return v.Product == "tomme-de-savoie" })
	if i < 0 || len(views[i].Proposals) != 1 || views[i].Proposals[0].SuppliedProduct == nil || *views[i].Proposals[0].SuppliedProduct != tomme {
		t.Fatalf("the shop's tomme need: %+v", views[max(i, 0)])
	}
}
