package dayplan_test

import (
	"errors"
	"strings"
	"testing"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/dayplan"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
	"primeur/core/trade/tradetest"
)

// TestShopDeliveryNotes: a shop's delivery instructions and opening hours,
// set through its profile (producers may not set them, each bounded at
// 500 characters), reach its packing sheet and its stop of the round
// (issue 40), on both engines.
func TestShopDeliveryNotes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		now := tradetest.At(2026, 11, 20, 10, 0)
		s := func(v string) *string { return &v }
		instructions, hours := "Livrer par la cour\nsonner à la réserve", "Mardi à samedi, 7h30–11h"
		if _, err := trade.UpdateProfile(ctx, db, w.Shop.ID, accounts.ProfileUpdate{
			DeliveryInstructions: s("  " + instructions + " "), OpeningHours: s(hours),
		}, now); err != nil {
			t.Fatal(err)
		}
		shop, err := accounts.ByID(ctx, db, w.Shop.ID)
		if err != nil {
			t.Fatal(err)
		}
		p := shop.Profile()
		if shop.DeliveryInstructions != instructions || p.DeliveryInstructions == nil || *p.OpeningHours != hours {
			t.Fatalf("stored %q %q, profile %+v", shop.DeliveryInstructions, shop.OpeningHours, p.OpeningHours)
		}
		if farm, _ := accounts.ByID(ctx, db, w.Farm.ID); farm.Profile().OpeningHours != nil {
			t.Fatal("a producer's profile shows opening hours")
		}
		for _, tc := range []struct {
			who  string
			p    accounts.ProfileUpdate
			want string
		}{
			{w.Farm.ID, accounts.ProfileUpdate{OpeningHours: s("8h-12h")}, accounts.MsgNotForRole},
			{w.Shop.ID, accounts.ProfileUpdate{DeliveryInstructions: s(strings.Repeat("é", 501))}, accounts.MsgTooLong},
		} {
			before := storetest.Snapshot(t, db)
			_, err := trade.UpdateProfile(ctx, db, tc.who, tc.p, now)
			var v *core.ValidationError
			if !errors.As(err, &v) || v.Fields[0].Message != tc.want {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
			if after := storetest.Snapshot(t, db); after != before {
				t.Fatalf("a refused update changed:\n%s", storetest.Changes(before, after))
			}
		}

		w.Deliver(w.Farm.ID, w.Shop.ID, "2026-11-24", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		d, err := dayplan.Load(ctx, db, w.Farm.ID, "2026-11-24")
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Packing) != 1 || d.Packing[0].Instructions != instructions || d.Packing[0].Hours != hours {
			t.Fatalf("packing %+v", d.Packing)
		}
		if d.Round.Stops[0].Hours != hours {
			t.Fatalf("stop %+v", d.Round.Stops[0])
		}
	})
}
