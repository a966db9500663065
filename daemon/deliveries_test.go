package daemon_test

import (
	"archive/zip"
	"bytes"
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"primeur/core/accounting"
	"primeur/core/calendar"
	"primeur/core/delivery"
	"primeur/core/jobs"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

type ordersDeliveryJSON struct {
	ID          string `json:"_id"`
	Date        string `json:"date"`
	Distributor string `json:"distributor"`
	Producer    string `json:"producer"`
	Deliveries  []struct {
		ID            string `json:"_id"`
		Status        string `json:"status"`
		Date          string `json:"date"`
		ClaimStatus   string `json:"claimStatus"`
		ClaimSentAt   string `json:"claimSentAt"`
		DeliveryLines []struct {
			ID              string  `json:"_id"`
			Product         string  `json:"product"`
			QuantitySent    float64 `json:"quantitySent"`
			QuantityClaimed float64 `json:"quantityClaimed"`
			ClaimType       string  `json:"claimType"`
			ClaimComment    string  `json:"claimComment"`
		} `json:"deliveryLines"`
	} `json:"deliveries"`
	Invoice *struct {
		ID      string `json:"_id"`
		Number  string `json:"number"`
		Credits []struct {
			ID         string `json:"_id"`
			Number     string `json:"number"`
			Kind       string `json:"kind"`
			DeliveryID string `json:"deliveryId"`
		} `json:"credits"`
	} `json:"invoice"`
}

// deliveriesWorld registers a shop, a producer and two outsiders through the
// API and gives the pair a November order with a planned and a done delivery.
type deliveriesWorld struct {
	s                   *daemontest.Server
	w                   *tradetest.World
	shop, farm          *daemontest.Client
	otherShop, otherFrm *daemontest.Client
	shopID, farmID      string
	order               string
	planned, done       string
}

func newDeliveriesWorld(t *testing.T, db *store.DB) deliveriesWorld {
	s := daemontest.New(t, db)
	var dw deliveriesWorld
	dw.s = s
	dw.shop, dw.shopID = s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
	dw.farm, dw.farmID = s.Producer("ferme@aravis.fr", "Ferme des Aravis")
	dw.otherShop, _ = s.Register("autre@magasin.fr", "Autre magasin", true)
	dw.otherFrm, _ = s.Producer("autre@ferme.fr", "Autre ferme")
	dw.w = tradetest.Between(t, db, dw.farmID, dw.shopID)
	dw.order = dw.w.Order(dw.w.Farm, dw.w.Shop, "2026-11-01")
	dw.planned = dw.w.Delivery(dw.order, "2026-11-24", orders.Planned,
		tradetest.L{Product: "tomate", Price: 250, Expected: 1000}, tradetest.L{Product: "laitue", Price: 90, Expected: 2000})
	dw.done = dw.w.Delivery(dw.order, "2026-11-19", orders.Done,
		tradetest.L{Product: "tomate", Price: 250, Expected: 1000, Sent: tradetest.Dec(1000)})
	return dw
}

// invoices runs the invoices job at now on the daemon's database, as its
// scheduler does; the emails go to the outbox of its data directory.
func invoices(t *testing.T, s *daemontest.Server, now time.Time) {
	t.Helper()
	if _, err := jobs.Invoices(context.Background(), jobs.EnvOf(s.Config, s.DB, nil), now); err != nil {
		t.Fatal(err)
	}
}

func (dw deliveriesWorld) path(op, delivery string) string {
	return "/api/deliveries/" + op + "/" + dw.order + "/" + delivery
}

func TestDeliveriesAPIRefusals(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		dw := newDeliveriesWorld(t, db)
		w := dw.w
		anonymous := dw.s.Client()
		tomato := w.Line(dw.planned, "tomate")
		claim := map[string]any{"deliveryLines": []map[string]any{{"_id": w.Line(dw.done, "tomate"), "quantityClaimed": -1, "claimType": "quality"}}}
		// Delivered on Tuesday 17: its claim window closed on Thursday 19.
		closed := w.Delivery(dw.order, "2026-11-17", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000, Sent: tradetest.Dec(1000)})
		dw.s.Refuses(t, []daemontest.Refused{
			{Name: "anonymous update", Client: anonymous, Method: "PUT", Path: dw.path("update", dw.planned), Body: map[string]any{"date": "2026-11-25"}, Status: 401, Detail: daemon.MsgNoToken},
			{Name: "anonymous claim", Client: anonymous, Method: "PUT", Path: dw.path("claim", dw.done), Body: claim, Status: 401, Detail: daemon.MsgNoToken},
			{Name: "producer updates", Client: dw.farm, Method: "PUT", Path: dw.path("update", dw.planned), Body: map[string]any{"date": "2026-11-25"}, Status: 403, Detail: daemon.MsgShopsOnly},
			{Name: "producer cancels", Client: dw.farm, Method: "PUT", Path: dw.path("cancel", dw.planned), Status: 403, Detail: daemon.MsgShopsOnly},
			// The producer answers the shop's claims only: none on this delivery.
			{Name: "producer reviews", Client: dw.farm, Method: "PUT", Path: dw.path("review", dw.done), Body: map[string]any{"accepted": true}, Status: 409, Detail: delivery.MsgNoClaim},
			{Name: "shop claims", Client: dw.shop, Method: "PUT", Path: dw.path("claim", dw.done), Body: claim, Status: 403, Detail: daemon.MsgProducersOnly},
			{Name: "other shop updates", Client: dw.otherShop, Method: "PUT", Path: dw.path("update", dw.planned), Body: map[string]any{"date": "2026-11-25"}, Status: 404},
			{Name: "other shop cancels", Client: dw.otherShop, Method: "PUT", Path: dw.path("cancel", dw.planned), Status: 404},
			{Name: "other producer claims", Client: dw.otherFrm, Method: "PUT", Path: dw.path("claim", dw.done), Body: claim, Status: 404},
			{Name: "unknown delivery", Client: dw.shop, Method: "PUT", Path: dw.path("cancel", "nope"), Status: 404},
			{Name: "unknown order", Client: dw.shop, Method: "PUT", Path: "/api/deliveries/cancel/nope/" + dw.planned, Status: 404},
			{Name: "date today", Client: dw.shop, Method: "PUT", Path: dw.path("update", dw.planned), Body: map[string]any{"date": "2026-11-20"}, Status: 422, Detail: delivery.MsgDate},
			{Name: "date garbage", Client: dw.shop, Method: "PUT", Path: dw.path("update", dw.planned), Body: map[string]any{"date": "demain"}, Status: 422, Detail: delivery.MsgDate},
			{Name: "negative", Client: dw.shop, Method: "PUT", Path: dw.path("update", dw.planned), Body: map[string]any{"deliveryLines": []map[string]any{{"_id": tomato, "quantitySent": -2}}}, Status: 422, Detail: delivery.MsgNegative},
			{Name: "bad weight", Client: dw.shop, Method: "PUT", Path: dw.path("update", dw.planned), Body: map[string]any{"deliveryLines": []map[string]any{{"_id": tomato, "quantitySent": 1.234}}}, Status: 422, Detail: delivery.MsgWeight},
			{Name: "bad pieces", Client: dw.shop, Method: "PUT", Path: dw.path("update", dw.planned), Body: map[string]any{"deliveryLines": []map[string]any{{"_id": w.Line(dw.planned, "laitue"), "quantitySent": 1.5}}}, Status: 422, Detail: delivery.MsgPieces},
			{Name: "done updated", Client: dw.shop, Method: "PUT", Path: dw.path("update", dw.done), Body: map[string]any{"date": "2026-11-25"}, Status: 409, Detail: delivery.MsgNotPlanned},
			{Name: "done cancelled", Client: dw.shop, Method: "PUT", Path: dw.path("cancel", dw.done), Status: 409, Detail: delivery.MsgNotPlanned},
			{Name: "review without claim", Client: dw.shop, Method: "PUT", Path: dw.path("review", dw.done), Body: map[string]any{"accepted": true}, Status: 409, Detail: delivery.MsgNoClaim},
			{Name: "claim past its window", Client: dw.farm, Method: "PUT", Path: dw.path("claim", closed), Body: map[string]any{"deliveryLines": []map[string]any{{"_id": w.Line(closed, "tomate"), "quantityClaimed": -1, "claimType": "quality"}}}, Status: 409,
				Detail: "Le délai de demande d'avoir est dépassé : elle était possible jusqu'au jeudi 19 novembre 2026, deux jours ouvrés après la livraison."},
			{Name: "claim on planned", Client: dw.farm, Method: "PUT", Path: dw.path("claim", dw.planned), Body: map[string]any{"deliveryLines": []map[string]any{{"_id": tomato, "quantityClaimed": -1, "claimType": "quality"}}}, Status: 409, Detail: delivery.MsgNotDone},
			{Name: "empty claim", Client: dw.farm, Method: "PUT", Path: dw.path("claim", dw.done), Body: map[string]any{"deliveryLines": []any{}}, Status: 422, Detail: delivery.MsgNoQuantity},
			{Name: "claim without type", Client: dw.farm, Method: "PUT", Path: dw.path("claim", dw.done), Body: map[string]any{"deliveryLines": []map[string]any{{"_id": w.Line(dw.done, "tomate"), "quantityClaimed": -1}}}, Status: 422, Detail: delivery.MsgClaimType},
			// Malformed input: 4xx, never 500, nothing written.
			{Name: "quantity as text", Client: dw.shop, Method: "PUT", Path: dw.path("update", dw.planned), Body: `{"deliveryLines":[{"_id":"` + tomato + `","quantitySent":"douze"}]}`, Status: 422},
			{Name: "unknown field", Client: dw.shop, Method: "PUT", Path: dw.path("update", dw.planned), Body: `{"date":"2026-11-25","status":"done"}`, Status: 422},
			{Name: "not json", Client: dw.shop, Method: "PUT", Path: dw.path("update", dw.planned), Body: `{"date":`, Status: 400},
			{Name: "huge number", Client: dw.shop, Method: "PUT", Path: dw.path("update", dw.planned), Body: `{"deliveryLines":[{"_id":"` + tomato + `","quantitySent":1e400}]}`, Status: 400},
			{Name: "review without answer", Client: dw.shop, Method: "PUT", Path: dw.path("review", dw.done), Body: map[string]any{}, Status: 422},
			{Name: "review with text", Client: dw.shop, Method: "PUT", Path: dw.path("review", dw.done), Body: `{"accepted":"oui"}`, Status: 422},
			{Name: "review with null", Client: dw.shop, Method: "PUT", Path: dw.path("review", dw.done), Body: `{"accepted":null}`, Status: 422},
			{Name: "long comment", Client: dw.farm, Method: "PUT", Path: dw.path("claim", dw.done), Body: map[string]any{"deliveryLines": []map[string]any{{"_id": w.Line(dw.done, "tomate"), "quantityClaimed": -1, "claimType": "quality", "claimComment": strings.Repeat("a", 6000)}}}, Status: 422},
			{Name: "long id", Client: dw.shop, Method: "PUT", Path: "/api/deliveries/cancel/" + strings.Repeat("x", 300) + "/" + dw.planned, Status: 422},
		})
		// Field errors name the field.
		res := dw.shop.Do("PUT", dw.path("update", dw.planned), map[string]any{"deliveryLines": []map[string]any{{"_id": tomato, "quantitySent": -2}}})
		if p := res.Problem(t); len(p.Errors) != 1 || p.Errors[0].Location != "body.deliveryLines[0].quantitySent" {
			t.Fatalf("errors %+v", p.Errors)
		}
	})
}

