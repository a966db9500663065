package shopmap_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/orders"
	"primeur/core/shopmap"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// hauteSavoie is the bounding box of Haute-Savoie at the zoom the map
// shows it.
var hauteSavoie = shopmap.Box{South: 45.68, West: 5.80, North: 46.41, East: 7.05, Zoom: 1}

func TestCheck(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	with := func(f func(*shopmap.Box)) shopmap.Box {
		b := hauteSavoie
		f(&b)
		return b
	}
	// The largest box at zoom 4: MaxPixels high.
	tallest := 8192 / (math.Pi / 180 * shopmap.Scale * 4)
	tests := []struct {
		name  string
		box   shopmap.Box
		field string
		msg   string
	}{
		{"Haute-Savoie", hauteSavoie, "", ""},
		{"France at the smallest zoom", shopmap.Box{South: 41.3, West: -5.2, North: 51.1, East: 9.6, Zoom: 0.5}, "", ""},
		{"Réunion, south of the equator", shopmap.Box{South: -21.4, West: 55.2, North: -20.8, East: 55.9, Zoom: 4}, "", ""},
		{"the tallest box at zoom 4", with(func(b *shopmap.Box) { b.Zoom, b.North = 4, b.South+tallest*0.999 }), "", ""},
		{"taller than a screen at zoom 4", with(func(b *shopmap.Box) { b.Zoom, b.North = 4, b.South+tallest*1.01 }), "zoom", shopmap.MsgTooLarge},
		{"France at zoom 4", shopmap.Box{South: 41.3, West: -5.2, North: 51.1, East: 9.6, Zoom: 4}, "zoom", shopmap.MsgTooLarge},
		{"the whole world", shopmap.Box{South: -90, West: -180, North: 90, East: 180, Zoom: 0.5}, "zoom", shopmap.MsgTooLarge},
		{"south NaN", with(func(b *shopmap.Box) { b.South = nan }), "south", shopmap.MsgNotANumber},
		{"west NaN", with(func(b *shopmap.Box) { b.West = nan }), "west", shopmap.MsgNotANumber},
		{"north infinite", with(func(b *shopmap.Box) { b.North = inf }), "north", shopmap.MsgNotANumber},
		{"east minus infinite", with(func(b *shopmap.Box) { b.East = -inf }), "east", shopmap.MsgNotANumber},
		{"zoom NaN", with(func(b *shopmap.Box) { b.Zoom = nan }), "zoom", shopmap.MsgNotANumber},
		{"zoom infinite", with(func(b *shopmap.Box) { b.Zoom = inf }), "zoom", shopmap.MsgNotANumber},
		{"latitude beyond the pole", with(func(b *shopmap.Box) { b.North = 90.5 }), "north", shopmap.MsgLatitude},
		{"latitude under the pole", with(func(b *shopmap.Box) { b.South = -91 }), "south", shopmap.MsgLatitude},
		{"longitude beyond 180", with(func(b *shopmap.Box) { b.East = 180.01 }), "east", shopmap.MsgLongitude},
		{"longitude under -180", with(func(b *shopmap.Box) { b.West = -1e300 }), "west", shopmap.MsgLongitude},
		{"zoom 0", with(func(b *shopmap.Box) { b.Zoom = 0 }), "zoom", shopmap.MsgZoom},
		{"zoom under 0.5", with(func(b *shopmap.Box) { b.Zoom = 0.49 }), "zoom", shopmap.MsgZoom},
		{"zoom over 4", with(func(b *shopmap.Box) { b.Zoom = 8 }), "zoom", shopmap.MsgZoom},
		{"negative zoom", with(func(b *shopmap.Box) { b.Zoom = -1 }), "zoom", shopmap.MsgZoom},
		{"south and north swapped", with(func(b *shopmap.Box) { b.South, b.North = b.North, b.South }), "south", shopmap.MsgSouthNorth},
		{"no height", with(func(b *shopmap.Box) { b.North = b.South }), "south", shopmap.MsgSouthNorth},
		{"west and east swapped", with(func(b *shopmap.Box) { b.West, b.East = b.East, b.West }), "west", shopmap.MsgWestEast},
		{"across the antimeridian", shopmap.Box{South: -20, West: 179, North: -19, East: -179, Zoom: 4}, "west", shopmap.MsgWestEast},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.box.Check()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var v *core.ValidationError
			if !errors.As(err, &v) || len(v.Fields) != 1 || v.Fields[0].Field != tt.field || v.Fields[0].Message != tt.msg {
				t.Fatalf("got %v, want %s: %q", err, tt.field, tt.msg)
			}
		})
	}
	// Every bound wrong at once: each named.
	var v *core.ValidationError
	err := shopmap.Box{South: nan, West: 200, North: inf, East: -200, Zoom: 9}.Check()
	if !errors.As(err, &v) || len(v.Fields) != 5 {
		t.Fatalf("every bound wrong: %v", err)
	}
}

