package trade_test

import (
	"errors"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
)

// TestUpdateProfile: a producer's profile form re-plans its upcoming
// deliveries onto new delivery days, and only then; a refused form changes
// nothing. Each step starts from the plan before it.
func TestUpdateProfile(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		tomato := f.need(t, "tomate", "2026-12", 200)
		ok(t)(propose(db, f.farm, tomato, f.farm.ID, 100, 2, now))
		ok(t)(review(db, f.shop, tomato, f.farm.ID, true, now))
		mondayThursday := []string{
			"2026-12-03#1 tomate=11.11", "2026-12-07#2 tomate=11.11", "2026-12-10#3 tomate=11.11",
			"2026-12-14#4 tomate=11.11", "2026-12-17#5 tomate=11.11", "2026-12-21#6 tomate=11.11",
			"2026-12-24#7 tomate=11.11", "2026-12-28#8 tomate=11.11", "2026-12-31#9 tomate=11.12",
		}
		expectPlan(t, order(t, db, f.farm.ID, f.shop.ID, "2026-12-01"), orders.Planned, mondayThursday...)

		tel, siret := "0450000000", "123"
		days := func(s string) []bool {
			d := weekdays(s)
			return d[:]
		}
		tests := []struct {
			name    string
			user    accounts.User
			form    accounts.ProfileUpdate
			refused bool
			want    []string
		}{
			{"another field: nothing moves", f.farm, accounts.ProfileUpdate{Tel: &tel}, false, mondayThursday},
			{"the same days again: nothing moves", f.farm, accounts.ProfileUpdate{DefaultDeliveryDays: days("1001000")}, false, mondayThursday},
			{"new days with an invalid field: refused, nothing moves", f.farm,
				accounts.ProfileUpdate{DefaultDeliveryDays: days("0100000"), SIRET: &siret}, true, mondayThursday},
			{"Tuesdays only: five deliveries, reusing the first five", f.farm, accounts.ProfileUpdate{DefaultDeliveryDays: days("0100000")}, false,
				[]string{"2026-12-01#1 tomate=20", "2026-12-08#2 tomate=20", "2026-12-15#3 tomate=20", "2026-12-22#4 tomate=20", "2026-12-29#5 tomate=20"}},
			{"the shop's own form: the farm's plan stays", f.shop, accounts.ProfileUpdate{Tel: &tel}, false,
				[]string{"2026-12-01#1 tomate=20", "2026-12-08#2 tomate=20", "2026-12-15#3 tomate=20", "2026-12-22#4 tomate=20", "2026-12-29#5 tomate=20"}},
		}
		for _, tt := range tests {
			before := storetest.Snapshot(t, db)
			var u accounts.User
			err := db.Tx(ctx, func(tx *sqlx.Tx) error {
				var err error
				u, err = trade.UpdateProfile(ctx, tx, tt.user.ID, tt.form, now)
				return err
			})
			if tt.refused {
				var v *core.ValidationError
				if !errors.As(err, &v) || storetest.Snapshot(t, db) != before {
					t.Fatalf("%s: %v, or something changed", tt.name, err)
				}
			} else if err != nil || u.ID != tt.user.ID {
				t.Fatalf("%s: %v", tt.name, err)
			}
			expectPlan(t, order(t, db, f.farm.ID, f.shop.ID, "2026-12-01"), orders.Planned, tt.want...)
		}
		stored, err := accounts.ByID(ctx, db, f.farm.ID)
		if err != nil || stored.Tel != tel || stored.DeliveryDays != "0100000" {
			t.Fatalf("stored farm %+v, %v", stored, err)
		}
		if _, err := trade.UpdateProfile(ctx, db, "nobody", accounts.ProfileUpdate{Tel: &tel}, now); !errors.Is(err, core.ErrNotFound) {
			t.Fatalf("unknown user: %v", err)
		}
	})
}