func TestDeliveriesAPIFlow(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		dw := newDeliveriesWorld(t, db)
		w := dw.w
		var o ordersDeliveryJSON
		dw.shop.Do("PUT", dw.path("update", dw.planned), map[string]any{
			"date":          "2026-11-21",
			"deliveryLines": []map[string]any{{"_id": w.Line(dw.planned, "tomate"), "quantitySent": 9.5}},
		}).Expect(t, 200).JSON(t, &o)
		if o.ID != dw.order || o.Producer != dw.farmID || o.Distributor != "" || o.Date != "2026-11-01" {
			t.Fatalf("order seen by the shop: %+v", o)
		}
		var d = o.Deliveries[len(o.Deliveries)-1]
		if d.ID != dw.planned || d.Date != "2026-11-21" || d.Status != "planned" {
			t.Fatalf("updated delivery %+v", d)
		}
		for _, l := range d.DeliveryLines {
			if want := map[string]float64{"tomate": 9.5, "laitue": 20}[l.Product]; l.QuantitySent != want {
				t.Errorf("%s sent %v", l.Product, l.QuantitySent)
			}
		}

		// At 12:00 on its date, the delivery is locked for the shop.
		dw.s.Clock.Set(tradetest.At(2026, 11, 21, 12, 0))
		res := dw.shop.Do("PUT", dw.path("cancel", dw.planned), nil).Expect(t, 409)
		if p := res.Problem(t); p.Detail != "Le bon de livraison n'est plus modifiable après 12h le jour de la livraison." {
			t.Fatalf("detail %q", p.Detail)
		}
		// The producer claims on it (the lock applies at once), the shop
		// accepts.
		o = ordersDeliveryJSON{}
		dw.farm.Do("PUT", dw.path("claim", dw.planned), map[string]any{"deliveryLines": []map[string]any{
			{"_id": w.Line(dw.planned, "tomate"), "quantityClaimed": -1.5, "claimType": "quality", "claimComment": "Abîmées"},
		}}).Expect(t, 200).JSON(t, &o)
		if o.Distributor != dw.shopID || o.Producer != "" {
			t.Fatalf("order seen by the producer: %+v", o)
		}
		for _, d := range o.Deliveries {
			if d.ID == dw.planned && (d.Status != "done" || d.ClaimStatus != "sent" || d.ClaimSentAt != "2026-11-21T11:00:00Z") {
				t.Fatalf("claimed delivery %+v", d)
			}
		}
		dw.shop.Do("PUT", dw.path("review", dw.planned), map[string]any{"accepted": true}).Expect(t, 200).JSON(t, &o)
		for _, d := range o.Deliveries {
			if d.ID == dw.planned && d.ClaimStatus != "accepted" {
				t.Fatalf("reviewed delivery %+v", d)
			}
		}
		// A new planned delivery is cancelled.
		next := w.Delivery(dw.order, "2026-11-27", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		dw.shop.Do("PUT", dw.path("cancel", next), nil).Expect(t, 200).JSON(t, &o)
		for _, d := range o.Deliveries {
			if d.ID == next && d.Status != "cancelled" {
				t.Fatalf("cancelled delivery %+v", d)
			}
		}
		// A claim on the delivery of the last day of the month, sent that
		// evening, waits for the shop past the invoice.
		last := w.Delivery(dw.order, "2026-11-30", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000, Sent: tradetest.Dec(1000)})
		dw.s.Clock.Set(tradetest.At(2026, 11, 30, 20, 0))
		dw.farm.Do("PUT", dw.path("claim", last), map[string]any{"deliveryLines": []map[string]any{
			{"_id": w.Line(last, "tomate"), "quantityClaimed": -2, "claimType": "quantity"},
		}}).Expect(t, 200)
		// The activity feeds tell both sides.
		var load struct {
			Events []struct {
				Type string `json:"type"`
			} `json:"events"`
			Orders []ordersDeliveryJSON `json:"orders"`
		}
		everyScreen(t, dw.farm, &load)
		// The claims' events, newest first, among the trade that planned
		// the deliveries (the world's proposals and acceptances).
		var claims []string
		for _, e := range load.Events {
			if strings.HasPrefix(e.Type, "claim:") {
				claims = append(claims, e.Type)
			}
		}
		if !slices.Equal(claims, []string{"claim:request", "claim:review", "claim:request"}) || load.Events[0].Type != "claim:request" {
			t.Fatalf("producer's feed %+v", load.Events)
		}
		if len(load.Orders) != 1 || load.Orders[0].Invoice != nil {
			t.Fatalf("orders before the invoice %+v", load.Orders)
		}
		// Once invoiced, the orders carry the invoice.
		invoices(t, dw.s, tradetest.At(2026, 12, 1, 6, 0))
		everyScreen(t, dw.shop, &load)
		if len(load.Orders) != 1 || load.Orders[0].Invoice == nil || load.Orders[0].Invoice.Number != "FA-2026-000001" {
			t.Fatalf("orders after the invoice %+v", load.Orders)
		}
		// The claim accepted before it came with the invoice, as a credit
		// note; the shop answers the other one now: its credit note comes
		// with the answer.
		inv := load.Orders[0].Invoice
		if len(inv.Credits) != 1 || inv.Credits[0].Number != "AV-2026-000001" || inv.Credits[0].DeliveryID != dw.planned {
			t.Fatalf("credit notes with the invoice %+v", inv.Credits)
		}
		// The order is invoiced, and the claim window of the 30th still
		// open (Tuesday 1 and Wednesday 2 December): the producer modifies
		// its claim; the delivery of the 19th is past its window.
		dw.s.Clock.Set(tradetest.At(2026, 12, 1, 8, 0))
		res = dw.farm.Do("PUT", dw.path("claim", dw.done), map[string]any{"deliveryLines": []map[string]any{
			{"_id": w.Line(dw.done, "tomate"), "quantityClaimed": -2, "claimType": "quantity"},
		}}).Expect(t, 409)
		if p := res.Problem(t); p.Detail != "Le délai de demande d'avoir est dépassé : elle était possible jusqu'au lundi 23 novembre 2026, deux jours ouvrés après la livraison." {
			t.Fatalf("detail %q", p.Detail)
		}
		dw.farm.Do("PUT", dw.path("claim", last), map[string]any{"deliveryLines": []map[string]any{
			{"_id": w.Line(last, "tomate"), "quantityClaimed": -2.5, "claimType": "quality", "claimComment": "Tomates éclatées"},
		}}).Expect(t, 200)
		dw.s.Clock.Set(tradetest.At(2026, 12, 1, 9, 0))
		o = ordersDeliveryJSON{}
		dw.shop.Do("PUT", dw.path("review", last), map[string]any{"accepted": true}).Expect(t, 200).JSON(t, &o)
		if o.Invoice == nil || len(o.Invoice.Credits) != 2 || o.Invoice.Credits[1].Number != "AV-2026-000002" ||
			o.Invoice.Credits[1].Kind != "credit" || o.Invoice.Credits[1].DeliveryID != last {
			t.Fatalf("credit notes after the answer %+v", o.Invoice)
		}
		credit := "/print/creditnote/" + o.Invoice.Credits[1].ID
		for _, c := range []*daemontest.Client{dw.shop, dw.farm} {
			res := c.Do("GET", credit, nil).Expect(t, 200)
			if res.Header.Get("Content-Disposition") != `attachment; filename="AV-2026-000002.pdf"` || !bytes.Contains(res.Body, []byte("factur-x.xml")) {
				t.Fatalf("credit note: %v", res.Header)
			}
		}
		dw.otherShop.Do("GET", credit, nil).Expect(t, 404)
		dw.otherFrm.Do("GET", credit, nil).Expect(t, 404)
		// An answered claim stays answered.
		dw.shop.Do("PUT", dw.path("review", last), map[string]any{"accepted": false}).Expect(t, 409)
	})
}

