package daemon_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"primeur/core/activity"
	"primeur/core/catalog"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

type needJSON struct {
	ID                string  `json:"_id"`
	Product           string  `json:"product"`
	Distributor       string  `json:"distributor"`
	Date              string  `json:"date"`
	Quantity          float64 `json:"quantity"`
	QuantityAccepted  float64 `json:"quantityAccepted"`
	QuantityProposed  float64 `json:"quantityProposed"`
	QuantityAvailable float64 `json:"quantityAvailable"`
	Proposals         []struct {
		Producer string `json:"producer"`
		Status   string `json:"status"`
	} `json:"proposals"`
}

func TestNeedsAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, shopID := s.Register("shop@example.fr", "Épicerie", true)
		other, _ := s.Register("other@example.fr", "Autre magasin", true)
		farm, farmID := s.Producer("ferme@example.fr", "Ferme")

		var created needJSON
		shop.Do("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-12-01", "quantity": 120.5}).Expect(t, 201).JSON(t, &created)
		if created.Quantity != 120.5 || created.Distributor != shopID || created.QuantityAvailable != 120.5 || created.Proposals == nil {
			t.Fatalf("created = %+v", created)
		}
		s.Refuses(t, []daemontest.Refused{
			{Name: "producer creates", Client: farm, Method: "POST", Path: "/api/needs", Body: map[string]any{"product": "tomate", "date": "2027-01", "quantity": 1}, Status: 403, Detail: daemon.MsgShopsOnly},
			{Name: "producer updates", Client: farm, Method: "PUT", Path: "/api/needs/" + created.ID, Body: map[string]any{"quantity": 1}, Status: 403, Detail: daemon.MsgShopsOnly},
			{Name: "producer deletes", Client: farm, Method: "DELETE", Path: "/api/needs/" + created.ID, Status: 403, Detail: daemon.MsgShopsOnly},
			{Name: "producer bulk", Client: farm, Method: "POST", Path: "/api/needs/bulk", Body: map[string]any{"product": "tomate", "quantities": []float64{1}, "dates": []string{"2027-01"}}, Status: 403, Detail: daemon.MsgShopsOnly},
			{Name: "other shop updates", Client: other, Method: "PUT", Path: "/api/needs/" + created.ID, Body: map[string]any{"quantity": 1}, Status: 404},
			{Name: "other shop deletes", Client: other, Method: "DELETE", Path: "/api/needs/" + created.ID, Status: 404},
			{Name: "anonymous", Client: s.Client(), Method: "POST", Path: "/api/needs", Body: map[string]any{"product": "tomate", "date": "2027-01", "quantity": 1}, Status: 401, Detail: daemon.MsgNoToken},
			{Name: "duplicate", Client: shop, Method: "POST", Path: "/api/needs", Body: map[string]any{"product": "tomate", "date": "2026-12", "quantity": 3}, Status: 409, Detail: planning.MsgNeedExists},
			{Name: "negative", Client: shop, Method: "PUT", Path: "/api/needs/" + created.ID, Body: map[string]any{"quantity": -1}, Status: 422, Detail: planning.MsgNegative},
			{Name: "three decimals", Client: shop, Method: "PUT", Path: "/api/needs/" + created.ID, Body: map[string]any{"quantity": 1.234}, Status: 422, Detail: planning.MsgBadWeight},
			{Name: "pieces", Client: shop, Method: "POST", Path: "/api/needs", Body: map[string]any{"product": "melon", "date": "2027-01", "quantity": 1.5}, Status: 422, Detail: planning.MsgBadPieces},
			{Name: "unknown product", Client: shop, Method: "POST", Path: "/api/needs", Body: map[string]any{"product": "durian", "date": "2027-01", "quantity": 1}, Status: 422, Detail: planning.MsgUnknownProd},
			{Name: "bad month", Client: shop, Method: "POST", Path: "/api/needs", Body: map[string]any{"product": "tomate", "date": "13/2027", "quantity": 1}, Status: 422, Detail: planning.MsgBadMonth},
			{Name: "past month", Client: shop, Method: "POST", Path: "/api/needs", Body: map[string]any{"product": "tomate", "date": "2026-01", "quantity": 1}, Status: 409, Detail: planning.MsgPastMonth},
			{Name: "change product", Client: shop, Method: "PUT", Path: "/api/needs/" + created.ID, Body: map[string]any{"product": "poire", "quantity": 3}, Status: 422, Detail: planning.MsgImmutable},
			{Name: "quantity as text", Client: shop, Method: "PUT", Path: "/api/needs/" + created.ID, Body: map[string]any{"quantity": "12"}, Status: 422},
			{Name: "quantity missing", Client: shop, Method: "PUT", Path: "/api/needs/" + created.ID, Body: map[string]any{}, Status: 422},
			{Name: "unknown field", Client: shop, Method: "POST", Path: "/api/needs", Body: map[string]any{"product": "tomate", "date": "2027-01", "quantity": 1, "quantityAccepted": 5}, Status: 422},
			{Name: "not json", Client: shop, Method: "POST", Path: "/api/needs", Body: "product=tomate", Status: 400},
			{Name: "huge number", Client: shop, Method: "POST", Path: "/api/needs", Body: `{"product":"tomate","date":"2027-01","quantity":1e400}`, Status: 400},
			{Name: "bulk lengths", Client: shop, Method: "POST", Path: "/api/needs/bulk", Body: map[string]any{"product": "tomate", "quantities": []float64{1, 2}, "dates": []string{"2027-01"}}, Status: 422, Detail: planning.MsgBulkShape},
			{Name: "bulk too long", Client: shop, Method: "POST", Path: "/api/needs/bulk", Body: map[string]any{"product": "tomate", "quantities": make([]float64, 37), "dates": make([]string, 37)}, Status: 422},
			{Name: "unknown need", Client: shop, Method: "DELETE", Path: "/api/needs/nope", Status: 404},
		})

		var updated needJSON
		shop.Do("PUT", "/api/needs/"+created.ID, map[string]any{"_id": created.ID, "product": "tomate", "date": "2026-12-01", "quantity": 80}).Expect(t, 200).JSON(t, &updated)
		if updated.Quantity != 80 {
			t.Fatalf("updated = %+v", updated)
		}

		var bulk struct {
			Needs []needJSON
			Event activity.View
		}
		shop.Do("POST", "/api/needs/bulk", map[string]any{"product": "melon", "quantities": []float64{10, 20}, "dates": []string{"2027-01-01", "2027-02"}}).Expect(t, 200).JSON(t, &bulk)
		if len(bulk.Needs) != 2 || bulk.Event.Type != activity.NeedCreateBulk || bulk.Event.Origin.Email != "shop@example.fr" {
			t.Fatalf("bulk = %+v", bulk)
		}

		var mine []needJSON
		shop.Do("GET", "/api/needs", nil).Expect(t, 200).JSON(t, &mine)
		if len(mine) != 3 {
			t.Fatalf("shop lists %d needs", len(mine))
		}
		shop.Do("GET", "/api/needs?from=2027-01&to=2027-01", nil).Expect(t, 200).JSON(t, &mine)
		if len(mine) != 1 {
			t.Fatalf("ranged list: %d needs", len(mine))
		}
		shop.Do("GET", "/api/needs?distributor="+farmID, nil).Expect(t, 403)
		shop.Do("GET", "/api/needs?from=hier", nil).Expect(t, 422)
		var theirs []needJSON
		other.Do("GET", "/api/needs", nil).Expect(t, 200).JSON(t, &theirs)
		if len(theirs) != 0 {
			t.Fatal("a shop sees another shop's needs")
		}
		var seen []needJSON
		farm.Do("GET", "/api/needs?distributor="+shopID, nil).Expect(t, 200).JSON(t, &seen)
		if len(seen) != 3 {
			t.Fatalf("producer sees %d of the shop's needs", len(seen))
		}
		farm.Do("GET", "/api/needs?distributor="+farmID, nil).Expect(t, 404)
		farm.Do("GET", "/api/needs", nil).Expect(t, 200).JSON(t, &seen)
		if len(seen) != 0 {
			t.Fatal("a producer without proposals trades on no need")
		}

		var deleted needJSON
		shop.Do("DELETE", "/api/needs/"+created.ID, nil).Expect(t, 200).JSON(t, &deleted)
		if deleted.ID != created.ID {
			t.Fatalf("deleted = %+v", deleted)
		}

		var load struct {
			Needs    []needJSON
			Products []struct {
				ID   string `json:"_id"`
				Name string
				Unit string
			}
			Events []activity.View
		}
		everyScreen(t, shop, &load)
		if len(load.Needs) != 2 || len(load.Products) < 40 || load.Events[0].Type != activity.NeedDelete {
			t.Fatalf("user load: %d needs, %d products, events %+v", len(load.Needs), len(load.Products), load.Events)
		}
	})
}

