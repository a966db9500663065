package daemon_test

import (
	"archive/zip"
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"primeur/core/delivery"
	"primeur/core/images"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon/daemontest"
)

// phoneJPEG is a photo as a phone sends it.
func phoneJPEG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 3), uint8(y * 5), 40, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type receivedView struct {
	Deliveries []struct {
		ID            string `json:"_id"`
		Status        string `json:"status"`
		ClaimStatus   string `json:"claimStatus"`
		ClaimBy       string `json:"claimBy"`
		ReceivedAt    string `json:"receivedAt"`
		ReceivedBy    string `json:"receivedBy"`
		SignatureID   string `json:"signatureId"`
		DeliveryLines []struct {
			ID               string   `json:"_id"`
			QuantitySent     float64  `json:"quantitySent"`
			QuantityClaimed  float64  `json:"quantityClaimed"`
			QuantityReceived *float64 `json:"quantityReceived"`
			ReceptionReason  string   `json:"receptionReason"`
			PhotoID          string   `json:"photoId"`
		} `json:"deliveryLines"`
	} `json:"deliveries"`
}

// TestReception: the shop's reception through the API (PRODUCT §16
// "Reception"), on both engines: refusals (a file that is not an image,
// one over the bound, a body over the bound, another shop's delivery)
// change nothing; the reception with a photo and a signature answers the
// order, the short line the shop's claim; sent again with its key it
// changes nothing; the producer sees it, reads the photo, another shop does
// not, and answers the claim — the shop cannot answer its own.
func TestReception(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, shopID := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		other, _ := s.Register("autre@magasin.fr", "Autre magasin", true)
		farm, farmID := s.Producer("ferme@aravis.fr", "Ferme des Aravis")
		otherFarm, _ := s.Producer("autre@ferme.fr", "Autre ferme")
		w := tradetest.Between(t, db, farmID, shopID)
		id := w.Deliver(farmID, shopID, "2026-11-20", orders.Planned,
			tradetest.L{Product: "tomate", Price: 250, Expected: 1000}, tradetest.L{Product: "laitue", Price: 90, Expected: 2000})
		orderID := w.OrderOf(farmID, shopID, "2026-11-01")
		path := "/api/deliveries/reception/" + orderID + "/" + id
		tomate, laitue := w.Line(id, "tomate"), w.Line(id, "laitue")
		photo := phoneJPEG(t, 120, 90)
		reception := func(photo []byte) map[string]any {
			return map[string]any{
				"key": "0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a", "receivedBy": "Léa Martin",
				"signature": phoneJPEG(t, 60, 20),
				"deliveryLines": []map[string]any{
					{"_id": laitue, "quantityReceived": 20},
					{"_id": tomate, "quantityReceived": 7.5, "receptionReason": "quantity", "receptionComment": "Une caisse manquante", "photo": photo},
				},
			}
		}
		s.Refuses(t, []daemontest.Refused{
			{Name: "a text as the photo", Client: shop, Method: "POST", Path: path,
				Body: reception([]byte("<script>alert(1)</script>")), Status: 422,
				Detail: images.MsgNotImage, Location: "body.deliveryLines[1].photo"},
			{Name: "a photo over 5 MB", Client: shop, Method: "POST", Path: path,
				Body: reception(append(photo, make([]byte, images.MaxBytes)...)), Status: 422,
				Detail: images.MsgTooBig, Location: "body.deliveryLines[1].photo"},
			{Name: "a HEIC photo", Client: shop, Method: "POST", Path: path,
				Body: reception(append([]byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"), make([]byte, 64)...)), Status: 422,
				Detail: images.MsgHEIC, Location: "body.deliveryLines[1].photo"},
			{Name: "a body over 16 MB", Client: shop, Method: "POST", Path: path,
				Body: reception(make([]byte, 13<<20)), Status: 413},
			{Name: "a short line without reason", Client: shop, Method: "POST", Path: path,
				Body: func() map[string]any {
					r := reception(photo)
					r["deliveryLines"].([]map[string]any)[1]["receptionReason"] = ""
					return r
				}(), Status: 422, Detail: delivery.MsgReceptionReason, Location: "body.deliveryLines[1].receptionReason"},
			{Name: "another shop's delivery", Client: other, Method: "POST", Path: path, Body: reception(photo), Status: 404},
			{Name: "the producer", Client: farm, Method: "POST", Path: path, Body: reception(photo), Status: 403},
		})

		var got receivedView
		shop.Do("POST", path, reception(photo)).Expect(t, 200).JSON(t, &got)
		d := got.Deliveries[0]
		if d.ReceivedBy != "Léa Martin" || d.ReceivedAt == "" || d.SignatureID == "" || d.Status != "done" ||
			d.ClaimStatus != "sent" || d.ClaimBy != "shop" {
			t.Fatalf("reception: %+v", d)
		}
		var photoID string
		for _, l := range d.DeliveryLines {
			if l.ID == tomate {
				if l.QuantitySent != 10 || l.QuantityClaimed != -2.5 || l.QuantityReceived == nil || *l.QuantityReceived != 7.5 || l.ReceptionReason != "quantity" {
					t.Fatalf("short line %+v", l)
				}
				photoID = l.PhotoID
			}
		}
		// Sent again (the queue drained twice): the same answer, nothing changed.
		before := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...)
		var again receivedView
		shop.Do("POST", path, reception(photo)).Expect(t, 200).JSON(t, &again)
		if again.Deliveries[0].ReceivedAt != d.ReceivedAt || again.Deliveries[0].ClaimStatus != "sent" {
			t.Fatalf("replay answered %+v", again.Deliveries[0])
		}
		if after := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...); after != before {
			t.Fatalf("a replay changed the database:\n%s", storetest.Changes(before, after))
		}

		// The claim is the producer's to answer: not the shop's, nor
		// another producer's; the producer cannot claim over it.
		review := "/api/deliveries/review/" + orderID + "/" + id
		s.Refuses(t, []daemontest.Refused{
			{Name: "the shop answers its own claim", Client: shop, Method: "PUT", Path: review,
				Body: map[string]any{"accepted": true}, Status: 409, Detail: delivery.MsgNoClaim},
			{Name: "another producer answers it", Client: otherFarm, Method: "PUT", Path: review,
				Body: map[string]any{"accepted": true}, Status: 404},
			{Name: "the producer claims over it", Client: farm, Method: "PUT", Path: "/api/deliveries/claim/" + orderID + "/" + id,
				Body:   map[string]any{"deliveryLines": []map[string]any{{"_id": laitue, "quantityClaimed": -1, "claimType": "quality"}}},
				Status: 409, Detail: delivery.MsgShopClaimPending},
		})
		// The producer sees the reception and the claim on its order,
		// answers it, and reads the photo; the others do not.
		var answered receivedView
		farm.Do("PUT", review, map[string]any{"accepted": true}).Expect(t, 200).JSON(t, &answered)
		if a := answered.Deliveries[0]; a.ReceivedBy != "Léa Martin" || a.ClaimStatus != "accepted" || a.ClaimBy != "shop" {
			t.Fatalf("the producer's answer: %+v", a)
		}
		for _, c := range []*daemontest.Client{shop, farm} {
			res := c.Do("GET", "/print/image/"+photoID, nil).Expect(t, 200)
			cfg, format, err := image.DecodeConfig(bytes.NewReader(res.Body))
			if err != nil || format != "jpeg" || cfg.Width != 120 || res.Header.Get("Content-Type") != "image/jpeg" ||
				!strings.HasPrefix(res.Header.Get("Cache-Control"), "private") {
				t.Fatalf("photo: %s %dx%d %v %v", format, cfg.Width, cfg.Height, err, res.Header)
			}
		}
		for _, c := range []*daemontest.Client{other, otherFarm} {
			c.Do("GET", "/print/image/"+photoID, nil).Expect(t, http.StatusNotFound)
		}
		s.Client().Do("GET", "/print/image/"+photoID, nil).Expect(t, http.StatusUnauthorized)

		// The shop's data export holds its photo and its signature as
		// served; the producer's holds none of them.
		exported := func(c *daemontest.Client) map[string][]byte {
			body := c.Do("GET", "/print/mydata", nil).Expect(t, 200).Body
			z, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
			if err != nil {
				t.Fatal(err)
			}
			out := map[string][]byte{}
			for _, f := range z.File {
				if strings.HasPrefix(f.Name, "images/") {
					r, err := f.Open()
					if err != nil {
						t.Fatal(err)
					}
					out[f.Name], _ = io.ReadAll(r)
					r.Close()
				}
			}
			return out
		}
		mine := exported(shop)
		served := shop.Do("GET", "/print/image/"+photoID, nil).Expect(t, 200).Body
		if len(mine) != 2 || !bytes.Equal(mine["images/"+photoID+".jpg"], served) || len(mine["images/"+d.SignatureID+".png"]) == 0 {
			t.Fatalf("the shop's export holds %d pictures: %v", len(mine), slices.Collect(maps.Keys(mine)))
		}
		if theirs := exported(farm); len(theirs) != 0 {
			t.Fatalf("the producer's export holds the shop's pictures: %v", slices.Collect(maps.Keys(theirs)))
		}
	})
}

