package main

import (
	"flag"
	"fmt"
	"log"
	"os"

	"primeur/core/calendar"
	"primeur/core/supply"
	"primeur/core/trade/tradetest"
)

type fatal struct{}

func (fatal) Helper()                        {}
func (fatal) Fatalf(format string, a ...any) { log.Fatalf(format, a...) }

// supplyScene gives a shop needs and deliveries around the current week,
// written by core/trade/tradetest (through trade's and the deliveries'
// operations: commitments, orders, deliveries). With M the
// Monday of the current week in the business time zone: Tomate gets a need
// of 260 kg this month and next; on M+1 the first producer brings 30 kg of
// tomatoes and the second 10 kg; on M−3 the first producer delivered 12 kg
// of leeks (done), a product without need in the weeks shown: the leeks
// are those of the month before M−3's, delivered past its end (the shop
// moved the delivery), so their need is in that month. It prints M.
func supplyScene(fs *flag.FlagSet) func(*env) error {
	shopEmail := fs.String("shop", "", "the shop's email")
	var producers list
	fs.Var(&producers, "producer", "a producer's email (twice)")
	return func(e *env) error {
		if *shopEmail == "" || len(producers) != 2 {
			fs.Usage()
			os.Exit(2)
		}
		shop, first, second := e.user(*shopEmail).ID, e.user(producers[0]).ID, e.user(producers[1]).ID
		monday := e.clock.Today().Monday()
		w := tradetest.On(fatal{}, e.db)
		for _, m := range []calendar.Month{monday.Month(), monday.Month() + 1} {
			w.Need(shop, "tomate", m.String(), 26000)
		}
		w.Deliver(first, shop, monday.AddDays(1).String(), supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 3000})
		w.Deliver(second, shop, monday.AddDays(1).String(), supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		leeks := monday.AddDays(-3)
		w.Delivery(w.OrderOf(first, shop, leeks.Month().AddMonths(-1).String()), leeks.String(), supply.Done,
			tradetest.L{Product: "poireau", Price: 250, Expected: 1200, Sent: tradetest.Dec(1200)})
		fmt.Println(monday)
		return nil
	}
}
