// Command e2eseed gives a shop of the browser tests (ui/e2e/supply.spec.ts)
// needs and deliveries around the current week, written into the daemon's
// database by core/trade/tradetest (trade.Bulk: commitments, orders,
// deliveries as trade and the deliveries' rules leave them). It is used by
// tests only.
//
//	e2eseed --data-dir DIR --shop EMAIL --producer EMAIL --producer EMAIL
//
// With M the Monday of the current week in Europe/Paris: Tomate gets a need
// of 260 kg this month and next; on M+1 the first producer brings 30 kg of
// tomatoes and the second 10 kg; on M−3 the first producer delivered 12 kg
// of leeks (done), a product without need in the weeks shown: the leeks
// are those of the month before M−3's, delivered past its end (the shop
// moved the delivery), so their need is in that month.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/supply"
	"primeur/core/trade/tradetest"
)

type fatal struct{}

func (fatal) Helper()                        {}
func (fatal) Fatalf(format string, a ...any) { log.Fatalf(format, a...) }

type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	dataDir := flag.String("data-dir", "", "the daemon's data directory (SQLite)")
	databaseURL := flag.String("database-url", "", "PostgreSQL URL, instead of --data-dir")
	shopEmail := flag.String("shop", "", "the shop's email")
	var producers list
	flag.Var(&producers, "producer", "a producer's email (twice)")
	flag.Parse()
	if *shopEmail == "" || len(producers) != 2 || (*dataDir == "" && *databaseURL == "") {
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
	id := func(email string) string {
		u, err := accounts.ByEmail(ctx, db, email)
		if err != nil {
			log.Fatalf("%s: %v", email, err)
		}
		return u.ID
	}
	shop, first, second := id(*shopEmail), id(producers[0]), id(producers[1])
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		log.Fatal(err)
	}
	monday := calendar.DateOf(time.Now().In(paris)).Monday()
	w := tradetest.On(fatal{}, db)
	for _, m := range []calendar.Month{monday.Month(), monday.Month() + 1} {
		w.Need(shop, "tomate", m.String(), 26000)
	}
	w.Deliver(first, shop, monday.AddDays(1).String(), supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 3000})
	w.Deliver(second, shop, monday.AddDays(1).String(), supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
	leeks := monday.AddDays(-3)
	w.Delivery(w.OrderOf(first, shop, leeks.Month().AddMonths(-1).String()), leeks.String(), supply.Done,
		tradetest.L{Product: "poireau", Price: 250, Expected: 1200, Sent: tradetest.Dec(1200)})
	fmt.Println(monday)
}
