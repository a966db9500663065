package daemon_test

import (
	"fmt"
	"testing"
	"time"

	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/rewards"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

type standingJSON struct {
	Level     string `json:"level"`
	Purchases struct {
		LastMonth struct {
			Month string  `json:"month"`
			Value float64 `json:"value"`
		} `json:"lastMonth"`
		CurrentMonth struct {
			Month string  `json:"month"`
			Value float64 `json:"value"`
		} `json:"currentMonth"`
		Monthly float64 `json:"monthly"`
	} `json:"purchases"`
	MonthsOfCommitment int   `json:"monthsOfCommitment"`
	Rank               int   `json:"rank"`
	Shops              int   `json:"shops"`
	Score              int64 `json:"score"`
	Contribution       *struct {
		Amount float64 `json:"amount"`
		Since  string  `json:"since"`
	} `json:"contribution"`
}

// tradeFixture gives farmID a commitment on shopID's need of tomatoes for
// month (as much as the need) and a delivery of it on date of qty × price
// (hundredths and cents), in status, through tradetest.
func tradeFixture(t *testing.T, db *store.DB, shopID, farmID, month, date, status string, qty, price int64) {
	t.Helper()
	w := tradetest.Between(t, db, farmID, shopID)
	w.Need(shopID, "tomate", month, decimal.Dec(qty))
	w.Delivery(w.OrderOf(farmID, shopID, month), date, status, tradetest.L{Product: "tomate", Price: decimal.Dec(price), Expected: decimal.Dec(qty)})
}

func TestRewardsAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db) // 2026-11-20 in Paris
		shop, shopID := s.Register("shop@example.fr", "Épicerie", true)
		other, otherID := s.Register("other@example.fr", "Autre magasin", true)
		farm, farmID := s.Producer("ferme@example.fr", "Ferme")
		// Shop: 1 200 € delivered in October, committed in October and December.
		tradeFixture(t, db, shopID, farmID, "2026-10-01", "2026-10-15", orders.Done, 40000, 300)
		tradeFixture(t, db, shopID, farmID, "2026-12-01", "2026-12-03", orders.Planned, 100, 100) // not done yet: only the month counts
		// Other shop: 2 500 € delivered this month.
		tradeFixture(t, db, otherID, farmID, "2026-11-01", "2026-11-05", orders.Done, 50000, 500)

		var st standingJSON
		shop.Do("GET", "/api/rewards", nil).Expect(t, 200).JSON(t, &st)
		if st.Level != rewards.Militant || st.Purchases.LastMonth.Month != "2026-10-01" || st.Purchases.LastMonth.Value != 1200 ||
			st.Purchases.CurrentMonth.Month != "2026-11-01" || st.Purchases.CurrentMonth.Value != 0 || st.Purchases.Monthly != 1200 ||
			st.MonthsOfCommitment != 2 || st.Rank != 2 || st.Shops != 2 || st.Score != 1400 || st.Contribution != nil {
			t.Fatalf("standing = %+v", st)
		}

		s.Refuses(t, []daemontest.Refused{
			{Name: "producer reads", Client: farm, Method: "GET", Path: "/api/rewards", Status: 403, Detail: daemon.MsgShopsOnly},
			{Name: "producer pledges", Client: farm, Method: "PUT", Path: "/api/rewards/contribution", Body: map[string]any{"amount": 50}, Status: 403, Detail: daemon.MsgShopsOnly},
			{Name: "producer withdraws", Client: farm, Method: "DELETE", Path: "/api/rewards/contribution", Status: 403, Detail: daemon.MsgShopsOnly},
			{Name: "anonymous reads", Client: s.Client(), Method: "GET", Path: "/api/rewards", Status: 401, Detail: daemon.MsgNoToken},
			{Name: "anonymous pledges", Client: s.Client(), Method: "PUT", Path: "/api/rewards/contribution", Body: map[string]any{"amount": 50}, Status: 401, Detail: daemon.MsgNoToken},
			{Name: "no amount", Client: shop, Method: "PUT", Path: "/api/rewards/contribution", Body: map[string]any{}, Status: 422, Detail: rewards.MsgAmountRequired, Location: "body.amount"},
			{Name: "zero", Client: shop, Method: "PUT", Path: "/api/rewards/contribution", Body: map[string]any{"amount": 0}, Status: 422, Detail: rewards.MsgAmountMin, Location: "body.amount"},
			{Name: "under 10", Client: shop, Method: "PUT", Path: "/api/rewards/contribution", Body: map[string]any{"amount": 9.99}, Status: 422, Detail: rewards.MsgAmountMin, Location: "body.amount"},
			{Name: "negative", Client: shop, Method: "PUT", Path: "/api/rewards/contribution", Body: map[string]any{"amount": -20}, Status: 422, Detail: rewards.MsgAmountMin, Location: "body.amount"},
			{Name: "three decimals", Client: shop, Method: "PUT", Path: "/api/rewards/contribution", Body: map[string]any{"amount": 10.001}, Status: 422, Detail: rewards.MsgAmountFormat, Location: "body.amount"},
			{Name: "too much", Client: shop, Method: "PUT", Path: "/api/rewards/contribution", Body: map[string]any{"amount": 10000.5}, Status: 422, Detail: rewards.MsgAmountMax, Location: "body.amount"},
			{Name: "text", Client: shop, Method: "PUT", Path: "/api/rewards/contribution", Body: map[string]any{"amount": "25"}, Status: 422},
			{Name: "unknown field", Client: shop, Method: "PUT", Path: "/api/rewards/contribution", Body: map[string]any{"amount": 25, "level": "super-ambassadeur"}, Status: 422},
			{Name: "not json", Client: shop, Method: "PUT", Path: "/api/rewards/contribution", Body: "amount=25", Status: 400},
			{Name: "huge number", Client: shop, Method: "PUT", Path: "/api/rewards/contribution", Body: `{"amount":1e400}`, Status: 400},
			{Name: "null", Client: shop, Method: "PUT", Path: "/api/rewards/contribution", Body: `{"amount":null}`, Status: 422},
		})

		// A pledge makes the shop (1 200 €) an Ambassadeur certifié.
		shop.Do("PUT", "/api/rewards/contribution", map[string]any{"amount": 25.5}).Expect(t, 200).JSON(t, &st)
		if st.Level != rewards.Ambassadeur || st.Contribution == nil || st.Contribution.Amount != 25.5 || st.Contribution.Since != "2026-11-20T09:00:00Z" {
			t.Fatalf("after pledge = %+v", st)
		}
		// The other shop (2 500 €) pledging 100 € is a Super Ambassadeur.
		other.Do("PUT", "/api/rewards/contribution", map[string]any{"amount": 100}).Expect(t, 200).JSON(t, &st)
		if st.Level != rewards.SuperAmbassadeur || st.Rank != 1 || st.Score != 2600 {
			t.Fatalf("other = %+v", st)
		}
		// Changing the amount keeps the date of the first pledge.
		s.Clock.Advance(48 * 3600e9)
		shop.Do("PUT", "/api/rewards/contribution", map[string]any{"amount": 40}).Expect(t, 200).JSON(t, &st)
		if st.Contribution.Amount != 40 || st.Contribution.Since != "2026-11-20T09:00:00Z" {
			t.Fatalf("changed pledge = %+v", st.Contribution)
		}
		shop.Do("DELETE", "/api/rewards/contribution", nil).Expect(t, 200).JSON(t, &st)
		if st.Level != rewards.Militant || st.Contribution != nil {
			t.Fatalf("after withdrawal = %+v", st)
		}
		shop.Do("DELETE", "/api/rewards/contribution", nil).Expect(t, 200) // nothing to withdraw: still fine

		// Both roles read every shop's score on the map.
		place(t, shop, other)
		for _, c := range []*daemontest.Client{farm, shop} {
			if got := mapScores(t, c); len(got) != 2 || got[shopID] != 1400 || got[otherID] != 2600 {
				t.Fatalf("scores = %v", got)
			}
		}
	})
}

