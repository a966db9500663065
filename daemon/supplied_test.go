package daemon_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"primeur/core/images"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/supplied"
	"primeur/core/trade"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

// photoPNG is a w×h PNG photo.
func photoPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		img.Set(x, x%h, color.RGBA{R: 220, G: 180, B: uint8(x), A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSuppliedProductsAPI: a producer's own products through the API
// (PRODUCT §3 "Producers' products"), on both engines: listed, given a
// photo served in three sizes with a year's cache and an ETag, seen by a
// shop on the producer's page, retired; every refusal a 4xx with its French
// text that changes nothing.
func TestSuppliedProductsAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		dairy, dairyID := s.Producer("fruitiere@aravis.fr", "Fruitière des Aravis")
		other, _ := s.Producer("ferme@glieres.fr", "Ferme des Glières")

		tomme := map[string]any{"productType": "tomme-de-savoie", "name": "Tomme de Savoie fermière", "packaging": "pièce",
			"unitQuantity": 1.5, "labels": []string{"aop"}, "months": []int{1, 2, 3, 10, 11, 12}, "refPrice": 14.5}
		var p supplied.Product
		dairy.Do("POST", "/api/supplied-products", tomme).Expect(t, http.StatusCreated).JSON(t, &p)
		if p.SaleUnit != "pièce de 1,5 kg" || p.Unit != "kg" || p.Photo != nil {
			t.Fatalf("created %+v", p)
		}
		dairy.Do("PUT", "/api/supplied-products/"+p.ID+"/photo", map[string]any{"photo": photoPNG(t, 1300, 866)}).
			Expect(t, http.StatusOK).JSON(t, &p)
		if p.Photo == nil || !strings.HasPrefix(p.Photo.Medium, supplied.PhotoPath) {
			t.Fatalf("photo %+v", p.Photo)
		}

		// The shop sees it on the producer's page, and its photo.
		var page []supplied.Product
		shop.Do("GET", "/api/producers/"+dairyID+"/supplied-products", nil).Expect(t, http.StatusOK).JSON(t, &page)
		if len(page) != 1 || page[0].Name != "Tomme de Savoie fermière" || page[0].Photo == nil {
			t.Fatalf("page %+v", page)
		}
		for url, side := range map[string]int{p.Photo.Small: 160, p.Photo.Medium: 480, p.Photo.Large: 1200} {
			res := shop.Do("GET", url, nil).Expect(t, http.StatusOK)
			cfg, format, err := image.DecodeConfig(bytes.NewReader(res.Body))
			if err != nil || format != "jpeg" || max(cfg.Width, cfg.Height) != side ||
				res.Header.Get("Cache-Control") != "private, max-age=31536000, immutable" || res.Header.Get("ETag") == "" {
				t.Fatalf("%s: %s %dx%d %v %v", url, format, cfg.Width, cfg.Height, err, res.Header)
			}
			req, _ := http.NewRequest("GET", s.URL+url, nil)
			req.Header.Set("If-None-Match", res.Header.Get("ETag"))
			if again := shop.Raw(req); again.Status != http.StatusNotModified || len(again.Body) != 0 {
				t.Fatalf("%s with its ETag: %d", url, again.Status)
			}
		}
		s.Client().Do("GET", p.Photo.Small, nil).Expect(t, http.StatusUnauthorized)

		s.Refuses(t, []daemontest.Refused{
			{Name: "a shop lists a product", Client: shop, Method: "POST", Path: "/api/supplied-products", Body: tomme,
				Status: http.StatusForbidden, Detail: daemon.MsgProducersOnly},
			{Name: "the same name twice", Client: dairy, Method: "POST", Path: "/api/supplied-products", Body: tomme,
				Status: http.StatusUnprocessableEntity, Detail: supplied.MsgNameTaken, Location: "body.name"},
			{Name: "an unknown type", Client: dairy, Method: "POST", Path: "/api/supplied-products",
				Body:   map[string]any{"productType": "durian", "name": "Durian", "unitQuantity": 1, "months": []int{1}},
				Status: http.StatusUnprocessableEntity, Detail: supplied.MsgType, Location: "body.productType"},
			{Name: "organic without its certifier", Client: dairy, Method: "PUT", Path: "/api/supplied-products/" + p.ID,
				Body: map[string]any{"productType": "tomme-de-savoie", "name": "Tomme", "unitQuantity": 1, "months": []int{1},
					"labels": []string{"ab"}},
				Status: http.StatusUnprocessableEntity, Detail: supplied.MsgCertifier, Location: "body.certifier"},
			{Name: "another producer's product", Client: other, Method: "PUT", Path: "/api/supplied-products/" + p.ID,
				Body: tomme, Status: http.StatusNotFound},
			{Name: "another producer retires it", Client: other, Method: "DELETE", Path: "/api/supplied-products/" + p.ID,
				Status: http.StatusNotFound},
			{Name: "a photo that is no image", Client: dairy, Method: "PUT", Path: "/api/supplied-products/" + p.ID + "/photo",
				Body:   map[string]any{"photo": []byte("<script>alert(1)</script>")},
				Status: http.StatusUnprocessableEntity, Detail: images.MsgNotImage, Location: "body.photo"},
			{Name: "no photo", Client: dairy, Method: "PUT", Path: "/api/supplied-products/" + p.ID + "/photo",
				Body:   map[string]any{},
				Status: http.StatusUnprocessableEntity, Detail: images.MsgEmpty, Location: "body.photo"},
			{Name: "a photo over the body's bound", Client: dairy, Method: "PUT", Path: "/api/supplied-products/" + p.ID + "/photo",
				Body:   `{"photo":"` + strings.Repeat("A", images.MaxBytes*4/3+8192) + `"}`,
				Status: http.StatusRequestEntityTooLarge},
			{Name: "a reception's image is no product photo", Client: shop, Method: "GET",
				Path: "/print/product-photo/0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a", Status: http.StatusNotFound},
		})

		// A proposal names the product; one of another type, or another
		// producer's, is refused on the field and changes nothing.
		var need struct {
			ID string `json:"_id"`
		}
		shop.Do("POST", "/api/needs", map[string]any{"product": "tomme-de-savoie", "date": "2026-12-01", "quantity": 30}).
			Expect(t, http.StatusCreated).JSON(t, &need)
		var reblochon, theirs supplied.Product
		dairy.Do("POST", "/api/supplied-products", map[string]any{"productType": "reblochon", "name": "Reblochon fermier",
			"unitQuantity": 1, "months": []int{12}}).Expect(t, http.StatusCreated).JSON(t, &reblochon)
		other.Do("POST", "/api/supplied-products", tomme).Expect(t, http.StatusCreated).JSON(t, &theirs)
		proposal := "/api/proposals/" + need.ID + "/" + dairyID
		s.Refuses(t, []daemontest.Refused{
			{Name: "a product of another type", Client: dairy, Method: "PUT", Path: proposal,
				Body:   map[string]any{"quantity": 12, "price": 14.5, "suppliedProduct": reblochon.ID},
				Status: http.StatusUnprocessableEntity, Detail: trade.MsgSuppliedProduct, Location: "body.suppliedProduct"},
			{Name: "another producer's product", Client: dairy, Method: "PUT", Path: proposal,
				Body:   map[string]any{"quantity": 12, "price": 14.5, "suppliedProduct": theirs.ID},
				Status: http.StatusUnprocessableEntity, Detail: trade.MsgSuppliedProduct, Location: "body.suppliedProduct"},
		})
		var answer struct {
			Proposals []struct {
				SuppliedProduct *string `json:"suppliedProduct"`
			} `json:"proposals"`
		}
		dairy.Do("PUT", proposal, map[string]any{"quantity": 12, "price": 14.5, "suppliedProduct": p.ID}).
			Expect(t, http.StatusOK).JSON(t, &answer)
		if len(answer.Proposals) != 1 || answer.Proposals[0].SuppliedProduct == nil || *answer.Proposals[0].SuppliedProduct != p.ID {
			t.Fatalf("the proposal %+v", answer.Proposals)
		}
		// The shop's counter-proposal keeps it.
		shop.Do("PUT", proposal, map[string]any{"quantity": 12, "price": 14}).Expect(t, http.StatusOK).JSON(t, &answer)
		if len(answer.Proposals) != 1 || answer.Proposals[0].SuppliedProduct == nil || *answer.Proposals[0].SuppliedProduct != p.ID {
			t.Fatalf("the counter-proposal %+v", answer.Proposals)
		}

		// The shop finds the dairy by type and label; a label it cannot
		// mean is refused in French on the query.
		var found []supplied.Found
		shop.Do("GET", "/api/supplied-products/search?productType=tomme-de-savoie&label=aop", nil).
			Expect(t, http.StatusOK).JSON(t, &found)
		if len(found) != 2 || found[0].Products[0].Labels[0] != "aop" {
			t.Fatalf("found %+v", found)
		}
		// The planner's filter: the types sold with the label.
		var types struct {
			Types []string `json:"types"`
		}
		shop.Do("GET", "/api/supplied-products/types?label=aop", nil).Expect(t, http.StatusOK).JSON(t, &types)
		if strings.Join(types.Types, ",") != "tomme-de-savoie" {
			t.Fatalf("types %v", types.Types)
		}
		s.Refuses(t, []daemontest.Refused{
			{Name: "an unknown label", Client: shop, Method: "GET", Path: "/api/supplied-products/search?label=demeter",
				Status: http.StatusUnprocessableEntity, Detail: supplied.MsgSearchLabel, Location: "query.label"},
			{Name: "a producer searches", Client: dairy, Method: "GET", Path: "/api/supplied-products/search",
				Status: http.StatusForbidden, Detail: daemon.MsgShopsOnly},
			{Name: "a distance too far for the planner's filter", Client: shop, Method: "GET",
				Path: "/api/supplied-products/types?km=5000", Status: http.StatusUnprocessableEntity,
				Detail: supplied.MsgSearchKm, Location: "query.km"},
		})

		// Retired, the tomme leaves the lists; the proposal keeps naming it.
		dairy.Do("DELETE", "/api/supplied-products/"+p.ID, nil).Expect(t, http.StatusNoContent)
		shop.Do("GET", "/api/producers/"+dairyID+"/supplied-products", nil).Expect(t, http.StatusOK).JSON(t, &page)
		var mine []supplied.Product
		dairy.Do("GET", "/api/supplied-products", nil).Expect(t, http.StatusOK).JSON(t, &mine)
		if len(page) != 1 || len(mine) != 1 || mine[0].ID != reblochon.ID {
			t.Fatalf("after retiring: page %+v, list %+v", page, mine)
		}

		// A closed producer's page says so and lists nothing (as the
		// search and the offers leave it out).
		if _, err := store.Exec(context.Background(), db, `UPDATE users SET closed_at = 1 WHERE id = ?`, dairyID); err != nil {
			t.Fatal(err)
		}
		if p := shop.Do("GET", "/api/producers/"+dairyID+"/supplied-products", nil).Expect(t, http.StatusNotFound).
			Problem(t); p.Detail != supplied.MsgClosed {
			t.Fatalf("a closed producer's page: %+v", p)
		}
	})
}
