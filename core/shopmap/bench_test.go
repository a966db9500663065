package shopmap_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/demo"
	"primeur/core/shopmap"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// A platform of France's scale (issue 20): 20,000 shops and 100,000
// producers, placed as people live (demo.FrancePlace: around 30 cities by
// their urban area's population, a fifth of them in the countryside),
// written by accounts.InsertAll. The placing is deterministic.
const (
	nationalShops     = 20_000
	nationalProducers = 100_000
)

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
		lat, lon := demo.FrancePlace(r)
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

// benchNow is the filtered maps' today.
var benchNow = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// BenchmarkFind: the map's query on the platform of France's scale, for
// a département at the zoom the map shows it (Haute-Savoie: shops),
// Paris at the same zoom and the Alps and Rhône at the smallest zoom
// (clusters), unfiltered and filtered (issue 39: the shops needing a
// family, probing each shop's needs; the shops within a distance of a
// farm near Annecy, the box narrowed to the circle's); beside it, what the user load read of the platform before
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
		// A farm near Annecy, the viewer of the filtered maps (issue 39).
		farm := accounts.User{ID: core.NewID(), Type: accounts.Producer, Email: "ferme@annecy.test", EmailKey: "ferme@annecy.test",
			Name: "Ferme", PasswordHash: "x", Latitude: "45.899", Longitude: "6.129", DeliveryDays: "0000000", CreatedAt: 1, UpdatedAt: 1}
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error { return accounts.InsertAll(ctx, tx, []accounts.User{farm}) }); err != nil {
			b.Fatal(err)
		}
		hauteSavoie := shopmap.Box{South: 45.68, West: 5.8, North: 46.41, East: 7.05, Zoom: 1}
		alps := shopmap.Box{South: 44.2, West: 3.6, North: 46.8, East: 8.2, Zoom: 0.5}
		for _, c := range []struct {
			name   string
			box    shopmap.Box
			filter shopmap.Filter
		}{
			{"Haute-Savoie, zoom 1", hauteSavoie, shopmap.Filter{}},
			{"Paris, zoom 1", shopmap.Box{South: 48.3, West: 1.2, North: 49.4, East: 3.5, Zoom: 1}, shopmap.Filter{}},
			{"Alps and Rhône, zoom 0.5", alps, shopmap.Filter{}},
			{"Haute-Savoie, zoom 1, cheese", hauteSavoie, shopmap.Filter{Family: "fromages"}},
			{"Haute-Savoie, zoom 1, within 50 km", hauteSavoie, shopmap.Filter{MaxKm: 50}},
			{"Alps and Rhône, zoom 0.5, within 200 km", alps, shopmap.Filter{MaxKm: 200}},
		} {
			b.Run(engine+"/"+c.name, func(b *testing.B) {
				var v shopmap.View
				cpu := cpuTime(b)
				for b.Loop() {
					var err error
					if v, err = shopmap.Filtered(ctx, db, farm.ID, c.box, c.filter, benchNow); err != nil {
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
