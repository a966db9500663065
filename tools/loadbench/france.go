package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/demo"
	"primeur/core/store"
)

// The national platform (issue 20): its traded regions, and around them
// accounts-only France up to these totals — independent food shops and
// farms selling in short circuits at the scale of the country.
const (
	nationalShops     = 20_000
	nationalProducers = 100_000
)

// box is a map area in degrees.
type box struct{ south, west, north, east float64 }

func (b box) holds(lat, lon float64) bool {
	return lat >= b.south && lat <= b.north && lon >= b.west && lon <= b.east
}

// measuredArea is the area of the map measured on every platform
// (hauteSavoie): France's accounts are placed outside it, so that its map
// shows region 0's shops alone on every size and the request does the same
// work on the national platform as on the others (the cost of a dense
// département is measured apart: rhône).
var measuredArea = box{45.68, 5.8, 46.41, 7.05}

// seedFrance adds France's accounts to a platform of shops and producers
// already seeded, in one transaction through accounts.InsertAll: shops and
// producers without trade, placed as people live (demo.FrancePlace, the
// placing of core/shopmap's BenchmarkFind), none in measuredArea.
// It returns how many of each it wrote.
func seedFrance(ctx context.Context, db *store.DB, w *world, shops, producers int) (int, int, error) {
	nShops, nProducers := max(0, nationalShops-shops), max(0, nationalProducers-producers)
	r := rand.New(rand.NewPCG(20, 26))
	created := w.now.AddDate(-1, 0, 0).UnixMilli()
	us := make([]accounts.User, 0, nShops+nProducers)
	for i := range nShops + nProducers {
		lat, lon := demo.FrancePlace(r)
		for measuredArea.holds(lat, lon) {
			lat, lon = demo.FrancePlace(r)
		}
		u := accounts.User{
			ID: core.NewID(), PasswordHash: w.hash, CreatedAt: created, UpdatedAt: created,
			Latitude: strconv.FormatFloat(lat, 'f', 4, 64), Longitude: strconv.FormatFloat(lon, 'f', 4, 64),
			AddressLine1: fmt.Sprintf("%d %s", 1+i%60, streets[i%len(streets)]),
		}
		if i < nShops {
			u.Type, u.Email = accounts.Distributor, fmt.Sprintf("france-magasin-%05d@bench.primeur.fr", i)
			u.Name = fmt.Sprintf("%s de France %d", shopKinds[i%len(shopKinds)], i+1)
			u.DeliveryDays = "0000000"
		} else {
			j := i - nShops
			u.Type, u.Email = accounts.Producer, fmt.Sprintf("france-ferme-%06d@bench.primeur.fr", j)
			u.Name = fmt.Sprintf("%s %s de France %d", farmKinds[j%len(farmKinds)], farmPlaces[j%len(farmPlaces)], j+1)
			days := []byte("0000000")
			days[j%5] = '1'
			u.DeliveryDays = string(days)
		}
		u.EmailKey = accounts.EmailKey(u.Email)
		us = append(us, u)
	}
	err := db.Tx(ctx, func(tx *sqlx.Tx) error { return accounts.InsertAll(ctx, tx, us) })
	if err != nil {
		return 0, 0, fmt.Errorf("France's accounts: %w", err)
	}
	return nShops, nProducers, nil
}
