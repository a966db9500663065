package daemon_test

import (
	"testing"

	"primeur/core/payments"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

// TestTransferPreviewAndPenalties: November's invoice, due on Sunday 20
// December, is unpaid on Thursday 24. The shop's preview of its transfer
// says what the file will carry — Monday 28 December, after Christmas and
// the weekend, the producer's account, the amount and the remittance —; the
// producer's accounts list the invoice late, with its period at 2,15 % +
// 10 points (the ECB rate of 2026-S2 not listed: 2026-S1's carried) and
// its indemnity; refusals are French and change nothing.
func TestTransferPreviewAndPenalties(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		dw := newDeliveriesWorld(t, db)
		invoices(t, dw.s, tradetest.At(2026, 12, 1, 6, 0))
		// A session lives 30 days at most: each logs in again.
		dw.s.Clock.Set(tradetest.At(2026, 12, 24, 9, 0))
		for email, c := range map[string]*daemontest.Client{"ferme@aravis.fr": dw.farm, "epicerie@lac.fr": dw.shop, "autre@magasin.fr": dw.otherShop} {
			c.Do("POST", "/auth/login", map[string]any{"email": email, "password": daemontest.Password}).Expect(t, 200)
		}
		dw.w.Exec(`UPDATE users SET iban = 'FR7630006000011234567890189', bic = 'AGRIFRPP882' WHERE id = ?`, dw.farmID)
		dw.w.Exec(`UPDATE users SET iban = 'FR7610107001011234567890129' WHERE id = ?`, dw.shopID)

		var accounts struct {
			Accounts []struct {
				Owed        float64 `json:"owed"`
				Penalties   float64 `json:"penalties"`
				Indemnities float64 `json:"indemnities"`
				Documents   []struct {
					ID      string `json:"_id"`
					DueDate string `json:"dueDate"`
				} `json:"documents"`
				Late []struct {
					Number    string  `json:"number"`
					DueDate   string  `json:"dueDate"`
					PaidOff   string  `json:"paidOff"`
					Days      int     `json:"days"`
					Penalty   float64 `json:"penalty"`
					Indemnity float64 `json:"indemnity"`
					Periods   []struct {
						From       string  `json:"from"`
						To         string  `json:"to"`
						Days       int     `json:"days"`
						Balance    float64 `json:"balance"`
						ECBRate    float64 `json:"ecbRate"`
						Rate       float64 `json:"rate"`
						RateListed bool    `json:"rateListed"`
						Penalty    float64 `json:"penalty"`
					} `json:"periods"`
				} `json:"late"`
			} `json:"accounts"`
		}
		dw.farm.Do("GET", "/api/payments", nil).Expect(t, 200).JSON(t, &accounts)
		a := accounts.Accounts[0]
		if len(a.Documents) != 1 || a.Documents[0].DueDate != "2026-12-20" || len(a.Late) != 1 {
			t.Fatalf("producer's account %+v", a)
		}
		late := a.Late[0]
		if late.Number != "FA-2026-000001" || late.Days != 4 || late.PaidOff != "" || late.Indemnity != 40 || len(late.Periods) != 1 ||
			late.Periods[0].From != "2026-12-21" || late.Periods[0].To != "2026-12-24" || late.Periods[0].Balance != a.Owed ||
			late.Periods[0].ECBRate != 2.15 || late.Periods[0].Rate != 12.15 || late.Periods[0].RateListed ||
			a.Penalties != late.Penalty || a.Indemnities != 40 {
			t.Fatalf("late %+v, penalties %v + %v", late, a.Penalties, a.Indemnities)
		}
		var shop struct {
			Accounts []struct {
				Late []any `json:"late"`
			} `json:"accounts"`
		}
		if dw.shop.Do("GET", "/api/payments", nil).Expect(t, 200).JSON(t, &shop); len(shop.Accounts[0].Late) != 0 {
			t.Fatalf("a shop sees penalties: %+v", shop)
		}

		invoice := a.Documents[0].ID
		var preview struct {
			ExecutionDate string  `json:"executionDate"`
			Total         float64 `json:"total"`
			Transfers     []struct {
				PartnerID  string  `json:"partnerId"`
				Name       string  `json:"name"`
				IBAN       string  `json:"iban"`
				Amount     float64 `json:"amount"`
				Remittance string  `json:"remittance"`
			} `json:"transfers"`
		}
		dw.shop.Do("GET", "/api/payments/transfer?documents="+invoice+","+invoice, nil).Expect(t, 200).JSON(t, &preview)
		if preview.ExecutionDate != "2026-12-28" || preview.Total != a.Owed || len(preview.Transfers) != 1 ||
			preview.Transfers[0].PartnerID != dw.farmID || preview.Transfers[0].Name != "Ferme des Aravis" ||
			preview.Transfers[0].IBAN != "FR7630006000011234567890189" || preview.Transfers[0].Amount != a.Owed ||
			preview.Transfers[0].Remittance != "Facture FA-2026-000001" {
			t.Fatalf("preview %+v", preview)
		}
		dw.s.Refuses(t, []daemontest.Refused{
			{Name: "a producer", Client: dw.farm, Method: "GET", Path: "/api/payments/transfer?documents=" + invoice, Status: 403,
				Detail: daemon.MsgShopsOnly},
			{Name: "another shop's invoice", Client: dw.otherShop, Method: "GET", Path: "/api/payments/transfer?documents=" + invoice,
				Status: 422, Detail: payments.MsgDocumentPay, Location: "body.documents"},
			{Name: "nothing chosen", Client: dw.shop, Method: "GET", Path: "/api/payments/transfer?documents=,", Status: 422,
				Detail: payments.MsgTransferNone, Location: "body.documents"},
			{Name: "anonymous", Client: dw.s.Client(), Method: "GET", Path: "/api/payments/transfer?documents=" + invoice, Status: 401,
				Detail: daemon.MsgNoToken},
		})
	})
}
