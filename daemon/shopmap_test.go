package daemon_test

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/fees"
	"primeur/core/shopmap"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/supplied"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

// hauteSavoie is the query of the map on Haute-Savoie at the zoom it is
// shown at.
const hauteSavoie = "south=45.68&west=5.8&north=46.41&east=7.05&zoom=1"

// nearbyAnnecy is the query of the town search under the map for Annecy
// (6.12565, 45.90878): the box of 30 km around it at zoom 4, rounded
// outward to 1e-4 degree, as ui/src/store/shopmap.ts's boxAround and
// mapQuery write it; the map's filters follow it.
const nearbyAnnecy = "south=45.6389&west=5.7379&north=46.1786&east=6.5134&zoom=4"

type mapAnswer struct {
	Total int `json:"total"`
	Shops []struct {
		ID        string  `json:"_id"`
		Name      string  `json:"name"`
		Email     string  `json:"email"`
		Latitude  float64 `json:"latitude"`
		Longitude float64 `json:"longitude"`
		Score     int64   `json:"score"`
	} `json:"shops"`
	Clusters []struct {
		Count     int     `json:"count"`
		Latitude  float64 `json:"latitude"`
		Longitude float64 `json:"longitude"`
		South     float64 `json:"south"`
		West      float64 `json:"west"`
		North     float64 `json:"north"`
		East      float64 `json:"east"`
	} `json:"clusters"`
}