// place is a shop to seed: its name and profile texts.
type place struct {
	name, lat, lon string
	producer       bool
}

// seed inserts the places as accounts in bulk (accounts.InsertAll, the
// bulk writer of the seeders) and returns their ids by name.
func seed(t *testing.T, db *store.DB, places []place) map[string]string {
	t.Helper()
	ids := map[string]string{}
	us := make([]accounts.User, len(places))
	for i, p := range places {
		id := core.NewID()
		email := "shop-" + id + "@carte.fr"
		us[i] = accounts.User{
			ID: id, Type: accounts.Distributor, Email: email, EmailKey: email, Name: p.name, PasswordHash: "x",
			Latitude: p.lat, Longitude: p.lon, DeliveryDays: "0000000", CreatedAt: 1, UpdatedAt: 1,
		}
		if p.producer {
			us[i].Type = accounts.Producer
		}
		ids[p.name] = us[i].ID
	}
	if err := db.Tx(context.Background(), func(tx *sqlx.Tx) error { return accounts.InsertAll(context.Background(), tx, us) }); err != nil {
		t.Fatal(err)
	}
	return ids
}

func names(shops []shopmap.Shop) []string {
	out := make([]string, len(shops))
	for i, s := range shops {
		out[i] = s.Name
	}
	return out
}

// TestFindShops: the shops of the box, by name, with their positions;
// never a shop out of the box, unplaced, closed, nor a producer. Bounds
// are inclusive.
func TestFindShops(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		ids := seed(t, db, []place{
			{name: "Thônes", lat: "45.8814", lon: "6.3256"},
			{name: "Annecy", lat: "45.9", lon: "6.12"},
			{name: "Bord sud-ouest", lat: "45.68", lon: "5.8"},
			{name: "Bord nord-est", lat: "46.41", lon: "7.05"},
			{name: "Juste au nord", lat: "46.410001", lon: "6.5"},
			{name: "Lyon", lat: "45.764", lon: "4.8357"},
			{name: "Brest", lat: "48.3904", lon: "-4.4861"},
			{name: "Sans position", lat: "", lon: ""},
			{name: "Zéro", lat: "0", lon: "0"},
			{name: "Illisible", lat: "45,9", lon: "6.12"},
			{name: "Latitude seule", lat: "45.9", lon: ""},
			{name: "Fermé", lat: "45.91", lon: "6.13"},
			{name: "Ferme voisine", lat: "45.92", lon: "6.14", producer: true},
		})
		if _, err := store.Exec(ctx, db, `UPDATE users SET closed_at = 1 WHERE id = ?`, ids["Fermé"]); err != nil {
			t.Fatal(err)
		}
		v, err := shopmap.Find(ctx, db, "", hauteSavoie)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(names(v.Shops)); got != "[Annecy Bord nord-est Bord sud-ouest Thônes]" || v.Total != 4 || len(v.Clusters) != 0 {
			t.Fatalf("Haute-Savoie: %s, total %d, %d clusters", got, v.Total, len(v.Clusters))
		}
		thones := v.Shops[3]
		if thones.ID != ids["Thônes"] || thones.LatE6 != 45_881_400 || thones.LonE6 != 6_325_600 || thones.Email != "" {
			t.Fatalf("Thônes: %+v", thones)
		}
		// West of Greenwich: negative longitudes.
		v, err = shopmap.Find(ctx, db, "", shopmap.Box{South: 47.5, West: -5.5, North: 49, East: -3, Zoom: 1})
		if err != nil || fmt.Sprint(names(v.Shops)) != "[Brest]" || v.Shops[0].LonE6 != -4_486_100 {
			t.Fatalf("Finistère: %+v (%v)", v, err)
		}
		// A box with nothing.
		v, err = shopmap.Find(ctx, db, "", shopmap.Box{South: 43, West: 1, North: 43.5, East: 2, Zoom: 2})
		if err != nil || v.Total != 0 || v.Shops == nil || len(v.Shops) != 0 || v.Clusters == nil {
			t.Fatalf("empty box: %+v (%v)", v, err)
		}
		// A refused box reads nothing.
		if _, err := shopmap.Find(ctx, db, "", shopmap.Box{South: 46, West: 6, North: 45, East: 7, Zoom: 1}); err == nil {
			t.Fatal("an inverted box was answered")
		}
	})
}

