// Command e2eorders gives a shop and a producer of the browser tests
// (ui/e2e/deliveries.spec.ts) an order for a month through the operations
// the API runs: the producer delivers every day (its profile, as the
// account form saves it), the shop needs tomatoes and lettuces, the
// producer proposes and the shop accepts each (trade.Propose,
// trade.Review), so trade plans a delivery every day of the month from the
// later of the 1st and tomorrow, each commitment split evenly. It is used
// by tests only.
//
//	e2eorders --data-dir DIR --shop EMAIL --producer EMAIL --month 2026-12-01
//
// It prints the order's id.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/config"
	"primeur/core/planning"
	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/trade"
)

// lines are the committed products: per day, a quantity and a unit price
// (in the product's unit and in euros).
var lines = []struct {
	product       string
	perDay, price float64
}{
	{product: "tomate", perDay: 2, price: 2.5},
	{product: "laitue", perDay: 1, price: 0.9},
}

func main() {
	dataDir := flag.String("data-dir", "", "the daemon's data directory (SQLite)")
	databaseURL := flag.String("database-url", "", "PostgreSQL URL, instead of --data-dir")
	shopEmail := flag.String("shop", "", "the shop's email")
	producerEmail := flag.String("producer", "", "the producer's email")
	month := flag.String("month", "", "the month, YYYY-MM-01")
	flag.Parse()
	m, ok := calendar.ParseMonth(*month)
	if *shopEmail == "" || *producerEmail == "" || !ok || m.String() != *month || (*dataDir == "" && *databaseURL == "") {
		flag.Usage()
		os.Exit(2)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, *databaseURL, filepath.Join(*dataDir, "primeur.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if _, err := schema.Migrate(ctx, db); err != nil {
		log.Fatal(err)
	}
	shop, err := accounts.ByEmail(ctx, db, *shopEmail)
	if err != nil {
		log.Fatal(err)
	}
	farm, err := accounts.ByEmail(ctx, db, *producerEmail)
	if err != nil {
		log.Fatal(err)
	}
	now := calendar.NewClock(time.Now, config.Defaults().Location).Now()
	// Every day of the month from the later of the 1st and tomorrow.
	start := max(calendar.DateOf(now).AddDays(1), m.First())
	days := float64(m.Last() - start + 1)
	if days < 1 {
		log.Fatalf("no day left in %s", *month)
	}
	var orderID string
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		every := []bool{true, true, true, true, true, true, true}
		farm, err := trade.UpdateProfile(ctx, tx, farm.ID, accounts.ProfileUpdate{DefaultDeliveryDays: every}, now)
		if err != nil {
			return err
		}
		for _, l := range lines {
			qty := l.perDay * days
			need, err := planning.Create(ctx, tx, shop.ID, planning.NeedInput{ProductID: l.product, Date: (*month)[:7], Quantity: qty}, now)
			if err != nil {
				return err
			}
			if _, err := trade.Propose(ctx, tx, farm, need.ID, farm.ID, trade.Offer{Quantity: qty, Price: l.price}, now); err != nil {
				return err
			}
			if _, err := trade.Review(ctx, tx, shop, need.ID, farm.ID, true, now); err != nil {
				return err
			}
		}
		return store.Get(ctx, tx, &orderID, `SELECT id FROM orders WHERE producer_id = ? AND distributor_id = ? AND month = ?`,
			farm.ID, shop.ID, *month)
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(orderID)
}
