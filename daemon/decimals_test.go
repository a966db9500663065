package daemon_test

import (
	"fmt"
	"testing"

	"primeur/core/delivery"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/rewards"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
	"primeur/core/trade/tradetest"
	"primeur/daemon/daemontest"
)

// TestAClaimCannotBillMoreThanWasOrdered is the finding of issue 13: a
// claim of 999999999 on a 2.5 kg line was accepted (200), and the invoice
// run billed it. It is refused with 422 naming the field, and nothing
// changes; the same line can still be claimed up to what was ordered.
func TestAClaimCannotBillMoreThanWasOrdered(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db) // Friday 2026-11-20 10:00
		_, shopID := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		farm, farmID := s.Producer("ferme@aravis.fr", "Ferme des Aravis")
		w := tradetest.Between(t, db, farmID, shopID)
		order := w.Order(w.Farm, w.Shop, "2026-11-01")
		done := w.Delivery(order, "2026-11-19", orders.Done,
			tradetest.L{Product: "tomate", Price: 900, Expected: 250, Sent: tradetest.Dec(200)},
			tradetest.L{Product: "laitue", Price: 90, Expected: 1200, Sent: tradetest.Dec(1200)})
		tomato, lettuce := w.Line(done, "tomate"), w.Line(done, "laitue")
		path := "/api/deliveries/claim/" + order + "/" + done
		claim := func(line string, q string) string {
			return fmt.Sprintf(`{"deliveryLines":[{"_id":%q,"quantityClaimed":%s,"claimType":"quantity"}]}`, line, q)
		}
		above := func(ordered, unit string) string {
			return "La quantité livrée plus la quantité réclamée ne peut excéder la quantité commandée (" + ordered + unit + ")"
		}
		s.Refuses(t, []daemontest.Refused{
			{Name: "999999999 on a 2.5 kg line", Client: farm, Method: "PUT", Path: path, Body: claim(tomato, "999999999"), Status: 422, Location: "body.deliveryLines[0].quantityClaimed", Detail: above("2,5", "kg")},
			{Name: "a hundredth over the order", Client: farm, Method: "PUT", Path: path, Body: claim(tomato, "0.51"), Status: 422, Location: "body.deliveryLines[0].quantityClaimed", Detail: above("2,5", "kg")},
			{Name: "1e12", Client: farm, Method: "PUT", Path: path, Body: claim(tomato, "1e12"), Status: 422, Location: "body.deliveryLines[0].quantityClaimed", Detail: above("2,5", "kg")},
			{Name: "beyond a trillion", Client: farm, Method: "PUT", Path: path, Body: claim(tomato, "1e300"), Status: 422, Location: "body.deliveryLines[0].quantityClaimed", Detail: above("2,5", "kg")},
			{Name: "one lettuce over the order", Client: farm, Method: "PUT", Path: path, Body: claim(lettuce, "1"), Status: 422, Location: "body.deliveryLines[0].quantityClaimed", Detail: above("12", "un")},
			{Name: "more than was sent", Client: farm, Method: "PUT", Path: path, Body: claim(tomato, "-2.01"), Status: 422, Location: "body.deliveryLines[0].quantityClaimed", Detail: delivery.MsgClaimExceeds},
			{Name: "12345.675", Client: farm, Method: "PUT", Path: path, Body: claim(tomato, "-12345.675"), Status: 422, Location: "body.deliveryLines[0].quantityClaimed", Detail: delivery.MsgNotNumber},
			{Name: "5000.004 pieces", Client: farm, Method: "PUT", Path: path, Body: claim(lettuce, "-5000.004"), Status: 422, Location: "body.deliveryLines[0].quantityClaimed", Detail: delivery.MsgPieces},
		})
		// Up to the quantity ordered: accepted.
		farm.Do("PUT", path, claim(tomato, "0.5")).Expect(t, 200)
		if got := w.Get(done); got.ClaimStatus != orders.ClaimSent || got.Lines[1].QuantityClaimed != 50 {
			t.Fatalf("claim up to the order: %+v %+v", got.Delivery, got.Lines)
		}
	})
}

