package daemon_test

import (
	"encoding/json"
	"strings"
	"testing"

	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/terms"
	"primeur/daemon/daemontest"
)

// TestUserLoad: the user load has every part PRODUCT names. Distributors are
// the shops the user's own data names — a shop itself, a producer's
// partners (a proposal, a commitment, an order) —, never the platform's
// others (they are the map's, GET /api/map); producers are those the shop
// deals with — an open proposal on its needs, a commitment — and, for a
// producer, itself: the platform's other producers never appear.
func TestUserLoad(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("shop@example.fr", "Épicerie", true)
		shop.Do("PUT", "/api/user", map[string]any{"latitude": "45.9", "longitude": "6.12"}).Expect(t, 200)
		s.Register("other@example.fr", "Autre magasin", true)
		farm, farmID := s.Producer("ferme@example.fr", "Ferme")
		rival, rivalID := s.Producer("rival@example.fr", "Rivale")
		s.Producer("stranger@example.fr", "Inconnue")

		type entry struct {
			ID        string `json:"_id"`
			Name      string `json:"name"`
			Email     string `json:"email"`
			Latitude  string `json:"latitude"`
			Longitude string `json:"longitude"`
		}
		load := func(c *daemontest.Client) (shops, producers []entry) {
			t.Helper()
			var raw map[string]json.RawMessage
			c.Do("GET", "/api/user", nil).Expect(t, 200).JSON(t, &raw)
			for _, key := range []string{"user", "distributors", "producers", "counts"} {
				if _, ok := raw[key]; !ok {
					t.Errorf("user load lacks %q", key)
				}
			}
			if err := json.Unmarshal(raw["distributors"], &shops); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw["producers"], &producers); err != nil {
				t.Fatal(err)
			}
			if producers == nil {
				t.Fatal("producers is null, want a list")
			}
			return shops, producers
		}
		names := func(es []entry) string {
			var out []string
			for _, e := range es {
				out = append(out, e.Name)
			}
			return strings.Join(out, ", ")
		}

		shops, producers := load(shop)
		if names(shops) != "Épicerie" || shops[0].Latitude != "45.9" || shops[0].Email != "shop@example.fr" {
			t.Fatalf("distributors = %+v", shops)
		}
		if shops, _ = load(farm); len(shops) != 0 {
			t.Fatalf("a producer without trade has shops %+v", shops)
		}
		if len(producers) != 0 {
			t.Fatalf("a shop without trade has producers %+v", producers)
		}

		// The farm's commitment and the rival's open proposal name them.
		var need struct {
			ID string `json:"_id"`
		}
		shop.Do("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-12-01", "quantity": 100}).Expect(t, 201).JSON(t, &need)
		farm.Do("PUT", "/api/proposals/"+need.ID+"/"+farmID, map[string]any{"quantity": 40, "price": 2}).Expect(t, 200)
		shop.Do("PUT", "/api/proposalreview/"+need.ID+"/"+farmID, map[string]any{"accepted": true}).Expect(t, 200)
		rival.Do("PUT", "/api/proposals/"+need.ID+"/"+rivalID, map[string]any{"quantity": 10, "price": 2}).Expect(t, 200)
		if _, producers = load(shop); names(producers) != "Ferme, Rivale" || producers[0].ID != farmID {
			t.Fatalf("shop's producers = %+v", producers)
		}

		// A producer's list is itself; its shops are those it trades with,
		// an open proposal included; the other shop is the map's only.
		shops, producers = load(farm)
		if len(producers) != 1 || producers[0].ID != farmID || producers[0].Name != "Ferme" || names(shops) != "Épicerie" {
			t.Fatalf("farm's producers = %+v, shops %+v", producers, shops)
		}
		if shops, _ = load(rival); names(shops) != "Épicerie" || shops[0].Email != "" {
			t.Fatalf("the rival's shops (an open proposal): %+v", shops)
		}
	})
}

