package supplied_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/supplied"
)

func placed(t *testing.T, db *store.DB, email, typ, lat, lon string) accounts.User {
	t.Helper()
	u := accounts.User{ID: core.NewID(), Type: typ, Email: email, EmailKey: email, Name: email, PasswordHash: "-",
		DeliveryDays: "1000000", AddressLine1: "1 rue du Port", Latitude: lat, Longitude: lon,
		CreatedAt: now.UnixMilli(), UpdatedAt: now.UnixMilli()}
	if err := accounts.Insert(ctx, db, u); err != nil {
		t.Fatal(err)
	}
	return u
}

// TestFind: a shop finds producers by product type or family, label and
// road distance, nearest first, a producer not placed last and left out of
// a distance; a label or distance it cannot mean is refused (PRODUCT §3
// "Finding producers"). Both engines.
func TestFind(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		shop := placed(t, db, "epicerie@annecy.fr", accounts.Distributor, "45.8992", "6.1294")
		near := placed(t, db, "fruitiere@bornand.fr", accounts.Producer, "45.9420", "6.4280") // 30 km by road
		far := placed(t, db, "ferme@lyon.fr", accounts.Producer, "45.7640", "4.8357")         // 134 km
		nowhere := placed(t, db, "alpage@x.fr", accounts.Producer, "", "")
		for _, c := range []struct {
			who accounts.User
			in  supplied.Input
		}{
			{near, supplied.Input{Type: "tomme-de-savoie", Name: "Tomme", UnitQuantity: 1, Months: []int{1}, Labels: []string{"aop"}}},
			{near, supplied.Input{Type: "beurre-cru", Name: "Beurre", UnitQuantity: 1, Months: []int{1}}},
			{far, supplied.Input{Type: "tomme-de-savoie", Name: "Tomme bio", UnitQuantity: 1, Months: []int{1}, Labels: []string{"ab"}, Certifier: "FR-BIO-10"}},
			{nowhere, supplied.Input{Type: "reblochon", Name: "Reblochon", UnitQuantity: 1, Months: []int{1}, Labels: []string{"aop"}}},
		} {
			if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
				_, err := supplied.Create(ctx, tx, c.who.ID, c.in, now)
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			name   string
			filter supplied.Filter
			want   []string // producers, in order
		}{
			{"a type, nearest first", supplied.Filter{Type: "tomme-de-savoie"}, []string{near.ID, far.ID}},
			{"a family and a label, the unplaced last", supplied.Filter{Family: "fromages", Label: "aop"}, []string{near.ID, nowhere.ID}},
			{"within 50 km", supplied.Filter{Family: "fromages", MaxKm: 50}, []string{near.ID}},
			{"organic", supplied.Filter{Label: "ab"}, []string{far.ID}},
			{"nothing of the kind", supplied.Filter{Type: "miel-de-lavande"}, []string{}},
		} {
			t.Run(c.name, func(t *testing.T) {
				found, err := supplied.Find(ctx, db, shop.ID, c.filter)
				if err != nil {
					t.Fatal(err)
				}
				got := []string{}
				for _, f := range found {
					got = append(got, f.Producer)
					for _, p := range f.Products {
						if p.Producer != f.Producer || (c.filter.Label != "" && !slices.Contains(p.Labels, c.filter.Label)) {
							t.Errorf("%s lists %+v", f.Name, p)
						}
					}
				}
				if !slices.Equal(got, c.want) {
					t.Errorf("got %v, want %v", got, c.want)
				}
			})
		}
		found, _ := supplied.Find(ctx, db, shop.ID, supplied.Filter{Type: "tomme-de-savoie"})
		if d := found[0].DistanceKm; d == nil || *d < 25 || *d > 35 || len(found[0].Products) != 1 {
			t.Errorf("the dairy: %+v", found[0])
		}
		// The planner's filter: the types sold by producers of a label
		// within a distance (PRODUCT §2 "Needs planner", "Filters").
		for _, c := range []struct {
			name   string
			filter supplied.Filter
			want   []string
		}{
			{"any", supplied.Filter{}, []string{"beurre-cru", "reblochon", "tomme-de-savoie"}},
			{"AOP", supplied.Filter{Label: "aop"}, []string{"reblochon", "tomme-de-savoie"}},
			{"AOP within 50 km: the unplaced left out", supplied.Filter{Label: "aop", MaxKm: 50}, []string{"tomme-de-savoie"}},
			{"organic within 50 km", supplied.Filter{Label: "ab", MaxKm: 50}, []string{}},
			{"nothing of the label, a distance asked", supplied.Filter{Label: "nature-progres", MaxKm: 50}, []string{}},
			{"organic within 200 km", supplied.Filter{Label: "ab", MaxKm: 200}, []string{"tomme-de-savoie"}},
		} {
			t.Run("types: "+c.name, func(t *testing.T) {
				got, err := supplied.Types(ctx, db, shop.ID, c.filter)
				if err != nil || !slices.Equal(got, c.want) {
					t.Errorf("got %v (%v), want %v", got, err, c.want)
				}
			})
		}
		for _, c := range []struct {
			filter supplied.Filter
			field  string
		}{
			{supplied.Filter{Label: "demeter"}, "label"},
			{supplied.Filter{MaxKm: 5000}, "km"},
			{supplied.Filter{MaxKm: -1}, "km"},
		} {
			var v *core.ValidationError
			if _, err := supplied.Find(ctx, db, shop.ID, c.filter); !errors.As(err, &v) || v.Fields[0].Field != c.field {
				t.Errorf("%+v: %v", c.filter, err)
			}
			if _, err := supplied.Types(ctx, db, shop.ID, c.filter); !errors.As(err, &v) || v.Fields[0].Field != c.field {
				t.Errorf("types %+v: %v", c.filter, err)
			}
		}
	})
}
