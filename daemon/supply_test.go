package daemon_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/supply"
	"primeur/core/trade/tradetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

type supplyJSON struct {
	Start         string   `json:"start"`
	End           string   `json:"end"`
	Days          int      `json:"days"`
	Today         string   `json:"today"`
	Dates         []string `json:"dates"`
	HasDeliveries bool     `json:"hasDeliveries"`
	Producers     []struct {
		ID   string `json:"_id"`
		Name string `json:"name"`
	} `json:"producers"`
	Products []struct {
		Product            string  `json:"product"`
		Name               string  `json:"name"`
		Unit               string  `json:"unit"`
		AverageDailySales  float64 `json:"averageDailySales"`
		DeliveredLast7Days float64 `json:"deliveredLast7Days"`
		AtRisk             bool    `json:"atRisk"`
		Days               []struct {
			Date       string  `json:"date"`
			Need       float64 `json:"need"`
			Delivered  float64 `json:"delivered"`
			Deliveries []struct {
				Producer string  `json:"producer"`
				Quantity float64 `json:"quantity"`
			} `json:"deliveries"`
			MorningStock   float64 `json:"morningStock"`
			Risk           int     `json:"risk"`
			ProposedOrder  float64 `json:"proposedOrder"`
			NextDate       string  `json:"nextDate"`
			NextNeed       float64 `json:"nextNeed"`
			NextDeliveries []struct {
				Producer string  `json:"producer"`
				Quantity float64 `json:"quantity"`
			} `json:"nextDeliveries"`
			Current  float64 `json:"current"`
			Baseline float64 `json:"baseline"`
		} `json:"days"`
	} `json:"products"`
}

func TestSupplyAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db) // Friday 2026-11-20, 10:00 in Paris
		shop, shopID := s.Register("shop@example.fr", "Épicerie", true)
		other, otherID := s.Register("other@example.fr", "Autre", true)
		farm, farmID := s.Producer("ferme@example.fr", "Ferme des Saules")
		_, alpageID := s.Producer("alpage@example.fr", "Alpage")
		w := tradetest.On(t, db)
		w.Need(shopID, "tomate", "2026-11-01", 25000)
		w.Need(otherID, "poire", "2026-11-01", 25000)
		w.Deliver(farmID, shopID, "2026-11-12", supply.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 3200, Sent: tradetest.Dec(3000)})
		w.Deliver(alpageID, shopID, "2026-11-16", supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 2550})
		w.Deliver(farmID, shopID, "2026-11-17", supply.Cancelled, tradetest.L{Product: "tomate", Price: 250, Expected: 10000})
		w.Deliver(farmID, shopID, "2026-11-19", supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 2000})
		w.Deliver(alpageID, shopID, "2026-11-19", supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 525})

		// Refusals, with the French messages and the parameter's location.
		for _, tt := range []struct {
			name   string
			c      *daemontest.Client
			query  string
			status int
			detail string
			where  []string
		}{
			{"anonymous", s.Client(), "", http.StatusUnauthorized, daemon.MsgNoToken, nil},
			{"producer", farm, "", http.StatusForbidden, daemon.MsgShopsOnly, nil},
			{"bad start", shop, "?start=2026-02-30", 422, supply.MsgBadStart, []string{"query.start"}},
			{"french start", shop, "?start=16/11/2026", 422, supply.MsgBadStart, []string{"query.start"}},
			{"no day", shop, "?days=0", 422, supply.MsgBadDays, []string{"query.days"}},
			{"too many days", shop, "?days=32", 422, supply.MsgBadDays, []string{"query.days"}},
			{"days in words", shop, "?days=cinq", 422, supply.MsgBadDays, []string{"query.days"}},
			{"negative days", shop, "?days=-3", 422, supply.MsgBadDays, []string{"query.days"}},
			{"both", shop, "?start=demain&days=1e3", 422, supply.MsgBadStart, []string{"query.start", "query.days"}},
			{"huge start", shop, "?start=2026-11-16x123456789012345678901234567890123456789", 422, "", nil},
		} {
			t.Run(tt.name, func(t *testing.T) {
				p := tt.c.Do("GET", "/api/supply"+tt.query, nil).Expect(t, tt.status).Problem(t)
				if tt.detail != "" && p.Detail != tt.detail {
					t.Fatalf("detail %q, want %q", p.Detail, tt.detail)
				}
				var where []string
				for _, e := range p.Errors {
					where = append(where, e.Location)
				}
				if tt.where != nil && !reflect.DeepEqual(where, tt.where) {
					t.Fatalf("locations %v", where)
				}
			})
		}

		// Odd queries never fail the server; a control character is refused
		// before the handler (httpx/textcheck.go).
		for _, q := range []string{"?start=2026-11-16%00", "?days=%00", "?days=1e999", "?days=%EF%BC%95", "?start=%EF%BC%92%EF%BC%90%EF%BC%92%EF%BC%96-11-16",
			"?start=2026-11-16&start=2026-11-17", "?days=5&days=40", "?start[]=2026-11-16", "?days=99999999999999999999999", "?start=2100-12-31&days=31",
			"?start=2000-01-01&days=1", "?start=%27%20OR%201%3D1--"} {
			res := shop.Do("GET", "/api/supply"+q, nil)
			if res.Status >= 500 || (res.Status != 200 && res.Status != 422 && !(res.Status == 400 && strings.Contains(q, "%00"))) {
				t.Fatalf("%s: %d %s", q, res.Status, res.Body)
			}
		}

		// Without parameters: the current week from Monday, 5 days; the
		// figures of the hand-computed case in core/supply.
		var got supplyJSON
		shop.Do("GET", "/api/supply", nil).Expect(t, http.StatusOK).JSON(t, &got)
		if got.Start != "2026-11-16" || got.End != "2026-11-20" || got.Days != 5 || got.Today != "2026-11-20" || len(got.Dates) != 5 || !got.HasDeliveries {
			t.Fatalf("window %+v", got)
		}
		if len(got.Products) != 1 || got.Products[0].Name != "Tomate" || got.Products[0].Unit != "kg" ||
			got.Products[0].AverageDailySales != 10 || !got.Products[0].AtRisk || got.Products[0].DeliveredLast7Days != 50.75 {
			t.Fatalf("products %+v", got.Products)
		}
		var morning, orders []float64
		var risks []int
		for _, d := range got.Products[0].Days {
			morning, orders, risks = append(morning, d.MorningStock), append(orders, d.ProposedOrder), append(risks, d.Risk)
		}
		if !reflect.DeepEqual(morning, []float64{0, 16, 6, 0, 15}) || !reflect.DeepEqual(orders, []float64{0, 4, 0, 0, 5}) ||
			!reflect.DeepEqual(risks, []int{0, 0, 1, 0, 0}) {
			t.Fatalf("morning %v, orders %v, risks %v", morning, orders, risks)
		}
		wed := got.Products[0].Days[2]
		if wed.NextDate != "2026-11-19" || wed.NextNeed != 10 || len(wed.NextDeliveries) != 2 || wed.NextDeliveries[0].Quantity+wed.NextDeliveries[1].Quantity != 25.25 {
			t.Fatalf("wednesday %+v", wed)
		}
		if len(got.Producers) != 2 || got.Producers[0].Name != "Alpage" || got.Producers[1].Name != "Ferme des Saules" {
			t.Fatalf("producers %+v", got.Producers)
		}

		// An explicit window, 8 days from Wednesday.
		shop.Do("GET", "/api/supply?start=2026-11-18&days=8", nil).Expect(t, http.StatusOK).JSON(t, &got)
		if got.Start != "2026-11-18" || got.End != "2026-11-25" || len(got.Products[0].Days) != 8 {
			t.Fatalf("window %s–%s", got.Start, got.End)
		}
		// Nothing delivered in a later window.
		shop.Do("GET", "/api/supply?start=2026-11-23&days=3", nil).Expect(t, http.StatusOK).JSON(t, &got)
		if got.HasDeliveries || len(got.Products) != 1 {
			t.Fatalf("later window %+v", got)
		}

		// Another shop sees its own needs only.
		other.Do("GET", "/api/supply", nil).Expect(t, http.StatusOK).JSON(t, &got)
		if len(got.Products) != 1 || got.Products[0].Product != "poire" || got.HasDeliveries || len(got.Producers) != 0 {
			t.Fatalf("other shop %+v", got.Products)
		}

		// Today is taken in Paris: Sunday 23:30 UTC is already Monday there.
		s.Clock.Set(time.Date(2026, 11, 22, 23, 30, 0, 0, time.UTC))
		shop.Do("GET", "/api/supply", nil).Expect(t, http.StatusOK).JSON(t, &got)
		if got.Today != "2026-11-23" || got.Start != "2026-11-23" {
			t.Fatalf("today %s, start %s", got.Today, got.Start)
		}
	})
}

// The supply row of the authorization matrix (authz_test.go): shops read
// their own projection (the session decides whose), producers are refused.
func init() {
	matrix["GET /api/supply"] = row{
		path:   fixed("/api/supply?start=2026-11-16&days=5"),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 200, producer: 403, otherProducer: 403},
	}
}