// TestMapAPI: GET /api/map answers the shops of the area with their
// position and score — never a producer nor a shop without a position —
// or, past 300, clusters that add up to them, which zoomed in give shops;
// with the map's filters, for the map's view and for the town search under
// it (issue 39), refused alike; GET /api/shops/{id} names a shop.
func TestMapAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, shopID := s.Register("shop@example.fr", "Épicerie", true)
		shop.Do("PUT", "/api/user", map[string]any{"latitude": "45.8814", "longitude": "6.3256"}).Expect(t, 200)
		unplaced, _ := s.Register("unplaced@example.fr", "Sans position", true)
		farm, farmID := s.Producer("ferme@example.fr", "Ferme")
		farm.Do("PUT", "/api/user", map[string]any{"latitude": "45.9", "longitude": "6.12"}).Expect(t, 200)

		get := func(c *daemontest.Client, query string) mapAnswer {
			t.Helper()
			var a mapAnswer
			c.Do("GET", "/api/map?"+query, nil).Expect(t, 200).JSON(t, &a)
			if a.Shops == nil || a.Clusters == nil {
				t.Fatalf("%s: a list is null", query)
			}
			return a
		}
		for _, c := range []*daemontest.Client{shop, farm} {
			a := get(c, hauteSavoie)
			if a.Total != 1 || len(a.Shops) != 1 || len(a.Clusters) != 0 {
				t.Fatalf("Haute-Savoie: %+v", a)
			}
			if sh := a.Shops[0]; sh.ID != shopID || sh.Name != "Épicerie" || sh.Latitude != 45.8814 || sh.Longitude != 6.3256 || sh.Score != 0 {
				t.Fatalf("the shop on the map: %+v", sh)
			}
		}
		// The profile moves it off the area at once.
		shop.Do("PUT", "/api/user", map[string]any{"latitude": "48.3904", "longitude": "-4.4861"}).Expect(t, 200)
		if a := get(farm, hauteSavoie); a.Total != 0 {
			t.Fatalf("moved away, still in Haute-Savoie: %+v", a)
		}
		if a := get(farm, "south=48&west=-5&north=49&east=-4&zoom=2"); a.Total != 1 || a.Shops[0].Longitude != -4.4861 {
			t.Fatalf("moved to Brest: %+v", a)
		}
		shop.Do("PUT", "/api/user", map[string]any{"latitude": "", "longitude": ""}).Expect(t, 200)
		if a := get(farm, "south=48&west=-5&north=49&east=-4&zoom=2"); a.Total != 0 {
			t.Fatalf("without a position, still on the map: %+v", a)
		}
		shop.Do("PUT", "/api/user", map[string]any{"latitude": "45.8814", "longitude": "6.3256"}).Expect(t, 200)

		// 350 more shops around Annecy, seeded in bulk: clusters.
		us := make([]accounts.User, 350)
		for i := range us {
			email := fmt.Sprintf("m%03d@carte.fr", i)
			a := float64(i) * 2.399963
			r := 0.3 * math.Sqrt(float64(i)/350)
			us[i] = accounts.User{ID: core.NewID(), Type: accounts.Distributor, Email: email, EmailKey: email,
				Name: fmt.Sprintf("Magasin %03d", i), PasswordHash: "x", DeliveryDays: "0000000",
				Latitude:  fmt.Sprintf("%.5f", 45.9+0.7*r*math.Sin(a)),
				Longitude: fmt.Sprintf("%.5f", 6.12+r*math.Cos(a))}
		}
		if err := db.Tx(context.Background(), func(tx *sqlx.Tx) error { return accounts.InsertAll(context.Background(), tx, us) }); err != nil {
			t.Fatal(err)
		}
		a := get(farm, hauteSavoie)
		sum := 0
		for _, c := range a.Clusters {
			sum += c.Count
		}
		if a.Total != 351 || sum != 351 || len(a.Shops) != 0 || len(a.Clusters) < 2 {
			t.Fatalf("351 shops in Haute-Savoie: total %d, clusters adding up to %d, %d shops", a.Total, sum, len(a.Shops))
		}
		c := a.Clusters[0]
		z := get(farm, fmt.Sprintf("south=%f&west=%f&north=%f&east=%f&zoom=4", c.South-1e-6, c.West-1e-6, c.North+1e-6, c.East+1e-6))
		if z.Total < c.Count || len(z.Shops) != z.Total || len(z.Clusters) != 0 {
			t.Fatalf("zoomed on a cluster of %d: %d shops of %d", c.Count, len(z.Shops), z.Total)
		}

		// The filters (issue 39): the shops with a need of a family, the
		// shops within a road distance of the viewer (fees.RoadKm, the
		// clusters counting only them), both; ETag'd as every read.
		shop.Do("POST", "/api/needs", map[string]any{"product": "tomme-de-savoie", "date": "2027-03", "quantity": 12}).Expect(t, 201)
		if f := get(farm, hauteSavoie+"&family=fromages"); f.Total != 1 || len(f.Shops) != 1 || f.Shops[0].ID != shopID {
			t.Fatalf("the shops needing cheese: %+v", f)
		}
		if f := get(farm, hauteSavoie+"&family=fruits"); f.Total != 0 {
			t.Fatalf("the shops needing fruit: %+v", f)
		}
		farmAt := fees.Point{Lat: 45.9, Lon: 6.12}
		places := []fees.Point{{Lat: 45.8814, Lon: 6.3256}}
		for _, u := range us {
			lat, _ := strconv.ParseFloat(u.Latitude, 64)
			lon, _ := strconv.ParseFloat(u.Longitude, 64)
			places = append(places, fees.Point{Lat: lat, Lon: lon})
		}
		for _, km := range []float64{5, 25} {
			want := 0
			for _, p := range places {
				if fees.RoadKm(farmAt, p) <= km {
					want++
				}
			}
			f := get(farm, fmt.Sprintf("%s&km=%g", hauteSavoie, km))
			sum := len(f.Shops)
			for _, c := range f.Clusters {
				sum += c.Count
			}
			if f.Total != want || sum != want {
				t.Fatalf("within %g km: total %d, listed or clustered %d, want %d", km, f.Total, sum, want)
			}
		}
		if f := get(farm, hauteSavoie+"&family=fromages&km=5"); f.Total != 0 {
			t.Fatalf("cheese within 5 km: %+v", f)
		}
		first := farm.Do("GET", "/api/map?"+hauteSavoie+"&family=fromages", nil).Expect(t, 200)
		farm.Header.Set("If-None-Match", first.Header.Get("ETag"))
		again := farm.Do("GET", "/api/map?"+hauteSavoie+"&family=fromages", nil)
		farm.Header.Del("If-None-Match")
		if first.Header.Get("ETag") == "" || again.Status != 304 {
			t.Fatalf("revalidated: ETag %q, %d", first.Header.Get("ETag"), again.Status)
		}

		// The town search under the map (its 30 km around Annecy, at
		// zoom 4) with the map's filters: too many shops to list without
		// them, the shops needing cheese, those within 5 km of the farm.
		if a := get(farm, nearbyAnnecy); a.Total < 300 || len(a.Clusters) == 0 {
			t.Fatalf("around Annecy: %d shops, %d clusters", a.Total, len(a.Clusters))
		}
		if f := get(farm, nearbyAnnecy+"&family=fromages"); f.Total != 1 || len(f.Shops) != 1 || f.Shops[0].ID != shopID {
			t.Fatalf("the shops needing cheese around Annecy: %+v", f)
		}
		within5 := 0
		for _, p := range places {
			if fees.RoadKm(farmAt, p) <= 5 {
				within5++
			}
		}
		if f := get(farm, nearbyAnnecy+"&km=5"); within5 == 0 || f.Total != within5 || len(f.Shops) != within5 {
			t.Fatalf("around Annecy within 5 km of the farm: %d shops listed of %d, want %d", len(f.Shops), f.Total, within5)
		}

		// A shop's card.
		var card struct {
			ID    string `json:"_id"`
			Name  string `json:"name"`
			Email string `json:"email"`
		}
		farm.Do("GET", "/api/shops/"+shopID, nil).Expect(t, 200).JSON(t, &card)
		if card.ID != shopID || card.Name != "Épicerie" || card.Email != "" {
			t.Fatalf("the farm reads %+v", card)
		}
		shop.Do("GET", "/api/shops/"+shopID, nil).Expect(t, 200).JSON(t, &card)
		if card.Email != "shop@example.fr" {
			t.Fatalf("the shop reads %+v", card)
		}

		s.Refuses(t, []daemontest.Refused{
			{Name: "anonymous map", Client: s.Client(), Method: "GET", Path: "/api/map?" + hauteSavoie, Status: 401, Detail: daemon.MsgNoToken},
			{Name: "anonymous shop", Client: s.Client(), Method: "GET", Path: "/api/shops/" + shopID, Status: 401, Detail: daemon.MsgNoToken},
			{Name: "a producer is no shop", Client: shop, Method: "GET", Path: "/api/shops/" + farmID, Status: 404, Detail: "Ressource introuvable."},
			{Name: "unknown shop", Client: farm, Method: "GET", Path: "/api/shops/personne", Status: 404, Detail: "Ressource introuvable."},
			{Name: "SQL in the shop id", Client: farm, Method: "GET", Path: "/api/shops/x'%20OR%20'1'='1", Status: 404, Detail: "Ressource introuvable."},
			{Name: "a negative distance", Client: farm, Method: "GET", Path: "/api/map?" + hauteSavoie + "&km=-1", Status: 422,
				Detail: supplied.MsgSearchKm, Location: "query.km"},
			{Name: "a distance too far", Client: farm, Method: "GET", Path: "/api/map?" + hauteSavoie + "&km=1001", Status: 422,
				Detail: supplied.MsgSearchKm, Location: "query.km"},
			{Name: "a distance from nowhere", Client: unplaced, Method: "GET", Path: "/api/map?" + hauteSavoie + "&km=30", Status: 422,
				Detail: shopmap.MsgNoPlace, Location: "query.km"},
			{Name: "a family too long", Client: farm, Method: "GET", Path: "/api/map?" + hauteSavoie + "&family=" + strings.Repeat("f", 201),
				Status: 422, Detail: "Données invalides."},
			// The town search refuses as the map does.
			{Name: "the town search, a negative distance", Client: farm, Method: "GET", Path: "/api/map?" + nearbyAnnecy + "&family=fromages&km=-1",
				Status: 422, Detail: supplied.MsgSearchKm, Location: "query.km"},
			{Name: "the town search, a distance from nowhere", Client: unplaced, Method: "GET", Path: "/api/map?" + nearbyAnnecy + "&km=50",
				Status: 422, Detail: shopmap.MsgNoPlace, Location: "query.km"},
		})
	})
}

