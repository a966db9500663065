package daemon_test

import (
	"testing"

	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

func TestProgressionAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db) // 2026-11-20 in Paris
		shop, shopID := s.Register("shop@example.fr", "Épicerie", true)
		farm, farmID := s.Producer("ferme@example.fr", "Ferme")
		lonely, _ := s.Register("seul@example.fr", "Seul", true)
		// 400 kg at 3 € in October, 10 kg at 2,50 € in November 2025, one planned in November.
		tradeFixture(t, db, shopID, farmID, "2026-10-01", "2026-10-15", orders.Done, 40000, 300)
		tradeFixture(t, db, shopID, farmID, "2025-11-01", "2025-11-04", orders.Done, 1000, 250)
		tradeFixture(t, db, shopID, farmID, "2026-11-01", "2026-11-24", orders.Planned, 1000, 250)

		type progression struct {
			Months   []string `json:"months"`
			Products []struct {
				Product string    `json:"product"`
				Values  []float64 `json:"values"`
			} `json:"products"`
		}
		for _, c := range []*daemontest.Client{shop, farm} {
			var p progression
			c.Do("GET", "/api/stats/progression", nil).Expect(t, 200).JSON(t, &p)
			if len(p.Months) != 25 || p.Months[0] != "2024-11-01" || p.Months[24] != "2026-11-01" {
				t.Fatalf("months = %v", p.Months)
			}
			if len(p.Products) != 1 || p.Products[0].Product != "tomate" {
				t.Fatalf("products = %+v", p.Products)
			}
			v := p.Products[0].Values
			if v[23] != 1200 || v[12] != 25 || v[24] != 0 {
				t.Fatalf("tomate = %v", v)
			}
		}
		var none progression
		lonely.Do("GET", "/api/stats/progression", nil).Expect(t, 200).JSON(t, &none)
		if len(none.Months) != 25 || none.Products == nil || len(none.Products) != 0 {
			t.Fatalf("a shop without deliveries: %+v", none)
		}
		s.Refuses(t, []daemontest.Refused{
			{Name: "anonymous", Client: s.Client(), Method: "GET", Path: "/api/stats/progression", Status: 401, Detail: daemon.MsgNoToken},
		})
	})
}
