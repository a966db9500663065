package stats_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/stats"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

func eur(f float64) decimal.Dec { return decimal.Round(f) }

func TestMonthly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		other := w.User(accounts.User{Type: accounts.Distributor, Email: "autre@x.fr", Name: "Autre", DeliveryDays: "0000000"})
		line := func(product string, price, qty float64) tradetest.L {
			return tradetest.L{Product: product, Price: eur(price), Expected: eur(qty)}
		}
		// November 2026: 40 × 2,50 + 12 × 1,99 = 123,88 € (two products).
		w.Deliver(w.Farm.ID, w.Shop.ID, "2026-11-03", orders.Done, line("tomate", 2.5, 40), line("poire", 1.99, 12))
		// October 2026: 10 × 3 = 30 €, and a claim of −2 accepted on 10 poires at 1,50 → 12 €.
		w.Deliver(w.Farm.ID, w.Shop.ID, "2026-10-06", orders.Done, line("tomate", 3, 10))
		day, _ := time.ParseInLocation("2006-01-02", "2026-10-13", tradetest.Paris)
		w.Played(w.OrderOf(w.Farm.ID, w.Shop.ID, "2026-10-01"), "2026-10-13", tradetest.Outcome{
			Status: orders.Done,
			Claim: &tradetest.ClaimOutcome{
				Lines:  map[string]tradetest.ClaimedLine{"poire": {Quantity: eur(-2), Type: orders.ClaimQuantity}},
				SentAt: day.Add(15 * time.Hour), Status: orders.ClaimAccepted, ReviewedAt: day.Add(34 * time.Hour),
			},
		}, line("poire", 1.5, 10))
		// November 2025 (a year before): 20 × 2 = 40 €; November 2024, the oldest month: 5 €.
		w.Deliver(w.Farm.ID, w.Shop.ID, "2025-11-18", orders.Done, line("tomate", 2, 20))
		w.Deliver(w.Farm.ID, w.Shop.ID, "2024-11-05", orders.Done, line("tomate", 1, 5))
		// Not counted: planned, cancelled, before the window, another shop's.
		w.Deliver(w.Farm.ID, w.Shop.ID, "2026-11-24", orders.Planned, line("tomate", 100, 100))
		w.Deliver(w.Farm.ID, w.Shop.ID, "2026-11-10", orders.Cancelled, line("tomate", 100, 100))
		w.Deliver(w.Farm.ID, w.Shop.ID, "2024-10-29", orders.Done, line("tomate", 100, 100))
		w.Deliver(w.Farm.ID, other.ID, "2026-11-03", orders.Done, line("tomate", 100, 1))

		ctx := context.Background()
		current := calendar.MonthOfParts(2026, time.November)
		shop, err := stats.Monthly(ctx, db, w.Shop, current)
		if err != nil {
			t.Fatal(err)
		}
		if len(shop.Months) != stats.Span || shop.Months[0] != "2024-11-01" || shop.Months[24] != "2026-11-01" {
			t.Fatalf("months = %v", shop.Months)
		}
		want := map[string]map[string]decimal.Dec{
			"poire":  {"2026-11-01": eur(23.88), "2026-10-01": eur(12)},
			"tomate": {"2026-11-01": eur(100), "2026-10-01": eur(30), "2025-11-01": eur(40), "2024-11-01": eur(5)},
		}
		check := func(who string, got stats.Progression, want map[string]map[string]decimal.Dec) {
			t.Helper()
			if len(got.Products) != len(want) {
				t.Fatalf("%s: products = %+v", who, got.Products)
			}
			for _, s := range got.Products {
				for i, v := range s.Values {
					if v != want[s.Product][got.Months[i]] {
						t.Errorf("%s: %s in %s = %v, want %v", who, s.Product, got.Months[i], v, want[s.Product][got.Months[i]])
					}
				}
			}
		}
		check("shop", shop, want)
		if shop.Products[0].Product != "poire" {
			t.Errorf("products not by id: %+v", shop.Products)
		}

		// The producer's sales hold the other shop's delivery too.
		farm, err := stats.Monthly(ctx, db, w.Farm, current)
		if err != nil {
			t.Fatal(err)
		}
		want["tomate"]["2026-11-01"] = eur(200)
		check("farm", farm, want)

		// A user without deliveries: the months, no product (an empty list, not null).
		none, err := stats.Monthly(ctx, db, other, calendar.MonthOfParts(2030, time.January))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(none)
		if len(none.Months) != stats.Span || !strings.HasSuffix(string(b), `"products":[]}`) {
			t.Fatalf("empty progression = %s", b)
		}
	})
}