func TestUpdateProfile(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("shop@example.fr", "Épicerie", true)
		farm, _ := s.Register("ferme@example.fr", "Ferme", false)

		tests := []struct {
			name   string
			c      *daemontest.Client
			body   map[string]any
			status int
			field  string
			msg    string
		}{
			{"shop profile", shop, map[string]any{"siret": "732 829 320 00074", "iban": "FR76 3000 6000 0112 3456 7890 189", "bic": "AGRIFRPP882", "currentPassword": daemontest.Password, "ape": "4721Z", "capital": "15000", "tel": "04 50 00 00 00", "tvaintracom": "FR44732829320", "latitude": "45.9", "longitude": "-1.5", "billingAddressLine1": "1 rue X"}, 200, "", ""},
			{"producer days", farm, map[string]any{"defaultDeliveryDays": []bool{true, false, false, false, true, false, false}}, 200, "", ""},
			{"no delivery day", farm, map[string]any{"defaultDeliveryDays": []bool{false, false, false, false, false, false, false}}, 422, "body.defaultDeliveryDays", accounts.MsgDeliveryDays},
			{"six days", farm, map[string]any{"defaultDeliveryDays": []bool{true, false, false, false, false, false}}, 422, "", ""},
			{"days for a shop", shop, map[string]any{"defaultDeliveryDays": []bool{true, false, false, false, false, false, false}}, 422, "body.defaultDeliveryDays", accounts.MsgNotForRole},
			// The accounting email, retired (issue 41): a client of before
			// setting one is told where the accountant goes now; clearing
			// it changes nothing and passes.
			{"accounting email, retired", shop, map[string]any{"emailAccounting": "compta@shop.fr"}, 422, "body.emailAccounting", accounts.MsgAccountingEmailGone},
			{"accounting email for a producer", farm, map[string]any{"emailAccounting": "a@b.fr"}, 422, "body.emailAccounting", accounts.MsgAccountingEmailGone},
			{"accounting email cleared by a client of before", shop, map[string]any{"emailAccounting": "", "tel": "04 50 00 00 00"}, 200, "", ""},
			{"bad capital", shop, map[string]any{"capital": "1e6"}, 422, "body.capital", accounts.MsgCapital},
			{"bad bic", shop, map[string]any{"bic": "AGRI"}, 422, "body.bic", accounts.MsgBIC},
			{"bad ape", shop, map[string]any{"ape": "47212"}, 422, "body.ape", accounts.MsgAPE},
			{"bad iban", shop, map[string]any{"iban": "FR7630006000011234567890180"}, 422, "body.iban", accounts.MsgIBAN},
			{"bad siret", shop, map[string]any{"siret": "123"}, 422, "body.siret", accounts.MsgSIRET},
			{"bad tel", shop, map[string]any{"tel": "12345"}, 422, "body.tel", accounts.MsgTel},
			{"bad latitude", shop, map[string]any{"latitude": "nord"}, 422, "body.latitude", accounts.MsgLatitude},
			{"bad longitude", shop, map[string]any{"longitude": "6,1"}, 422, "body.longitude", accounts.MsgLongitude},
			{"bad vat", shop, map[string]any{"tvaintracom": "123"}, 422, "body.tvaintracom", accounts.MsgTVA},
			{"bad postal code", shop, map[string]any{"addressLine3": "7400 Annecy"}, 422, "body.addressLine3", accounts.MsgPostcode},
			{"postal code without town", farm, map[string]any{"addressLine3": "74000"}, 422, "body.addressLine3", accounts.MsgTown},
			{"postal line", shop, map[string]any{"addressLine1": "1 rue", "addressLine3": "74000 Annecy"}, 200, "", ""},
			{"payment terms", farm, map[string]any{"paymentTerms": map[string]any{"basis": "month", "days": 5, "discount": 200, "discountDays": 10}}, 200, "", ""},
			{"terms past the law", farm, map[string]any{"paymentTerms": map[string]any{"basis": "decade", "days": 45}}, 422, "body.paymentTerms.days", terms.MsgDays},
			{"terms on a week", farm, map[string]any{"paymentTerms": map[string]any{"basis": "semaine", "days": 5}}, 422, "body.paymentTerms.basis", terms.MsgBasis},
			{"discount without its days", farm, map[string]any{"paymentTerms": map[string]any{"basis": "decade", "days": 30, "discount": 200}}, 422, "body.paymentTerms.discount", terms.MsgDiscount},
			{"terms for a shop", shop, map[string]any{"paymentTerms": map[string]any{"basis": "decade", "days": 30}}, 422, "body.paymentTerms", accounts.MsgNotForRole},
			{"type cannot change", shop, map[string]any{"type": "producer"}, 422, "body.type", ""},
			{"email cannot change", shop, map[string]any{"email": "new@shop.fr"}, 422, "body.email", ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := tt.c.Do("PUT", "/api/user", tt.body).Expect(t, tt.status)
				if tt.status == 200 {
					var out struct {
						User   accounts.Profile
						Orders []any
					}
					res.JSON(t, &out)
					if out.Orders == nil {
						t.Fatal("orders missing from the answer")
					}
					return
				}
				p := res.Problem(t)
				if tt.msg != "" && p.Detail != tt.msg {
					t.Fatalf("detail %q, want %q", p.Detail, tt.msg)
				}
				if tt.field != "" && (len(p.Errors) == 0 || p.Errors[0].Location != tt.field) {
					t.Fatalf("errors %+v, want %s", p.Errors, tt.field)
				}
			})
		}
		var out struct{ User accounts.Profile }
		shop.Do("GET", "/api/user", nil).Expect(t, 200).JSON(t, &out)
		u := out.User
		if u.SIRET != "73282932000074" || u.IBAN != "FR7630006000011234567890189" || u.Tel != "0450000000" ||
			u.Longitude != "-1.5" || u.Type != accounts.Distributor {
			t.Fatalf("stored profile = %+v (refused updates must change nothing)", u)
		}
		farm.Do("GET", "/api/user", nil).Expect(t, 200).JSON(t, &out)
		if pt := out.User.PaymentTerms; pt == nil || *pt != (terms.Terms{Basis: terms.Month, Days: 5, Discount: 200, DiscountDays: 10}) {
			t.Fatalf("stored payment terms %+v (refused updates must change nothing)", pt)
		}
	})
}

