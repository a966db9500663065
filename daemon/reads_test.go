package daemon_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"primeur/core/decimal"
	"primeur/core/planning"
	"primeur/core/stats"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

// everyScreen reads what the user load carried before issue 42 split it
// into per-screen reads — the user load, the catalogue, the user's needs,
// its orders from 12 months back, the feed's first page — merged into one
// object decoded into out, for the tests that check them together.
func everyScreen(tb testing.TB, c *daemontest.Client, out any) {
	tb.Helper()
	merged := map[string]json.RawMessage{}
	for _, path := range []string{"/api/user", "/api/catalogue"} {
		var part map[string]json.RawMessage
		c.Do("GET", path, nil).Expect(tb, 200).JSON(tb, &part)
		for k, v := range part {
			merged[k] = v
		}
	}
	for key, path := range map[string]string{"needs": "/api/needs", "orders": "/api/orders", "events": "/api/events"} {
		var list json.RawMessage
		c.Do("GET", path, nil).Expect(tb, 200).JSON(tb, &list)
		merged[key] = list
	}
	b, err := json.Marshal(merged)
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		tb.Fatal(err)
	}
}

// TestScopedReads: the user load carries what every screen needs and no
// more — the profile, the shops and producers its screens name, the
// counters —; each screen reads the rest: the catalogue, the orders of a
// period, the chart's aggregates (issue 42). On both engines, in one world:
// a shop and a farm with a November order, a planned and a done delivery.
func TestScopedReads(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		dw := newDeliveriesWorld(t, db)
		s := dw.s
		// The shop plans a need (its fourth: the world's order holds two
		// of November, tomatoes and lettuces); the farm commits to part of it.
		var need struct {
			ID string `json:"_id"`
		}
		dw.shop.Do("POST", "/api/needs", map[string]any{"product": "carotte", "date": "2026-12-01", "quantity": 100}).Expect(t, 201).JSON(t, &need)
		dw.farm.Do("PUT", "/api/proposals/"+need.ID+"/"+dw.farmID, map[string]any{"quantity": 40, "price": 1.25}).Expect(t, 200)
		dw.shop.Do("PUT", "/api/proposalreview/"+need.ID+"/"+dw.farmID, map[string]any{"accepted": true}).Expect(t, 200)

		t.Run("the user load carries no list of a screen", func(t *testing.T) {
			for _, c := range []*daemontest.Client{dw.shop, dw.farm} {
				var raw map[string]json.RawMessage
				c.Do("GET", "/api/user", nil).Expect(t, 200).JSON(t, &raw)
				for _, key := range []string{"needs", "orders", "events", "products", "families"} {
					if _, ok := raw[key]; ok {
						t.Errorf("the user load carries %q", key)
					}
				}
			}
			var load daemon.UserLoad
			dw.shop.Do("GET", "/api/user", nil).Expect(t, 200).JSON(t, &load)
			var names []string
			for _, p := range load.Producers {
				names = append(names, p.Name)
			}
			if load.Counts.Needs != 3 || strings.Join(names, ",") != "Ferme des Aravis" {
				t.Fatalf("shop's counts %+v, producers %v", load.Counts, names)
			}
			dw.farm.Do("GET", "/api/user", nil).Expect(t, 200).JSON(t, &load)
			if load.Counts.Needs != 0 || len(load.Producers) != 1 || load.Producers[0].ID != dw.farmID {
				t.Fatalf("farm's counts %+v, producers %+v", load.Counts, load.Producers)
			}
		})

		t.Run("the catalogue, kept by the browser and revalidated", func(t *testing.T) {
			var cat daemon.Catalogue
			res := dw.shop.Do("GET", "/api/catalogue", nil).Expect(t, 200)
			res.JSON(t, &cat)
			if len(cat.Products) < 40 || len(cat.Families) == 0 {
				t.Fatalf("%d products, %d families", len(cat.Products), len(cat.Families))
			}
			if cc := res.Header.Get("Cache-Control"); cc != "private, no-cache" {
				t.Fatalf("Cache-Control %q", cc)
			}
			// Every user gets the same catalogue, hence the same tag.
			if other := dw.farm.Do("GET", "/api/catalogue", nil).Expect(t, 200); other.Header.Get("ETag") != res.Header.Get("ETag") {
				t.Fatal("the catalogue's tag differs between users")
			}
		})

		t.Run("the orders of a period", func(t *testing.T) {
			type order struct {
				ID       string `json:"_id"`
				Date     string `json:"date"`
				Producer string `json:"producer"`
			}
			for _, r := range []struct {
				query string
				want  []string // months
			}{
				{"", []string{"2026-11-01", "2026-12-01"}},
				{"?from=2026-12", []string{"2026-12-01"}},
				{"?to=2026-11", []string{"2026-11-01"}},
				{"?from=2026-11&to=2026-11-01", []string{"2026-11-01"}},
				{"?from=2027-01", nil},
			} {
				var got []order
				dw.shop.Do("GET", "/api/orders"+r.query, nil).Expect(t, 200).JSON(t, &got)
				var months []string
				for _, o := range got {
					if o.Producer != dw.farmID {
						t.Fatalf("%s: order %+v", r.query, o)
					}
					months = append(months, o.Date)
				}
				slices.Sort(months)
				if !slices.Equal(months, r.want) {
					t.Fatalf("GET /api/orders%s: months %v, want %v", r.query, months, r.want)
				}
			}
			var none []order
			dw.otherShop.Do("GET", "/api/orders", nil).Expect(t, 200).JSON(t, &none)
			if len(none) != 0 {
				t.Fatalf("another shop reads %d orders", len(none))
			}
		})

		t.Run("refused periods change nothing", func(t *testing.T) {
			s.Refuses(t, []daemontest.Refused{
				{Client: dw.shop, Method: "GET", Path: "/api/orders?from=novembre", Status: 422, Detail: planning.MsgBadMonth, Location: "body.from"},
				{Client: dw.farm, Method: "GET", Path: "/api/orders?to=2026-13", Status: 422, Detail: planning.MsgBadMonth, Location: "body.to"},
				{Client: dw.shop, Method: "GET", Path: "/api/orders?from=2026-12&to=2026-11", Status: 422, Detail: daemon.MsgPeriodReversed, Location: "body.to"},
			})
		})

		t.Run("the chart's aggregates", func(t *testing.T) {
			// Hand-computed, on both sides: done in November, the delivery
			// of the 19th, 10 kg of tomatoes at 2.50 €: 25.00 €; planned in
			// November, the commitments its two deliveries carry, 20 kg of
			// tomatoes at 2.50 € and 20 kg of lettuces at 0.90 €: 68.00 €;
			// in December, 40 kg of carrots at 1.25 €: 50.00 €.
			for _, c := range []*daemontest.Client{dw.shop, dw.farm} {
				var p stats.Purchases
				c.Do("GET", "/api/stats/purchases", nil).Expect(t, 200).JSON(t, &p)
				if len(p.Months) != 17 || p.Months[0] != "2026-07-01" || p.Months[4] != "2026-11-01" ||
					len(p.Planned) != 17 || len(p.Done) != 17 {
					t.Fatalf("months %v", p.Months)
				}
				if p.Done[4] != 2500 || p.Planned[4] != 6800 || p.Planned[5] != 5000 {
					t.Fatalf("done %v, planned %v", p.Done, p.Planned)
				}
				var sum decimal.Dec
				for i := range p.Done {
					sum += p.Done[i] + p.Planned[i]
				}
				if sum != 14300 {
					t.Fatalf("done %v, planned %v: other months count", p.Done, p.Planned)
				}
			}
			var p stats.Purchases
			dw.otherFrm.Do("GET", "/api/stats/purchases", nil).Expect(t, 200).JSON(t, &p)
			for i := range p.Done {
				if p.Done[i] != 0 || p.Planned[i] != 0 {
					t.Fatalf("another farm's figures: done %v, planned %v", p.Done, p.Planned)
				}
			}
		})

		t.Run("every screen's read answers 304 while unchanged", func(t *testing.T) {
			get := func(c *daemontest.Client, path, tag string) *daemontest.Response {
				req, err := http.NewRequest(http.MethodGet, s.URL+path, nil)
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Accept-Encoding", "gzip, br, zstd")
				if tag != "" {
					req.Header.Set("If-None-Match", tag)
				}
				return c.Raw(req)
			}
			paths := []string{"/api/user", "/api/catalogue", "/api/needs?from=2026-11", "/api/orders?from=2026-11",
				"/api/events", "/api/stats/purchases", "/api/stats/progression"}
			tags := map[string]string{}
			for _, path := range paths {
				first := get(dw.shop, path, "").Expect(t, http.StatusOK)
				tags[path] = first.Header.Get("ETag")
				again := get(dw.shop, path, tags[path]).Expect(t, http.StatusNotModified)
				if tags[path] == "" || len(again.Body) != 0 || again.Header.Get("ETag") != tags[path] {
					t.Fatalf("%s: ETag %q, then %d bytes", path, tags[path], len(again.Body))
				}
			}
			// A change of the need: its screens' reads answer anew, the
			// catalogue stays 304.
			dw.shop.Do("PUT", "/api/needs/"+need.ID, map[string]any{"quantity": 120}).Expect(t, 200)
			for _, path := range []string{"/api/needs?from=2026-11", "/api/events"} {
				if res := get(dw.shop, path, tags[path]).Expect(t, http.StatusOK); res.Header.Get("ETag") == tags[path] {
					t.Fatalf("%s: same tag after a change", path)
				}
			}
			get(dw.shop, "/api/catalogue", tags["/api/catalogue"]).Expect(t, http.StatusNotModified)
		})

		// Last: the other farm's proposal names it among the shop's producers.
		t.Run("one need by id, as the list shows it", func(t *testing.T) {
			var other daemon.UserLoad
			dw.otherFrm.Do("GET", "/api/user", nil).Expect(t, 200).JSON(t, &other)
			otherFrmID := other.Producers[0].ID
			dw.otherFrm.Do("PUT", "/api/proposals/"+need.ID+"/"+otherFrmID, map[string]any{"quantity": 10, "price": 1.5}).Expect(t, 200)
			type view struct {
				ID        string `json:"_id"`
				Date      string `json:"date"`
				Proposals []struct {
					Producer string `json:"producer"`
				} `json:"proposals"`
			}
			producers := func(v view) []string {
				var out []string
				for _, p := range v.Proposals {
					out = append(out, p.Producer)
				}
				slices.Sort(out)
				return out
			}
			for _, r := range []struct {
				name   string
				client *daemontest.Client
				list   string
				want   []string
			}{
				{"the shop, every proposal", dw.shop, "/api/needs?from=2026-12&to=2026-12", []string{dw.farmID, otherFrmID}},
				{"the farm, its own", dw.farm, "/api/needs?distributor=" + dw.shopID + "&from=2026-12&to=2026-12", []string{dw.farmID}},
				{"the other farm, its own", dw.otherFrm, "/api/needs?distributor=" + dw.shopID + "&from=2026-12&to=2026-12", []string{otherFrmID}},
			} {
				var one view
				r.client.Do("GET", "/api/needs/"+need.ID, nil).Expect(t, 200).JSON(t, &one)
				var list []json.RawMessage
				r.client.Do("GET", r.list, nil).Expect(t, 200).JSON(t, &list)
				var listed json.RawMessage
				for _, raw := range list {
					var v view
					if err := json.Unmarshal(raw, &v); err == nil && v.ID == need.ID {
						listed = raw
					}
				}
				got, _ := json.Marshal(one)
				var fromList view
				if err := json.Unmarshal(listed, &fromList); err != nil {
					t.Fatalf("%s: the list misses the need: %v", r.name, err)
				}
				want, _ := json.Marshal(fromList)
				if one.Date != "2026-12-01" || !slices.Equal(producers(one), r.want) || string(got) != string(want) {
					t.Fatalf("%s: %s, want %v as listed %s", r.name, got, r.want, want)
				}
			}
			s.Refuses(t, []daemontest.Refused{
				{Name: "another shop's need", Client: dw.otherShop, Method: "GET", Path: "/api/needs/" + need.ID, Status: 404},
				{Name: "no such need", Client: dw.farm, Method: "GET", Path: "/api/needs/nope", Status: 404},
			})
		})
	})
}
