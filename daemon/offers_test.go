package daemon_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"primeur/core/catalogadmin"
	"primeur/core/mydata"
	"primeur/core/offers"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/supplied"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

// TestOffersAPI: a producer's offer through the API (PRODUCT §3
// "Offers"), on both engines: posted, listed for shops with the producer's
// page filter, taken in part (the need and the commitment in the answer,
// the rest listed), withdrawn; every refusal a 4xx with its French text
// that changes nothing.
func TestOffersAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		farm, farmID := s.Producer("vergers@leman.fr", "Vergers du Léman")
		other, _ := s.Producer("ferme@glieres.fr", "Ferme des Glières")

		var apple supplied.Product
		farm.Do("POST", "/api/supplied-products", map[string]any{"productType": "pomme-reinette", "name": "Reinette du Léman",
			"unitQuantity": 1, "months": []int{1, 2, 3}}).Expect(t, http.StatusCreated).JSON(t, &apple)
		var o offers.Offer
		farm.Do("POST", "/api/offers", map[string]any{"suppliedProduct": apple.ID, "month": "2027-02", "quantity": 200,
			"price": 1.6}).Expect(t, http.StatusCreated).JSON(t, &o)

		var list []offers.Offer
		shop.Do("GET", "/api/offers?producer="+farmID, nil).Expect(t, http.StatusOK).JSON(t, &list)
		if len(list) != 1 || list[0].ID != o.ID || list[0].Product.Name != "Reinette du Léman" {
			t.Fatalf("the shop sees %+v", list)
		}
		var taken struct {
			planning.View
			Events []any `json:"events"`
			Order  *struct {
				ID string `json:"_id"`
			} `json:"order"`
		}
		shop.Do("POST", "/api/offers/"+o.ID+"/take", map[string]any{"quantity": 80}).Expect(t, http.StatusOK).JSON(t, &taken)
		if taken.Quantity != 80_00 || taken.QuantityAccepted != 80_00 || len(taken.Proposals) != 1 ||
			*taken.Proposals[0].SuppliedProduct != apple.ID || taken.Order == nil || len(taken.Events) == 0 {
			t.Fatalf("taken %+v", taken)
		}
		shop.Do("GET", "/api/offers?productType=pomme-reinette&month=2027-02", nil).Expect(t, http.StatusOK).JSON(t, &list)
		if len(list) != 1 || list[0].Remaining != 120_00 {
			t.Fatalf("after the take the shop sees %+v", list)
		}
		// The producer's data export holds its products, its offer and the take (produits.json).
		body := farm.Do("GET", "/print/mydata", nil).Expect(t, http.StatusOK).Body
		z, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
		if err != nil {
			t.Fatal(err)
		}
		var exported mydata.Products
		for _, f := range z.File {
			if f.Name == "produits.json" {
				r, _ := f.Open()
				err = json.NewDecoder(r).Decode(&exported)
				r.Close()
			}
		}
		if err != nil || len(exported.Products) != 1 || len(exported.Offers) != 1 || len(exported.Takes) != 1 ||
			exported.Takes[0].Quantity != 80_00 || exported.Suggestions == nil {
			t.Fatalf("produits.json: %+v (%v)", exported, err)
		}

		s.Refuses(t, []daemontest.Refused{
			{Name: "more than remains", Client: shop, Method: "POST", Path: "/api/offers/" + o.ID + "/take",
				Body:   map[string]any{"quantity": 121},
				Status: http.StatusUnprocessableEntity, Detail: "Il ne reste que 120 kg sur cette offre.", Location: "body.quantity"},
			{Name: "the producer takes its own", Client: farm, Method: "POST", Path: "/api/offers/" + o.ID + "/take",
				Body: map[string]any{"quantity": 1}, Status: http.StatusForbidden, Detail: daemon.MsgShopsOnly},
			{Name: "a shop posts an offer", Client: shop, Method: "POST", Path: "/api/offers",
				Body:   map[string]any{"suppliedProduct": apple.ID, "month": "2027-02", "quantity": 1, "price": 1},
				Status: http.StatusForbidden, Detail: daemon.MsgProducersOnly},
			{Name: "another producer's product", Client: other, Method: "POST", Path: "/api/offers",
				Body:   map[string]any{"suppliedProduct": apple.ID, "month": "2027-02", "quantity": 1, "price": 1},
				Status: http.StatusUnprocessableEntity, Detail: offers.MsgProduct, Location: "body.suppliedProduct"},
			{Name: "a past month", Client: farm, Method: "POST", Path: "/api/offers",
				Body:   map[string]any{"suppliedProduct": apple.ID, "month": "2025-02", "quantity": 1, "price": 1},
				Status: http.StatusUnprocessableEntity, Detail: offers.MsgMonth, Location: "body.month"},
			{Name: "another producer withdraws it", Client: other, Method: "DELETE", Path: "/api/offers/" + o.ID,
				Status: http.StatusNotFound},
		})

		farm.Do("DELETE", "/api/offers/"+o.ID, nil).Expect(t, http.StatusNoContent)
		shop.Do("GET", "/api/offers", nil).Expect(t, http.StatusOK).JSON(t, &list)
		if len(list) != 0 {
			t.Fatalf("a withdrawn offer is listed: %+v", list)
		}
		shop.Do("POST", "/api/offers/"+o.ID+"/take", map[string]any{"quantity": 1}).Expect(t, http.StatusConflict)
	})
}

// TestSuggestionsAPI: a producer suggests a missing type and reads it
// back; a shop may not; a refusal is its French text on the field and
// changes nothing (the rules themselves: catalogadmin TestSuggestions).
func TestSuggestionsAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		farm, _ := s.Producer("bergerie@x.fr", "Bergerie d'Iraty")
		var made catalogadmin.Suggestion
		farm.Do("POST", "/api/type-suggestions", map[string]any{"name": "Tomme des Bauges", "family": "fromages", "unit": "kg"}).
			Expect(t, http.StatusCreated).JSON(t, &made)
		var mine []catalogadmin.Suggestion
		farm.Do("GET", "/api/type-suggestions", nil).Expect(t, http.StatusOK).JSON(t, &mine)
		if len(mine) != 1 || mine[0].ID != made.ID || mine[0].Status != catalogadmin.Pending {
			t.Fatalf("the producer reads %+v", mine)
		}
		s.Refuses(t, []daemontest.Refused{
			{Name: "a shop suggests", Client: shop, Method: "POST", Path: "/api/type-suggestions",
				Body:   map[string]any{"name": "Brebis au piment", "family": "fromages", "unit": "kg"},
				Status: http.StatusForbidden, Detail: daemon.MsgProducersOnly},
			{Name: "no family", Client: farm, Method: "POST", Path: "/api/type-suggestions",
				Body:   map[string]any{"name": "Brebis au piment", "unit": "kg"},
				Status: http.StatusUnprocessableEntity, Detail: catalogadmin.MsgSuggestFamily, Location: "body.family"},
		})
	})
}
