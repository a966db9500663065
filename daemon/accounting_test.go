package daemon_test

import (
	"testing"

	"primeur/core/accounting"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

type accountingJSON struct {
	Accounts map[string]string `json:"accounts"`
	Defaults map[string]string `json:"defaults"`
	Months   []string          `json:"months"`
}

// TestAccountingAPI: the accounts of a user's FEC, the defaults until it
// sets its own, set and read back, each wrong number refused with its
// French message and nothing changed; the months it can export.
func TestAccountingAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		farm, _ := s.Producer("ferme@example.fr", "Ferme")
		shop, _ := s.Register("shop@example.fr", "Épicerie", true)
		var got accountingJSON
		farm.Do("GET", "/api/accounting", nil).Expect(t, 200).JSON(t, &got)
		want := map[string]string{"customers": "411", "sales": "701", "vatCollected": "44571", "discountsGiven": "665",
			"suppliers": "401", "purchases": "607", "vatDeductible": "44566", "discountsReceived": "765", "bank": "512", "cash": "530"}
		if len(got.Accounts) != len(want) || len(got.Months) != 0 || got.Months == nil {
			t.Fatalf("before: %+v", got)
		}
		for k, v := range want {
			if got.Accounts[k] != v || got.Defaults[k] != v {
				t.Fatalf("before: %s is %q (default %q), want %q", k, got.Accounts[k], got.Defaults[k], v)
			}
		}

		farm.Do("PUT", "/api/accounting/accounts", map[string]any{"customers": "4110000", "sales": " 7011 ", "bank": ""}).
			Expect(t, 200).JSON(t, &got)
		if got.Accounts["customers"] != "4110000" || got.Accounts["sales"] != "7011" || got.Accounts["bank"] != "512" ||
			got.Defaults["sales"] != "701" {
			t.Fatalf("set: %+v", got)
		}
		var again accountingJSON
		farm.Do("GET", "/api/accounting", nil).Expect(t, 200).JSON(t, &again)
		shop.Do("GET", "/api/accounting", nil).Expect(t, 200).JSON(t, &got)
		if again.Accounts["sales"] != "7011" || got.Accounts["customers"] != "411" {
			t.Fatalf("read back: %+v; the shop's: %+v", again, got)
		}

		put := func(name string, c *daemontest.Client, body any, status int, field, detail string) daemontest.Refused {
			location := ""
			if field != "" {
				location = "body." + field
			}
			return daemontest.Refused{Name: name, Client: c, Method: "PUT", Path: "/api/accounting/accounts", Body: body,
				Status: status, Detail: detail, Location: location}
		}
		msg := func(purpose string) string {
			for _, p := range accounting.Purposes {
				if p.Key == purpose {
					return accounting.AccountMessage(p)
				}
			}
			t.Fatalf("no purpose %s", purpose)
			return ""
		}
		s.Refuses(t, []daemontest.Refused{
			put("letters", farm, map[string]any{"customers": "411ABC"}, 422, "customers", msg("customers")),
			put("wrong class", farm, map[string]any{"sales": "601"}, 422, "sales", msg("sales")),
			put("too long", farm, map[string]any{"vatCollected": "44571000000"}, 422, "vatCollected", msg("vatCollected")),
			put("too short", shop, map[string]any{"purchases": "60"}, 422, "purchases", msg("purchases")),
			put("supplier on customers", shop, map[string]any{"suppliers": "411"}, 422, "suppliers", msg("suppliers")),
			put("sign", shop, map[string]any{"bank": "-512"}, 422, "bank", msg("bank")),
			put("cash on bank", shop, map[string]any{"cash": "512"}, 422, "cash", msg("cash")),
			put("discount given received", farm, map[string]any{"discountsGiven": "765"}, 422, "discountsGiven", msg("discountsGiven")),
			put("discount received given", shop, map[string]any{"discountsReceived": "665"}, 422, "discountsReceived", msg("discountsReceived")),
			put("deductible collected", shop, map[string]any{"vatDeductible": "44571"}, 422, "vatDeductible", msg("vatDeductible")),
			put("a number", farm, map[string]any{"customers": 411}, 422, "", ""),
			put("unknown field", farm, map[string]any{"capital": "101"}, 422, "", ""),
			put("too long a text", farm, map[string]any{"customers": "41100000000000000000000000000000000000000000"}, 422, "", ""),
			put("not json", farm, "customers=411", 400, "", ""),
			put("anonymous", s.Client(), map[string]any{"customers": "411"}, 401, "", daemon.MsgNoToken),
		})
	})
}
