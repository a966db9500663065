package daemon_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"primeur/core/orders"
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
		// The rows not listed (issue 42).
		OlderDocuments int    `json:"olderDocuments"`
		OlderPayments  int    `json:"olderPayments"`
		OlderBefore    string `json:"olderBefore"`
		Documents      []struct {
			ID        string  `json:"_id"`
			Number    string  `json:"number"`
			IssueDate string  `json:"issueDate"`
			Balance   float64 `json:"balance"`
			Status    string  `json:"status"`
			Path      string  `json:"path"`
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

// historyJSON is a page of GET /api/payments/{partnerId}/history.
type historyJSON struct {
	Documents []struct {
		ID        string `json:"_id"`
		IssueDate string `json:"issueDate"`
		Status    string `json:"status"`
		Path      string `json:"path"`
	} `json:"documents"`
	Payments []struct {
		ID     string `json:"_id"`
		PaidOn string `json:"paidOn"`
	} `json:"payments"`
	More           bool   `json:"more"`
	Before         string `json:"before"`
	OlderDocuments int    `json:"olderDocuments"`
	OlderPayments  int    `json:"olderPayments"`
}

// TestPaymentsHistoryAPI (issue 42): after most of a year of trade, the
// screens list the open documents — June's, six months overdue — and the
// recent months', and count the older settled ones — August's, paid in
// August —, which the history answers, to the two parties only; a start
// that is not a day is refused in French.
func TestPaymentsHistoryAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		dw := newDeliveriesWorld(t, db)
		for m := 3; m <= 10; m++ {
			order := dw.w.Order(dw.w.Farm, dw.w.Shop, fmt.Sprintf("2026-%02d-01", m))
			dw.w.Delivery(order, fmt.Sprintf("2026-%02d-08", m), orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000, Sent: tradetest.Dec(1000)})
			invoices(t, dw.s, tradetest.At(2026, time.Month(m+1), 1, 6, 0))
		}
		invoices(t, dw.s, tradetest.At(2026, 12, 1, 6, 0))
		dw.s.Clock.Set(tradetest.At(2026, 12, 3, 9, 0))
		var p paymentsJSON
		dw.farm.Do("GET", "/api/payments", nil).Expect(t, 200).JSON(t, &p)
		byMonth := map[string]string{}
		for _, d := range p.Accounts[0].Documents {
			byMonth[d.IssueDate[:7]] = d.ID
		}
		if len(byMonth) != 9 {
			t.Fatalf("documents %+v", p.Accounts[0].Documents)
		}
		// Every invoice paid on the 5th of its month, June's excepted and
		// December's, still to come.
		for _, month := range []string{"2026-04", "2026-05", "2026-07", "2026-08", "2026-09", "2026-10", "2026-11"} {
			for _, d := range p.Accounts[0].Documents {
				if d.ID == byMonth[month] {
					dw.farm.Do("POST", "/api/payments", map[string]any{"partnerId": dw.shopID, "amount": d.Balance, "paidOn": month + "-05",
						"method": "virement", "documents": []string{d.ID}}).Expect(t, 200)
				}
			}
		}
		var listed paymentsJSON
		dw.shop.Do("GET", "/api/payments", nil).Expect(t, 200).JSON(t, &listed)
		acc := listed.Accounts[0]
		var months []string
		seen := map[string]bool{}
		for _, d := range acc.Documents {
			months = append(months, d.IssueDate[:7]+" "+d.Status)
			seen[d.ID] = true
		}
		for _, pay := range acc.Payments {
			seen[pay.ID] = true
		}
		if want := []string{"2026-06 overdue", "2026-10 paid", "2026-11 paid", "2026-12 issued"}; !slices.Equal(months, want) ||
			len(acc.Payments) != 2 || acc.OlderDocuments != 5 || acc.OlderPayments != 5 || acc.OlderBefore != "2026-10-01" {
			t.Fatalf("listed %v, %d payments, older %d/%d before %q", months, len(acc.Payments), acc.OlderDocuments, acc.OlderPayments, acc.OlderBefore)
		}
		if acc.Owed != round(acc.Overdue+acc.Documents[3].Balance) || acc.Overdue != acc.Documents[0].Balance {
			t.Fatalf("totals %+v", acc)
		}
		// A write answers the accounts as the read does.
		dw.farm.Do("PUT", "/api/reminders/"+dw.shopID, map[string]any{"enabled": true}).Expect(t, 200).JSON(t, &p)
		if p.Accounts[0].OlderDocuments != 5 || len(p.Accounts[0].Documents) != 4 {
			t.Fatalf("after a write: %+v", p.Accounts[0])
		}

		// The older rows, for either party, most recent first, none listed.
		for _, c := range []struct {
			client  *daemontest.Client
			partner string
		}{{dw.shop, dw.farmID}, {dw.farm, dw.shopID}} {
			var h historyJSON
			c.client.Do("GET", "/api/payments/"+c.partner+"/history?before="+acc.OlderBefore, nil).Expect(t, 200).JSON(t, &h)
			var days []string
			for _, d := range h.Documents {
				days = append(days, d.IssueDate+" "+d.Status)
				if seen[d.ID] || d.Path == "" {
					t.Fatalf("document %+v listed already or without its PDF", d)
				}
			}
			for _, pay := range h.Payments {
				days = append(days, pay.PaidOn)
				if seen[pay.ID] {
					t.Fatalf("payment %+v listed already", pay)
				}
			}
			want := []string{"2026-09-01 paid", "2026-08-01 paid", "2026-07-01 paid", "2026-05-01 paid", "2026-04-01 paid",
				"2026-09-05", "2026-08-05", "2026-07-05", "2026-05-05", "2026-04-05"}
			if !slices.Equal(days, want) || h.More || h.Before != "" || h.OlderDocuments != 0 || h.OlderPayments != 0 {
				t.Fatalf("history %v, more %v before %q, rest %d/%d", days, h.More, h.Before, h.OlderDocuments, h.OlderPayments)
			}
		}
		// Before August: what remains, then nothing.
		var h historyJSON
		dw.shop.Do("GET", "/api/payments/"+dw.farmID+"/history?before=2026-08-01", nil).Expect(t, 200).JSON(t, &h)
		if len(h.Documents) != 3 || len(h.Payments) != 3 || h.More {
			t.Fatalf("before August %+v", h)
		}
		dw.shop.Do("GET", "/api/payments/"+dw.farmID+"/history?before=2026-04-01", nil).Expect(t, 200).JSON(t, &h)
		if len(h.Documents) != 0 || len(h.Payments) != 0 || h.More {
			t.Fatalf("before April %+v", h)
		}

		// Unchanged, it answers 304 to its ETag.
		path := "/api/payments/" + dw.farmID + "/history?before=2026-10-01"
		first := dw.shop.Do("GET", path, nil).Expect(t, 200)
		req, err := http.NewRequest(http.MethodGet, dw.s.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("If-None-Match", first.Header.Get("ETag"))
		if again := dw.shop.Raw(req).Expect(t, http.StatusNotModified); first.Header.Get("ETag") == "" || len(again.Body) != 0 {
			t.Fatalf("ETag %q, then %d bytes", first.Header.Get("ETag"), len(again.Body))
		}

		// Strangers and hostile starts.
		dw.s.Refuses(t, []daemontest.Refused{
			{Name: "anonymous", Client: dw.s.Client(), Method: "GET", Path: path, Status: 401},
			{Name: "another shop's producer", Client: dw.otherShop, Method: "GET", Path: path, Status: 404},
			{Name: "another producer's shop", Client: dw.otherFrm, Method: "GET", Path: "/api/payments/" + dw.shopID + "/history?before=2026-10-01", Status: 404},
			{Name: "an unknown partner", Client: dw.shop, Method: "GET", Path: "/api/payments/nope/history?before=2026-10-01", Status: 404},
			{Name: "oneself", Client: dw.shop, Method: "GET", Path: "/api/payments/" + dw.shopID + "/history?before=2026-10-01", Status: 404},
			{Name: "no start", Client: dw.shop, Method: "GET", Path: "/api/payments/" + dw.farmID + "/history", Status: 422, Detail: payments.MsgBefore},
			{Name: "an empty start", Client: dw.shop, Method: "GET", Path: "/api/payments/" + dw.farmID + "/history?before=", Status: 422, Detail: payments.MsgBefore},
			{Name: "not a day", Client: dw.shop, Method: "GET", Path: "/api/payments/" + dw.farmID + "/history?before=2026-02-30", Status: 422, Detail: payments.MsgBefore},
			{Name: "words", Client: dw.shop, Method: "GET", Path: "/api/payments/" + dw.farmID + "/history?before=hier%27%3B--", Status: 422, Detail: payments.MsgBefore},
			{Name: "huge", Client: dw.shop, Method: "GET", Path: "/api/payments/" + dw.farmID + "/history?before=" + strings.Repeat("2026-10-01", 500), Status: 422, Detail: payments.MsgBefore},
		})
	})
}