// TestShopEmailOnlyForItsPartners: the map and the user load give a shop's
// login email to the shop itself and to the producers it trades with —
// once it accepted a proposal — and "" to everyone else, the field always
// present.
func TestShopEmailOnlyForItsPartners(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, shopID := s.Register("shop@example.fr", "Épicerie", true)
		other, otherID := s.Register("other@example.fr", "Autre magasin", true)
		shop.Do("PUT", "/api/user", map[string]any{"latitude": "45.9", "longitude": "6.12"}).Expect(t, 200)
		other.Do("PUT", "/api/user", map[string]any{"latitude": "45.88", "longitude": "6.32"}).Expect(t, 200)
		farm, farmID := s.Producer("ferme@example.fr", "Ferme")
		stranger, _ := s.Producer("stranger@example.fr", "Inconnue")
		fresh, _ := s.Register("nouveau@example.fr", "Nouveau", false)

		emails := func(c *daemontest.Client) map[string]string {
			t.Helper()
			var view struct {
				Shops []map[string]any `json:"shops"`
			}
			c.Do("GET", "/api/map?"+hauteSavoie, nil).Expect(t, 200).JSON(t, &view)
			out := map[string]string{}
			for _, d := range view.Shops {
				email, ok := d["email"].(string)
				if !ok {
					t.Fatalf("a shop without its email field: %v", d)
				}
				out[d["_id"].(string)] = email
			}
			if len(out) != 2 {
				t.Fatalf("the map lists %d shops, want 2", len(out))
			}
			// The user load's shops (the user's partners) read the same.
			var load struct {
				Distributors []map[string]any `json:"distributors"`
			}
			c.Do("GET", "/api/user", nil).Expect(t, 200).JSON(t, &load)
			for _, d := range load.Distributors {
				if email, ok := d["email"].(string); !ok || email != out[d["_id"].(string)] {
					t.Fatalf("the user load gives %v, the map %q", d, out[d["_id"].(string)])
				}
			}
			return out
		}
		want := func(c *daemontest.Client, who string, shopEmail, otherEmail string) {
			t.Helper()
			got := emails(c)
			if got[shopID] != shopEmail || got[otherID] != otherEmail {
				t.Fatalf("%s sees %q and %q, want %q and %q", who, got[shopID], got[otherID], shopEmail, otherEmail)
			}
		}
		want(shop, "the shop", "shop@example.fr", "")
		want(fresh, "a new producer", "", "")
		want(farm, "a producer before any trade", "", "")

		var need struct {
			ID string `json:"_id"`
		}
		shop.Do("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-12-01", "quantity": 100}).Expect(t, 201).JSON(t, &need)
		farm.Do("PUT", "/api/proposals/"+need.ID+"/"+farmID, map[string]any{"quantity": 40, "price": 2}).Expect(t, 200)
		want(farm, "a producer with a pending proposal", "", "")
		shop.Do("PUT", "/api/proposalreview/"+need.ID+"/"+farmID, map[string]any{"accepted": true}).Expect(t, 200)
		want(farm, "a producer with a commitment", "shop@example.fr", "")
		want(stranger, "another producer", "", "")
		want(fresh, "a new producer", "", "")

		// A refused proposal is no trade: the shop's answer reaches the
		// producer's feed with its name, and its email nowhere.
		var me struct {
			User struct {
				ID string `json:"_id"`
			} `json:"user"`
		}
		stranger.Do("GET", "/api/user", nil).Expect(t, 200).JSON(t, &me)
		strangerID := me.User.ID
		stranger.Do("PUT", "/api/proposals/"+need.ID+"/"+strangerID, map[string]any{"quantity": 10, "price": 2}).Expect(t, 200)
		shop.Do("PUT", "/api/proposalreview/"+need.ID+"/"+strangerID, map[string]any{"accepted": false}).Expect(t, 200)
		if body := stranger.Do("GET", "/api/events", nil).Expect(t, 200).Body; !strings.Contains(string(body), "proposal:review") ||
			strings.Contains(string(body), "shop@example.fr") {
			t.Fatalf("the refused producer's feed: %s", body)
		}
		if body := stranger.Do("GET", "/api/user", nil).Expect(t, 200).Body; strings.Contains(string(body), "shop@example.fr") {
			t.Fatalf("the refused producer's user load: %s", body)
		}
		// The shop still reads its own email in its feed ("vous").
		if body := shop.Do("GET", "/api/events", nil).Expect(t, 200).Body; !strings.Contains(string(body), "shop@example.fr") {
			t.Fatalf("the shop's own feed lacks its email: %s", body)
		}
	})
}
