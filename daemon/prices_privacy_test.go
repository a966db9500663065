package daemon_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

// siretFor is the n-th SIRET of these tests: a SIREN of its own (8 digits
// from n and its Luhn key), establishment 0001 and the SIRET's key.
func siretFor(n int) string {
	return siretOfCompany(accounts.LuhnComplete(fmt.Sprintf("%08d", 20_000_000+n)), 1)
}

// siretOfCompany is the SIRET of the i-th establishment of siren.
func siretOfCompany(siren string, i int) string {
	return accounts.LuhnComplete(fmt.Sprintf("%s%04d", siren, i))
}

// account registers an account through the API from the client address
// ip, as a visitor does (its login not confirmed), and fills its profile:
// the postal line of postcode for a shop, delivery days for a producer.
func account(t *testing.T, s *daemontest.Server, ip, email string, shop bool, postcode string) (*daemontest.Client, string) {
	t.Helper()
	c := s.ClientFrom(ip)
	var out struct {
		User struct {
			ID string `json:"_id"`
		} `json:"user"`
	}
	c.Do("POST", "/auth/register", map[string]any{"email": email, "password": daemontest.Password, "name": email, "distributor": shop}).
		Expect(t, http.StatusCreated).JSON(t, &out)
	profile := map[string]any{"addressLine1": "Route du marché", "addressLine3": postcode + " Ville"}
	if !shop {
		profile["defaultDeliveryDays"] = []bool{true, false, false, true, false, false, false}
	}
	c.Do("PUT", "/api/user", profile).Expect(t, http.StatusOK)
	return c, out.User.ID
}

// becomeCompany confirms an account's login by the link emailed to it and
// gives it siret by the profile form: a legal entity of the price figures.
func becomeCompany(t *testing.T, s *daemontest.Server, c *daemontest.Client, email, siret string) {
	t.Helper()
	s.Client().Do("POST", "/auth/email/confirm", map[string]any{"token": confirmToken(t, s.Config.DataDir, email)}).Expect(t, http.StatusOK)
	c.Do("PUT", "/api/user", map[string]any{"siret": siret}).Expect(t, http.StatusOK)
}

// company is a confirmed account with a SIRET of its own, registered from
// an address of its own.
func company(t *testing.T, s *daemontest.Server, n int, email string, shop bool, postcode string) (*daemontest.Client, string) {
	t.Helper()
	c, id := account(t, s, fmt.Sprintf("127.0.38.%d", n), email, shop, postcode)
	becomeCompany(t, s, c, email, siretFor(n))
	return c, id
}

// deal makes a commitment of producer on need through the API: the
// producer proposes (or corrects its commitment), the shop accepts.
func deal(t *testing.T, shop, farm *daemontest.Client, need, farmID string, quantity, price float64) {
	t.Helper()
	farm.Do("PUT", "/api/proposals/"+need+"/"+farmID, map[string]any{"quantity": quantity, "price": price}).Expect(t, http.StatusOK)
	shop.Do("PUT", "/api/proposalreview/"+need+"/"+farmID, map[string]any{"accepted": true}).Expect(t, http.StatusOK)
}

// newNeed creates a shop's need of tomatoes for December 2026.
func newNeed(t *testing.T, shop *daemontest.Client, quantity float64) string {
	t.Helper()
	var need struct {
		ID string `json:"_id"`
	}
	shop.Do("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-12-01", "quantity": quantity}).
		Expect(t, http.StatusCreated).JSON(t, &need)
	return need.ID
}

type figureJSON struct {
	Area      string  `json:"area"`
	Average   float64 `json:"average"`
	Purchases int     `json:"purchases"`
}

type comparisonJSON struct {
	National *figureJSON `json:"national"`
	Local    *figureJSON `json:"local"`
}

