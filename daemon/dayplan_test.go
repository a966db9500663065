package daemon_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"primeur/core/accounts"
	"primeur/core/dayplan"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

type dayJSON struct {
	Date string `json:"date"`
	Pick []struct {
		Name  string  `json:"name"`
		Total float64 `json:"total"`
		Shops []struct {
			Shop     string  `json:"shop"`
			Quantity float64 `json:"quantity"`
		} `json:"shops"`
	} `json:"pick"`
	Packing []struct {
		Shop  string `json:"shop"`
		Notes []struct {
			Number string `json:"number"`
		} `json:"notes"`
	} `json:"packing"`
	Round struct {
		Stops []struct {
			ShopID string `json:"shopId"`
			Shop   string `json:"shop"`
			MapURL string `json:"mapUrl"`
		} `json:"stops"`
		TotalKm float64 `json:"totalKm"`
		Manual  bool    `json:"manual"`
	} `json:"round"`
}

func (d dayJSON) stops() []string {
	var out []string
	for _, s := range d.Round.Stops {
		out = append(out, s.Shop)
	}
	return out
}

func TestDeliveryDay(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, shopID := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		farm, farmID := s.Producer("ferme@aravis.fr", "Ferme des Aravis")
		other, _ := s.Producer("autre@ferme.fr", "Autre ferme")
		w := tradetest.Between(t, db, farmID, shopID)
		w.Exec(`UPDATE users SET address_line1 = '12 route des Aravis', address_line2 = '74220 La Clusaz' WHERE id = ?`, farmID)
		w.Exec(`UPDATE users SET address_line1 = '3 quai de la Tournette', address_line2 = '74000 Annecy' WHERE id = ?`, shopID)
		thones := w.User(accounts.User{Type: accounts.Distributor, Email: "biocoop@thones.fr", Name: "Biocoop Thônes",
			AddressLine1: "2 place Avet", AddressLine2: "74230 Thônes"})
		w.Deliver(farmID, shopID, "2026-11-24", orders.Planned,
			tradetest.L{Product: "tomate", Price: 250, Expected: 1000}, tradetest.L{Product: "laitue", Price: 90, Expected: 2000})
		w.Deliver(farmID, thones.ID, "2026-11-24", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 450})

		var day dayJSON
		farm.Do("GET", "/api/deliveries/day/2026-11-24", nil).Expect(t, 200).JSON(t, &day)
		if len(day.Pick) != 2 || day.Pick[1].Name != "Tomate" || day.Pick[1].Total != 14.5 || len(day.Pick[1].Shops) != 2 {
			t.Fatalf("pick %+v", day.Pick)
		}
		if got := strings.Join(day.stops(), ", "); got != "Biocoop Thônes, Épicerie du Lac" || day.Round.Manual || day.Round.TotalKm <= 0 {
			t.Fatalf("round %s, manual %v, %.1f km", got, day.Round.Manual, day.Round.TotalKm)
		}
		if !strings.HasPrefix(day.Round.Stops[1].MapURL, "geo:") || len(day.Packing) != 2 || day.Packing[0].Notes[0].Number != "BL-000002" {
			t.Fatalf("map link %q, packing %+v", day.Round.Stops[1].MapURL, day.Packing)
		}

		// The producer reorders; the order is kept.
		farm.Do("PUT", "/api/deliveries/day/2026-11-24/round", map[string]any{"stops": []string{shopID, thones.ID}}).Expect(t, 200).JSON(t, &day)
		farm.Do("GET", "/api/deliveries/day/2026-11-24", nil).Expect(t, 200).JSON(t, &day)
		if got := strings.Join(day.stops(), ", "); got != "Épicerie du Lac, Biocoop Thônes" || !day.Round.Manual {
			t.Fatalf("after the reorder: %s, manual %v", got, day.Round.Manual)
		}
		// The order chosen is in the producer's data export, not the shop's.
		rounds := func(c *daemontest.Client) string {
			body := c.Do("GET", "/print/mydata", nil).Expect(t, 200).Body
			z, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range z.File {
				if f.Name == "tournees.json" {
					r, err := f.Open()
					if err != nil {
						t.Fatal(err)
					}
					defer r.Close()
					var got []struct {
						Date  string `json:"date"`
						Stops []struct {
							Position int    `json:"position"`
							Shop     string `json:"shop"`
						} `json:"stops"`
					}
					if err := json.NewDecoder(r).Decode(&got); err != nil {
						t.Fatal(err)
					}
					return fmt.Sprintf("%+v", got)
				}
			}
			return "none"
		}
		if got := rounds(farm); got != "[{Date:2026-11-24 Stops:[{Position:0 Shop:Épicerie du Lac} {Position:1 Shop:Biocoop Thônes}]}]" {
			t.Fatalf("the producer's export: tournees.json %s", got)
		}
		if got := rounds(shop); got != "none" {
			t.Fatalf("the shop's export holds a round: %s", got)
		}

		// Refusals: French, nothing changed.
		s.Refuses(t, []daemontest.Refused{
			{Name: "a shop", Client: shop, Method: "GET", Path: "/api/deliveries/day/2026-11-24",
				Status: http.StatusForbidden, Detail: daemon.MsgProducersOnly},
			{Name: "a shop reorders", Client: shop, Method: "PUT", Path: "/api/deliveries/day/2026-11-24/round",
				Body: map[string]any{"stops": []string{shopID}}, Status: http.StatusForbidden, Detail: daemon.MsgProducersOnly},
			{Name: "not a date", Client: farm, Method: "GET", Path: "/api/deliveries/day/24-11-2026",
				Status: http.StatusUnprocessableEntity, Detail: dayplan.MsgDate},
			{Name: "a stop left out", Client: farm, Method: "PUT", Path: "/api/deliveries/day/2026-11-24/round",
				Body: map[string]any{"stops": []string{thones.ID}}, Status: http.StatusUnprocessableEntity, Detail: dayplan.MsgStops,
				Location: "body.stops"},
			{Name: "another producer's stops", Client: other, Method: "PUT", Path: "/api/deliveries/day/2026-11-24/round",
				Body: map[string]any{"stops": []string{thones.ID, shopID}}, Status: http.StatusUnprocessableEntity, Detail: dayplan.MsgStops},
			{Name: "no stops", Client: farm, Method: "PUT", Path: "/api/deliveries/day/2026-11-24/round",
				Body: map[string]any{}, Status: http.StatusUnprocessableEntity},
			{Name: "stops not a list", Client: farm, Method: "PUT", Path: "/api/deliveries/day/2026-11-24/round",
				Body: map[string]any{"stops": "tous"}, Status: http.StatusUnprocessableEntity},
			{Name: "the PDF to a shop", Client: shop, Method: "GET", Path: "/print/day/2026-11-24",
				Status: http.StatusForbidden, Detail: daemon.MsgProducersOnly},
			{Name: "the PDF of no date", Client: farm, Method: "GET", Path: "/print/day/demain",
				Status: http.StatusBadRequest, Detail: dayplan.MsgDate},
		})

		// Another producer's day is its own: empty.
		other.Do("GET", "/api/deliveries/day/2026-11-24", nil).Expect(t, 200).JSON(t, &day)
		if len(day.Round.Stops) != 0 || len(day.Pick) != 0 {
			t.Fatalf("another producer sees %+v", day)
		}

		res := farm.Do("GET", "/print/day/2026-11-24", nil).Expect(t, 200)
		if res.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(string(res.Body), "%PDF-") ||
			!strings.Contains(res.Header.Get("Content-Disposition"), "journee-2026-11-24.pdf") {
			t.Fatalf("PDF: %s, %q", res.Header, res.Body[:min(20, len(res.Body))])
		}
	})
}
