package daemon_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"primeur/core/activity"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

type proposalJSON struct {
	ID       string  `json:"_id"`
	Producer string  `json:"producer"`
	Status   string  `json:"status"`
	From     string  `json:"from"`
	Quantity float64 `json:"quantity"`
	Price    float64 `json:"price"`
}

type tradeNeedJSON struct {
	ID                string         `json:"_id"`
	Quantity          float64        `json:"quantity"`
	QuantityAccepted  float64        `json:"quantityAccepted"`
	QuantityProposed  float64        `json:"quantityProposed"`
	QuantityAvailable float64        `json:"quantityAvailable"`
	Proposals         []proposalJSON `json:"proposals"`
}

type orderJSON struct {
	ID          string `json:"_id"`
	Date        string `json:"date"`
	Distributor string `json:"distributor"`
	Producer    string `json:"producer"`
	Deliveries  []struct {
		Status        string `json:"status"`
		Date          string `json:"date"`
		Chrono        int    `json:"chrono"`
		DeliveryLines []struct {
			Product          string  `json:"product"`
			Price            float64 `json:"price"`
			QuantityExpected float64 `json:"quantityExpected"`
		} `json:"deliveryLines"`
	} `json:"deliveries"`
}

func TestTradeAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, shopID := s.Register("shop@example.fr", "Épicerie", true)
		other, _ := s.Register("other@example.fr", "Autre magasin", true)
		farm, farmID := s.Producer("ferme@example.fr", "Ferme")
		rival, rivalID := s.Producer("rival@example.fr", "Rivale")
		idle, idleID := s.Register("idle@example.fr", "Sans jours", false)

		var need tradeNeedJSON
		shop.Do("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-12-01", "quantity": 100}).Expect(t, 201).JSON(t, &need)
		path := func(producer string) string { return "/api/proposals/" + need.ID + "/" + producer }
		reviewPath := func(producer string) string { return "/api/proposalreview/" + need.ID + "/" + producer }

		// The rival takes 60 kg first: 40 kg remain for the farm.
		rival.Do("PUT", path(rivalID), map[string]any{"quantity": 60, "price": 2}).Expect(t, 200)
		var mine tradeNeedJSON
		farm.Do("PUT", path(farmID), map[string]any{"quantity": 40, "price": 2.5}).Expect(t, 200).JSON(t, &mine)
		if len(mine.Proposals) != 1 || mine.Proposals[0].Producer != farmID || mine.Proposals[0].From != "producer" ||
			mine.Proposals[0].Status != "proposed" || mine.QuantityProposed != 100 || mine.QuantityAvailable != 0 {
			t.Fatalf("farm's view %+v", mine)
		}

		s.Refuses(t, []daemontest.Refused{
			{Name: "anonymous", Client: s.Client(), Method: "PUT", Path: path(farmID), Body: map[string]any{"quantity": 1, "price": 1}, Status: 401, Detail: daemon.MsgNoToken},
			{Name: "producer without delivery days", Client: idle, Method: "PUT", Path: path(idleID), Body: map[string]any{"quantity": 1, "price": 1}, Status: 409, Detail: trade.MsgNoDeliveryDays},
			{Name: "producer for another", Client: farm, Method: "PUT", Path: path(rivalID), Body: map[string]any{"quantity": 1, "price": 1}, Status: 403, Detail: trade.MsgOwnProposals},
			{Name: "producer reviews another", Client: farm, Method: "PUT", Path: reviewPath(rivalID), Body: map[string]any{"accepted": true}, Status: 403, Detail: trade.MsgOwnProposals},
			{Name: "producer withdraws another's", Client: farm, Method: "DELETE", Path: path(rivalID), Status: 403, Detail: trade.MsgOwnProposals},
			{Name: "another shop proposes", Client: other, Method: "PUT", Path: path(farmID), Body: map[string]any{"quantity": 1, "price": 1}, Status: 404},
			{Name: "another shop reviews", Client: other, Method: "PUT", Path: reviewPath(farmID), Body: map[string]any{"accepted": true}, Status: 404},
			{Name: "another shop withdraws", Client: other, Method: "DELETE", Path: path(farmID), Status: 404},
			{Name: "producer reviews its own", Client: farm, Method: "PUT", Path: reviewPath(farmID), Body: map[string]any{"accepted": true}, Status: 409, Detail: trade.MsgNotAllowed},
			{Name: "shop withdraws the producer's", Client: shop, Method: "DELETE", Path: path(farmID), Status: 409, Detail: trade.MsgNotAllowed},
			{Name: "shop proposes to a stranger", Client: shop, Method: "PUT", Path: path(idleID), Body: map[string]any{"quantity": 1, "price": 1}, Status: 409, Detail: trade.MsgNotAllowed},
			{Name: "shop names itself", Client: shop, Method: "PUT", Path: path(shopID), Body: map[string]any{"quantity": 1, "price": 1}, Status: 404},
			{Name: "unknown need", Client: farm, Method: "PUT", Path: "/api/proposals/nope/" + farmID, Body: map[string]any{"quantity": 1, "price": 1}, Status: 404},
			{Name: "over the remaining need", Client: farm, Method: "PUT", Path: path(farmID), Body: map[string]any{"quantity": 40.5, "price": 1}, Status: 422, Detail: "La quantité saisie excède le besoin restant (40kg)", Location: "body.quantity"},
			{Name: "zero price", Client: farm, Method: "PUT", Path: path(farmID), Body: map[string]any{"quantity": 4, "price": 0}, Status: 422, Detail: trade.MsgPricePositive, Location: "body.price"},
			{Name: "price with cents of cents", Client: farm, Method: "PUT", Path: path(farmID), Body: map[string]any{"quantity": 4, "price": 2.555}, Status: 422, Detail: trade.MsgBadPrice, Location: "body.price"},
			{Name: "quantity as text", Client: farm, Method: "PUT", Path: path(farmID), Body: map[string]any{"quantity": "4", "price": 2}, Status: 422},
			{Name: "price missing", Client: farm, Method: "PUT", Path: path(farmID), Body: map[string]any{"quantity": 4}, Status: 422},
			{Name: "unknown field", Client: farm, Method: "PUT", Path: path(farmID), Body: map[string]any{"quantity": 4, "price": 2, "status": "accepted"}, Status: 422},
			{Name: "not json", Client: farm, Method: "PUT", Path: path(farmID), Body: "quantity=4", Status: 400},
			{Name: "huge number", Client: farm, Method: "PUT", Path: path(farmID), Body: `{"quantity":1e400,"price":2}`, Status: 400},
			{Name: "review without answer", Client: shop, Method: "PUT", Path: reviewPath(farmID), Body: map[string]any{}, Status: 422},
			{Name: "review answer as text", Client: shop, Method: "PUT", Path: reviewPath(farmID), Body: map[string]any{"accepted": "oui"}, Status: 422},
			{Name: "NaN price", Client: farm, Method: "PUT", Path: path(farmID), Body: `{"quantity":1,"price":NaN}`, Status: 400},
			{Name: "null quantity", Client: farm, Method: "PUT", Path: path(farmID), Body: `{"quantity":null,"price":2}`, Status: 422},
			{Name: "negative zero", Client: farm, Method: "PUT", Path: path(farmID), Body: `{"quantity":-0,"price":2}`, Status: 422, Detail: trade.MsgQuantityPositive, Location: "body.quantity"},
			{Name: "huge price", Client: farm, Method: "PUT", Path: path(farmID), Body: `{"quantity":1,"price":1e300}`, Status: 422, Detail: planning.MsgTooLarge, Location: "body.price"},
			{Name: "SQL in the path", Client: shop, Method: "PUT", Path: "/api/proposalreview/x'%20OR%20'1'='1/" + farmID, Body: map[string]any{"accepted": true}, Status: 404},
			{Name: "long garbage id", Client: farm, Method: "DELETE", Path: "/api/proposals/" + strings.Repeat("x", 5000) + "/" + farmID, Status: 404},
		})

		// The shop sees every producer; it counter-proposes to the farm.
		var shopView tradeNeedJSON
		shop.Do("PUT", path(farmID), map[string]any{"quantity": 35, "price": 2.4}).Expect(t, 200).JSON(t, &shopView)
		if len(shopView.Proposals) != 2 {
			t.Fatalf("shop sees %d proposals", len(shopView.Proposals))
		}
		// The farm accepts: the commitment, then orders with deliveries.
		farm.Do("PUT", reviewPath(farmID), map[string]any{"accepted": true}).Expect(t, 200).JSON(t, &mine)
		if len(mine.Proposals) != 1 || mine.Proposals[0].Status != "accepted" || mine.Proposals[0].From != "distributor" || mine.QuantityAccepted != 35 {
			t.Fatalf("after acceptance %+v", mine)
		}
		var load struct {
			Orders []orderJSON
			Events []activity.View
		}
		everyScreen(t, farm, &load)
		if len(load.Orders) != 1 || load.Orders[0].Distributor != shopID || load.Orders[0].Date != "2026-12-01" || len(load.Orders[0].Deliveries) != 9 {
			t.Fatalf("farm's orders %+v", load.Orders)
		}
		if d := load.Orders[0].Deliveries[0]; d.Date != "2026-12-03" || d.Chrono != 1 || d.Status != "planned" ||
			d.DeliveryLines[0].QuantityExpected != 3.88 || d.DeliveryLines[0].Price != 2.4 {
			t.Fatalf("first delivery %+v", d)
		}
		if load.Events[0].Type != activity.ProposalReview || *load.Events[0].Data.Outcome != true || load.Events[0].Target.Name != "Épicerie" ||
			load.Events[0].Data.Price.Float() != 2.4 || load.Events[0].Data.Product.Name != "Tomate" {
			t.Fatalf("farm's last event %+v", load.Events[0])
		}
		var shopLoad struct{ Orders []orderJSON }
		everyScreen(t, shop, &shopLoad)
		if len(shopLoad.Orders) != 1 || shopLoad.Orders[0].Producer != farmID || shopLoad.Orders[0].Distributor != "" {
			t.Fatalf("shop's orders %+v", shopLoad.Orders)
		}

		// New delivery days re-plan the upcoming deliveries in the answer.
		var profile struct {
			Orders []orderJSON
		}
		farm.Do("PUT", "/api/user", map[string]any{"defaultDeliveryDays": []bool{false, true, false, false, false, false, false}}).Expect(t, 200).JSON(t, &profile)
		var dates []string
		for _, d := range profile.Orders[0].Deliveries {
			dates = append(dates, d.Date)
		}
		if strings.Join(dates, ",") != "2026-12-01,2026-12-08,2026-12-15,2026-12-22,2026-12-29" {
			t.Fatalf("re-planned on %v", dates)
		}
		// Other profile changes leave deliveries alone.
		farm.Do("PUT", "/api/user", map[string]any{"tel": "0612345678"}).Expect(t, 200).JSON(t, &profile)
		if len(profile.Orders[0].Deliveries) != 5 {
			t.Fatal("a profile change without days re-planned")
		}

		// A correction to zero, refused by the shop, which then corrects
		// itself; the farm accepts.
		farm.Do("PUT", path(farmID), map[string]any{"quantity": 0, "price": 2.4}).Expect(t, 200)
		shop.Do("PUT", reviewPath(farmID), map[string]any{"accepted": false}).Expect(t, 200).JSON(t, &shopView)
		shop.Do("PUT", path(farmID), map[string]any{"quantity": 30, "price": 2.4}).Expect(t, 200)
		farm.Do("PUT", reviewPath(farmID), map[string]any{"accepted": true}).Expect(t, 200).JSON(t, &mine)
		if mine.QuantityAccepted != 30 || len(mine.Proposals) != 1 {
			t.Fatalf("after the shop's correction %+v", mine)
		}
		// A correction withdrawn by its maker leaves the commitment.
		farm.Do("PUT", path(farmID), map[string]any{"quantity": 10, "price": 2.4}).Expect(t, 200)
		farm.Do("DELETE", path(farmID), nil).Expect(t, 200).JSON(t, &mine)
		if len(mine.Proposals) != 1 || mine.Proposals[0].Status != "accepted" || mine.Proposals[0].Quantity != 30 {
			t.Fatalf("after withdrawal %+v", mine)
		}
		load.Events = nil
		everyScreen(t, shop, &load)
		var types []string
		for _, e := range load.Events {
			types = append(types, e.Type)
		}
		want := "fix:request,fix:review,fix:request,fix:review,fix:request,proposal:review,proposal:request,proposal:request,proposal:request,need:create"
		if strings.Join(types, ",") != want {
			t.Fatalf("shop's feed %v", types)
		}
		if e := load.Events[1]; e.Data.Outcome == nil || !*e.Data.Outcome || *e.Data.Quantity != 3000 || e.Origin.Name != "Ferme" {
			t.Fatalf("fix:review %+v", e.Data)
		}
		if e := load.Events[2]; e.Type != activity.FixRequest || *e.Data.Delta != 500 || *e.Data.Vector || e.Origin.Name != "Épicerie" {
			t.Fatalf("shop's correction event %+v", e.Data)
		}
		// A past month refuses trade.
		s.Clock.Set(daemontest.Start.AddDate(0, 2, 0))
		farm.Do("POST", "/auth/login", map[string]any{"email": "ferme@example.fr", "password": daemontest.Password}).Expect(t, 200)
		p := farm.Do("PUT", path(farmID), map[string]any{"quantity": 5, "price": 2}).Expect(t, 409).Problem(t)
		if p.Detail != planning.MsgPastMonth {
			t.Fatalf("past month: %q", p.Detail)
		}
	})
}