// TestFindClusters: past MaxShops, the box is answered with clusters that
// add up to the shops in it, each the shops of one cell of the grid (the
// cell computed here from the positions, on both sides of the Greenwich
// meridian), drawn at their mean inside the box of its shops. Zoomed on a
// cluster, the map gets its shops.
func TestFindClusters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		// 700 shops on a deterministic spiral around (46.5, 0.2): both
		// sides of the meridian; plus a few outside the box.
		var places []place
		type pos struct{ lat, lon int64 }
		where := map[string]pos{}
		for i := range 700 {
			a := float64(i) * 2.399963
			r := 1.2 * math.Sqrt(float64(i)/700)
			lat, lon := 46.5+0.7*r*math.Sin(a), 0.2+r*math.Cos(a)
			p := place{name: fmt.Sprintf("Magasin %03d", i), lat: strconv.FormatFloat(lat, 'f', 5, 64), lon: strconv.FormatFloat(lon, 'f', 5, 64)}
			places = append(places, p)
			la, lo := accounts.Position(p.lat, p.lon)
			where[p.name] = pos{*la, *lo}
		}
		places = append(places, place{name: "Loin", lat: "43.3", lon: "5.4"}, place{name: "Sans position", lat: "", lon: ""})
		seed(t, db, places)

		box := shopmap.Box{South: 45.9, West: -0.9, North: 47.1, East: 1.3, Zoom: 1}
		cellLat, cellLon := shopmap.Cell(box.Zoom)
		type cell struct{ y, x int64 }
		want := map[cell]int{}
		inBox := 0
		for _, p := range where {
			if p.lat >= 45_900_000 && p.lat <= 47_100_000 && p.lon >= -900_000 && p.lon <= 1_300_000 {
				inBox++
				want[cell{(p.lat + 90_000_000) / cellLat, (p.lon + 180_000_000) / cellLon}]++
			}
		}
		if inBox <= shopmap.MaxShops {
			t.Fatalf("the test's box holds %d shops, too few for clusters", inBox)
		}
		v, err := shopmap.Find(ctx, db, "", box)
		if err != nil {
			t.Fatal(err)
		}
		if v.Total != inBox || len(v.Shops) != 0 || len(v.Clusters) != len(want) {
			t.Fatalf("total %d (want %d), %d shops, %d clusters (want %d)", v.Total, inBox, len(v.Shops), len(v.Clusters), len(want))
		}
		sum, west, east := 0, false, false
		for _, c := range v.Clusters {
			sum += c.Count
			k := cell{(c.LatE6 + 90_000_000) / cellLat, (c.LonE6 + 180_000_000) / cellLon}
			if want[k] != c.Count {
				t.Fatalf("cluster %+v: its cell holds %d shops", c, want[k])
			}
			if c.South > c.LatE6 || c.LatE6 > c.North || c.West > c.LonE6 || c.LonE6 > c.East {
				t.Fatalf("cluster %+v: its centre is out of its shops' box", c)
			}
			if (c.South+90_000_000)/cellLat != k.y || (c.North+90_000_000)/cellLat != k.y ||
				(c.West+180_000_000)/cellLon != k.x || (c.East+180_000_000)/cellLon != k.x {
				t.Fatalf("cluster %+v: its shops' box is not in one cell", c)
			}
			west = west || c.East < 0
			east = east || c.West > 0
		}
		if sum != inBox || !west || !east {
			t.Fatalf("clusters add up to %d, want %d (west of Greenwich %v, east %v)", sum, inBox, west, east)
		}

		// Zoomed on the first cluster's shops: they are listed.
		c := v.Clusters[0]
		zoomed := shopmap.Box{South: accounts.Degrees(c.South), West: accounts.Degrees(c.West),
			North: accounts.Degrees(c.North) + 1e-6, East: accounts.Degrees(c.East) + 1e-6, Zoom: 4}
		z, err := shopmap.Find(ctx, db, "", zoomed)
		if err != nil {
			t.Fatal(err)
		}
		if z.Total < c.Count || len(z.Shops) != z.Total || len(z.Clusters) != 0 {
			t.Fatalf("zoomed on %+v: total %d, %d shops, %d clusters", c, z.Total, len(z.Shops), len(z.Clusters))
		}
		listed := names(z.Shops)
		if !sort.StringsAreSorted(listed) {
			t.Fatalf("shops not by name: %v", listed)
		}
		for _, s := range z.Shops {
			if p := where[s.Name]; p.lat != s.LatE6 || p.lon != s.LonE6 {
				t.Fatalf("%s at %d,%d, seeded at %+v", s.Name, s.LatE6, s.LonE6, p)
			}
		}
	})
}

