package daemon_test

import (
	"net/http"
	"strings"
	"testing"

	"primeur/core/activity"
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

// needsSnapshot is the whole needs table, to prove a refused call changed
// nothing.
func needsSnapshot(t *testing.T, db *store.DB) string {
	t.Helper()
	var rows []string
	if err := db.Select(&rows, `SELECT id || ':' || product_id || ':' || month || ':' || CAST(quantity AS TEXT) FROM needs ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	return strings.Join(rows, ",")
}

func TestNeedsAPI(t *testing.T) {
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
		before := needsSnapshot(t, db)

		refused := []struct {
			name   string
			c      *daemontest.Client
			method string
			path   string
			body   any
			status int
			msg    string
		}{
			{"producer creates", farm, "POST", "/api/needs", map[string]any{"product": "tomate", "date": "2027-01", "quantity": 1}, 403, daemon.MsgShopsOnly},
			{"producer updates", farm, "PUT", "/api/needs/" + created.ID, map[string]any{"quantity": 1}, 403, daemon.MsgShopsOnly},
			{"producer deletes", farm, "DELETE", "/api/needs/" + created.ID, nil, 403, daemon.MsgShopsOnly},
			{"producer bulk", farm, "POST", "/api/needs/bulk", map[string]any{"product": "tomate", "quantities": []float64{1}, "dates": []string{"2027-01"}}, 403, daemon.MsgShopsOnly},
			{"other shop updates", other, "PUT", "/api/needs/" + created.ID, map[string]any{"quantity": 1}, 404, ""},
			{"other shop deletes", other, "DELETE", "/api/needs/" + created.ID, nil, 404, ""},
			{"anonymous", s.Client(), "POST", "/api/needs", map[string]any{"product": "tomate", "date": "2027-01", "quantity": 1}, 401, daemon.MsgNoToken},
			{"duplicate", shop, "POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-12", "quantity": 3}, 409, planning.MsgNeedExists},
			{"negative", shop, "PUT", "/api/needs/" + created.ID, map[string]any{"quantity": -1}, 422, planning.MsgNegative},
			{"three decimals", shop, "PUT", "/api/needs/" + created.ID, map[string]any{"quantity": 1.234}, 422, planning.MsgBadWeight},
			{"pieces", shop, "POST", "/api/needs", map[string]any{"product": "melon", "date": "2027-01", "quantity": 1.5}, 422, planning.MsgBadPieces},
			{"unknown product", shop, "POST", "/api/needs", map[string]any{"product": "banane", "date": "2027-01", "quantity": 1}, 422, planning.MsgUnknownProd},
			{"bad month", shop, "POST", "/api/needs", map[string]any{"product": "tomate", "date": "13/2027", "quantity": 1}, 422, planning.MsgBadMonth},
			{"past month", shop, "POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-01", "quantity": 1}, 409, planning.MsgPastMonth},
			{"change product", shop, "PUT", "/api/needs/" + created.ID, map[string]any{"product": "poire", "quantity": 3}, 422, planning.MsgImmutable},
			{"quantity as text", shop, "PUT", "/api/needs/" + created.ID, map[string]any{"quantity": "12"}, 422, ""},
			{"quantity missing", shop, "PUT", "/api/needs/" + created.ID, map[string]any{}, 422, ""},
			{"unknown field", shop, "POST", "/api/needs", map[string]any{"product": "tomate", "date": "2027-01", "quantity": 1, "quantityAccepted": 5}, 422, ""},
			{"not json", shop, "POST", "/api/needs", "product=tomate", 400, ""},
			{"huge number", shop, "POST", "/api/needs", `{"product":"tomate","date":"2027-01","quantity":1e400}`, 400, ""},
			{"bulk lengths", shop, "POST", "/api/needs/bulk", map[string]any{"product": "tomate", "quantities": []float64{1, 2}, "dates": []string{"2027-01"}}, 422, planning.MsgBulkShape},
			{"bulk too long", shop, "POST", "/api/needs/bulk", map[string]any{"product": "tomate", "quantities": make([]float64, 37), "dates": make([]string, 37)}, 422, ""},
			{"unknown need", shop, "DELETE", "/api/needs/nope", nil, 404, ""},
		}
		for _, tt := range refused {
			t.Run(tt.name, func(t *testing.T) {
				p := tt.c.Do(tt.method, tt.path, tt.body).Expect(t, tt.status).Problem(t)
				if tt.msg != "" && p.Detail != tt.msg {
					t.Fatalf("detail %q, want %q", p.Detail, tt.msg)
				}
				if got := needsSnapshot(t, db); got != before {
					t.Fatal("a refused call changed the needs")
				}
			})
		}

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
		shop.Do("GET", "/api/user", nil).Expect(t, 200).JSON(t, &load)
		if len(load.Needs) != 2 || len(load.Products) < 40 || load.Events[0].Type != activity.NeedDelete {
			t.Fatalf("user load: %d needs, %d products, events %+v", len(load.Needs), len(load.Products), load.Events)
		}
	})
}

func TestProductsCSV(t *testing.T) {
	s := daemontest.New(t, storetest.SQLite(t))
	res := s.Client().Do("GET", "/public/other/products.csv", nil).Expect(t, http.StatusOK)
	body := string(res.Body)
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") || !strings.Contains(body, "produit,unite") ||
		!strings.Contains(body, "Chou-fleur,un") || !strings.Contains(body, "Tomate,kg") {
		t.Fatalf("products.csv: %s", body[:200])
	}
}
