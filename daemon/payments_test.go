package daemon_test

import (
	"strings"
	"testing"

	"primeur/core/payments"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon/daemontest"
)

type paymentsJSON struct {
	Accounts []struct {
		PartnerID   string  `json:"partnerId"`
		PartnerName string  `json:"partnerName"`
		Owed        float64 `json:"owed"`
		Overdue     float64 `json:"overdue"`
		Declared    float64 `json:"declared"`
		NextDue     string  `json:"nextDue"`
		Documents   []struct {
			ID      string  `json:"_id"`
			Number  string  `json:"number"`
			Balance float64 `json:"balance"`
			Status  string  `json:"status"`
			Path    string  `json:"path"`
		} `json:"documents"`
		Payments []struct {
			ID     string  `json:"_id"`
			Status string  `json:"status"`
			Amount float64 `json:"amount"`
			ByShop bool    `json:"byShop"`
		} `json:"payments"`
	} `json:"accounts"`
	Today string `json:"today"`
}

// TestPaymentsAPI: the invoice of November is owed; the producer records
// part of it in euros and cents, the shop declares the rest and the
// producer confirms; both see the same balances; refusals are French.
func TestPaymentsAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		dw := newDeliveriesWorld(t, db)
		invoices(t, dw.s, tradetest.At(2026, 12, 1, 6, 0))
		dw.s.Clock.Set(tradetest.At(2026, 12, 3, 9, 0))
		var p paymentsJSON
		dw.farm.Do("GET", "/api/payments", nil).Expect(t, 200).JSON(t, &p)
		if len(p.Accounts) != 1 || p.Accounts[0].PartnerID != dw.shopID || p.Accounts[0].PartnerName != "Épicerie du Lac" ||
			len(p.Accounts[0].Documents) != 1 || p.Today != "2026-12-03" {
			t.Fatalf("producer's accounts %+v", p)
		}
		doc := p.Accounts[0].Documents[0]
		total := p.Accounts[0].Owed
		if doc.Number != "FA-2026-000001" || doc.Status != payments.Open || doc.Path != "/print/invoice/"+dw.order || total <= 10.5 {
			t.Fatalf("document %+v, owed %v", doc, total)
		}
		// The shop's transfer file: refused while the producer has no IBAN,
		// then for its bank.
		transfer := "/print/transfer?documents=" + doc.ID
		if got := dw.shop.Do("GET", transfer, nil).Expect(t, 422).Problem(t); got.Detail != "Ferme des Aravis n'a pas renseigné d'IBAN valide : son virement ne peut pas être préparé." &&
			got.Detail != payments.MsgShopIBAN {
			t.Fatalf("transfer without IBAN: %q", got.Detail)
		}
		dw.farm.Do("PUT", "/api/user", map[string]any{"iban": "FR7630006000011234567890189", "bic": "AGRIFRPP882", "currentPassword": daemontest.Password}).Expect(t, 200)
		dw.shop.Do("PUT", "/api/user", map[string]any{"iban": "FR7610107001011234567890129", "currentPassword": daemontest.Password}).Expect(t, 200)
		res := dw.shop.Do("GET", transfer, nil).Expect(t, 200)
		if res.Header.Get("Content-Type") != "application/xml" ||
			res.Header.Get("Content-Disposition") != `attachment; filename="virements-2026-12-03.xml"` ||
			!strings.Contains(string(res.Body), "<Ustrd>Facture FA-2026-000001</Ustrd>") ||
			!strings.Contains(string(res.Body), "<IBAN>FR7630006000011234567890189</IBAN>") {
			t.Fatalf("transfer file: %v\n%s", res.Header, res.Body)
		}
		dw.farm.Do("GET", transfer, nil).Expect(t, 403)
		dw.otherShop.Do("GET", transfer, nil).Expect(t, 422)
		for _, c := range []struct {
			client *daemontest.Client
			path   string
			body   map[string]any
			status int
			detail string
		}{
			{dw.farm, "/api/payments", map[string]any{"partnerId": dw.shopID, "amount": 10.555, "paidOn": "2026-12-02", "method": "virement"}, 422, payments.MsgAmount},
			{dw.farm, "/api/payments", map[string]any{"partnerId": dw.shopID, "amount": 10, "paidOn": "2026-12-04", "method": "virement"}, 422, payments.MsgFutureDate},
			{dw.farm, "/api/payments", map[string]any{"partnerId": dw.shopID, "amount": 10, "paidOn": "2026-12-02", "method": "troc"}, 422, payments.MsgMethod},
			{dw.farm, "/api/payments", map[string]any{"partnerId": dw.shopID, "amount": -1, "paidOn": "2026-12-02", "method": "cheque"}, 422, payments.MsgAmount},
			{dw.otherFrm, "/api/payments", map[string]any{"partnerId": dw.shopID, "amount": 1, "paidOn": "2026-12-02", "method": "cheque"}, 422, payments.MsgPartner},
		} {
			if got := c.client.Do("POST", c.path, c.body).Expect(t, c.status).Problem(t); got.Detail != c.detail {
				t.Errorf("%v: %q, want %q", c.body, got.Detail, c.detail)
			}
		}
		dw.farm.Do("POST", "/api/payments", map[string]any{"partnerId": dw.shopID, "amount": 10.5, "paidOn": "2026-12-02",
			"method": "virement", "reference": "VIR 2026-12"}).Expect(t, 200).JSON(t, &p)
		if got := p.Accounts[0].Owed; got != round(total-10.5) || p.Accounts[0].Documents[0].Status != payments.Partly {
			t.Fatalf("after 10,50 €: owed %v, %+v", got, p.Accounts[0].Documents)
		}
		rest := p.Accounts[0].Owed
		dw.shop.Do("POST", "/api/payments/declare", map[string]any{"partnerId": dw.farmID, "amount": rest, "paidOn": "2026-12-03",
			"method": "cheque"}).Expect(t, 200).JSON(t, &p)
		if p.Accounts[0].PartnerID != dw.farmID || p.Accounts[0].Declared != rest || p.Accounts[0].Owed != rest {
			t.Fatalf("the shop's view after its declaration %+v", p.Accounts[0])
		}
		declared := p.Accounts[0].Payments[0]
		if !declared.ByShop || declared.Status != payments.Declared {
			t.Fatalf("declared payment %+v", declared)
		}
		dw.farm.Do("PUT", "/api/payments/"+declared.ID+"/confirm", map[string]any{"accepted": true}).Expect(t, 200).JSON(t, &p)
		if p.Accounts[0].Owed != 0 || p.Accounts[0].Documents[0].Status != payments.Paid {
			t.Fatalf("confirmed: %+v", p.Accounts[0])
		}
		dw.shop.Do("GET", "/api/payments", nil).Expect(t, 200).JSON(t, &p)
		if p.Accounts[0].Owed != 0 || p.Accounts[0].Documents[0].Status != payments.Paid || len(p.Accounts[0].Payments) != 2 {
			t.Fatalf("the shop's view: %+v", p.Accounts[0])
		}
		// Confirmed once only; the stranger sees nothing.
		dw.farm.Do("PUT", "/api/payments/"+declared.ID+"/confirm", map[string]any{"accepted": true}).Expect(t, 409)
		dw.otherFrm.Do("PUT", "/api/payments/"+declared.ID+"/undo", nil).Expect(t, 404)
		// The statement of account, for both.
		for _, c := range []struct {
			client  *daemontest.Client
			partner string
		}{{dw.farm, dw.shopID}, {dw.shop, dw.farmID}} {
			res := c.client.Do("GET", "/print/statement/"+c.partner, nil).Expect(t, 200)
			if res.Header.Get("Content-Type") != "application/pdf" || res.Header.Get("Content-Disposition") != `attachment; filename="releve-2026-12-03.pdf"` {
				t.Fatalf("statement: %v", res.Header)
			}
		}
		dw.otherFrm.Do("GET", "/print/statement/"+dw.shopID, nil).Expect(t, 404)
		dw.otherShop.Do("GET", "/api/payments", nil).Expect(t, 200).JSON(t, &p)
		if len(p.Accounts) != 0 {
			t.Fatalf("a stranger's accounts %+v", p.Accounts)
		}
	})
}

func round(f float64) float64 { return float64(int64(f*100+0.5)) / 100 }