func TestDeliverySettings(t *testing.T) {
	t.Parallel()
	db := storetest.SQLite(t)
	s := daemontest.New(t, db)
	s.Config.Delivery.Lock = "07:30"
	if err := s.Config.Validate(); err != nil {
		t.Fatal(err)
	}
	c, _ := s.Register("epicerie@lac.fr", "Épicerie", true)
	var got struct {
		Lock              string   `json:"lock"`
		LockLabel         string   `json:"lockLabel"`
		TimeZone          string   `json:"timeZone"`
		AutovalidateHours int      `json:"autovalidateHours"`
		ClaimWorkingDays  int      `json:"claimWorkingDays"`
		Holidays          []string `json:"holidays"`
	}
	c.Do("GET", "/api/deliveries/settings", nil).Expect(t, 200).JSON(t, &got)
	if got.Lock != "07:30" || got.LockLabel != "7h30" || got.TimeZone != "Europe/Paris" || got.AutovalidateHours != 48 ||
		got.ClaimWorkingDays != 2 {
		t.Fatalf("settings %+v", got)
	}
	// The weekday holidays of 2025 to 2027 (the clock is in 2026).
	if len(got.Holidays) == 0 || got.Holidays[0] != "2025-01-01" || got.Holidays[len(got.Holidays)-1] != "2027-11-11" ||
		!slices.Contains(got.Holidays, "2026-11-11") || slices.Contains(got.Holidays, "2026-11-01") {
		t.Fatalf("holidays %v", got.Holidays)
	}
	s.Client().Do("GET", "/api/deliveries/settings", nil).Expect(t, 401)
}

