package fees_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/dayplan"
	"primeur/core/decimal"
	"primeur/core/fees"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

var (
	ctx = context.Background()
	now = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
)

func user(t *testing.T, db *store.DB, email, typ string, lat, lon int64, line3 string) accounts.User {
	t.Helper()
	u := accounts.User{ID: core.NewID(), Type: typ, Email: email, EmailKey: email, Name: email, PasswordHash: "-",
		DeliveryDays: "1000000", AddressLine1: "1 rue du Port", AddressLine3: line3, CreatedAt: now.UnixMilli(), UpdatedAt: now.UnixMilli()}
	if lat != 0 {
		u.Latitude, u.Longitude = strconv.FormatFloat(float64(lat)/1e6, 'f', 6, 64), strconv.FormatFloat(float64(lon)/1e6, 'f', 6, 64)
	}
	if err := accounts.Insert(ctx, db, u); err != nil {
		t.Fatal(err)
	}
	return u
}

// TestFees: the fee of a delivery by distance band, past the last band,
// from the free threshold, and a shop's exception (PRODUCT §16); on both
// engines, where the terms are stored.
func TestFees(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		// The farm at Nantes' town hall; shops 5 km, 26 km and 60 km away
		// as the crow flies (road: ×1.3), and one placed only by its postal
		// code (Nantes' own position).
		farm := user(t, db, "farm@x.fr", accounts.Producer, 47218400, -1553600, "44000 Nantes")
		near := user(t, db, "near@x.fr", accounts.Distributor, 47218400, -1487300, "")
		mid := user(t, db, "mid@x.fr", accounts.Distributor, 47218400, -1208000, "")
		far := user(t, db, "far@x.fr", accounts.Distributor, 47218400, -757700, "")
		town := user(t, db, "town@x.fr", accounts.Distributor, 0, 0, "44000 Nantes")
		nowhere := user(t, db, "nowhere@x.fr", accounts.Distributor, 0, 0, "")

		if _, err := fees.Set(ctx, db, farm.ID, fees.Input{Minimum: 50, Fee: 25, FreeAbove: 300,
			Bands: []fees.BandInput{{UpToKm: 10, Fee: 5}, {UpToKm: 40, Fee: 12.5}}}, now); err != nil {
			t.Fatal(err)
		}
		zero := 0.0
		if _, err := fees.SetException(ctx, db, farm.ID, near.ID, nil, &zero, now); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			shop      accounts.User
			fee       decimal.Dec
			km        float64 // -1: not placed
			exception bool
		}{
			{near, 0, -1, true}, // delivered free by exception: no distance counted
			{mid, 1250, 33.9, false},
			{far, 2500, 78.1, false}, // past the last band: the flat fee
			{town, 500, 0.2, false},  // the town's position
			{nowhere, 2500, -1, false},
		} {
			a, err := fees.For(ctx, db, farm.ID, c.shop.ID)
			if err != nil {
				t.Fatal(err)
			}
			km := -1.0
			if a.DistanceKm != nil {
				km = *a.DistanceKm
			}
			if a.Fee != c.fee || math.Abs(km-c.km) > 0.05 || a.Exception != c.exception || a.Minimum != 5000 || a.FreeAbove != 30000 {
				t.Errorf("%s: %+v at %.1f km, want fee %v at %.1f km", c.shop.Email, a, km, c.fee, c.km)
			}
			// The threshold frees the delivery; below it the fee is due.
			if got := a.FeeFor(29999); got != c.fee {
				t.Errorf("%s: fee of 299,99 € %v, want %v", c.shop.Email, got, c.fee)
			}
			if got := a.FeeFor(30000); got != 0 {
				t.Errorf("%s: fee of 300 € %v, want 0", c.shop.Email, got)
			}
		}

		// The settings as the profile shows them, and an exception removed.
		s, err := fees.Get(ctx, db, farm.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Terms.Bands) != 2 || s.Terms.Bands[1].Fee != 1250 || len(s.Exceptions) != 1 || s.Exceptions[0].ShopName != "near@x.fr" ||
			s.Exceptions[0].Minimum != nil || s.Exceptions[0].Fee == nil || *s.Exceptions[0].Fee != 0 {
			t.Fatalf("settings %+v", s)
		}
		if err := fees.DeleteException(ctx, db, farm.ID, near.ID); err != nil {
			t.Fatal(err)
		}
		if err := fees.DeleteException(ctx, db, farm.ID, near.ID); !errors.Is(err, core.ErrNotFound) {
			t.Fatalf("deleting a missing exception: %v", err)
		}
		if a, err := fees.For(ctx, db, farm.ID, near.ID); err != nil || a.Fee != 500 || a.Exception {
			t.Fatalf("near without its exception: %+v, %v", a, err)
		}
		// An exception for a producer is no shop's.
		if _, err := fees.SetException(ctx, db, farm.ID, farm.ID, &zero, nil, now); !errors.Is(err, core.ErrNotFound) {
			t.Fatalf("an exception for a producer: %v", err)
		}
		// A producer that never set its terms has none.
		if a, err := fees.For(ctx, db, near.ID, far.ID); err != nil || a != (fees.Applied{}) {
			t.Fatalf("no terms: %+v, %v", a, err)
		}
	})
}

