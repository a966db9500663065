package shopmap_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"syscall"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/shopmap"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// A platform of France's scale (issue 20): 20,000 shops and 100,000
// producers, placed as people live — around 30 cities by their urban
// area's population, a fifth of them in the countryside —, written by
// accounts.InsertAll. The placing is deterministic.
const (
	nationalShops     = 20_000
	nationalProducers = 100_000
)

// cities are urban areas, [lat, lon, population in thousands].
var cities = [][3]float64{
	{48.857, 2.352, 13000}, {45.764, 4.836, 2300}, {43.297, 5.381, 1900}, {43.605, 1.444, 1500},
	{50.629, 3.057, 1500}, {44.838, -0.579, 1400}, {47.218, -1.554, 1000}, {43.710, 7.262, 1000},
	{48.573, 7.752, 850}, {43.611, 3.877, 800}, {48.117, -1.678, 750}, {45.188, 5.724, 700},
	{49.443, 1.099, 650}, {43.125, 5.930, 600}, {47.394, 0.685, 500}, {45.778, 3.087, 500},
	{45.440, 4.387, 520}, {49.258, 4.032, 350}, {47.322, 5.041, 400}, {43.296, -0.370, 250},
	{47.478, -0.563, 420}, {46.580, 0.340, 250}, {48.692, 6.184, 430}, {49.119, 6.176, 390},
	{45.899, 6.129, 250}, {45.565, 5.918, 230}, {46.196, 6.236, 200}, {50.951, 1.858, 160},
	{43.949, 4.806, 320}, {42.698, 2.895, 330},
}

// nationalPlace is the i-th position of the platform.
func nationalPlace(r *rand.Rand) (lat, lon float64) {
	if r.Float64() < 0.2 { // the countryside: anywhere in metropolitan France's box
		return 42.5 + r.Float64()*8.5, -4.5 + r.Float64()*12.5
	}
	total := 0.0
	for _, c := range cities {
		total += c[2]
	}
	pick := r.Float64() * total
	for _, c := range cities {
		if pick -= c[2]; pick <= 0 {
			spread := 0.04 + 0.12*math.Sqrt(c[2]/13000) // larger cities spread wider
			return c[0] + r.NormFloat64()*spread, c[1] + r.NormFloat64()*spread*1.4
		}
	}
	return cities[0][0], cities[0][1]
}

// seedNational writes the platform in one transaction.
func seedNational(b *testing.B, db *store.DB) {
	b.Helper()
	r := rand.New(rand.NewPCG(20, 26))
	us := make([]accounts.User, 0, nationalShops+nationalProducers)
	for i := range nationalShops + nationalProducers {
		kind, email := accounts.Distributor, fmt.Sprintf("magasin-%05d@france.test", i)
		if i >= nationalShops {
			kind, email = accounts.Producer, fmt.Sprintf("ferme-%06d@france.test", i)
		}
		lat, lon := nationalPlace(r)
		us = append(us, accounts.User{
			ID: core.NewID(), Type: kind, Email: email, EmailKey: email, Name: fmt.Sprintf("Compte %06d", i), PasswordHash: "x",
			Latitude: strconv.FormatFloat(lat, 'f', 5, 64), Longitude: strconv.FormatFloat(lon, 'f', 5, 64),
			DeliveryDays: "0000000", CreatedAt: 1, UpdatedAt: 1,
		})
	}
	if err := db.Tx(context.Background(), func(tx *sqlx.Tx) error { return accounts.InsertAll(context.Background(), tx, us) }); err != nil {
		b.Fatal(err)
	}
	// What autovacuum does soon after such a load on PostgreSQL: statistics,
	// and the visibility map that lets the counts read the index alone.
	if db.Dialect == store.Postgres {
		if _, err := db.ExecContext(context.Background(), "VACUUM ANALYZE users"); err != nil {
			b.Fatal(err)
		}
	}
}

// cpuTime is the process's CPU time (user + system), in ns: steadier than
// wall time on a shared machine; on PostgreSQL the server's work is not in
// it.
func cpuTime(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkFind: the map's query on the platform of France's scale, for
// a département at the zoom the map shows it (Haute-Savoie: shops),
// Paris at the same zoom and the Alps and Rhône at the smallest zoom
// (clusters); beside it, what the user load read of the platform before
// issue 20 — every shop, for the map — and its JSON's size.
func BenchmarkFind(b *testing.B) {
	engines := []string{"sqlite"}
	if os.Getenv(storetest.EnvURL) != "" {
		engines = append(engines, "postgres")
	}
	for _, engine := range engines {
		var db *store.DB
		if engine == "sqlite" {
			db = storetest.SQLite(b)
		} else {
			db = storetest.Postgres(b)
		}
		seedNational(b, db)
		ctx := context.Background()
		for _, c := range []struct {
			name string
			box  shopmap.Box
		}{
			{"Haute-Savoie, zoom 1", shopmap.Box{South: 45.68, West: 5.8, North: 46.41, East: 7.05, Zoom: 1}},
			{"Paris, zoom 1", shopmap.Box{South: 48.3, West: 1.2, North: 49.4, East: 3.5, Zoom: 1}},
			{"Alps and Rhône, zoom 0.5", shopmap.Box{South: 44.2, West: 3.6, North: 46.8, East: 8.2, Zoom: 0.5}},
		} {
			b.Run(engine+"/"+c.name, func(b *testing.B) {
				var v shopmap.View
				cpu := cpuTime(b)
				for b.Loop() {
					var err error
					if v, err = shopmap.Find(ctx, db, "", c.box); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(v.Total), "shops-in-box")
				b.ReportMetric(float64(len(v.Shops)), "shops-listed")
				b.ReportMetric(float64(len(v.Clusters)), "clusters")
			})
		}
		b.Run(engine+"/every shop, as the user load read them before issue 20", func(b *testing.B) {
			var size int
			cpu := cpuTime(b)
			for b.Loop() {
				var ss []accounts.Shop
				if err := store.Select(ctx, db, &ss, `SELECT u.id, u.name, u.latitude, u.longitude, `+accounts.ShopEmail+` AS email
					FROM users u WHERE u.type = ? AND u.closed_at IS NULL ORDER BY u.name, u.id`,
					append(accounts.ShopEmailArgs(""), accounts.Distributor)...); err != nil {
					b.Fatal(err)
				}
				out, err := json.Marshal(ss)
				if err != nil {
					b.Fatal(err)
				}
				size = len(out)
			}
			b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(size), "resp-bytes")
		})
	}
}