// place puts each shop in Haute-Savoie, where mapScores looks.
func place(t *testing.T, shops ...*daemontest.Client) {
	t.Helper()
	for i, c := range shops {
		c.Do("PUT", "/api/user", map[string]any{"latitude": "45.9", "longitude": fmt.Sprintf("6.%02d", 10+i)}).Expect(t, 200)
	}
}

// mapScores reads the scores of the shops on the map of Haute-Savoie.
func mapScores(t *testing.T, c *daemontest.Client) map[string]int64 {
	t.Helper()
	var out struct {
		Shops []struct {
			ID    string `json:"_id"`
			Score int64  `json:"score"`
		} `json:"shops"`
	}
	c.Do("GET", "/api/map?"+hauteSavoie, nil).Expect(t, 200).JSON(t, &out)
	got := map[string]int64{}
	for _, sc := range out.Shops {
		got[sc.ID] = sc.Score
	}
	return got
}

// The rewards rows of the authorization matrix (authz_test.go): the
// standing and the pledge are the session's own shop's, producers are
// refused (every signed-in user reads the scores on the map, GET /api/map).
func init() {
	shopsOnly := map[actor]int{anon: 401, shop: 200, otherShop: 200, producer: 403, otherProducer: 403}
	matrix["GET /api/rewards"] = row{path: fixed("/api/rewards"), expect: shopsOnly}
	matrix["PUT /api/rewards/contribution"] = row{path: fixed("/api/rewards/contribution"), body: body(map[string]any{"amount": 25}), expect: shopsOnly}
	matrix["DELETE /api/rewards/contribution"] = row{path: fixed("/api/rewards/contribution"), expect: shopsOnly}
}

