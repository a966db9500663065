package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
)

// shopsScene places many shops on the map for ui/e2e/map.spec.ts, so that
// its area holds more than the map lists and shows clusters: --count
// shops named "{prefix} 001"…, emails {prefix-as-slug}-001@carte.test…,
// on a spiral of --radius degrees of latitude around --lat, --lon (as wide
// again in longitude), written in one transaction by the core bulk
// writer (accounts.InsertAll), which fills their map positions. Their
// password is --password. It prints how many it wrote.
func shopsScene(fs *flag.FlagSet) func(*env) error {
	count := fs.Int("count", 0, "how many shops")
	prefix := fs.String("prefix", "Magasin", "their names' start")
	slug := fs.String("slug", "magasin", "their emails' start")
	password := fs.String("password", "", "their password")
	lat := fs.Float64("lat", 45.9, "the spiral's centre, latitude")
	lon := fs.Float64("lon", 6.12, "the spiral's centre, longitude")
	radius := fs.Float64("radius", 0.3, "the spiral's radius in degrees of latitude")
	return func(e *env) error {
		if *count <= 0 || *password == "" {
			fs.Usage()
			os.Exit(2)
		}
		hash, err := accounts.HashPassword(e.ctx, *password)
		if err != nil {
			return err
		}
		now := e.clock.Now().UnixMilli()
		us := make([]accounts.User, *count)
		for i := range us {
			// The golden angle turns each shop from the last: an even disc.
			a := float64(i) * 2.399963
			r := *radius * math.Sqrt(float64(i+1)/float64(*count))
			email := fmt.Sprintf("%s-%03d@carte.test", *slug, i+1)
			us[i] = accounts.User{
				ID: core.NewID(), Type: accounts.Distributor, Email: email, EmailKey: accounts.EmailKey(email),
				Name: fmt.Sprintf("%s %03d", *prefix, i+1), PasswordHash: hash, DeliveryDays: "0000000",
				Latitude:  strconv.FormatFloat(*lat+r*math.Sin(a), 'f', 5, 64),
				Longitude: strconv.FormatFloat(*lon+1.4*r*math.Cos(a), 'f', 5, 64),
				CreatedAt: now, UpdatedAt: now,
			}
		}
		if err := e.db.Tx(e.ctx, func(tx *sqlx.Tx) error { return accounts.InsertAll(e.ctx, tx, us) }); err != nil {
			return err
		}
		fmt.Println(len(us))
		return nil
	}
}