// TestFindEmails: the email of a shop on the map is the user load's rule:
// for the shop itself and the producers trading with it (a commitment or
// an order), never for a pending proposal or anyone else.
func TestFindEmails(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := tradetest.New(t, db)
		if _, err := store.Exec(ctx, db, `UPDATE users SET latitude = '45.9', longitude = '6.12', lat_e6 = 45900000, lon_e6 = 6120000 WHERE id = ?`, w.Shop.ID); err != nil {
			t.Fatal(err)
		}
		pending := w.User(accounts.User{Type: accounts.Producer, Email: "attente@ferme.fr", Name: "En attente", DeliveryDays: "1111111"})
		stranger := w.User(accounts.User{Type: accounts.Producer, Email: "inconnue@ferme.fr", Name: "Inconnue"})
		w.Deliver(w.Farm.ID, w.Shop.ID, "2026-11-05", orders.Planned, tradetest.L{Product: "tomate", Price: 200, Expected: 1000})
		need := w.Need(w.Shop.ID, "poire", "2026-12-01", 5000)
		w.Exec(`INSERT INTO proposals (id, need_id, producer_id, status, origin, quantity, price, created_at, updated_at)
			VALUES ('pending', ?, ?, 'proposed', 'producer', 1000, 300, 0, 0)`, need, pending.ID)
		for _, c := range []struct {
			who, viewer, email string
		}{
			{"the shop itself", w.Shop.ID, "epicerie@lac.fr"},
			{"its producer", w.Farm.ID, "epicerie@lac.fr"},
			{"a producer with a pending proposal", pending.ID, ""},
			{"another producer", stranger.ID, ""},
			{"no one", "", ""},
		} {
			v, err := shopmap.Find(ctx, db, c.viewer, hauteSavoie)
			if err != nil || len(v.Shops) != 1 || v.Shops[0].Email != c.email {
				t.Fatalf("%s: %+v (%v), want email %q", c.who, v.Shops, err, c.email)
			}
		}
	})
}

// TestFindBound: MaxShops shops are listed; one more, and the box is
// answered with clusters.
func TestFindBound(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var places []place
		for i := range shopmap.MaxShops {
			places = append(places, place{name: fmt.Sprintf("M%03d", i), lat: fmt.Sprintf("45.%04d", 8000+i), lon: fmt.Sprintf("6.%04d", 1000+i)})
		}
		seed(t, db, places)
		v, err := shopmap.Find(ctx, db, "", hauteSavoie)
		if err != nil || v.Total != shopmap.MaxShops || len(v.Shops) != shopmap.MaxShops || len(v.Clusters) != 0 {
			t.Fatalf("%d shops: total %d, %d listed, %d clusters (%v)", shopmap.MaxShops, v.Total, len(v.Shops), len(v.Clusters), err)
		}
		if v.Shops[0].Name != "M000" || v.Shops[shopmap.MaxShops-1].Name != "M299" {
			t.Fatalf("not by name: %s … %s", v.Shops[0].Name, v.Shops[shopmap.MaxShops-1].Name)
		}
		seed(t, db, []place{{name: "Un de plus", lat: "46.2", lon: "6.5"}})
		v, err = shopmap.Find(ctx, db, "", hauteSavoie)
		if err != nil || v.Total != shopmap.MaxShops+1 || len(v.Shops) != 0 || len(v.Clusters) < 2 {
			t.Fatalf("%d shops: total %d, %d listed, %d clusters (%v)", shopmap.MaxShops+1, v.Total, len(v.Shops), len(v.Clusters), err)
		}
	})
}
