package daemon_test

import (
	"net/http"
	"testing"

	"primeur/core/fees"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

// TestDeliveryTermsAPI: a producer's minimum order and delivery fees
// through the API (PRODUCT §16 "Minimum order and delivery fees"), on both
// engines: set and read back, what a shop is given, and every refusal a
// 4xx with its French text that changes nothing — a proposal and an
// acceptance under the minimum (409, what is missing), a band out of order
// (422 on the field), a shop's settings (403), an exception for no shop
// (404).
func TestDeliveryTermsAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, shopID := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		farm, farmID := s.Producer("ferme@aravis.fr", "Ferme des Aravis")

		var settings fees.Settings
		farm.Do("PUT", "/api/user/delivery-terms", map[string]any{"minimum": 80, "fee": 15, "freeAbove": 400,
			"bands": []any{map[string]any{"upToKm": 10, "fee": 6}}}).Expect(t, 200).JSON(t, &settings)
		if settings.Terms.Minimum != 8000 || settings.Terms.Fee != 1500 || len(settings.Terms.Bands) != 1 || len(settings.Exceptions) != 0 {
			t.Fatalf("settings %+v", settings)
		}
		// Neither is placed: the flat fee.
		var applied fees.Applied
		shop.Do("GET", "/api/producers/"+farmID+"/delivery-terms", nil).Expect(t, 200).JSON(t, &applied)
		if applied.Minimum != 8000 || applied.Fee != 1500 || applied.FreeAbove != 40000 || applied.Exception || applied.DistanceKm != nil {
			t.Fatalf("applied %+v", applied)
		}

		var need struct {
			ID string `json:"_id"`
		}
		shop.Do("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-12-01", "quantity": 1000}).Expect(t, 201).JSON(t, &need)
		proposal := "/api/proposals/" + need.ID + "/" + farmID
		// 9 delivery days in December from the 20th of November: 100 kg at
		// 2 € make 22,22 € on each of the first 8.
		short := "Commande minimum de 80,00 € par livraison : il manque 57,78 €."
		s.Refuses(t, []daemontest.Refused{
			{Name: "a proposal under the minimum", Client: farm, Method: "PUT", Path: proposal,
				Body: map[string]any{"quantity": 100, "price": 2}, Status: http.StatusConflict, Detail: short},
			{Name: "a band out of order", Client: farm, Method: "PUT", Path: "/api/user/delivery-terms",
				Body: map[string]any{"minimum": 0, "fee": 0, "freeAbove": 0, "bands": []any{
					map[string]any{"upToKm": 10, "fee": 6}, map[string]any{"upToKm": 5, "fee": 3}}},
				Status: http.StatusUnprocessableEntity, Detail: fees.MsgBandKm, Location: "body.bands[1].upToKm"},
			{Name: "a shop's settings", Client: shop, Method: "PUT", Path: "/api/user/delivery-terms",
				Body: map[string]any{"minimum": 0, "fee": 0, "freeAbove": 0, "bands": []any{}}, Status: http.StatusForbidden,
				Detail: daemon.MsgProducersOnly},
			{Name: "an exception for no shop", Client: farm, Method: "PUT", Path: "/api/user/delivery-terms/shops/" + farmID,
				Body: map[string]any{"fee": 0}, Status: http.StatusNotFound, Detail: fees.MsgNotAShop},
		})

		// The shop's own minimum: 20 €; then the proposal passes, and a
		// correction under it is refused at the shop's acceptance too.
		farm.Do("PUT", "/api/user/delivery-terms/shops/"+shopID, map[string]any{"minimum": 20}).Expect(t, 200).JSON(t, &settings)
		if len(settings.Exceptions) != 1 || settings.Exceptions[0].ShopName != "Épicerie du Lac" || *settings.Exceptions[0].Minimum != 2000 {
			t.Fatalf("exceptions %+v", settings.Exceptions)
		}
		farm.Do("PUT", proposal, map[string]any{"quantity": 100, "price": 2}).Expect(t, 200)
		farm.Do("PUT", "/api/user/delivery-terms/shops/"+shopID, map[string]any{"minimum": 30}).Expect(t, 200)
		s.Refuses(t, []daemontest.Refused{
			{Name: "an acceptance under the shop's minimum", Client: shop, Method: "PUT", Path: "/api/proposalreview/" + need.ID + "/" + farmID,
				Body: map[string]any{"accepted": true}, Status: http.StatusConflict,
				Detail: "Commande minimum de 30,00 € par livraison : il manque 7,78 €."},
		})
		farm.Do("DELETE", "/api/user/delivery-terms/shops/"+shopID, nil).Expect(t, 200).JSON(t, &settings)
		if len(settings.Exceptions) != 0 {
			t.Fatalf("exceptions after the delete %+v", settings.Exceptions)
		}
	})
}
