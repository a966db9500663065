package main

import (
	"flag"
	"fmt"
	"os"

	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/trade/tradetest"
)

// progressionScene gives a shop and a producer done deliveries of tomatoes
// (2,50 €/kg) for the progression statistics of ui/e2e/onboarding.spec.ts,
// written by core/trade/tradetest: with L the month before the current one
// (Europe/Paris), 40 kg on L's 10th (100 €), 32 kg on the 10th of the month
// before L (80 €) and 20 kg on the 10th of L a year earlier (50 €). It
// prints L ("2026-10-01").
func progressionScene(fs *flag.FlagSet) func(*env) error {
	shopEmail := fs.String("shop", "", "the shop's email")
	producerEmail := fs.String("producer", "", "the producer's email")
	return func(e *env) error {
		if *shopEmail == "" || *producerEmail == "" {
			fs.Usage()
			os.Exit(2)
		}
		shop, farm := e.user(*shopEmail).ID, e.user(*producerEmail).ID
		last := e.clock.Today().Month().AddMonths(-1)
		w := tradetest.On(fatal{}, e.db)
		for _, d := range []struct {
			months int
			kg     int64
		}{{0, 40}, {-1, 32}, {-12, 20}} {
			date := last.AddMonths(d.months).First().AddDays(9).String()
			w.Deliver(farm, shop, date, orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: decimal.Dec(d.kg * 100)})
		}
		fmt.Println(last)
		return nil
	}
}