// TestPricePrivacyThroughTheDaemon plays issue 33's finding 2 through the
// real daemon on both engines. A real shop of Haute-Savoie and a real
// producer agree on 50 kg of tomatoes at 3.37 €. An attacker registers two
// shops and two producers from one address and trades around that deal,
// step by step as an attacker would: fresh accounts trading 0.01 kg at
// 0.01 € (the finding), then real quantities, then confirmed logins
// sharing one SIREN, one SIREN per side, four SIRENs trading crumbs, and
// 1 kg at 10 € that the real deal dwarfs. At each step, whatever each of
// the four reads — the user load, the comparison of its own need and of
// the real shop's, the real shop's needs — holds no figure of
// tomatoes, no count of purchases, and nowhere 3.37. Then two more real
// companies on each side buying real quantities make the figures show,
// rounded to 10 cents; and the two partners still see their own deal
// exactly.
func TestPricePrivacyThroughTheDaemon(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, shopID := company(t, s, 1, "vrai-magasin@lac.fr", true, "74000")
		farm, farmID := company(t, s, 2, "vraie-ferme@lac.fr", false, "73000")
		realNeed := newNeed(t, shop, 100)
		deal(t, shop, farm, realNeed, farmID, 50, 3.37)

		// The attacker's four accounts, from one address.
		const attacker = "127.0.38.200"
		type sybil struct {
			c          *daemontest.Client
			id, email  string
			need       string // a shop's need
			shopOfDeal bool
		}
		var shops, farms []*sybil
		for i := range 2 {
			email := fmt.Sprintf("faux-magasin%d@lac.fr", i)
			c, id := account(t, s, attacker, email, true, "74150")
			shops = append(shops, &sybil{c: c, id: id, email: email, shopOfDeal: true, need: newNeed(t, c, 1000)})
			email = fmt.Sprintf("fausse-ferme%d@lac.fr", i)
			c, id = account(t, s, attacker, email, false, "74150")
			farms = append(farms, &sybil{c: c, id: id, email: email})
		}
		trade := func(quantity, price float64) {
			t.Helper()
			for _, sh := range shops {
				for _, f := range farms {
					deal(t, sh.c, f.c, sh.need, f.id, quantity, price)
				}
			}
		}
		nothing := func(step string) {
			t.Helper()
			for _, u := range append(append([]*sybil{}, shops...), farms...) {
				// The user load: nowhere the real price.
				res := u.c.Do("GET", "/api/user", nil).Expect(t, http.StatusOK)
				if strings.Contains(string(res.Body), "3.37") {
					t.Fatalf("%s: %s's user load holds 3.37", step, u.email)
				}
				// The comparisons: of its own need (a shop), of the real
				// shop's (a producer), with nothing to count either.
				needs := []string{realNeed}
				if u.shopOfDeal {
					needs = []string{u.need}
				}
				for _, n := range needs {
					res := u.c.Do("GET", "/api/needs/"+n+"/prices", nil).Expect(t, http.StatusOK)
					var c comparisonJSON
					res.JSON(t, &c)
					if c.National != nil || c.Local != nil || strings.Contains(string(res.Body), "purchases") {
						t.Fatalf("%s: %s reads the comparison %s", step, u.email, res.Body)
					}
				}
				// A producer sees the real shop's needs: no one else's
				// proposal, no price.
				if !u.shopOfDeal {
					res := u.c.Do("GET", "/api/needs?distributor="+shopID, nil).Expect(t, http.StatusOK)
					var ns []tradeNeedJSON
					res.JSON(t, &ns)
					if len(ns) != 1 || len(ns[0].Proposals) != 0 || strings.Contains(string(res.Body), "3.37") {
						t.Fatalf("%s: %s reads the real shop's needs %s", step, u.email, res.Body)
					}
				}
			}
		}

		trade(0.01, 0.01)
		nothing("fresh accounts, 0.01 kg at 0.01 €")
		trade(50, 3)
		nothing("fresh accounts, 50 kg at 3 €")
		one := siretFor(100)[:9]
		for i, u := range append(append([]*sybil{}, shops...), farms...) {
			becomeCompany(t, s, u.c, u.email, siretOfCompany(one, 2+i))
		}
		trade(50, 3.01) // a correction: accepted again, counted as the accounts now stand
		nothing("confirmed, one company behind them all")
		buyer, seller := siretFor(101)[:9], siretFor(102)[:9]
		for i := range 2 {
			shops[i].c.Do("PUT", "/api/user", map[string]any{"siret": siretOfCompany(buyer, 2+i)}).Expect(t, http.StatusOK)
			farms[i].c.Do("PUT", "/api/user", map[string]any{"siret": siretOfCompany(seller, 2+i)}).Expect(t, http.StatusOK)
		}
		trade(50, 3.02)
		nothing("confirmed, one company buying, one selling")
		for i, u := range append(append([]*sybil{}, shops...), farms...) {
			u.c.Do("PUT", "/api/user", map[string]any{"siret": siretFor(110 + i)}).Expect(t, http.StatusOK)
		}
		trade(0.01, 0.01)
		nothing("four companies, 0.01 kg at 0.01 €")
		trade(1, 10)
		nothing("four companies, 1 kg at 10 € beside 50 kg")

		// Two more real shops and producers, 25 kg each from each: every
		// company of the cell holds at most 50 kg of 154. (50 × 3.37 + 4 ×
		// 25 × 3 + 4 × 1 × 10) / 154 = 3.3019… → 3.30, over 9 purchases.
		var others, otherFarms []*daemontest.Client
		var otherFarmIDs []string
		for i := range 2 {
			c, _ := company(t, s, 10+i, fmt.Sprintf("magasin%d@lac.fr", i), true, "74230")
			others = append(others, c)
			c, id := company(t, s, 20+i, fmt.Sprintf("ferme%d@lac.fr", i), false, "73000")
			otherFarms, otherFarmIDs = append(otherFarms, c), append(otherFarmIDs, id)
		}
		for _, o := range others {
			n := newNeed(t, o, 100)
			for j, f := range otherFarms {
				deal(t, o, f, n, otherFarmIDs[j], 25, 3)
			}
		}
		want := figureJSON{Area: "FR", Average: 3.3, Purchases: 9}
		for _, r := range []struct {
			c    *daemontest.Client
			need string
		}{{shops[0].c, shops[0].need}, {farms[0].c, realNeed}, {shop, realNeed}, {farm, realNeed}} {
			u := r.c
			var c comparisonJSON
			u.Do("GET", "/api/needs/"+r.need+"/prices", nil).Expect(t, http.StatusOK).JSON(t, &c)
			local := want
			local.Area = "74"
			if c.National == nil || *c.National != want || c.Local == nil || *c.Local != local {
				t.Fatalf("real companies: comparison %+v / %+v, want %+v", c.National, c.Local, want)
			}
		}

		// Each partner sees its own deal exactly: in its needs and its
		// order's deliveries.
		for _, u := range []*daemontest.Client{shop, farm} {
			var load struct {
				Needs  []tradeNeedJSON
				Orders []orderJSON
			}
			everyScreen(t, u, &load)
			found := false
			for _, n := range load.Needs {
				for _, p := range n.Proposals {
					if n.ID == realNeed && p.Producer == farmID && p.Status == "accepted" && p.Quantity == 50 && p.Price == 3.37 {
						found = true
					}
				}
			}
			if !found || len(load.Orders) != 1 || load.Orders[0].Deliveries[0].DeliveryLines[0].Price != 3.37 {
				t.Fatalf("a partner's own deal: needs %+v, orders %+v", load.Needs, load.Orders)
			}
		}
	})
}
