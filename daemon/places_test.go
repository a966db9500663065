package daemon_test

import (
	"net/url"
	"strings"
	"testing"

	"primeur/core/store/storetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

type placesAnswer struct {
	Places []struct {
		Code        string   `json:"code"`
		Kind        string   `json:"kind"`
		Name        string   `json:"name"`
		Commune     string   `json:"commune"`
		Department  string   `json:"department"`
		PostalCode  string   `json:"postalCode"`
		PostalCodes []string `json:"postalCodes"`
		Population  int      `json:"population"`
		Latitude    float64  `json:"latitude"`
		Longitude   float64  `json:"longitude"`
		Position    string   `json:"position"`
		Approximate bool     `json:"approximate"`
	} `json:"places"`
}

func TestPlacesAPI(t *testing.T) {
	t.Parallel()
	s := daemontest.New(t, storetest.SQLite(t))
	shop, _ := s.Register("shop@example.fr", "Épicerie", true)
	farm, _ := s.Producer("ferme@example.fr", "Ferme")

	get := func(c *daemontest.Client, q string, limit string) placesAnswer {
		t.Helper()
		path := "/api/places?q=" + url.QueryEscape(q)
		if limit != "" {
			path += "&limit=" + limit
		}
		var a placesAnswer
		c.Do("GET", path, nil).Expect(t, 200).JSON(t, &a)
		return a
	}

	// A village, by name with a typo and by postal code, for both roles.
	for _, c := range []*daemontest.Client{shop, farm} {
		a := get(c, "seraval", "3")
		if len(a.Places) == 0 || a.Places[0].Name != "Serraval" || a.Places[0].PostalCode != "74230" || a.Places[0].Department != "74" {
			t.Fatalf("seraval: %+v", a.Places)
		}
		p := a.Places[0]
		if p.Code != "74265" || p.Kind != "commune" || p.Commune != "" || p.Latitude < 45.7 || p.Latitude > 45.9 || p.Longitude < 6.2 || p.Longitude > 6.5 {
			t.Fatalf("Serraval: %+v", p)
		}
	}
	byCode := get(shop, "74230", "50")
	names := make([]string, len(byCode.Places))
	for i, p := range byCode.Places {
		names[i] = p.Name
		if p.PostalCode != "74230" {
			t.Fatalf("74230 gave %+v", p)
		}
	}
	if len(names) < 8 || names[0] != "Thônes" || !strings.Contains(strings.Join(names, ","), "Serraval") {
		t.Fatalf("74230: %v", names)
	}
	// Default limit 10; an arrondissement names its city; a CEDEX code is approximate.
	if n := len(get(shop, "saint", "").Places); n != 10 {
		t.Fatalf("saint: %d answers, want 10", n)
	}
	if a := get(shop, "69003", ""); len(a.Places) != 1 || a.Places[0].Kind != "arrondissement" || a.Places[0].Commune != "Lyon" {
		t.Fatalf("69003: %+v", a.Places)
	}
	if a := get(shop, "74011", "1"); len(a.Places) != 1 || !a.Places[0].Approximate || a.Places[0].Name != "Annecy" {
		t.Fatalf("74011: %+v", a.Places)
	}
	// No answer is an empty list, never null.
	for _, q := range []string{"", "   ", "99999", "zzzzzzzz"} {
		if a := get(shop, q, ""); a.Places == nil || len(a.Places) != 0 {
			t.Fatalf("%q: %+v", q, a.Places)
		}
	}
	// Hostile queries: an answer, or the daemon's refusal of a malformed
	// query string (control characters, bad encoding), never a failure.
	for _, q := range []string{
		"\x00", "\xff\xfe", "<script>alert(1)</script>", "' OR 1=1 --", "../../etc/passwd", "%ff%fe",
		strings.Repeat("é", 100), strings.Repeat("\u0301", 100), "🙂🙂", "74000\u202eAnnecy", "\ufeff74000",
	} {
		r := farm.Do("GET", "/api/places?q="+url.QueryEscape(q)+"&limit=50", nil)
		switch r.Status {
		case 200:
			var a placesAnswer
			r.JSON(t, &a)
		case 400:
			if p := r.Problem(t); !strings.HasPrefix(p.Detail, "Paramètres de la requête invalides") {
				t.Fatalf("%q: 400 %q", q, p.Detail)
			}
		default:
			t.Fatalf("%q: status %d: %s", q, r.Status, r.Body)
		}
	}
	tooLong := strings.Repeat("a", 101)
	s.Refuses(t, []daemontest.Refused{
		{Name: "anonymous", Client: s.Client(), Method: "GET", Path: "/api/places?q=annecy", Status: 401, Detail: daemon.MsgNoToken},
		{Name: "query too long", Client: shop, Method: "GET", Path: "/api/places?q=" + tooLong, Status: 422, Detail: "Données invalides."},
		{Name: "limit 0", Client: shop, Method: "GET", Path: "/api/places?q=annecy&limit=0", Status: 422, Detail: "Données invalides."},
		{Name: "limit 51", Client: shop, Method: "GET", Path: "/api/places?q=annecy&limit=51", Status: 422, Detail: "Données invalides."},
		{Name: "limit not a number", Client: shop, Method: "GET", Path: "/api/places?q=annecy&limit=dix", Status: 422, Detail: "Données invalides."},
	})
}
