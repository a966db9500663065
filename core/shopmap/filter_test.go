package shopmap_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"testing"

	"primeur/core"
	"primeur/core/fees"
	"primeur/core/shopmap"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/supplied"
	"primeur/core/trade/tradetest"
)

// TestFilters: the map keeps the shops with a need of a family from the
// month on (a past month's need does not count, an unknown family keeps
// none) and the shops within a road distance of the viewer, fees.RoadKm's
// (a hundredth of a km each side of a shop's distance decides it), both
// together; a distance out of bounds or asked by a viewer the map cannot
// place is refused in French. Both engines, one world.
func TestFilters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		ids := seed(t, db, []place{
			{name: "Ferme", lat: "45.899", lon: "6.129", producer: true},
			{name: "Ferme sans position", lat: "", lon: "", producer: true},
			{name: "Annecy", lat: "45.9", lon: "6.12"},
			{name: "Thônes", lat: "45.8814", lon: "6.3256"},
			{name: "Chambéry", lat: "45.5646", lon: "5.9178"},
			{name: "Genève", lat: "46.2044", lon: "6.1432"},
		})
		w := tradetest.On(t, db)
		now := tradetest.At(2026, 11, 20, 9, 0)
		w.Need(ids["Annecy"], "tomme-de-savoie", "2027-01-01", 10_00)
		w.Need(ids["Chambéry"], "pomme", "2026-12-01", 100_00)
		w.Need(ids["Genève"], "tomme-de-savoie", "2026-10-01", 10_00) // a past month
		w.Need(ids["Genève"], "carotte", "2027-02-01", 50_00)
		farm := ids["Ferme"]
		km := func(shop string) float64 {
			var p []struct {
				Lat int64 `db:"lat_e6"`
				Lon int64 `db:"lon_e6"`
			}
			if err := store.Select(ctx, db, &p, `SELECT lat_e6, lon_e6 FROM users WHERE id IN (?, ?) ORDER BY id = ?`,
				farm, ids[shop], farm); err != nil || len(p) != 2 {
				t.Fatal(err)
			}
			return fees.RoadKm(fees.Point{Lat: float64(p[1].Lat) / 1e6, Lon: float64(p[1].Lon) / 1e6},
				fees.Point{Lat: float64(p[0].Lat) / 1e6, Lon: float64(p[0].Lon) / 1e6})
		}
		chambery := km("Chambéry")
		if chambery < 40 || chambery > 80 {
			t.Fatalf("Chambéry is %v km away by road", chambery)
		}
		box := shopmap.Box{South: 45.3, West: 5.5, North: 46.5, East: 6.9, Zoom: 1}
		for _, c := range []struct {
			name string
			f    shopmap.Filter
			want string
		}{
			{"no filter", shopmap.Filter{}, "[Annecy Chambéry Genève Thônes]"},
			{"cheeses from this month on", shopmap.Filter{Family: "fromages"}, "[Annecy]"},
			{"fruits", shopmap.Filter{Family: "fruits"}, "[Chambéry]"},
			{"vegetables", shopmap.Filter{Family: "legumes"}, "[Genève]"},
			{"an unknown family", shopmap.Filter{Family: "durians"}, "[]"},
			{"within 20 km", shopmap.Filter{MaxKm: 20}, "[Annecy Thônes]"},
			{"just beyond Chambéry", shopmap.Filter{MaxKm: chambery + 0.01}, "[Annecy Chambéry Genève Thônes]"},
			{"just short of Chambéry", shopmap.Filter{MaxKm: chambery - 0.01}, "[Annecy Genève Thônes]"},
			{"fruits within 20 km", shopmap.Filter{Family: "fruits", MaxKm: 20}, "[]"},
			{"fruits within 100 km", shopmap.Filter{Family: "fruits", MaxKm: 100}, "[Chambéry]"},
		} {
			t.Run(c.name, func(t *testing.T) {
				v, err := shopmap.Filtered(ctx, db, farm, box, c.f, now)
				if err != nil {
					t.Fatal(err)
				}
				if got := fmt.Sprint(names(v.Shops)); got != c.want || v.Total != len(v.Shops) {
					t.Fatalf("%s (total %d), want %s", got, v.Total, c.want)
				}
			})
		}
		t.Run("a box far from the viewer holds nothing within 20 km", func(t *testing.T) {
			v, err := shopmap.Filtered(ctx, db, farm, shopmap.Box{South: 48, West: 2, North: 49, East: 3, Zoom: 1}, shopmap.Filter{MaxKm: 20}, now)
			if err != nil || v.Total != 0 || len(v.Shops) != 0 || len(v.Clusters) != 0 {
				t.Fatalf("%+v, %v", v, err)
			}
		})
		t.Run("refused", func(t *testing.T) {
			for _, c := range []struct {
				viewer string
				km     float64
				msg    string
			}{
				{farm, -1, supplied.MsgSearchKm},
				{farm, 1000.5, supplied.MsgSearchKm},
				{farm, math.NaN(), supplied.MsgSearchKm},
				{ids["Ferme sans position"], 30, shopmap.MsgNoPlace},
			} {
				t.Run(strconv.FormatFloat(c.km, 'g', -1, 64), func(t *testing.T) {
					_, err := shopmap.Filtered(ctx, db, c.viewer, box, shopmap.Filter{MaxKm: c.km}, now)
					var v *core.ValidationError
					if !errors.As(err, &v) || v.Fields[0].Field != "km" || v.Fields[0].Message != c.msg {
						t.Fatalf("got %v, want %q on km", err, c.msg)
					}
				})
			}
		})
	})
}
