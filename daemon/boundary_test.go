package daemon_test

import (
	"net/http"
	"strings"
	"testing"

	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/text"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

// TestTextAtTheBoundary: NUL bytes, invalid UTF-8 and control characters in
// a JSON field, a path parameter or a query parameter are refused before
// any query, with the same status and French message on SQLite and
// PostgreSQL (which refuses NUL and invalid UTF-8 in TEXT and answered 500
// to most of these), and change nothing.
func TestTextAtTheBoundary(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("shop@example.fr", "Épicerie", true)
		producer, _ := s.Producer("ferme@example.fr", "Ferme")
		anonymous := s.Client()
		json := "application/json"
		tests := []struct {
			name        string
			c           *daemontest.Client
			method      string
			path        string
			contentType string
			body        string
			status      int
			detail      string
			location    string
		}{
			{"NUL in a login email", anonymous, "POST", "/auth/login", json, `{"email":"a\u0000b@x.fr","password":"secret123"}`, 422, accounts.MsgEmailInvalid, "body.email"},
			{"NUL in a registered name", anonymous, "POST", "/auth/register", json, `{"email":"new@example.fr","password":"secret123","name":"Ferme\u0000","distributor":false}`, 422, text.MsgInvalid, "body.name"},
			{"bell in a registration email", anonymous, "POST", "/auth/register", json, `{"email":"a\u0007b@example.fr","password":"secret123","name":"Ferme","distributor":false}`, 422, accounts.MsgEmailInvalid, "body.email"},
			{"escape in an accounting email", shop, "PUT", "/api/user", json, `{"emailAccounting":"compta\u001b@example.fr"}`, 422, accounts.MsgEmailAccounting, "body.emailAccounting"},
			{"NUL in an address", shop, "PUT", "/api/user", json, `{"addressLine1":"a\u0000b"}`, 422, text.MsgInvalid, "body.addressLine1"},
			{"escape sequence in a name", shop, "PUT", "/api/user", json, `{"name":"\u001b[31mÉpicerie"}`, 422, text.MsgInvalid, "body.name"},
			{"newline in a one-line field", shop, "PUT", "/api/user", json, `{"addressLine2":"a\nb"}`, 422, text.MsgInvalid, "body.addressLine2"},
			{"NUL in a product", shop, "POST", "/api/needs", json, `{"product":"tomate\u0000","date":"2027-01","quantity":1}`, 422, text.MsgInvalid, "body.product"},
			{"C1 control in a bulk month", shop, "POST", "/api/needs/bulk", json, `{"product":"tomate","dates":["2027-01","2027-02\u0085"],"quantities":[1,2]}`, 422, text.MsgInvalid, "body.dates[1]"},
			{"NUL in a claim comment", producer, "PUT", "/api/deliveries/claim/o/d", json, `{"deliveryLines":[{"_id":"l","quantityClaimed":-1,"claimType":"quality","claimComment":"abîmé\u0000"}]}`, 422, text.MsgInvalid, "body.deliveryLines[0].claimComment"},
			{"NUL in a field name", shop, "PUT", "/api/user", json, `{"na\u0000me":"x"}`, 422, text.MsgInvalid, "body"},
			{"invalid UTF-8 in a body", shop, "PUT", "/api/user", json, "{\"name\":\"\xff\xfe\"}", 400, daemon.MsgNotUTF8, ""},
			{"invalid UTF-8 in a need id", shop, "PUT", "/api/needs/%ff%fe", json, `{"quantity":1}`, 400, daemon.MsgBadPath, ""},
			{"invalid UTF-8 in a deleted need id", shop, "DELETE", "/api/needs/%ff", "", "", 400, daemon.MsgBadPath, ""},
			{"invalid UTF-8 in proposal ids", producer, "PUT", "/api/proposals/%ff/%ff", json, `{"quantity":1,"price":2}`, 400, daemon.MsgBadPath, ""},
			{"control character in a delivery id", shop, "PUT", "/api/deliveries/cancel/o/%01", "", "", 400, daemon.MsgBadPath, ""},
			{"NUL in a query", shop, "GET", "/api/events?before=%00", "", "", 400, daemon.MsgBadQuery, ""},
			{"invalid UTF-8 in a query", shop, "GET", "/api/supply?start=%ff", "", "", 400, daemon.MsgBadQuery, ""},
			{"malformed escape in a query", shop, "GET", "/api/needs?from=%zz", "", "", 400, daemon.MsgBadQuery, ""},
			{"invalid UTF-8 in an invoice id", shop, "GET", "/print/invoice/%ff", "", "", 400, daemon.MsgBadPath, ""},
			{"invalid UTF-8 in a note id", producer, "GET", "/print/delivery/%ff/%fe", "", "", 400, daemon.MsgBadPath, ""},
			{"JSON without a content type", shop, "POST", "/api/needs", "", `{"product":"tomate","date":"2027-01","quantity":1}`, 415, daemon.MsgJSONRequired, ""},
			{"JSON in Latin-1", shop, "POST", "/api/needs", "application/json; charset=iso-8859-1", `{"product":"tomate","date":"2027-01","quantity":1}`, 415, daemon.MsgJSONRequired, ""},
		}
		before := fingerprint(t, db)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				req, err := http.NewRequest(tt.method, s.URL+tt.path, strings.NewReader(tt.body))
				if err != nil {
					t.Fatal(err)
				}
				req.URL.Opaque = "//" + req.URL.Host + tt.path // the path as written
				if tt.contentType != "" {
					req.Header.Set("Content-Type", tt.contentType)
				}
				res := tt.c.Raw(req)
				if res.Status != tt.status {
					t.Fatalf("%s %s: %d, want %d: %s", tt.method, tt.path, res.Status, tt.status, res.Body)
				}
				p := res.Problem(t)
				if p.Detail != tt.detail {
					t.Fatalf("detail %q, want %q", p.Detail, tt.detail)
				}
				if tt.location != "" && (len(p.Errors) != 1 || p.Errors[0].Location != tt.location || p.Errors[0].Message != tt.detail) {
					t.Fatalf("errors %+v, want one at %s", p.Errors, tt.location)
				}
				if res.Header.Get(daemon.RequestIDHeader) == "" {
					t.Fatal("no request id")
				}
			})
		}
		if fingerprint(t, db) != before {
			t.Fatal("a refused request changed the database")
		}

		// What the rule allows: any script, emoji, and line breaks and tabs
		// in a claim's comment (checked by the claim's own rules after).
		shop.Do("PUT", "/api/user", map[string]any{"name": "Épicerie 🥕 𝔘 מאפייה عربي e\u0301"}).Expect(t, 200)
		res := producer.Do("PUT", "/api/deliveries/claim/o/d", map[string]any{"deliveryLines": []map[string]any{
			{"_id": "l", "quantityClaimed": -1, "claimType": "quality", "claimComment": "ligne 1\r\n\tligne 2"}}})
		if res.Status != http.StatusNotFound {
			t.Fatalf("a multi-line comment on an unknown delivery: %d %s, want 404", res.Status, res.Body)
		}
		s.Client().Do("GET", "/healthz", nil).Expect(t, 200)
	})
}
