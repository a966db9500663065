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
			return "La quantite livree plus la quantite reclamee ne peut exceder la quantite commandee (" + ordered + unit + ")"
		}
		tests := []struct {
			name, body, msg string
		}{
			{"999999999 on a 2.5 kg line", claim(tomato, "999999999"), above("2,5", "kg")},
			{"a hundredth over the order", claim(tomato, "0.51"), above("2,5", "kg")},
			{"1e12", claim(tomato, "1e12"), above("2,5", "kg")},
			{"beyond a trillion", claim(tomato, "1e300"), above("2,5", "kg")},
			{"one lettuce over the order", claim(lettuce, "1"), above("12", "un")},
			{"more than was sent", claim(tomato, "-2.01"), delivery.MsgClaimExceeds},
			{"12345.675", claim(tomato, "-12345.675"), delivery.MsgNotNumber},
			{"5000.004 pieces", claim(lettuce, "-5000.004"), delivery.MsgPieces},
		}
		before := w.Snapshot()
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := farm.Do("PUT", path, tt.body)
				if res.Status != 422 {
					t.Fatalf("status %d, want 422: %s", res.Status, res.Body)
				}
				p := res.Problem(t)
				if len(p.Errors) != 1 || p.Errors[0].Location != "body.deliveryLines[0].quantityClaimed" || p.Errors[0].Message != tt.msg {
					t.Fatalf("errors %+v, want %q on body.deliveryLines[0].quantityClaimed", p.Errors, tt.msg)
				}
				if after := w.Snapshot(); after != before {
					t.Fatal("a refused claim changed the database")
				}
			})
		}
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

		snapshot := func() string {
			return w.Snapshot() + tableRows(t, db,
				`SELECT id, quantity, updated_at FROM needs ORDER BY id`,
				`SELECT COUNT(*) FROM proposals`,
				`SELECT COUNT(*) FROM contributions`)
		}
		proposal := "/api/proposals/" + need.ID + "/" + farmID
		melonProposal := "/api/proposals/" + melons.ID + "/" + farmID
		sent := func(line, q string) string {
			return fmt.Sprintf(`{"deliveryLines":[{"_id":%q,"quantitySent":%s}]}`, line, q)
		}
		tests := []struct {
			name         string
			c            *daemontest.Client
			method, path string
			body         string
			field, msg   string
		}{
			{"need 12345.675 kg", shop, "PUT", "/api/needs/" + need.ID, `{"quantity":12345.675}`, "quantity", planning.MsgBadWeight},
			{"need 99999.995 kg", shop, "PUT", "/api/needs/" + need.ID, `{"quantity":99999.995}`, "quantity", planning.MsgBadWeight},
			{"need 5000.004 melons", shop, "PUT", "/api/needs/" + melons.ID, `{"quantity":5000.004}`, "quantity", planning.MsgBadPieces},
			{"need 1.234e2 kg", shop, "POST", "/api/needs", `{"product":"poire","date":"2027-01","quantity":1.23456e2}`, "quantity", planning.MsgBadWeight},
			{"bulk 2.505 kg", shop, "POST", "/api/needs/bulk", `{"product":"poire","quantities":[1,2.505],"dates":["2027-01","2027-02"]}`, "quantities[1]", planning.MsgBadWeight},
			{"proposal 12345.675 kg", farm, "PUT", proposal, `{"quantity":12345.675,"price":2}`, "quantity", planning.MsgBadWeight},
			{"proposal 5000.004 melons", farm, "PUT", melonProposal, `{"quantity":5000.004,"price":2}`, "quantity", planning.MsgBadPieces},
			{"price 9999.995", farm, "PUT", proposal, `{"quantity":10,"price":9999.995}`, "price", trade.MsgBadPrice},
			{"price 2.505", farm, "PUT", proposal, `{"quantity":10,"price":2.505}`, "price", trade.MsgBadPrice},
			{"price past float64's precision", farm, "PUT", proposal, `{"quantity":10,"price":2.0000000000000004}`, "price", trade.MsgBadPrice},
			{"sent 12345.675 kg", shop, "PUT", "/api/deliveries/update/" + order + "/" + planned, sent(tomato, "12345.675"), "deliveryLines[0].quantitySent", delivery.MsgWeight},
			{"sent 99999.995 kg", shop, "PUT", "/api/deliveries/update/" + order + "/" + planned, sent(tomato, "99999.995"), "deliveryLines[0].quantitySent", delivery.MsgWeight},
			{"sent 5000.004 lettuces", shop, "PUT", "/api/deliveries/update/" + order + "/" + planned, sent(lettuce, "5000.004"), "deliveryLines[0].quantitySent", delivery.MsgPieces},
			{"sent 1.234 kg", shop, "PUT", "/api/deliveries/update/" + order + "/" + planned, sent(tomato, "1.234"), "deliveryLines[0].quantitySent", delivery.MsgWeight},
			{"contribution 9999.995", shop, "PUT", "/api/rewards/contribution", `{"amount":9999.995}`, "amount", rewards.MsgAmountFormat},
			{"contribution 12.345", shop, "PUT", "/api/rewards/contribution", `{"amount":12.345}`, "amount", rewards.MsgAmountFormat},
		}
		before := snapshot()
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := tt.c.Do(tt.method, tt.path, tt.body)
				if res.Status != 422 {
					t.Fatalf("status %d, want 422: %s", res.Status, res.Body)
				}
				p := res.Problem(t)
				if len(p.Errors) != 1 || p.Errors[0].Location != "body."+tt.field || p.Errors[0].Message != tt.msg {
					t.Fatalf("errors %+v, want %q on body.%s", p.Errors, tt.msg, tt.field)
				}
				if after := snapshot(); after != before {
					t.Fatal("a refused call changed the database")
				}
			})
		}

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
