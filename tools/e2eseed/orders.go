package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/trade"
)

// orderLines are the committed products of the orders scene: per day, a
// quantity and a unit price (in the product's unit and in euros).
var orderLines = []struct {
	product       string
	perDay, price float64
}{
	{product: "tomate", perDay: 2, price: 2.5},
	{product: "laitue", perDay: 1, price: 0.9},
}

// ordersScene gives a shop and a producer an order for a month through the
// operations the API runs: the producer delivers every day (its profile,
// as the account form saves it), the shop needs tomatoes and lettuces, the
// producer proposes and the shop accepts each (trade.Propose,
// trade.Review), so trade plans a delivery every day of the month from the
// later of the 1st and tomorrow, each commitment split evenly. It prints
// the order's id.
func ordersScene(fs *flag.FlagSet) func(*env) error {
	shopEmail := fs.String("shop", "", "the shop's email")
	producerEmail := fs.String("producer", "", "the producer's email")
	month := fs.String("month", "", "the month, YYYY-MM-01")
	return func(e *env) error {
		m, ok := calendar.ParseMonth(*month)
		if *shopEmail == "" || *producerEmail == "" || !ok || m.String() != *month {
			fs.Usage()
			os.Exit(2)
		}
		shop, farm := e.user(*shopEmail), e.user(*producerEmail)
		now := e.clock.Now()
		// Every day of the month from the later of the 1st and tomorrow.
		start := max(calendar.DateOf(now).AddDays(1), m.First())
		days := float64(m.Last() - start + 1)
		if days < 1 {
			return fmt.Errorf("no day left in %s", m)
		}
		var orderID string
		err := e.db.Tx(e.ctx, func(tx *sqlx.Tx) error {
			every := []bool{true, true, true, true, true, true, true}
			farm, err := trade.UpdateProfile(e.ctx, tx, farm.ID, accounts.ProfileUpdate{DefaultDeliveryDays: every}, now)
			if err != nil {
				return err
			}
			for _, l := range orderLines {
				qty := l.perDay * days
				need, err := planning.Create(e.ctx, tx, shop.ID, planning.NeedInput{ProductID: l.product, Date: m.String(), Quantity: qty}, now)
				if err != nil {
					return err
				}
				if _, err := trade.Propose(e.ctx, tx, farm, need.ID, farm.ID, trade.Offer{Quantity: qty, Price: l.price}, now); err != nil {
					return err
				}
				if _, err := trade.Review(e.ctx, tx, shop, need.ID, farm.ID, true, now); err != nil {
					return err
				}
			}
			return store.Get(e.ctx, tx, &orderID, `SELECT id FROM orders WHERE producer_id = ? AND distributor_id = ? AND month = ?`,
				farm.ID, shop.ID, m.String())
		})
		if err != nil {
			return err
		}
		fmt.Println(orderID)
		return nil
	}
}