// TestDecimalRuleAtEveryAPIPath sends the numbers of issue 13 as JSON text
// to every path that reads a quantity, a price or an amount: more than two
// decimals is refused at every magnitude with the field's French message
// (422, nothing written); exponents and numbers past float64's precision
// that denote a two-decimal float64 are read as that number.
func TestDecimalRuleAtEveryAPIPath(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db) // Friday 2026-11-20 10:00
		shop, shopID := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		farm, farmID := s.Producer("ferme@aravis.fr", "Ferme des Aravis")
		var need struct {
			ID string `json:"_id"`
		}
		shop.Do("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-12-01", "quantity": 200000}).Expect(t, 201).JSON(t, &need)
		var melons struct {
			ID string `json:"_id"`
		}
		shop.Do("POST", "/api/needs", map[string]any{"product": "melon", "date": "2026-12-01", "quantity": 10000}).Expect(t, 201).JSON(t, &melons)
		w := tradetest.Between(t, db, farmID, shopID)
		order := w.Order(w.Farm, w.Shop, "2026-11-01")
		planned := w.Delivery(order, "2026-11-24", orders.Planned,
			tradetest.L{Product: "tomate", Price: 250, Expected: 1000}, tradetest.L{Product: "laitue", Price: 90, Expected: 2000})
		tomato, lettuce := w.Line(planned, "tomate"), w.Line(planned, "laitue")

		proposal := "/api/proposals/" + need.ID + "/" + farmID
		melonProposal := "/api/proposals/" + melons.ID + "/" + farmID
		sent := func(line, q string) string {
			return fmt.Sprintf(`{"deliveryLines":[{"_id":%q,"quantitySent":%s}]}`, line, q)
		}
		s.Refuses(t, []daemontest.Refused{
			{Name: "need 12345.675 kg", Client: shop, Method: "PUT", Path: "/api/needs/" + need.ID, Body: `{"quantity":12345.675}`, Status: 422, Location: "body.quantity", Detail: planning.MsgBadWeight},
			{Name: "need 99999.995 kg", Client: shop, Method: "PUT", Path: "/api/needs/" + need.ID, Body: `{"quantity":99999.995}`, Status: 422, Location: "body.quantity", Detail: planning.MsgBadWeight},
			{Name: "need 5000.004 melons", Client: shop, Method: "PUT", Path: "/api/needs/" + melons.ID, Body: `{"quantity":5000.004}`, Status: 422, Location: "body.quantity", Detail: planning.MsgBadPieces},
			{Name: "need 1.234e2 kg", Client: shop, Method: "POST", Path: "/api/needs", Body: `{"product":"poire","date":"2027-01","quantity":1.23456e2}`, Status: 422, Location: "body.quantity", Detail: planning.MsgBadWeight},
			{Name: "bulk 2.505 kg", Client: shop, Method: "POST", Path: "/api/needs/bulk", Body: `{"product":"poire","quantities":[1,2.505],"dates":["2027-01","2027-02"]}`, Status: 422, Location: "body.quantities[1]", Detail: planning.MsgBadWeight},
			{Name: "proposal 12345.675 kg", Client: farm, Method: "PUT", Path: proposal, Body: `{"quantity":12345.675,"price":2}`, Status: 422, Location: "body.quantity", Detail: planning.MsgBadWeight},
			{Name: "proposal 5000.004 melons", Client: farm, Method: "PUT", Path: melonProposal, Body: `{"quantity":5000.004,"price":2}`, Status: 422, Location: "body.quantity", Detail: planning.MsgBadPieces},
			{Name: "price 9999.995", Client: farm, Method: "PUT", Path: proposal, Body: `{"quantity":10,"price":9999.995}`, Status: 422, Location: "body.price", Detail: trade.MsgBadPrice},
			{Name: "price 2.505", Client: farm, Method: "PUT", Path: proposal, Body: `{"quantity":10,"price":2.505}`, Status: 422, Location: "body.price", Detail: trade.MsgBadPrice},
			{Name: "price past float64's precision", Client: farm, Method: "PUT", Path: proposal, Body: `{"quantity":10,"price":2.0000000000000004}`, Status: 422, Location: "body.price", Detail: trade.MsgBadPrice},
			{Name: "sent 12345.675 kg", Client: shop, Method: "PUT", Path: "/api/deliveries/update/" + order + "/" + planned, Body: sent(tomato, "12345.675"), Status: 422, Location: "body.deliveryLines[0].quantitySent", Detail: delivery.MsgWeight},
			{Name: "sent 99999.995 kg", Client: shop, Method: "PUT", Path: "/api/deliveries/update/" + order + "/" + planned, Body: sent(tomato, "99999.995"), Status: 422, Location: "body.deliveryLines[0].quantitySent", Detail: delivery.MsgWeight},
			{Name: "sent 5000.004 lettuces", Client: shop, Method: "PUT", Path: "/api/deliveries/update/" + order + "/" + planned, Body: sent(lettuce, "5000.004"), Status: 422, Location: "body.deliveryLines[0].quantitySent", Detail: delivery.MsgPieces},
			{Name: "sent 1.234 kg", Client: shop, Method: "PUT", Path: "/api/deliveries/update/" + order + "/" + planned, Body: sent(tomato, "1.234"), Status: 422, Location: "body.deliveryLines[0].quantitySent", Detail: delivery.MsgWeight},
			{Name: "contribution 9999.995", Client: shop, Method: "PUT", Path: "/api/rewards/contribution", Body: `{"amount":9999.995}`, Status: 422, Location: "body.amount", Detail: rewards.MsgAmountFormat},
			{Name: "contribution 12.345", Client: shop, Method: "PUT", Path: "/api/rewards/contribution", Body: `{"amount":12.345}`, Status: 422, Location: "body.amount", Detail: rewards.MsgAmountFormat},
		})

		// Accepted: exponents, 0.1, and texts past float64's precision
		// that denote a two-decimal number — stored exactly.
		var got struct {
			Quantity float64 `json:"quantity"`
		}
		shop.Do("PUT", "/api/needs/"+need.ID, `{"quantity":1.5E1}`).Expect(t, 200).JSON(t, &got)
		if got.Quantity != 15 {
			t.Fatalf("1.5E1 stored as %v", got.Quantity)
		}
		shop.Do("PUT", "/api/needs/"+need.ID, `{"quantity":1e2}`).Expect(t, 200).JSON(t, &got)
		if got.Quantity != 100 {
			t.Fatalf("1e2 stored as %v", got.Quantity)
		}
		shop.Do("PUT", "/api/needs/"+need.ID, `{"quantity":12345.6700000000000000001}`).Expect(t, 200).JSON(t, &got)
		var stored int64
		if err := db.Get(&stored, db.Rebind(`SELECT quantity FROM needs WHERE id = ?`), need.ID); err != nil || stored != 1234567 {
			t.Fatalf("12345.6700000000000000001 stored as %d hundredths, %v", stored, err)
		}
		shop.Do("PUT", "/api/deliveries/update/"+order+"/"+planned, sent(tomato, "0.1")).Expect(t, 200)
		if l := w.Get(planned).Lines[1]; l.QuantitySent == nil || *l.QuantitySent != 10 {
			t.Fatalf("0.1 kg sent stored as %+v", l)
		}
		shop.Do("PUT", "/api/deliveries/update/"+order+"/"+planned, sent(tomato, "-0")).Expect(t, 200)
		if l := w.Get(planned).Lines[1]; l.QuantitySent == nil || *l.QuantitySent != 0 {
			t.Fatalf("-0 kg sent stored as %+v", l)
		}
	})
}
