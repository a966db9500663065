package main

import (
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/trade"
)

// pricesScene creates three shops in Haute-Savoie and three producers
// (password --password), gives each shop a need of 300 kg of --product in
// --month and two commitments of 50 kg, each producer selling to two
// shops, at 2.00 € to 3.00 € by steps of 0.20 € — an average of 2.50 € over
// 6 purchases, by 3 shops and 3 producers, each a company of its own
// holding a third: enough for the price comparison of
// ui/e2e/prices.spec.ts to show (PRODUCT §15 "Price privacy"). Through core's own
// operations: registration, planning.Create, trade.Propose and Review.
func pricesScene(fs *flag.FlagSet) func(*env) error {
	password := fs.String("password", "", "the accounts' password")
	product := fs.String("product", "", "the product")
	month := fs.String("month", "", "the month, YYYY-MM-01")
	var shopEmails, producerEmails list
	fs.Var(&shopEmails, "shop", "a shop's email (three times)")
	fs.Var(&producerEmails, "producer", "a producer's email (three times)")
	return func(e *env) error {
		if *password == "" || *product == "" || *month == "" || len(shopEmails) != 3 || len(producerEmails) != 3 {
			fs.Usage()
			os.Exit(2)
		}
		now := e.clock.Now()
		register := func(email string, distributor bool, address string) (accounts.User, error) {
			u, err := accounts.Register(e.ctx, e.db, accounts.Registration{Email: email, Password: *password, Name: email, Distributor: distributor}, now)
			if err != nil {
				return u, fmt.Errorf("register %s: %w", email, err)
			}
			// A SIRET of its own, from its email (every run's accounts are
			// other companies): a legal entity of the price figures
			// (trade.EntityOf; the account is confirmed, as Register makes it).
			h := fnv.New32a()
			h.Write([]byte(email))
			siren := accounts.LuhnComplete(fmt.Sprintf("%08d", h.Sum32()%100_000_000))
			if _, err := store.Exec(e.ctx, e.db, `UPDATE users SET address_line1 = 'Route du marché', address_line2 = ?,
				delivery_days = '1111100', siret = ? WHERE id = ?`, address, accounts.LuhnComplete(siren+"0001"), u.ID); err != nil {
				return u, err
			}
			return accounts.ByID(e.ctx, e.db, u.ID)
		}
		var shops, farms []accounts.User
		for i, email := range shopEmails {
			u, err := register(email, true, []string{"74230 Thônes", "74000 Annecy", "74150 Rumilly"}[i])
			if err != nil {
				return err
			}
			shops = append(shops, u)
		}
		for _, email := range producerEmails {
			u, err := register(email, false, "73000 Chambéry")
			if err != nil {
				return err
			}
			farms = append(farms, u)
		}
		return e.db.Tx(e.ctx, func(tx *sqlx.Tx) error {
			cents := 200
			for i, shop := range shops {
				need, err := planning.Create(e.ctx, tx, shop.ID, planning.NeedInput{ProductID: *product, Date: *month, Quantity: 300}, now)
				if err != nil {
					return err
				}
				for _, farm := range []accounts.User{farms[i], farms[(i+1)%len(farms)]} {
					if _, err := trade.Propose(e.ctx, tx, farm, need.ID, farm.ID, trade.Offer{Quantity: 50, Price: float64(cents) / 100}, now); err != nil {
						return err
					}
					if _, err := trade.Review(e.ctx, tx, shop, need.ID, farm.ID, true, now.Add(time.Minute)); err != nil {
						return err
					}
					cents += 20
				}
			}
			return nil
		})
	}
}