// TestRewardsBoardShared: ranks and map scores come from a board of the
// platform shared for a minute, so a delivery of another shop shows in
// them after at most a minute; a shop's own purchases, months of
// commitment and score are read at once.
func TestRewardsBoardShared(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db) // 2026-11-20 in Paris
		shop, shopID := s.Register("shop@example.fr", "Épicerie", true)
		other, otherID := s.Register("other@example.fr", "Autre magasin", true)
		_, farmID := s.Producer("ferme@example.fr", "Ferme")
		place(t, shop, other)
		tradeFixture(t, db, shopID, farmID, "2026-11-01", "2026-11-05", orders.Done, 10000, 300) // 300 €
		scores := func() map[string]int64 { t.Helper(); return mapScores(t, shop) }
		if got := scores(); got[shopID] != 400 || got[otherID] != 0 {
			t.Fatalf("scores = %v", got)
		}
		// The other shop receives 500 €; the shop commits for December.
		tradeFixture(t, db, otherID, farmID, "2026-11-01", "2026-11-06", orders.Done, 10000, 500)
		tradeFixture(t, db, shopID, farmID, "2026-12-01", "2026-12-03", orders.Planned, 100, 100)
		var st standingJSON
		shop.Do("GET", "/api/rewards", nil).Expect(t, 200).JSON(t, &st)
		if st.Purchases.CurrentMonth.Value != 300 || st.MonthsOfCommitment != 2 || st.Score != 500 || st.Rank != 1 {
			t.Fatalf("own figures at once, rank from the shared board: %+v", st)
		}
		if got := scores(); got[shopID] != 400 || got[otherID] != 0 {
			t.Fatalf("scores within the minute = %v", got)
		}
		// A shop registered within the minute is on the map at once, at 0.
		fresh, newID := s.Register("nouveau@example.fr", "Nouveau magasin", true)
		place(t, fresh)
		if got := scores(); got[shopID] != 400 || got[newID] != 0 || len(got) != 3 {
			t.Fatalf("scores with a shop registered within the minute = %v", got)
		}
		s.Clock.Advance(61 * time.Second)
		if got := scores(); got[shopID] != 500 || got[otherID] != 600 {
			t.Fatalf("scores after a minute = %v", got)
		}
		shop.Do("GET", "/api/rewards", nil).Expect(t, 200).JSON(t, &st)
		if st.Rank != 2 || st.Shops != 3 {
			t.Fatalf("rank after a minute: %+v", st)
		}
	})
}