// TestMapHostile: every area a map cannot show is refused with a French
// 422 on its parameter, never a failure, and reads nothing.
func TestMapHostile(t *testing.T) {
	t.Parallel()
	s := daemontest.New(t, storetest.SQLite(t))
	farm, _ := s.Producer("ferme@example.fr", "Ferme")
	q := func(south, west, north, east, zoom string) string {
		return "/api/map?south=" + south + "&west=" + west + "&north=" + north + "&east=" + east + "&zoom=" + zoom
	}
	refused := func(name, path, location, detail string) daemontest.Refused {
		return daemontest.Refused{Name: name, Client: farm, Method: "GET", Path: path, Status: 422, Detail: detail, Location: location}
	}
	const invalid = "Données invalides."
	s.Refuses(t, []daemontest.Refused{
		refused("south NaN", q("NaN", "5.8", "46.41", "7.05", "1"), "query.south", shopmap.MsgNotANumber),
		refused("west nan", q("45.68", "nan", "46.41", "7.05", "1"), "query.west", shopmap.MsgNotANumber),
		refused("north infinite", q("45.68", "5.8", "Inf", "7.05", "1"), "query.north", shopmap.MsgNotANumber),
		refused("east minus infinity", q("45.68", "5.8", "46.41", "-Infinity", "1"), "query.east", shopmap.MsgNotANumber),
		refused("zoom NaN", q("45.68", "5.8", "46.41", "7.05", "NaN"), "query.zoom", shopmap.MsgNotANumber),
		refused("latitude beyond the pole", q("45.68", "5.8", "91", "7.05", "1"), "query.north", shopmap.MsgLatitude),
		refused("longitude beyond 180", q("45.68", "-181", "46.41", "7.05", "1"), "query.west", shopmap.MsgLongitude),
		refused("huge latitude", q("-1e300", "5.8", "46.41", "7.05", "1"), "query.south", shopmap.MsgLatitude),
		refused("zoom 0", q("45.68", "5.8", "46.41", "7.05", "0"), "query.zoom", shopmap.MsgZoom),
		refused("zoom 5", q("45.68", "5.8", "46.41", "7.05", "5"), "query.zoom", shopmap.MsgZoom),
		refused("negative zoom", q("45.68", "5.8", "46.41", "7.05", "-1"), "query.zoom", shopmap.MsgZoom),
		refused("south north of north", q("46.41", "5.8", "45.68", "7.05", "1"), "query.south", shopmap.MsgSouthNorth),
		refused("west east of east", q("45.68", "7.05", "46.41", "5.8", "1"), "query.west", shopmap.MsgWestEast),
		refused("a line, not an area", q("45.68", "5.8", "46.41", "5.8", "1"), "query.west", shopmap.MsgWestEast),
		refused("France at zoom 4", q("41.3", "-5.2", "51.1", "9.6", "4"), "query.zoom", shopmap.MsgTooLarge),
		refused("the world", q("-90", "-180", "90", "180", "0.5"), "query.zoom", shopmap.MsgTooLarge),
		// huma's own refusals: missing, not numbers, overflowing.
		{Name: "no parameters", Client: farm, Method: "GET", Path: "/api/map", Status: 422, Detail: invalid},
		{Name: "no zoom", Client: farm, Method: "GET", Path: "/api/map?south=45.68&west=5.8&north=46.41&east=7.05", Status: 422, Detail: invalid},
		{Name: "empty south", Client: farm, Method: "GET", Path: q("", "5.8", "46.41", "7.05", "1"), Status: 422, Detail: invalid},
		{Name: "words", Client: farm, Method: "GET", Path: q("nord", "5.8", "46.41", "7.05", "1"), Status: 422, Detail: invalid},
		{Name: "decimal comma", Client: farm, Method: "GET", Path: q("45,68", "5.8", "46.41", "7.05", "1"), Status: 422, Detail: invalid},
		{Name: "overflowing", Client: farm, Method: "GET", Path: q("1e400", "5.8", "46.41", "7.05", "1"), Status: 422, Detail: invalid},
		{Name: "SQL", Client: farm, Method: "GET", Path: q("45.68%27%20OR%201=1", "5.8", "46.41", "7.05", "1"), Status: 422, Detail: invalid},
		{Name: "a semicolon", Client: farm, Method: "GET", Path: q("45.68;DROP%20TABLE%20users", "5.8", "46.41", "7.05", "1"), Status: 400,
			Detail: "Paramètres de la requête invalides : caractères non autorisés ou encodage incorrect."},
		{Name: "script", Client: farm, Method: "GET", Path: q("%3Cscript%3E", "5.8", "46.41", "7.05", "1"), Status: 422, Detail: invalid},
	})
	// Bounds at their limits are answered.
	for _, path := range []string{
		q("45.68", "5.8", "46.41", "7.05", "0.5"), q("45.68", "5.8", "45.7", "5.9", "4"),
		q("-21.4", "55.2", "-20.8", "55.9", "4"), q("89", "179", "90", "180", "4"),
		q("%2B45.68", "5.8", "46.41", "7.05", "1"), q("4.568e1", "5.8", "46.41", "7.05", "1"),
	} {
		if r := farm.Do("GET", path, nil); r.Status != 200 {
			t.Errorf("%s: %d %s", path, r.Status, r.Body)
		}
	}
	// The messages are French.
	r := farm.Do("GET", q("NaN", "5.8", "46.41", "7.05", "1"), nil).Expect(t, 422)
	if p := r.Problem(t); !strings.Contains(p.Detail, "nombres") {
		t.Fatalf("detail %q", p.Detail)
	}
}

// The map's rows of the authorization matrix (authz_test.go): every
// signed-in user reads the map and a shop's card.
func init() {
	matrix["GET /api/map"] = row{path: fixed("/api/map?" + hauteSavoie), expect: everyone(200)}
	matrix["GET /api/shops/{id}"] = row{path: withID("/api/shops/{shop}", "shop"), expect: everyone(200)}
}