func TestProductsCSV(t *testing.T) {
	t.Parallel()
	s := daemontest.New(t, storetest.SQLite(t))
	res := s.Client().Do("GET", "/public/other/products.csv", nil).Expect(t, http.StatusOK)
	body := string(res.Body)
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") || !strings.HasPrefix(body, "\uFEFFproduit;unite\r\n") ||
		!strings.Contains(body, "\r\nChou-fleur;un\r\n") || !strings.Contains(body, "\r\nTomate;kg\r\n") {
		t.Fatalf("products.csv: %s", body[:200])
	}
	res = s.Client().Do("GET", "/public/other/produits.xlsx", nil).Expect(t, http.StatusOK)
	f, err := excelize.OpenReader(bytes.NewReader(res.Body))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Produits")
	ps, _ := catalog.Catalogue()
	if err != nil || len(rows) != len(ps)+1 || rows[0][0] != "Produit" || rows[0][1] != "Unité" ||
		!strings.Contains(res.Header.Get("Content-Disposition"), "produits.xlsx") {
		t.Fatalf("produits.xlsx: %d rows %v, %v", len(rows), rows[:min(3, len(rows))], err)
	}
	found, litres := false, false
	for _, r := range rows {
		found = found || len(r) == 2 && r[0] == "Chou-fleur" && r[1] == "pièce"
		litres = litres || len(r) == 2 && r[0] == "Lait cru entier" && r[1] == "L"
	}
	if !litres {
		t.Error("Lait cru entier is not listed in litres")
	}
	if !found {
		t.Error("Chou-fleur is not listed in pieces")
	}
}