// TestValidate: every field refused names itself, with PRODUCT §16's text.
func TestValidate(t *testing.T) {
	for _, c := range []struct {
		name  string
		in    fees.Input
		field string
		msg   string
	}{
		{"negative minimum", fees.Input{Minimum: -1}, "minimum", fees.MsgAmount},
		{"three decimals", fees.Input{Fee: 1.234}, "fee", fees.MsgAmount},
		{"above 10 000 €", fees.Input{FreeAbove: 10000.01}, "freeAbove", fees.MsgAmount},
		{"NaN", fees.Input{Fee: math.NaN()}, "fee", fees.MsgAmount},
		{"band not increasing", fees.Input{Bands: []fees.BandInput{{UpToKm: 10, Fee: 1}, {UpToKm: 10, Fee: 2}}}, "bands[1].upToKm", fees.MsgBandKm},
		{"band of half a km", fees.Input{Bands: []fees.BandInput{{UpToKm: 2.5, Fee: 1}}}, "bands[0].upToKm", fees.MsgBandKm},
		{"band too far", fees.Input{Bands: []fees.BandInput{{UpToKm: 1001, Fee: 1}}}, "bands[0].upToKm", fees.MsgBandKm},
		{"band fee", fees.Input{Bands: []fees.BandInput{{UpToKm: 5, Fee: -1}}}, "bands[0].fee", fees.MsgAmount},
		{"too many bands", fees.Input{Bands: make([]fees.BandInput, 11)}, "bands", fees.MsgTooMany},
	} {
		_, err := fees.Validate(c.in)
		var v *core.ValidationError
		if !errors.As(err, &v) || v.Fields[0].Field != c.field || v.Fields[0].Message != c.msg {
			t.Errorf("%s: %v, want %s: %s", c.name, err, c.field, c.msg)
		}
	}
	if _, err := fees.Validate(fees.Input{Minimum: 80, Fee: 12.5, FreeAbove: 250, Bands: []fees.BandInput{{UpToKm: 10, Fee: 0}}}); err != nil {
		t.Fatal(err)
	}
}

// TestCheck: the minimum's refusal names what is missing, the French way.
func TestCheck(t *testing.T) {
	a := fees.Applied{Minimum: 8000}
	err := a.Check(6750)
	var r *core.Refusal
	if !errors.As(err, &r) || !errors.Is(err, core.ErrConflict) || r.Message != "Commande minimum de 80,00 € par livraison : il manque 12,50 €." {
		t.Fatalf("Check(67,50 €): %v", err)
	}
	for _, amount := range []decimal.Dec{0, 8000, 12000} {
		if err := a.Check(amount); err != nil {
			t.Errorf("Check(%v): %v", amount, err)
		}
	}
	if err := (fees.Applied{}).Check(1); err != nil {
		t.Errorf("no minimum: %v", err)
	}
	if got := fees.MinimumMessage(123456, 5); got != "Commande minimum de 1\u202f234,56 € par livraison : il manque 0,05 €." {
		t.Errorf("MinimumMessage: %q", got)
	}
}

// TestDistanceIsTheRounds: the fees count the distance the round counts.
func TestDistanceIsTheRounds(t *testing.T) {
	a, b := fees.Point{Lat: 47.2184, Lon: -1.5536}, fees.Point{Lat: 45.764, Lon: 4.8357}
	want := dayplan.RoadKm(dayplan.Point{Lat: a.Lat, Lon: a.Lon}, dayplan.Point{Lat: b.Lat, Lon: b.Lon})
	if got := fees.RoadKm(a, b); math.Abs(got-want) > 1e-9 {
		t.Fatalf("RoadKm %v, dayplan's %v", got, want)
	}
}

// TestSplit: a fee over goods at several VAT rates is shared in proportion
// of their amounts HT, the parts adding up to the fee.
func TestSplit(t *testing.T) {
	for _, c := range []struct {
		name  string
		fee   decimal.Dec
		goods []fees.Part
		want  []fees.Part
	}{
		{"one rate", 1200, []fees.Part{{Rate: 550, Amount: 8000}, {Rate: 550, Amount: 1000}}, []fees.Part{{Rate: 550, Amount: 1200}}},
		// 60 € at 5.5 % and 40 € at 20 %: 6 € and 4 €.
		{"two rates", 1000, []fees.Part{{Rate: 2000, Amount: 4000}, {Rate: 550, Amount: 6000}},
			[]fees.Part{{Rate: 550, Amount: 600}, {Rate: 2000, Amount: 400}}},
		// Thirds of 10 €: 3,33 € twice, the highest rate 3,34 €.
		{"rounding", 1000, []fees.Part{{Rate: 550, Amount: 100}, {Rate: 1000, Amount: 100}, {Rate: 2000, Amount: 100}},
			[]fees.Part{{Rate: 550, Amount: 333}, {Rate: 1000, Amount: 333}, {Rate: 2000, Amount: 334}}},
		{"no fee", 0, []fees.Part{{Rate: 550, Amount: 100}}, nil},
		{"no goods", 500, []fees.Part{{Rate: 550, Amount: 0}}, nil},
	} {
		got := fees.Split(c.fee, c.goods)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		var sum decimal.Dec
		for _, p := range got {
			sum += p.Amount
		}
		if len(got) > 0 && sum != c.fee {
			t.Errorf("%s: parts add up to %v, not %v", c.name, sum, c.fee)
		}
	}
}