// TestServiceWorkerFiles: the files the offline app needs are served as a
// browser needs them (PRODUCT §20 "Offline"): the service worker
// revalidated at every load (a new version is picked up), the manifest as
// application/manifest+json, under the security headers and CSP of every
// answer.
func TestServiceWorkerFiles(t *testing.T) {
	t.Parallel()
	ui := fstest.MapFS{
		"index.html":           {Data: []byte(`<!doctype html><link rel="manifest" href="/manifest.webmanifest">`)},
		"sw.js":                {Data: []byte(`self.addEventListener("fetch", () => {})`)},
		"manifest.webmanifest": {Data: []byte(`{"name":"Primeur","start_url":"/","display":"standalone"}`)},
	}
	s := daemontest.New(t, storetest.SQLite(t), daemontest.WithUI(ui))
	c := s.Client()
	for _, tc := range []struct{ path, contentType, cache string }{
		{"/sw.js", "text/javascript; charset=utf-8", "no-cache"},
		{"/manifest.webmanifest", "application/manifest+json", "no-cache"},
		{"/dis/deliveries/reception/o/d", "text/html; charset=utf-8", "no-cache, must-revalidate"},
	} {
		res := c.Do("GET", tc.path, nil).Expect(t, http.StatusOK)
		if got := res.Header.Get("Content-Type"); got != tc.contentType {
			t.Errorf("%s: Content-Type %q, want %q", tc.path, got, tc.contentType)
		}
		if got := res.Header.Get("Cache-Control"); got != tc.cache {
			t.Errorf("%s: Cache-Control %q, want %q", tc.path, got, tc.cache)
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("%s: CSP %q", tc.path, csp)
		}
	}
}
