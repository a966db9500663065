package accounts_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

func e6(p *int64) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}

// TestPositionFollowsEveryWrite: the map's position columns follow the
// profile's texts wherever they are written — Insert, InsertAll (whose
// rows are Insert's, column for column) and the profile update, which
// also unplaces an account whose position is erased.
func TestPositionFollowsEveryWrite(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		mandate := t0.UnixMilli()
		full := func(id string) accounts.User {
			return accounts.User{
				ID: id, Type: accounts.Producer, Email: id + "@ferme.fr", EmailKey: id + "@ferme.fr", Name: "Ferme " + id,
				PasswordHash: "h", Capital: "1000", BIC: "AGRIFRPP882", APE: "0113Z", IBAN: "FR7630006000011234567890189",
				SIRET: "12345678900012", Tel: "0450000000", TVAIntracom: "FR32123456789", AddressLine1: "1 route",
				AddressLine2: "74230 Thônes", AddressLine3: "", Latitude: "45.8814", Longitude: "-6.3256",
				Certification: "AB", Legal: "EARL", DeliveryDays: "1001000",
				BillingAddressLine1: "BP 1", BillingAddressLine2: "74230", BillingAddressLine3: "Thônes",
				BillingMandateAt: &mandate, PaymentDays: 20, PaymentBasis: "month", PaymentDiscount: 150,
				PaymentDiscountDays: 8, CutoffOptOut: true, CreatedAt: 5, UpdatedAt: 6,
			}
		}
		if err := accounts.Insert(ctx, db, full("one")); err != nil {
			t.Fatal(err)
		}
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			return accounts.InsertAll(ctx, tx, []accounts.User{full("bulk"), {ID: "bare", Type: accounts.Distributor,
				Email: "bare@x.fr", EmailKey: "bare@x.fr", Name: "Sans rien", PasswordHash: "h", DeliveryDays: "0000000"}})
		}); err != nil {
			t.Fatal(err)
		}
		one, err := accounts.ByID(ctx, db, "one")
		if err != nil {
			t.Fatal(err)
		}
		bulk, err := accounts.ByID(ctx, db, "bulk")
		if err != nil {
			t.Fatal(err)
		}
		if e6(one.LatE6) != "45881400" || e6(one.LonE6) != "-6325600" {
			t.Fatalf("Insert: position %s, %s", e6(one.LatE6), e6(one.LonE6))
		}
		same := bulk
		same.ID, same.Email, same.EmailKey, same.Name = one.ID, one.Email, one.EmailKey, one.Name
		same.EmailConfirmedKey = one.EmailConfirmedKey
		row := func(u accounts.User) string {
			pointers := e6(u.LatE6) + "|" + e6(u.LonE6) + "|" + e6(u.BillingMandateAt)
			u.LatE6, u.LonE6, u.BillingMandateAt = nil, nil, nil
			return fmt.Sprintf("%+v|%s", u, pointers)
		}
		if row(same) != row(one) {
			t.Fatalf("InsertAll wrote\n%+v\nInsert\n%+v", bulk, one)
		}
		if bulk.EmailConfirmedKey != "bulk@ferme.fr" {
			t.Fatalf("InsertAll: confirmed %q", bulk.EmailConfirmedKey)
		}
		bare, err := accounts.ByID(ctx, db, "bare")
		if err != nil || bare.LatE6 != nil || bare.LonE6 != nil || bare.PaymentBasis != "decade" || bare.BillingMandateAt != nil {
			t.Fatalf("a bare account: %+v (%v)", bare, err)
		}

		// The profile update moves and erases the position.
		for _, c := range []struct{ lat, lon, want string }{
			{"46.2", "5.22", "46200000,5220000"},
			{"0", "0", "nil,nil"},
			{"45.5", "6", "45500000,6000000"},
			{"", "", "nil,nil"},
		} {
			lat, lon := c.lat, c.lon
			u, _, err := accounts.UpdateProfile(ctx, db, one, accounts.ProfileUpdate{Latitude: &lat, Longitude: &lon}, t0)
			if err != nil {
				t.Fatal(err)
			}
			stored, err := accounts.ByID(ctx, db, "one")
			if err != nil {
				t.Fatal(err)
			}
			if got := e6(stored.LatE6) + "," + e6(stored.LonE6); got != c.want || e6(u.LatE6)+","+e6(u.LonE6) != c.want {
				t.Fatalf("profile at %q, %q: stored %s, returned %s,%s", c.lat, c.lon, got, e6(u.LatE6), e6(u.LonE6))
			}
		}
	})
}
