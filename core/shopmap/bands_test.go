package shopmap_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"primeur/core/accounts"
	"primeur/core/shopmap"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestFindAcrossBands: the index is searched band by band (BandE6), so
// every box — one band or many, listed or ranged (past 16 bands), across
// the equator where the division truncates toward zero, with bounds and
// shops on band edges — holds exactly the shops a scan of the positions
// finds in it, listed or counted.
func TestFindAcrossBands(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		r := rand.New(rand.NewPCG(29, 20))
		var places []place
		type pos struct{ lat, lon int64 }
		where := map[string]pos{}
		add := func(lat, lon float64) {
			p := place{name: fmt.Sprintf("Magasin %04d", len(places)), lat: strconv.FormatFloat(lat, 'f', 6, 64),
				lon: strconv.FormatFloat(lon, 'f', 6, 64)}
			places = append(places, p)
			la, lo := accounts.Position(p.lat, p.lon)
			if la != nil {
				where[p.name] = pos{*la, *lo}
			}
		}
		for range 400 { // around the equator and in France
			add(-3+r.Float64()*6, -2+r.Float64()*4)
			add(43+r.Float64()*6, -1+r.Float64()*8)
		}
		for k := -12; k <= 12; k++ { // on band edges and a millionth either side
			edge := float64(k) * shopmap.BandE6 / 1e6
			for _, d := range []float64{-1e-6, 0, 1e-6} {
				add(edge+d, 0.5)
				add(edge+45+d, 6.5)
			}
		}
		ids := seed(t, db, places)
		byID := map[string]pos{}
		for name, p := range where {
			byID[ids[name]] = p
		}
		boxes := []shopmap.Box{
			{South: -0.25, West: 0, North: 0.25, East: 1, Zoom: 4},           // the band astride the equator
			{South: -0.000001, West: 0, North: 0.000001, East: 1, Zoom: 4},   // the equator's edge shops
			{South: 45.75, West: 6, North: 46.25, East: 7, Zoom: 2},          // bounds on band edges
			{South: -3, West: -2, North: 3, East: 2, Zoom: 0.5},              // 24 bands: ranged
			{South: 42, West: -2, North: 50, East: 8, Zoom: 0.5},             // France: ranged, clusters
			{South: 45.68, West: 5.8, North: 46.41, East: 7.05, Zoom: 1},     // a département
			{South: -3.7, West: -2, North: 0.3, East: 2, Zoom: 0.5},          // 16 bands and more, across the equator
			{South: -2.2, West: -1, North: 1.99, East: 1, Zoom: 0.5},         // bands -8 to 7: 16, listed
			{South: -2.2, West: -1, North: 2, East: 1, Zoom: 0.5},            // -8 to 8: 17, ranged
			{South: -0.999999, West: -2, North: -0.000001, East: 2, Zoom: 1}, // south of the equator only
		}
		for range 60 {
			h := []float64{0.01, 0.2, 0.7, 2, 5, 9}[r.IntN(6)]
			s := -4 + r.Float64()*54
			w := -3 + r.Float64()*9
			boxes = append(boxes, shopmap.Box{South: s, West: w, North: s + h, East: w + min(h*1.4, 10), Zoom: 0.5})
		}
		for _, b := range boxes {
			v, err := shopmap.Find(ctx, db, "", b)
			if err != nil {
				t.Fatalf("%+v: %v", b, err)
			}
			var want []string
			south, north := int64(math.Floor(b.South*1e6)), int64(math.Ceil(b.North*1e6))
			west, east := int64(math.Floor(b.West*1e6)), int64(math.Ceil(b.East*1e6))
			for id, p := range byID {
				if p.lat >= south && p.lat <= north && p.lon >= west && p.lon <= east {
					want = append(want, id)
				}
			}
			if v.Total != len(want) {
				t.Fatalf("%+v: %d shops, a scan finds %d", b, v.Total, len(want))
			}
			if len(v.Clusters) > 0 {
				continue
			}
			var got []string
			for _, s := range v.Shops {
				got = append(got, s.ID)
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("%+v: shops %v, a scan finds %v", b, got, want)
			}
		}
	})
}