// TestTradeAnswers checks, on both engines and for each side, that a trade
// answer carries the need's fields as before and, beside them, exactly what
// a following GET /api/user shows for the order, the product's price and
// the events the operation touched: a proposal and a refusal (events
// only), an acceptance creating an order, a second one adding deliveries to
// it, a withdrawal (nothing), and the commitments ended (the price, then
// the order, removed). The shop and the farm are companies (their logins
// confirmed, their SIRETs given), and two more buy and two more sell each
// product, so that a product's price shows while the pair trades it
// (PRODUCT §15 "Price privacy").
func TestTradeAnswers(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("shop@example.fr", "Épicerie", true)
		becomeCompany(t, s, shop, "shop@example.fr", siretFor(301))
		farm, farmID := s.Producer("ferme@example.fr", "Ferme")
		becomeCompany(t, s, farm, "ferme@example.fr", siretFor(302))
		for i := range 2 {
			other, _ := company(t, s, 40+i, fmt.Sprintf("autre-magasin%d@example.fr", i), true, "74000")
			grower, growerID := company(t, s, 50+i, fmt.Sprintf("autre-ferme%d@example.fr", i), false, "73000")
			for _, product := range []string{"tomate", "carotte"} {
				var n struct {
					ID string `json:"_id"`
				}
				other.Do("POST", "/api/needs", map[string]any{"product": product, "date": "2026-12-01", "quantity": 100}).Expect(t, 201).JSON(t, &n)
				deal(t, other, grower, n.ID, growerID, 40, 2)
			}
		}
		var tomatoes, carrots struct {
			ID string `json:"_id"`
		}
		shop.Do("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-12-01", "quantity": 100}).Expect(t, 201).JSON(t, &tomatoes)
		shop.Do("POST", "/api/needs", map[string]any{"product": "carotte", "date": "2026-12-01", "quantity": 50}).Expect(t, 201).JSON(t, &carrots)
		put := func(need string) string { return "/api/proposals/" + need + "/" + farmID }
		rev := func(need string) string { return "/api/proposalreview/" + need + "/" + farmID }
		needKeys := []string{"_id", "product", "distributor", "date", "quantity", "quantityAccepted", "quantityProposed", "quantityAvailable", "updatedAt", "proposals"}

		const (
			noOrder = iota
			newOrder
			sameOrder
			orderGone
		)
		var orderID string
		steps := []struct {
			name   string
			c      *daemontest.Client
			method string
			path   string
			body   any
			events []string
			order  int
		}{
			{"the farm proposes", farm, "PUT", put(tomatoes.ID), map[string]any{"quantity": 40, "price": 2.5}, []string{"proposal:request"}, noOrder},
			{"the shop refuses", shop, "PUT", rev(tomatoes.ID), map[string]any{"accepted": false}, []string{"proposal:review"}, noOrder},
			{"the shop refuses again", shop, "PUT", rev(tomatoes.ID), map[string]any{"accepted": false}, []string{}, noOrder},
			{"the farm proposes again", farm, "PUT", put(tomatoes.ID), map[string]any{"quantity": 40, "price": 2.5}, []string{"proposal:request"}, noOrder},
			{"the shop accepts: a new order", shop, "PUT", rev(tomatoes.ID), map[string]any{"accepted": true}, []string{"proposal:review"}, newOrder},
			{"the farm proposes carrots", farm, "PUT", put(carrots.ID), map[string]any{"quantity": 20, "price": 1.2}, []string{"proposal:request"}, noOrder},
			{"the shop counter-proposes", shop, "PUT", put(carrots.ID), map[string]any{"quantity": 20, "price": 1.1}, []string{"proposal:request"}, noOrder},
			{"the farm accepts: the order grows", farm, "PUT", rev(carrots.ID), map[string]any{"accepted": true}, []string{"proposal:review"}, sameOrder},
			{"the farm asks a correction", farm, "PUT", put(tomatoes.ID), map[string]any{"quantity": 10, "price": 2.5}, []string{"fix:request"}, noOrder},
			{"the farm withdraws it", farm, "DELETE", put(tomatoes.ID), nil, []string{}, noOrder},
			{"the shop ends the carrots", shop, "PUT", put(carrots.ID), map[string]any{"quantity": 0, "price": 1.1}, []string{"fix:request"}, noOrder},
			{"the farm accepts: carrots unpriced", farm, "PUT", rev(carrots.ID), map[string]any{"accepted": true}, []string{"fix:review"}, sameOrder},
			{"the farm ends the tomatoes", farm, "PUT", put(tomatoes.ID), map[string]any{"quantity": 0, "price": 2.5}, []string{"fix:request"}, noOrder},
			{"the shop accepts: the order is deleted", shop, "PUT", rev(tomatoes.ID), map[string]any{"accepted": true}, []string{"fix:review"}, orderGone},
		}
		for _, st := range steps {
			s.Clock.Advance(time.Minute)
			var answer map[string]any
			st.c.Do(st.method, st.path, st.body).Expect(t, 200).JSON(t, &answer)
			var load struct {
				Needs, Orders, Events []map[string]any
			}
			everyScreen(t, st.c, &load)
			find := func(list []map[string]any, key string, value any) map[string]any {
				for _, x := range list {
					if x[key] == value {
						return x
					}
				}
				return nil
			}

			// The need's fields where they always were; a producer's load
			// holds only the needs it trades on.
			need := map[string]any{}
			for _, k := range needKeys {
				v, ok := answer[k]
				if !ok {
					t.Fatalf("%s: the answer lacks the need's %s: %v", st.name, k, answer)
				}
				need[k] = v
			}
			if held := find(load.Needs, "_id", need["_id"]); (held != nil || len(need["proposals"].([]any)) > 0) && !reflect.DeepEqual(held, need) {
				t.Fatalf("%s: need %v, user load %v", st.name, need, held)
			}
			// Nothing else than the need, the events and what changed.
			for k := range answer {
				if !slices.Contains(needKeys, k) && !slices.Contains([]string{"events", "order", "removedOrder"}, k) {
					t.Fatalf("%s: unexpected %s in %v", st.name, k, answer)
				}
			}

			// The events, on top of the caller's feed.
			events, ok := answer["events"].([]any)
			if !ok || len(events) != len(st.events) || len(load.Events) < len(events) {
				t.Fatalf("%s: events %v", st.name, answer["events"])
			}
			for i, e := range events {
				if e.(map[string]any)["type"] != st.events[i] || !reflect.DeepEqual(e, any(load.Events[i])) {
					t.Fatalf("%s: event %v, user load's %v", st.name, e, load.Events[i])
				}
			}

			// The order.
			order, _ := answer["order"].(map[string]any)
			removed, _ := answer["removedOrder"].(string)
			switch st.order {
			case noOrder:
				if answer["order"] != nil || answer["removedOrder"] != nil {
					t.Fatalf("%s: order %v, removed %v", st.name, answer["order"], answer["removedOrder"])
				}
			case newOrder, sameOrder:
				if order == nil || answer["removedOrder"] != nil || len(order["deliveries"].([]any)) == 0 {
					t.Fatalf("%s: order %v, removed %v", st.name, answer["order"], answer["removedOrder"])
				}
				if (st.order == newOrder) == (order["_id"] == orderID) {
					t.Fatalf("%s: order %v after %s", st.name, order["_id"], orderID)
				}
				orderID = order["_id"].(string)
				if held := find(load.Orders, "_id", orderID); !reflect.DeepEqual(held, order) {
					t.Fatalf("%s: order %v, user load's %v", st.name, order, held)
				}
			case orderGone:
				if order != nil || removed != orderID || len(load.Orders) != 0 {
					t.Fatalf("%s: order %v, removed %q (of %s), user load's %v", st.name, order, removed, orderID, load.Orders)
				}
			}
		}
	})
}
