package daemon_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon/daemontest"
)

// BenchmarkSupplyAPI measures GET /api/supply end to end (HTTP, session,
// two queries, projection, JSON) for a shop with 150 products over 8 days
// and a year of deliveries: 3 producers delivering twice a week each, 50
// products per delivery (about 15,600 lines), plus another shop as busy.
// Figures: docs/BENCHMARKS.md. With -short (make test-bench, which runs
// each benchmark once to show that it still runs), 15 products.
func BenchmarkSupplyAPI(b *testing.B) {
	for _, engine := range []struct {
		name string
		open func(testing.TB) *store.DB
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		b.Run(engine.name, func(b *testing.B) {
			db := engine.open(b)
			s := daemontest.New(b, db) // today: Friday 2026-11-20
			shop, shopID := s.Register("bench-shop@example.fr", "Épicerie", true)
			_, otherID := s.Register("bench-other@example.fr", "Autre", true)
			var producers []string
			for i := 0; i < 3; i++ {
				_, id := s.Producer(fmt.Sprintf("bench-farm-%d@example.fr", i), fmt.Sprintf("Ferme %d", i))
				producers = append(producers, id)
			}
			products := make([]string, 150)
			if testing.Short() {
				products = products[:15]
			}
			lines := 0
			err := db.Tx(context.Background(), func(tx *sqlx.Tx) error {
				w := tradetest.On(b, tx)
				for i := range products {
					products[i] = fmt.Sprintf("bench-%03d", i)
					w.Product(products[i], "kg")
				}
				lines = w.Busy(shopID, producers, products, "2025-11-20", "2026-12-31", "2026-11-20")
				w.Busy(otherID, producers, products, "2025-11-20", "2026-12-31", "2026-11-20")
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			var got supplyJSON
			shop.Do("GET", "/api/supply?start=2026-11-16&days=8", nil).Expect(b, http.StatusOK).JSON(b, &got)
			if len(got.Products) != len(products) || len(got.Products[0].Days) != 8 {
				b.Fatalf("%d products", len(got.Products))
			}
			for b.Loop() {
				if res := shop.Do("GET", "/api/supply?start=2026-11-16&days=8", nil); res.Status != http.StatusOK {
					b.Fatalf("status %d", res.Status)
				}
			}
			b.ReportMetric(float64(lines), "lines/shop")
		})
	}
}
