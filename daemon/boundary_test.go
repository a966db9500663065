package daemon_test

import (
	"net/http"
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
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("shop@example.fr", "Épicerie", true)
		producer, _ := s.Producer("ferme@example.fr", "Ferme")
		anonymous := s.Client()
		json := "application/json"
		s.Refuses(t, []daemontest.Refused{
			{Name: "NUL in a login email", Client: anonymous, Method: "POST", Path: "/auth/login", ContentType: json, Body: `{"email":"a\u0000b@x.fr","password":"secret123"}`, Status: 422, Detail: accounts.MsgEmailInvalid, Location: "body.email"},
			{Name: "NUL in a registered name", Client: anonymous, Method: "POST", Path: "/auth/register", ContentType: json, Body: `{"email":"new@example.fr","password":"secret123","name":"Ferme\u0000","distributor":false}`, Status: 422, Detail: text.MsgInvalid, Location: "body.name"},
			{Name: "bell in a registration email", Client: anonymous, Method: "POST", Path: "/auth/register", ContentType: json, Body: `{"email":"a\u0007b@example.fr","password":"secret123","name":"Ferme","distributor":false}`, Status: 422, Detail: accounts.MsgEmailInvalid, Location: "body.email"},
			{Name: "escape in an accounting email", Client: shop, Method: "PUT", Path: "/api/user", ContentType: json, Body: `{"emailAccounting":"compta\u001b@example.fr"}`, Status: 422, Detail: accounts.MsgAccountingEmailGone, Location: "body.emailAccounting"},
			{Name: "NUL in an address", Client: shop, Method: "PUT", Path: "/api/user", ContentType: json, Body: `{"addressLine1":"a\u0000b"}`, Status: 422, Detail: text.MsgInvalid, Location: "body.addressLine1"},
			{Name: "escape sequence in a name", Client: shop, Method: "PUT", Path: "/api/user", ContentType: json, Body: `{"name":"\u001b[31mÉpicerie"}`, Status: 422, Detail: text.MsgInvalid, Location: "body.name"},
			{Name: "newline in a one-line field", Client: shop, Method: "PUT", Path: "/api/user", ContentType: json, Body: `{"addressLine2":"a\nb"}`, Status: 422, Detail: text.MsgInvalid, Location: "body.addressLine2"},
			{Name: "NUL in a product", Client: shop, Method: "POST", Path: "/api/needs", ContentType: json, Body: `{"product":"tomate\u0000","date":"2027-01","quantity":1}`, Status: 422, Detail: text.MsgInvalid, Location: "body.product"},
			{Name: "C1 control in a bulk month", Client: shop, Method: "POST", Path: "/api/needs/bulk", ContentType: json, Body: `{"product":"tomate","dates":["2027-01","2027-02\u0085"],"quantities":[1,2]}`, Status: 422, Detail: text.MsgInvalid, Location: "body.dates[1]"},
			{Name: "NUL in a claim comment", Client: producer, Method: "PUT", Path: "/api/deliveries/claim/o/d", ContentType: json, Body: `{"deliveryLines":[{"_id":"l","quantityClaimed":-1,"claimType":"quality","claimComment":"abîmé\u0000"}]}`, Status: 422, Detail: text.MsgInvalid, Location: "body.deliveryLines[0].claimComment"},
			{Name: "NUL in a field name", Client: shop, Method: "PUT", Path: "/api/user", ContentType: json, Body: `{"na\u0000me":"x"}`, Status: 422, Detail: text.MsgInvalid, Location: "body"},
			{Name: "invalid UTF-8 in a body", Client: shop, Method: "PUT", Path: "/api/user", ContentType: json, Body: "{\"name\":\"\xff\xfe\"}", Status: 400, Detail: daemon.MsgNotUTF8},
			{Name: "invalid UTF-8 in a need id", Client: shop, Method: "PUT", Path: "/api/needs/%ff%fe", ContentType: json, Body: `{"quantity":1}`, Status: 400, Detail: daemon.MsgBadPath},
			{Name: "invalid UTF-8 in a deleted need id", Client: shop, Method: "DELETE", Path: "/api/needs/%ff", Status: 400, Detail: daemon.MsgBadPath},
			{Name: "invalid UTF-8 in proposal ids", Client: producer, Method: "PUT", Path: "/api/proposals/%ff/%ff", ContentType: json, Body: `{"quantity":1,"price":2}`, Status: 400, Detail: daemon.MsgBadPath},
			{Name: "control character in a delivery id", Client: shop, Method: "PUT", Path: "/api/deliveries/cancel/o/%01", Status: 400, Detail: daemon.MsgBadPath},
			{Name: "NUL in a query", Client: shop, Method: "GET", Path: "/api/events?before=%00", Status: 400, Detail: daemon.MsgBadQuery},
			{Name: "invalid UTF-8 in a query", Client: shop, Method: "GET", Path: "/api/supply?start=%ff", Status: 400, Detail: daemon.MsgBadQuery},
			{Name: "malformed escape in a query", Client: shop, Method: "GET", Path: "/api/needs?from=%zz", Status: 400, Detail: daemon.MsgBadQuery},
			{Name: "invalid UTF-8 in an invoice id", Client: shop, Method: "GET", Path: "/print/invoice/%ff", Status: 400, Detail: daemon.MsgBadPath},
			{Name: "invalid UTF-8 in a note id", Client: producer, Method: "GET", Path: "/print/delivery/%ff/%fe", Status: 400, Detail: daemon.MsgBadPath},
			{Name: "JSON without a content type", Client: shop, Method: "POST", Path: "/api/needs", ContentType: daemontest.NoContentType, Body: `{"product":"tomate","date":"2027-01","quantity":1}`, Status: 415, Detail: daemon.MsgJSONRequired},
			{Name: "JSON in Latin-1", Client: shop, Method: "POST", Path: "/api/needs", ContentType: "application/json; charset=iso-8859-1", Body: `{"product":"tomate","date":"2027-01","quantity":1}`, Status: 415, Detail: daemon.MsgJSONRequired},
		})

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
