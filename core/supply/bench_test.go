package supply_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/supply"
	"primeur/core/trade/tradetest"
)

// benchProducts is the busy shop's products: 150, or 15 with -short (make
// test-bench, which runs each benchmark once to show that it still runs).
func benchProducts() int {
	if testing.Short() {
		return 15
	}
	return 150
}

// busyShop writes the benchmark's shop: 150 products (benchProducts), a need per product
// and month, and a year of deliveries by 3 producers (about 17,000 lines),
// with another shop as busy beside it.
func busyShop(b *testing.B, db *store.DB) string {
	b.Helper()
	ctx := context.Background()
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	mk := func(email string, isShop bool) string {
		u, err := accounts.Register(ctx, db, accounts.Registration{Email: email, Password: "motdepasse1", Name: email, Distributor: isShop}, now)
		if err != nil {
			b.Fatal(err)
		}
		return u.ID
	}
	shop := mk("shop@x.fr", true)
	other := mk("other@x.fr", true)
	producers := []string{mk("a@x.fr", false), mk("b@x.fr", false), mk("c@x.fr", false)}
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		w := tradetest.On(b, tx)
		products := make([]string, benchProducts())
		for i := range products {
			products[i] = fmt.Sprintf("bench-%03d", i)
			w.Product(products[i], "kg")
		}
		w.Busy(shop, producers, products, "2025-11-20", "2026-12-31", "2026-11-20")
		w.Busy(other, producers, products, "2025-11-20", "2026-12-31", "2026-11-20")
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return shop
}

// BenchmarkLoad measures the two queries and the projection, without HTTP.
func BenchmarkLoad(b *testing.B) {
	for _, engine := range []struct {
		name string
		open func(testing.TB) *store.DB
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		b.Run(engine.name, func(b *testing.B) {
			db := engine.open(b)
			shop := busyShop(b, db)
			start, _ := calendar.ParseDate("2026-11-16")
			today, _ := calendar.ParseDate("2026-11-20")
			for b.Loop() {
				p, err := supply.Load(context.Background(), db, shop, supply.Window{Start: start, Days: 8}, today)
				if err != nil || len(p.Products) != benchProducts() {
					b.Fatalf("%d products, %v", len(p.Products), err)
				}
			}
		})
	}
}

// BenchmarkProject measures the pure projection of 150 products over 8 days
// fed with a year of delivery lines.
func BenchmarkProject(b *testing.B) {
	start, _ := calendar.ParseDate("2026-11-16")
	today, _ := calendar.ParseDate("2026-11-20")
	in := supply.Input{Window: supply.Window{Start: start, Days: 8}, Today: today}
	for i := 0; i < 150; i++ {
		id := fmt.Sprintf("bench-%03d", i)
		in.Products = append(in.Products, supply.Product{ID: id, Name: "Produit " + id, Unit: "kg"})
		for _, m := range []string{"2026-10-01", "2026-11-01", "2026-12-01"} {
			in.Needs = append(in.Needs, supply.Need{ProductID: id, Month: m, Quantity: 260_00})
		}
	}
	for d := start.AddDays(-365); d <= start.AddDays(40); d++ {
		for p := 0; p < 3; p++ {
			if wd := (int(d.Weekday()) + 6) % 7; wd != p && wd != p+3 {
				continue
			}
			for k := p; k < 150; k += 3 {
				in.Deliveries = append(in.Deliveries, supply.Delivery{ProductID: in.Products[k].ID, ProducerID: fmt.Sprint(p),
					Date: d, Status: supply.Planned, Expected: 300})
			}
		}
	}
	for b.Loop() {
		if _, err := supply.Project(in); err != nil {
			b.Fatal(err)
		}
	}
}
