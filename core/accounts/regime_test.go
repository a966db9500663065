package accounts_test

import (
	"context"
	"testing"

	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/vat"
)

// TestVATRegime: a producer registered without a VAT number is under the
// agricultural flat-rate refund; it chooses its regime in its profile,
// the normal one only with a VAT number; a client that sends only the VAT
// number moves the regime with it; a shop has none to set. A refusal
// changes nothing.
func TestVATRegime(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		farm := registered(t, db, "ferme@example.fr", false)
		shop := registered(t, db, "magasin@example.fr", true)
		if farm.VATRegime != vat.Flat {
			t.Fatalf("a farm without VAT number registered as %q", farm.VATRegime)
		}
		tests := []struct {
			name       string
			user       string
			p          accounts.ProfileUpdate
			field, msg string // the refusal, "" when accepted
			regime     string // the farm's after
		}{
			{"the normal regime without a VAT number: refused", farm.ID, accounts.ProfileUpdate{VATRegime: sp(vat.Normal)}, "vatRegime", accounts.MsgVATRegimeNumber, vat.Flat},
			{"a regime that is none: refused", farm.ID, accounts.ProfileUpdate{VATRegime: sp("reduit")}, "vatRegime", accounts.MsgVATRegime, vat.Flat},
			{"the franchise en base", farm.ID, accounts.ProfileUpdate{VATRegime: sp(vat.Franchise)}, "", "", vat.Franchise},
			{"a VAT number alone: the normal regime", farm.ID, accounts.ProfileUpdate{TVAIntracom: sp("FR44732829320")}, "", "", vat.Normal},
			{"the VAT number cleared under the normal regime: refused on it", farm.ID, accounts.ProfileUpdate{TVAIntracom: sp(""), VATRegime: sp(vat.Normal)}, "tvaintracom", accounts.MsgVATRegimeNumber, vat.Normal},
			{"the VAT number cleared alone: the flat-rate refund", farm.ID, accounts.ProfileUpdate{TVAIntracom: sp("")}, "", "", vat.Flat},
			{"a shop has no regime to set", shop.ID, accounts.ProfileUpdate{VATRegime: sp(vat.Normal)}, "vatRegime", accounts.MsgNotForRole, vat.Flat},
		}
		for _, tt := range tests {
			before := storetest.Snapshot(t, db)
			_, _, err := accounts.UpdateProfile(ctx, db, reload(t, db, tt.user), tt.p, t0)
			if tt.field != "" {
				wantInvalid(t, tt.name, err, tt.field, tt.msg)
				if after := storetest.Snapshot(t, db); after != before {
					t.Fatalf("%s: a refused update changed:\n%s", tt.name, storetest.Changes(before, after))
				}
			} else if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if got := reload(t, db, farm.ID); got.VATRegime != tt.regime || got.Profile().VATRegime == nil || *got.Profile().VATRegime != tt.regime {
				t.Fatalf("%s: regime %q, want %q", tt.name, got.VATRegime, tt.regime)
			}
		}
		if shop.Profile().VATRegime != nil {
			t.Fatal("a shop's profile shows a VAT regime")
		}
	})
}