func TestPrintRoutes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		dw := newDeliveriesWorld(t, db)
		w := dw.w
		cancelled := w.Delivery(dw.order, "2026-11-25", orders.Cancelled, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		note := "/print/delivery/" + dw.order + "/" + dw.done
		invoice := "/print/invoice/" + dw.order
		expectPDF := func(c *daemontest.Client, path, name string) {
			t.Helper()
			res := c.Do("GET", path, nil).Expect(t, 200)
			if res.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(res.Body, []byte("%PDF-")) ||
				res.Header.Get("Content-Disposition") != `attachment; filename="`+name+`"` || res.Header.Get("Cache-Control") != "private, no-store" {
				t.Fatalf("%s: %v %q", path, res.Header, res.Body[:min(10, len(res.Body))])
			}
		}
		for _, c := range []*daemontest.Client{dw.shop, dw.farm} {
			expectPDF(c, note, "BL-000002.pdf")
			expectPDF(c, "/print/delivery/"+dw.order+"/"+dw.planned, "BL-000001.pdf")
		}
		if p := dw.s.Client().Do("GET", note, nil).Expect(t, 401).Problem(t); p.Detail != daemon.MsgNoToken {
			t.Fatalf("anonymous: %q", p.Detail)
		}
		for _, tt := range []struct {
			c    *daemontest.Client
			path string
		}{
			{dw.otherShop, note},
			{dw.otherFrm, note},
			{dw.shop, "/print/delivery/" + dw.order + "/" + cancelled},
			{dw.shop, "/print/delivery/" + dw.order + "/nope"},
			{dw.shop, "/print/delivery/nope/" + dw.done},
			{dw.shop, invoice}, // not issued yet
			{dw.shop, "/print/delivery/" + dw.order},
			{dw.shop, "/print/other/" + dw.order},
		} {
			dw.s.Client()
			if res := tt.c.Do("GET", tt.path, nil); res.Status != 404 {
				t.Fatalf("%s: %d", tt.path, res.Status)
			}
		}
		invoices(t, dw.s, tradetest.At(2026, 12, 1, 6, 0))
		for _, c := range []*daemontest.Client{dw.shop, dw.farm} {
			expectPDF(c, invoice, "FA-2026-000001.pdf")
		}
		for _, c := range []*daemontest.Client{dw.otherShop, dw.otherFrm} {
			if res := c.Do("GET", invoice, nil); res.Status != 404 {
				t.Fatalf("outsider reads the invoice: %d", res.Status)
			}
		}
		if res := dw.s.Client().Do("GET", invoice, nil); res.Status != http.StatusUnauthorized {
			t.Fatalf("anonymous invoice: %d", res.Status)
		}
		// The producer's export of the month of its invoice's date: the
		// FEC, its PDF and the sales register, zipped (this producer
		// registered without a SIRET: its FEC is named without a SIREN and
		// its invoice cannot carry the Factur-X XML, which needs the
		// SIREN; commands' TestInvoicesExport exports XML too).
		var acc struct {
			Months []string `json:"months"`
		}
		dw.farm.Do("GET", "/api/accounting", nil).Expect(t, 200).JSON(t, &acc)
		if len(acc.Months) != 1 {
			t.Fatalf("months to export: %v", acc.Months)
		}
		month := acc.Months[0]
		res := dw.farm.Do("GET", "/print/invoices/"+month, nil).Expect(t, 200)
		zr, err := zip.NewReader(bytes.NewReader(res.Body), int64(len(res.Body)))
		if err != nil || res.Header.Get("Content-Disposition") != `attachment; filename="factures-`+month+`.zip"` {
			t.Fatalf("export: %v %v", res.Header, err)
		}
		var names []string
		for _, f := range zr.File {
			names = append(names, f.Name)
		}
		m, _ := calendar.ParseMonth(month)
		if !slices.Equal(names, []string{accounting.FECName("", m), "journal-ventes-" + month + ".csv", "FA-2026-000001.pdf"}) {
			t.Fatalf("export holds %v", names)
		}
		// The shop's: the FEC of its purchases, the register, the
		// producer's invoice in the producer's folder.
		var shopAcc struct {
			Months []string `json:"months"`
		}
		dw.shop.Do("GET", "/api/accounting", nil).Expect(t, 200).JSON(t, &shopAcc)
		res = dw.shop.Do("GET", "/print/purchases/"+month, nil).Expect(t, 200)
		if zr, err = zip.NewReader(bytes.NewReader(res.Body), int64(len(res.Body))); err != nil ||
			res.Header.Get("Content-Disposition") != `attachment; filename="achats-`+month+`.zip"` || !slices.Equal(shopAcc.Months, acc.Months) {
			t.Fatalf("shop's export: %v %v %v", res.Header, err, shopAcc.Months)
		}
		names = nil
		for _, f := range zr.File {
			names = append(names, f.Name)
		}
		if len(names) != 3 || names[1] != "journal-achats-"+month+".csv" || !strings.HasSuffix(names[2], "/FA-2026-000001.pdf") {
			t.Fatalf("shop's export holds %v", names)
		}
		dw.shop.Do("GET", "/print/purchases/novembre", nil).Expect(t, 400)
		dw.farm.Do("GET", "/print/purchases/"+month, nil).Expect(t, 403)
		if p := dw.farm.Do("GET", "/print/invoices/novembre", nil).Expect(t, 400).Problem(t); p.Detail != daemon.MsgExportMonth {
			t.Fatalf("bad month: %q", p.Detail)
		}
		dw.farm.Do("GET", "/print/invoices/2026-09", nil).Expect(t, 404)
		dw.shop.Do("GET", "/print/invoices/2026-11", nil).Expect(t, 403)
		// An expired session is anonymous.
		dw.s.Clock.Advance(30 * 24 * time.Hour)
		if res := dw.shop.Do("GET", invoice, nil); res.Status != http.StatusUnauthorized {
			t.Fatalf("expired session: %d", res.Status)
		}
	})
}
