// Command e2eorders gives a shop and a producer of the browser tests
// (ui/e2e/deliveries.spec.ts) an order for a month, written straight into
// the daemon's database the way core/trade plans one, until trade's
// negotiation is on main: a need per product, the producer's accepted
// commitment on it, the order, and a planned delivery every day of the month
// from the later of the 1st and tomorrow, each commitment split evenly. It
// is used by tests only.
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

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/trade"
)

// lines are the committed products: per day, a quantity (hundredths) and a
// unit price (cents).
var lines = []struct {
	product       string
	perDay, price int64
}{
	{product: "tomate", perDay: 200, price: 250},
	{product: "laitue", perDay: 100, price: 90},
}

func main() {
	dataDir := flag.String("data-dir", "", "the daemon's data directory (SQLite)")
	databaseURL := flag.String("database-url", "", "PostgreSQL URL, instead of --data-dir")
	shopEmail := flag.String("shop", "", "the shop's email")
	producerEmail := flag.String("producer", "", "the producer's email")
	month := flag.String("month", "", "the month, YYYY-MM-01")
	flag.Parse()
	first, err := time.Parse("2006-01-02", *month)
	if *shopEmail == "" || *producerEmail == "" || err != nil || first.Day() != 1 || (*dataDir == "" && *databaseURL == "") {
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
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		log.Fatal(err)
	}
	now := time.Now().In(paris)
	tomorrow := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC)
	var days []string
	for d := first; d.Month() == first.Month(); d = d.AddDate(0, 0, 1) {
		if !d.Before(tomorrow) {
			days = append(days, d.Format("2006-01-02"))
		}
	}
	if len(days) == 0 {
		log.Fatalf("no day left in %s", *month)
	}
	ms := now.UnixMilli()
	orderID := core.NewID()
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		exec := func(q string, args ...any) error {
			_, err := store.Exec(ctx, tx, q, args...)
			return err
		}
		needs := map[string]string{}
		for _, l := range lines {
			quantity := l.perDay * int64(len(days))
			needs[l.product] = core.NewID()
			if err := exec(`INSERT INTO needs (id, distributor_id, product_id, month, quantity, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, needs[l.product], shop.ID, l.product, *month, quantity, ms, ms); err != nil {
				return err
			}
			if err := exec(`INSERT INTO proposals (id, need_id, producer_id, status, origin, quantity, price, created_at, updated_at)
				VALUES (?, ?, ?, 'accepted', 'producer', ?, ?, ?, ?)`, core.NewID(), needs[l.product], farm.ID, quantity, l.price, ms, ms); err != nil {
				return err
			}
		}
		if err := exec(`INSERT INTO orders (id, producer_id, distributor_id, month, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
			orderID, farm.ID, shop.ID, *month, ms, ms); err != nil {
			return err
		}
		for _, day := range days {
			chrono, err := store.Next(ctx, tx, "chrono:"+farm.ID)
			if err != nil {
				return err
			}
			id := core.NewID()
			if err := exec(`INSERT INTO deliveries (id, order_id, producer_id, status, date, chrono, created_at, updated_at)
				VALUES (?, ?, ?, 'planned', ?, ?, ?, ?)`, id, orderID, farm.ID, day, chrono, ms, ms); err != nil {
				return err
			}
			for _, l := range lines {
				if err := exec(`INSERT INTO delivery_lines (id, delivery_id, need_id, product_id, price, quantity_expected)
					VALUES (?, ?, ?, ?, ?, ?)`, core.NewID(), id, needs[l.product], l.product, l.price, l.perDay); err != nil {
					return err
				}
			}
		}
		// The commitments were written without core/trade: the price sums
		// of the user load follow them.
		return trade.RebuildPrices(ctx, tx, db.Dialect, paris)
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(orderID)
}
