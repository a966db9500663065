package daemon_test

import (
	"strings"
	"testing"

	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon/daemontest"
)

// TestAStolenSessionCannotRedirectPayments (issue 33, finding 4): whoever
// holds a producer's session but not its password — a cookie stolen from
// a shared computer — cannot point the shop's next transfer at another
// account: the IBAN, the BIC and the password itself need the current
// password, a refusal changes nothing, and the shop's transfer preview and
// SEPA file still pay the producer's own IBAN.
func TestAStolenSessionCannotRedirectPayments(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		dw := newDeliveriesWorld(t, db)
		invoices(t, dw.s, tradetest.At(2026, 12, 1, 6, 0))
		dw.s.Clock.Set(tradetest.At(2026, 12, 3, 9, 0))
		for email, c := range map[string]*daemontest.Client{"ferme@aravis.fr": dw.farm, "epicerie@lac.fr": dw.shop} {
			c.Do("POST", "/auth/login", map[string]any{"email": email, "password": daemontest.Password}).Expect(t, 200)
		}
		const own, thief = "FR7630006000011234567890189", "FR7610107001011234567890129"
		dw.farm.Do("PUT", "/api/user", map[string]any{"iban": own, "bic": "AGRIFRPP882", "currentPassword": daemontest.Password}).Expect(t, 200)
		dw.w.Exec(`UPDATE users SET iban = 'FR7630004000031234567890143' WHERE id = ?`, dw.shopID)

		// The stolen session: the producer's cookie, no password.
		dw.s.Refuses(t, []daemontest.Refused{
			{Name: "the IBAN", Client: dw.farm, Method: "PUT", Path: "/api/user", Body: map[string]any{"iban": thief},
				Status: 422, Detail: accounts.MsgBankPassword, Location: "body.currentPassword"},
			{Name: "the IBAN and the BIC, a guessed password", Client: dw.farm, Method: "PUT", Path: "/api/user",
				Body:   map[string]any{"iban": thief, "bic": "CCBPFRPPANN", "currentPassword": "devine1234"},
				Status: 422, Detail: accounts.MsgCurrentWrong, Location: "body.currentPassword"},
			{Name: "the IBAN cleared", Client: dw.farm, Method: "PUT", Path: "/api/user", Body: map[string]any{"iban": ""},
				Status: 422, Detail: accounts.MsgBankPassword, Location: "body.currentPassword"},
		})
		if r := dw.farm.Do("PUT", "/api/user/password", map[string]any{"current": "devine1234", "password": "volé-2026-xx"}); r.Status != 422 {
			t.Fatalf("the password changed without the current one: %d %s", r.Status, r.Body)
		}

		var accs struct {
			Accounts []struct {
				Documents []struct {
					ID string `json:"_id"`
				} `json:"documents"`
				IBANChangedOn string `json:"ibanChangedOn"`
			} `json:"accounts"`
		}
		dw.shop.Do("GET", "/api/payments", nil).Expect(t, 200).JSON(t, &accs)
		invoice := accs.Accounts[0].Documents[0].ID
		var preview struct {
			Transfers []struct {
				IBAN string `json:"iban"`
			} `json:"transfers"`
		}
		dw.shop.Do("GET", "/api/payments/transfer?documents="+invoice, nil).Expect(t, 200).JSON(t, &preview)
		if len(preview.Transfers) != 1 || preview.Transfers[0].IBAN != own {
			t.Fatalf("the transfer's IBAN: %+v", preview.Transfers)
		}
		file := string(dw.shop.Do("GET", "/print/transfer?documents="+invoice, nil).Expect(t, 200).Body)
		if !strings.Contains(file, "<IBAN>"+own+"</IBAN>") || strings.Contains(file, thief) {
			t.Fatalf("the SEPA file pays another account:\n%s", file)
		}
	})
}
