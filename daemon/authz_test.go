package daemon_test

import (
	"context"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/orders"
	"primeur/core/payments"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
	"primeur/core/trade/tradetest"
	"primeur/daemon/daemontest"
)

// The authorization matrix: every operation of the OpenAPI document (the
// plain routes under /print and /public, /healthz and /metrics included,
// openapi.go), called as each actor on a world
// where each object has an owner. Expected answers come from the table
// below; an operation without a row fails the test. A refused call (4xx)
// must leave the database as it was.

type actor string

const (
	anon          actor = "anonymous"
	shop          actor = "shop"
	otherShop     actor = "other shop"
	producer      actor = "producer"
	otherProducer actor = "other producer"
)

var actors = []actor{anon, shop, otherShop, producer, otherProducer}

// world names the objects of the seeded database: the shop's need with
// the producer's commitment, an order with a planned delivery, and the
// other shop's own need.
type world struct {
	tokens map[actor]string
	ids    map[string]string
	// members are the other shop's and the other producer's members of
	// every role but owner, each with its session in tokens: they call
	// each operation on the shop's and the producer's objects as their
	// owner does (as), refused by their role where the operation's
	// x-roles leave it out (issue 41: roles × operations × organisations).
	members []caller
}

// caller is who calls an operation in the matrix, with whose paths and
// answers: an actor as itself, or a member of another organisation than
// the objects' as its owner, with its role.
type caller struct {
	who  actor
	as   actor // their organisation's owner, whose answers they get
	role string
}

// row is one operation: how to call it as an actor, and the expected status
// per actor.
type row struct {
	path func(w *world, a actor) string
	body func(w *world, a actor) any
	// multipart, when set, sends a file upload instead of body.
	multipart *upload
	expect    map[actor]int
	// member, when set, is what a member of the other shop or the other
	// producer whose role the operation allows gets, where it is not
	// their owner's answer.
	member int
}

// paUnreachable is a PA connection whose PA does not answer (port 1 of
// this machine).
var paUnreachable = map[string]any{"flowUrl": "http://127.0.0.1:1/flow-service", "tokenUrl": "http://127.0.0.1:1/token",
	"clientId": "primeur", "clientSecret": "secret"}

func fixed(p string) func(*world, actor) string { return func(*world, actor) string { return p } }

func withID(p, key string) func(*world, actor) string {
	return func(w *world, _ actor) string { return strings.ReplaceAll(p, "{"+key+"}", w.ids[key]) }
}

func body(v any) func(*world, actor) any { return func(*world, actor) any { return v } }

// tradePath names the producer's negotiation on the shop's need.
func tradePath(prefix string) func(*world, actor) string {
	return func(w *world, _ actor) string { return prefix + w.ids["need"] + "/" + w.ids["producer"] }
}

// everyone expects the same status from every signed-in actor, 401 from
// anonymous visitors.
func everyone(status int) map[actor]int {
	return map[actor]int{anon: 401, shop: status, otherShop: status, producer: status, otherProducer: status}
}

// matrix holds a row per operation ("METHOD /path" as in the OpenAPI
// document). Each concern adds its rows. Anonymous visitors expect 401
// exactly where the document requires a session.
var matrix = map[string]row{
	"POST /auth/register": {
		path: fixed("/auth/register"),
		body: body(map[string]any{"email": "new@example.fr", "password": "motdepasse1", "name": "Nouveau", "distributor": true}),
		// Registration is open to anyone; a signed-in user creates a new account too.
		expect: map[actor]int{anon: 201, shop: 201, otherShop: 201, producer: 201, otherProducer: 201},
	},
	"POST /auth/login": {
		path:   fixed("/auth/login"),
		body:   body(map[string]any{"email": "shop@example.fr", "password": daemontest.Password}),
		expect: map[actor]int{anon: 200, shop: 200, otherShop: 200, producer: 200, otherProducer: 200},
	},
	"POST /auth/password/forgot": {
		path:   fixed("/auth/password/forgot"),
		body:   body(map[string]any{"email": "personne@example.fr"}),
		expect: map[actor]int{anon: 200, shop: 200, otherShop: 200, producer: 200, otherProducer: 200},
	},
	"POST /auth/password/reset": {
		path:   fixed("/auth/password/reset"),
		body:   body(map[string]any{"token": "pas-un-jeton", "password": "motdepasse1"}),
		expect: map[actor]int{anon: 422, shop: 422, otherShop: 422, producer: 422, otherProducer: 422},
	},
	"GET /auth/logout": {
		path:   fixed("/auth/logout"),
		expect: map[actor]int{anon: 204, shop: 204, otherShop: 204, producer: 204, otherProducer: 204},
	},
	"GET /api/user":     {path: fixed("/api/user"), expect: everyone(200)},
	"PUT /api/user":     {path: fixed("/api/user"), body: body(map[string]any{"tel": "0612345678"}), expect: everyone(200)},
	"GET /api/events":   {path: fixed("/api/events"), expect: everyone(200)},
	"GET /print/mydata": {path: fixed("/print/mydata"), expect: everyone(200)},

	// Each signed-in user reads its own figures.
	"GET /api/stats/progression": {path: fixed("/api/stats/progression"), expect: everyone(200)},
	// Each screen's own read (issue 42): the catalogue is everyone's, the
	// orders and the chart's figures the user's own.
	"GET /api/catalogue":       {path: fixed("/api/catalogue"), expect: everyone(200)},
	"GET /api/orders":          {path: fixed("/api/orders"), expect: everyone(200)},
	"GET /api/stats/purchases": {path: fixed("/api/stats/purchases"), expect: everyone(200)},
	"GET /api/places":          {path: fixed("/api/places?q=74230"), expect: everyone(200)},

	"POST /api/user/close": {
		path: fixed("/api/user/close"),
		body: body(map[string]any{"current": "pas-le-bon1"}),
		// A wrong password: refused, nothing changes.
		expect: map[actor]int{anon: 401, shop: 422, otherShop: 422, producer: 422, otherProducer: 422},
	},
	"PUT /api/user/password": {
		path: fixed("/api/user/password"),
		body: body(map[string]any{"current": "pas-le-bon1", "password": "nouveau123"}),
		// A wrong current password: refused, nothing changes.
		expect: map[actor]int{anon: 401, shop: 422, otherShop: 422, producer: 422, otherProducer: 422},
	},
	// Email confirmation and notifications (issue 18): a dead link is
	// refused to anyone; a user acts on its own account only.
	"POST /auth/email/confirm": {
		path:   fixed("/auth/email/confirm"),
		body:   body(map[string]any{"token": "pas-un-jeton"}),
		expect: map[actor]int{anon: 422, shop: 422, otherShop: 422, producer: 422, otherProducer: 422},
	},
	"POST /auth/email/revert": {
		path:   fixed("/auth/email/revert"),
		body:   body(map[string]any{"token": "pas-un-jeton"}),
		expect: map[actor]int{anon: 422, shop: 422, otherShop: 422, producer: 422, otherProducer: 422},
	},
	"POST /auth/unsubscribe": {
		path:   fixed("/auth/unsubscribe"),
		body:   body(map[string]any{"token": "cGFzLXVuLWpldG9u.c2lnbmF0dXJl"}),
		expect: map[actor]int{anon: 422, shop: 422, otherShop: 422, producer: 422, otherProducer: 422},
	},
	"POST /auth/unsubscribe/one-click": {
		path:   fixed("/auth/unsubscribe/one-click?t=cGFzLXVuLWpldG9u.c2lnbmF0dXJl"),
		expect: map[actor]int{anon: 422, shop: 422, otherShop: 422, producer: 422, otherProducer: 422},
	},
	"POST /api/user/email/resend": {
		path: fixed("/api/user/email/resend"),
		body: body(map[string]any{"which": "account"}),
		// The test accounts registered as visitors do: unconfirmed.
		expect: everyone(200),
	},
	"PUT /api/user/email": {
		path: fixed("/api/user/email"),
		body: body(map[string]any{"current": "pas-le-bon1", "email": "nouvelle@example.fr"}),
		// A wrong current password: refused, nothing changes.
		expect: map[actor]int{anon: 401, shop: 422, otherShop: 422, producer: 422, otherProducer: 422},
	},
	"PUT /api/user/notifications": {
		path:   fixed("/api/user/notifications"),
		body:   body(map[string]any{"kind": "proposal", "mode": "daily"}),
		expect: everyone(200),
	},
	// One's own name (issue 41): each session's person's.
	"PUT /api/user/person": {
		path:   fixed("/api/user/person"),
		body:   body(map[string]any{"name": "Claire Martin"}),
		expect: everyone(200),
	},
	"GET /api/needs": {
		path:   func(w *world, a actor) string { return "/api/needs?distributor=" + w.ids["shop"] },
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 403, producer: 200, otherProducer: 200},
	},
	"POST /api/needs": {
		path:   fixed("/api/needs"),
		body:   body(map[string]any{"product": "poire", "date": "2027-01", "quantity": 5}),
		expect: map[actor]int{anon: 401, shop: 201, otherShop: 201, producer: 403, otherProducer: 403},
	},
	"GET /api/needs/{id}": {
		path:   withID("/api/needs/{need}", "need"),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 200, otherProducer: 200},
	},
	"PUT /api/needs/{id}": {
		path:   withID("/api/needs/{need}", "need"),
		body:   body(map[string]any{"quantity": 150}),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 403, otherProducer: 403},
	},
	"DELETE /api/needs/{id}": {
		path:   withID("/api/needs/{freeNeed}", "freeNeed"),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 403, otherProducer: 403},
	},
	"GET /api/needs/{id}/prices": {
		path:   withID("/api/needs/{need}/prices", "need"),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 200, otherProducer: 200},
	},
	"POST /api/needs/bulk": {
		path:   fixed("/api/needs/bulk"),
		body:   body(map[string]any{"product": "poire", "quantities": []float64{1, 2}, "dates": []string{"2027-01", "2027-02"}}),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 200, producer: 403, otherProducer: 403},
	},
	"PUT /api/proposals/{needId}/{producerId}": {
		path: tradePath("/api/proposals/"),
		body: body(map[string]any{"quantity": 45, "price": 1.6}),
		// The producer modifies its pending correction, the shop counters it.
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 200, otherProducer: 403},
	},
	"PUT /api/proposalreview/{needId}/{producerId}": {
		path: tradePath("/api/proposalreview/"),
		body: body(map[string]any{"accepted": true}),
		// Only the side that did not make the correction answers it.
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 409, otherProducer: 403},
	},
	"DELETE /api/proposals/{needId}/{producerId}": {
		path: tradePath("/api/proposals/"),
		// Only the side that made the correction withdraws it.
		expect: map[actor]int{anon: 401, shop: 409, otherShop: 404, producer: 200, otherProducer: 403},
	},
	"GET /public/other/products.csv": {
		path:   fixed("/public/other/products.csv"),
		expect: map[actor]int{anon: 200, shop: 200, otherShop: 200, producer: 200, otherProducer: 200},
	},
	// Deliveries (issue 6): the shop's changes, the producer's claim, the
	// shop's review, and the documents of the two parties.
	"GET /api/deliveries/settings": {path: fixed("/api/deliveries/settings"), expect: everyone(200)},
	"PUT /api/deliveries/update/{orderId}/{deliveryId}": {
		path:   withIDs("/api/deliveries/update/{order}/{delivery}"),
		body:   body(map[string]any{"date": "2026-12-04"}),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 403, otherProducer: 403},
	},
	// The shop's reception: the world's lines are not named, so the shop
	// reaches the rule (422, every line to tick) past the authorization.
	"POST /api/deliveries/reception/{orderId}/{deliveryId}": {
		path:   withIDs("/api/deliveries/reception/{order}/{delivery}"),
		body:   body(map[string]any{"key": "authz-reception-key", "receivedBy": "Léa", "deliveryLines": []any{}}),
		expect: map[actor]int{anon: 401, shop: 422, otherShop: 404, producer: 403, otherProducer: 403},
	},
	// No reception in the world: no picture is anyone's (TestReception
	// reads them as the parties).
	"GET /print/image/{imageId}": {
		path:   fixed("/print/image/0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a"),
		expect: map[actor]int{anon: 401, shop: 404, otherShop: 404, producer: 404, otherProducer: 404},
	},
	"PUT /api/deliveries/cancel/{orderId}/{deliveryId}": {
		path:   withIDs("/api/deliveries/cancel/{order}/{delivery}"),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 403, otherProducer: 403},
	},
	"PUT /api/deliveries/claim/{orderId}/{deliveryId}": {
		path: withIDs("/api/deliveries/claim/{invoicedOrder}/{doneDelivery}"),
		body: func(w *world, _ actor) any {
			return map[string]any{"deliveryLines": []map[string]any{{"_id": w.ids["doneLine"], "quantityClaimed": -1, "claimType": "quality"}}}
		},
		// The done delivery (29 October) is past its claim window: the
		// claim is refused (409) to its producer, after the role and
		// ownership checks.
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 409, otherProducer: 404},
	},
	// Each party answers the other's claim: the world's delivery has
	// none, so both reach the rule (409) past the ownership check.
	"PUT /api/deliveries/review/{orderId}/{deliveryId}": {
		path:   withIDs("/api/deliveries/review/{order}/{delivery}"),
		body:   body(map[string]any{"accepted": true}),
		expect: map[actor]int{anon: 401, shop: 409, otherShop: 404, producer: 409, otherProducer: 404},
	},
	"GET /print/delivery/{orderId}/{deliveryId}": {
		path:   withIDs("/print/delivery/{order}/{delivery}"),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 200, otherProducer: 404},
	},
	"GET /print/invoice/{orderId}": {
		path:   withIDs("/print/invoice/{invoicedOrder}"),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 200, otherProducer: 404},
	},
	// The farmer's day (issue 40): producers only, each its own day (the
	// other producer's is empty, its order of the shop's stop refused).
	"GET /api/deliveries/day/{date}": {
		path:   fixed("/api/deliveries/day/2026-12-03"),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 200, otherProducer: 200},
	},
	"PUT /api/deliveries/day/{date}/round": {
		path:   fixed("/api/deliveries/day/2026-12-03/round"),
		body:   func(w *world, _ actor) any { return map[string]any{"stops": []string{w.ids["shop"]}} },
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 200, otherProducer: 422},
	},
	"GET /print/day/{date}": {
		path:   fixed("/print/day/2026-12-03"),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 200, otherProducer: 200},
	},
	// Minimum order and delivery fees (issue 40): a producer's own
	// settings; a shop reads the terms a producer gives it.
	"GET /api/user/delivery-terms": {
		path:   fixed("/api/user/delivery-terms"),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 200, otherProducer: 200},
	},
	"PUT /api/user/delivery-terms": {
		path:   fixed("/api/user/delivery-terms"),
		body:   body(map[string]any{"minimum": 80, "fee": 12.5, "freeAbove": 300, "bands": []any{map[string]any{"upToKm": 10, "fee": 5}}}),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 200, otherProducer: 200},
	},
	"PUT /api/user/delivery-terms/shops/{shopId}": {
		path:   withID("/api/user/delivery-terms/shops/{shop}", "shop"),
		body:   body(map[string]any{"fee": 0}),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 200, otherProducer: 200},
	},
	"DELETE /api/user/delivery-terms/shops/{shopId}": {
		path:   withID("/api/user/delivery-terms/shops/{shop}", "shop"),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 404, otherProducer: 404},
	},
	"GET /api/producers/{producerId}/delivery-terms": {
		path:   withID("/api/producers/{producer}/delivery-terms", "producer"),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 200, producer: 403, otherProducer: 403},
	},
	// Producers' own products (issue 39): a producer's own list; no
	// product in the world, so a product's id is no one's (404); every
	// signed-in user reads a producer's page and a product's photo.
	"GET /api/supplied-products": {
		path:   fixed("/api/supplied-products"),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 200, otherProducer: 200},
	},
	"POST /api/supplied-products": {
		path: fixed("/api/supplied-products"),
		body: body(map[string]any{"productType": "tomme-de-savoie", "name": "Tomme", "unitQuantity": 1, "months": []int{1},
			"refPrice": 0, "labels": []string{"aop"}}),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 201, otherProducer: 201},
	},
	"PUT /api/supplied-products/{productId}": {
		path:   fixed("/api/supplied-products/0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a"),
		body:   body(map[string]any{"productType": "tomme-de-savoie", "name": "Tomme", "unitQuantity": 1, "months": []int{1}}),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 404, otherProducer: 404},
	},
	"DELETE /api/supplied-products/{productId}": {
		path:   fixed("/api/supplied-products/0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a"),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 404, otherProducer: 404},
	},
	"PUT /api/supplied-products/{productId}/photo": {
		path:   fixed("/api/supplied-products/0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a/photo"),
		body:   body(map[string]any{"photo": []byte("pas une image")}),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 422, otherProducer: 422},
	},
	"DELETE /api/supplied-products/{productId}/photo": {
		path:   fixed("/api/supplied-products/0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a/photo"),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 404, otherProducer: 404},
	},
	"GET /api/producers/{producerId}/supplied-products": {
		path:   withID("/api/producers/{producer}/supplied-products", "producer"),
		expect: everyone(200),
	},
	"GET /api/supplied-products/types": {
		path:   fixed("/api/supplied-products/types?family=fromages&label=aop&km=50"),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 200, producer: 403, otherProducer: 403},
	},
	"GET /api/supplied-products/search": {
		path:   fixed("/api/supplied-products/search?family=fromages&label=aop&km=50"),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 200, producer: 403, otherProducer: 403},
	},
	// Offers (issue 39): a producer posts and withdraws its own (the
	// world's producers have no product: 422), a shop takes one (no offer
	// in the world: 404); everyone lists theirs.
	"GET /api/offers": {path: fixed("/api/offers?productType=pomme-reinette"), expect: everyone(200)},
	"POST /api/offers": {
		path:   fixed("/api/offers"),
		body:   body(map[string]any{"suppliedProduct": "0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a", "month": "2027-02", "quantity": 10, "price": 2}),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 422, otherProducer: 422},
	},
	"DELETE /api/offers/{offerId}": {
		path:   fixed("/api/offers/0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a"),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 404, otherProducer: 404},
	},
	"POST /api/offers/{offerId}/take": {
		path:   fixed("/api/offers/0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a/take"),
		body:   body(map[string]any{"quantity": 5}),
		expect: map[actor]int{anon: 401, shop: 404, otherShop: 404, producer: 403, otherProducer: 403},
	},
	// A producer's suggestions of types (issue 39): its own, producers only.
	"GET /api/type-suggestions": {
		path:   fixed("/api/type-suggestions"),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 200, otherProducer: 200},
	},
	"POST /api/type-suggestions": {
		path:   fixed("/api/type-suggestions"),
		body:   body(map[string]any{"name": "Tomme des Bauges", "family": "fromages", "unit": "kg"}),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 201, otherProducer: 201},
	},
	"GET /print/product-photo/{imageId}": {
		path:   fixed("/print/product-photo/0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a"),
		expect: map[actor]int{anon: 401, shop: 404, otherShop: 404, producer: 404, otherProducer: 404},
	},
	// Electronic invoicing (issue 38): a producer's own connection to its
	// PA, producers only; the test and the connection to a PA that does
	// not answer (port 1) say so and store nothing. The PA's webhook is
	// no session's: without its bearer token, 401 for everyone.
	"GET /api/user/pa": {
		path:   fixed("/api/user/pa"),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 200, otherProducer: 200},
	},
	"POST /api/user/pa/test": {
		path:   fixed("/api/user/pa/test"),
		body:   body(paUnreachable),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 200, otherProducer: 200},
	},
	"PUT /api/user/pa": {
		path:   fixed("/api/user/pa"),
		body:   body(paUnreachable),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 422, otherProducer: 422},
	},
	"DELETE /api/user/pa": {
		path:   fixed("/api/user/pa"),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 200, otherProducer: 200},
	},
	"POST /api/user/pa/invoices/{invoiceId}/cancel": {
		path:   fixed("/api/user/pa/invoices/0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a/cancel"),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 404, otherProducer: 404},
	},
	"POST /api/user/pa/invoices/{invoiceId}/reissue": {
		path:   fixed("/api/user/pa/invoices/0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a/reissue"),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 404, otherProducer: 404},
	},
	"POST /pa/webhook/{producerId}": {
		path:   withID("/pa/webhook/{producer}", "producer"),
		body:   body(map[string]any{"flowInfo": map[string]any{"flowId": "f-1"}}),
		expect: map[actor]int{anon: 401, shop: 401, otherShop: 401, producer: 401, otherProducer: 401},
	},
	// Payments (issue 17): the producer records and confirms, the shop
	// declares; the other side of another pair is refused.
	"GET /api/payments": {path: fixed("/api/payments"), expect: everyone(200)},
	// The older rows of one account (issue 42): the two parties only; a
	// partner one has no document with is not found.
	"GET /api/payments/{partnerId}/history": {
		path: func(w *world, a actor) string {
			if a == producer || a == otherProducer {
				return "/api/payments/" + w.ids["shop"] + "/history?before=2026-11-01"
			}
			return "/api/payments/" + w.ids["producer"] + "/history?before=2026-11-01"
		},
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 200, otherProducer: 404},
	},
	"POST /api/payments": {
		path: fixed("/api/payments"),
		body: func(w *world, _ actor) any {
			return map[string]any{"partnerId": w.ids["shop"], "amount": 10.5, "paidOn": "2026-11-19", "method": "virement"}
		},
		// The other producer has no invoice with that shop: 422.
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 200, otherProducer: 422},
	},
	"POST /api/payments/declare": {
		path: fixed("/api/payments/declare"),
		body: func(w *world, _ actor) any {
			return map[string]any{"partnerId": w.ids["producer"], "amount": 10.5, "paidOn": "2026-11-19", "method": "cheque"}
		},
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 422, producer: 403, otherProducer: 403},
	},
	"PUT /api/payments/{paymentId}/confirm": {
		path:   withIDs("/api/payments/{declaredPayment}/confirm"),
		body:   body(map[string]any{"accepted": true}),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 200, otherProducer: 404},
	},
	"PUT /api/payments/{paymentId}/undo": {
		path: withIDs("/api/payments/{recordedPayment}/undo"),
		// The shop is a party but only the producer undoes what it recorded.
		expect: map[actor]int{anon: 401, shop: 409, otherShop: 404, producer: 200, otherProducer: 404},
	},
	"PUT /api/reminders/{shopId}": {
		path:   withIDs("/api/reminders/{shop}"),
		body:   body(map[string]any{"enabled": false}),
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 200, otherProducer: 404},
	},
	"GET /print/statement/{partnerId}": {
		path: func(w *world, a actor) string {
			if a == producer || a == otherProducer {
				return "/print/statement/" + w.ids["shop"]
			}
			return "/print/statement/" + w.ids["producer"]
		},
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 200, otherProducer: 404},
	},
	// The buyer's documents of the flat-rate refund (the producer is under
	// it, the shop has a VAT number): for the two parties of the payment.
	"GET /print/purchase-slip/{paymentId}": {
		path:   withIDs("/print/purchase-slip/{recordedPayment}"),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 200, otherProducer: 404},
	},
	"GET /print/flat-rate-certificate/{partnerId}/{year}": {
		path: func(w *world, a actor) string {
			if a == producer || a == otherProducer {
				return "/print/flat-rate-certificate/" + w.ids["shop"] + "/2026"
			}
			return "/print/flat-rate-certificate/" + w.ids["producer"] + "/2026"
		},
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 200, otherProducer: 404},
	},
	"GET /api/payments/transfer": {
		path: func(w *world, _ actor) string { return "/api/payments/transfer?documents=" + w.ids["invoice"] },
		// The other shop names an invoice that is not its own: 422.
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 422, producer: 403, otherProducer: 403},
	},
	"GET /print/transfer": {
		path: func(w *world, _ actor) string { return "/print/transfer?documents=" + w.ids["invoice"] },
		// The other shop's file names an invoice that is not its own: 422.
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 422, producer: 403, otherProducer: 403},
	},
	"GET /print/creditnote/{id}": {
		path:   withIDs("/print/creditnote/{creditNote}"),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 200, otherProducer: 404},
	},
	"GET /print/invoices/{month}": {
		path: fixed("/print/invoices/2026-11"),
		// The other producer has no November document nor payment: 404.
		expect: map[actor]int{anon: 401, shop: 403, otherShop: 403, producer: 200, otherProducer: 404},
	},
	"GET /print/purchases/{month}": {
		path: fixed("/print/purchases/2026-11"),
		// The other shop has no November document nor payment: 404.
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 403, otherProducer: 403},
	},
	"GET /api/accounting": {
		path:   fixed("/api/accounting"),
		expect: everyone(200),
	},
	"PUT /api/accounting/accounts": {
		path:   fixed("/api/accounting/accounts"),
		body:   body(map[string]any{"bank": "5121"}),
		expect: everyone(200),
	},
	"POST /api/needs-loader": {
		path:      fixed("/api/needs-loader"),
		multipart: &upload{field: "importfile", filename: "besoins.xlsx", fixture: "good.xlsx"},
		expect:    map[actor]int{anon: 401, shop: 200, otherShop: 200, producer: 403, otherProducer: 403},
	},
	"POST /api/needs-loader/preview": {
		path:      fixed("/api/needs-loader/preview"),
		multipart: &upload{field: "importfile", filename: "besoins.xlsx", fixture: "good.xlsx"},
		expect:    map[actor]int{anon: 401, shop: 200, otherShop: 200, producer: 403, otherProducer: 403},
	},
	"POST /api/needs/importstd/sim": {
		path:   fixed("/api/needs/importstd/sim"),
		body:   body(map[string]any{"turnover": 90000, "months": []string{"2026-12", "2027-01"}}),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 200, producer: 403, otherProducer: 403},
	},
	"POST /api/needs/importstd/commit": {
		path:   fixed("/api/needs/importstd/commit"),
		body:   body(map[string]any{"turnover": 90000, "months": []string{"2026-12", "2027-01"}}),
		expect: map[actor]int{anon: 401, shop: 200, otherShop: 200, producer: 403, otherProducer: 403},
	},
	"GET /public/other/exemple_import.xlsx": {
		path:   fixed("/public/other/exemple_import.xlsx"),
		expect: map[actor]int{anon: 200, shop: 200, otherShop: 200, producer: 200, otherProducer: 200},
	},
	"GET /public/other/produits.xlsx": {
		path:   fixed("/public/other/produits.xlsx"),
		expect: map[actor]int{anon: 200, shop: 200, otherShop: 200, producer: 200, otherProducer: 200},
	},
	// The site's public settings: the accessibility statement's contact.
	"GET /public/site": {
		path:   fixed("/public/site"),
		expect: map[actor]int{anon: 200, shop: 200, otherShop: 200, producer: 200, otherProducer: 200},
	},
	// Operations: the test's clients are on the daemon's machine.
	"GET /healthz": {
		path:   fixed("/healthz"),
		expect: map[actor]int{anon: 200, shop: 200, otherShop: 200, producer: 200, otherProducer: 200},
	},
	"GET /metrics": {
		path:   fixed("/metrics"),
		expect: map[actor]int{anon: 200, shop: 200, otherShop: 200, producer: 200, otherProducer: 200},
	},
}

// withIDs fills every {key} of p from the world's ids.
func withIDs(p string) func(*world, actor) string {
	return func(w *world, _ actor) string {
		out := p // each world its own ids: the row serves both engines'
		for k, v := range w.ids {
			out = strings.ReplaceAll(out, "{"+k+"}", v)
		}
		return out
	}
}

// upload is a multipart body with one file of testdata/xlsx.
type upload struct{ field, filename, fixture string }

// buildWorld seeds the world into db, a migrated database of either
// engine.
func buildWorld(t *testing.T, db *store.DB) *world {
	t.Helper()
	ctx := context.Background()
	s := daemontest.New(t, db)
	w := &world{tokens: map[actor]string{}, ids: map[string]string{}}
	for _, a := range []struct {
		who   actor
		email string
		shop  bool
	}{{shop, "shop@example.fr", true}, {otherShop, "other-shop@example.fr", true}, {producer, "farm@example.fr", false}, {otherProducer, "other-farm@example.fr", false}} {
		var id string
		if a.shop {
			_, id = s.Register(a.email, string(a.who), true)
		} else {
			_, id = s.Producer(a.email, string(a.who))
		}
		w.ids[strings.ReplaceAll(string(a.who), " ", "-")] = id
		token, err := accounts.NewSession(ctx, db, id, daemontest.Start)
		if err != nil {
			t.Fatal(err)
		}
		w.tokens[a.who] = token
	}
	for _, o := range []struct {
		owner  actor
		roles  []string
		domain string
	}{{otherShop, accounts.ShopRoles, "other-shop.fr"}, {otherProducer, accounts.FarmRoles, "other-farm.fr"}} {
		owner := s.Client()
		owner.Header.Set("Cookie", "primeur_session="+w.tokens[o.owner])
		for _, role := range o.roles[1:] {
			email := role + "@" + o.domain
			owner.Do("POST", "/api/team/invitations", map[string]any{"email": email, "role": role}).Expect(t, 201)
			s.Client().Do("POST", "/auth/invitation/accept", map[string]any{"token": invitationToken(t, s, email), "name": role, "password": daemontest.Password}).Expect(t, 200)
			var person string
			if err := db.GetContext(ctx, &person, db.Rebind(`SELECT id FROM people WHERE email = ?`), email); err != nil {
				t.Fatal(err)
			}
			token, err := accounts.NewPersonSession(ctx, db, person, w.ids[strings.ReplaceAll(string(o.owner), " ", "-")], daemontest.Start)
			if err != nil {
				t.Fatal(err)
			}
			m := caller{actor(string(o.owner) + "'s " + role), o.owner, role}
			w.members = append(w.members, m)
			w.tokens[m.who] = token
		}
	}
	c := s.Client()
	c.Header.Set("Cookie", "primeur_session="+w.tokens[shop])
	var need struct {
		ID string `json:"_id"`
	}
	c.Do("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-12", "quantity": 100}).Expect(t, 201).JSON(t, &need)
	w.ids["need"] = need.ID
	c.Do("POST", "/api/needs", map[string]any{"product": "carotte", "date": "2026-12", "quantity": 50}).Expect(t, 201).JSON(t, &need)
	w.ids["freeNeed"] = need.ID
	oc := s.Client()
	oc.Header.Set("Cookie", "primeur_session="+w.tokens[otherShop])
	oc.Do("POST", "/api/needs", map[string]any{"product": "pomme", "date": "2026-12", "quantity": 70}).Expect(t, 201).JSON(t, &need)
	w.ids["otherNeed"] = need.ID

	// The producer's commitment on the shop's need, its order and a planned
	// delivery, as trading leaves them…
	tw := tradetest.Between(t, db, w.ids["producer"], w.ids["shop"])
	w.ids["order"] = tw.Order(tw.Farm, tw.Shop, "2026-12-01")
	w.ids["delivery"] = tw.Delivery(w.ids["order"], "2026-12-03", orders.Planned, tradetest.L{Product: "tomate", Price: 150, Expected: 4000})
	// …and its pending correction.
	if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		_, err := trade.Propose(ctx, tx, tw.Farm, w.ids["need"], tw.Farm.ID, trade.Offer{Quantity: 50, Price: 1.5}, daemontest.Start)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// An October order, done and invoiced.
	w.ids["invoicedOrder"] = tw.Order(tw.Farm, tw.Shop, "2026-10-01")
	w.ids["doneDelivery"] = tw.Delivery(w.ids["invoicedOrder"], "2026-10-29", orders.Done,
		tradetest.L{Product: "tomate", Price: 150, Expected: 4000, Sent: tradetest.Dec(4000)})
	w.ids["doneLine"] = tw.Line(w.ids["doneDelivery"], "tomate")
	// …with an accepted claim on another delivery, settled by a credit
	// note issued with the invoice.
	claimed := tw.Delivery(w.ids["invoicedOrder"], "2026-10-22", orders.Done,
		tradetest.L{Product: "tomate", Price: 150, Expected: 4000, Sent: tradetest.Dec(4000)})
	tw.Exec(`UPDATE delivery_lines SET quantity_claimed = -100, claim_type = 'quality' WHERE delivery_id = ?`, claimed)
	tw.Exec(`UPDATE deliveries SET claim_status = 'accepted' WHERE id = ?`, claimed)
	if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		_, err := billing.Issue(ctx, tx, w.ids["invoicedOrder"], daemontest.Start, daemontest.Start.Location())
		return err
	}); err != nil {
		t.Fatal(err)
	}
	credits, err := billing.Credits(ctx, db, w.ids["invoicedOrder"], "", "")
	if err != nil || len(credits) != 1 {
		t.Fatalf("credit notes %+v, %v", credits, err)
	}
	w.ids["creditNote"] = credits[0].ID
	inv, err := billing.ForOrder(ctx, db, w.ids["invoicedOrder"])
	if err != nil {
		t.Fatal(err)
	}
	w.ids["invoice"] = inv.ID
	tw.Exec(`UPDATE users SET iban = 'FR7630006000011234567890189', bic = 'AGRIFRPP882' WHERE id IN (?, ?)`, tw.Shop.ID, tw.Farm.ID)
	tw.Exec(`UPDATE users SET siret = '98765432400019', tvaintracom = 'FR14987654324' WHERE id = ?`, tw.Shop.ID)
	// A payment the producer recorded, one the shop declared.
	if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		rec, err := payments.Record(ctx, tx, tw.Farm, payments.Input{PartnerID: tw.Shop.ID, Amount: 1000, PaidOn: "2026-11-19",
			Method: payments.Transfer}, daemontest.Start, "2026-11-20")
		if err != nil {
			return err
		}
		dec, err := payments.Declare(ctx, tx, tw.Shop, payments.Input{PartnerID: tw.Farm.ID, Amount: 500, PaidOn: "2026-11-19",
			Method: payments.Cheque}, daemontest.Start, "2026-11-20")
		w.ids["recordedPayment"], w.ids["declaredPayment"] = rec.ID, dec.ID
		return err
	}); err != nil {
		t.Fatal(err)
	}

	return w
}

// operations lists "METHOD /path" for every operation of the API, and
// which of them the document says need a session.
func operations(t *testing.T, db *store.DB) (keys []string, needSession map[string]bool, roles map[string][]string) {
	t.Helper()
	needSession, roles = map[string]bool{}, map[string][]string{}
	for path, item := range daemontest.New(t, db).Daemon.OpenAPI().Paths {
		for method, op := range map[string]*huma.Operation{"GET": item.Get, "POST": item.Post, "PUT": item.Put, "DELETE": item.Delete, "PATCH": item.Patch} {
			if op != nil {
				key := method + " " + path
				keys = append(keys, key)
				// The PA's webhook needs its bearer token, not a session:
				// anonymous visitors are refused alike.
				needSession[key] = requiresSession(op.Security) || paWebhookOnly(op.Security)
				if r, ok := op.Extensions["x-roles"].([]string); ok {
					roles[key] = r
				}
			}
		}
	}
	sort.Strings(keys)
	return keys, needSession, roles
}

// paWebhookOnly tells whether a requirement is the PA webhook's token
// alone.
func paWebhookOnly(security []map[string][]string) bool {
	if len(security) != 1 || len(security[0]) != 1 {
		return false
	}
	_, ok := security[0]["paWebhookToken"]
	return ok
}

// requiresSession tells whether a security requirement lets a request
// through only with the session cookie: some alternative, each naming one
// of the cookie's schemes.
func requiresSession(security []map[string][]string) bool {
	for _, alternative := range security {
		_, plain := alternative["session"]
		_, host := alternative["hostSession"]
		if len(alternative) != 1 || (!plain && !host) {
			return false
		}
	}
	return len(security) > 0
}

// TestAuthorizationMatrix runs the whole matrix on both engines, over one
// seeded world per engine (issue 41): the calls that may change it — a
// write answered below 400, and the logout, a GET that ends the session
// — each on the world as it was; the others, reads and refusals, on one
// shared copy, which the reads and the refusals of each operation must
// have left as it was (SnapshotExcept Bookkeeping, compared once per
// operation). On SQLite each write has its copy (storetest.Clone, a file
// copy). On PostgreSQL a copy costs one to two seconds (a schema of some
// ninety tables, its indexes and keys): the writes run one after another
// on one copy, whose tables each write changed storetest.Restore fills
// again with the world's rows (milliseconds), so that every case runs on
// both engines without minutes of copies.
func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, origin *store.DB) {
		w := buildWorld(t, origin)
		keys, needSession, roles := operations(t, origin)
		shared := storetest.Clone(t, origin)
		server := daemontest.New(t, shared)
		postgres := origin.Dialect == store.Postgres
		var scratch *store.DB // PostgreSQL's copy for the writes, restored after each
		if postgres {
			// Restored once before the first write: from then on it marks
			// the tables each write changes, and restores only those.
			scratch = storetest.Restore(t, origin, storetest.Clone(t, origin))
		}
		before := storetest.SnapshotExcept(t, shared, storetest.Bookkeeping...)
		// call calls the operation as who, with the path and body the row
		// gives as (who's organisation's owner, or who).
		call := func(t *testing.T, s *daemontest.Server, key string, r row, who, as actor) *daemontest.Response {
			c := s.Client()
			if who != anon {
				c.Header.Set("Cookie", "primeur_session="+w.tokens[who])
			}
			var b any
			if r.body != nil {
				b = r.body(w, as)
			}
			if u := r.multipart; u != nil {
				return c.Upload(r.path(w, as), u.field, u.filename, xlsxFixture(t, u.fixture))
			}
			return c.Do(strings.SplitN(key, " ", 2)[0], r.path(w, as), b)
		}
		for _, key := range keys {
			r, ok := matrix[key]
			if !ok {
				t.Errorf("%s has no row in the authorization matrix (daemon/authz_test.go): add one", key)
				continue
			}
			if anonymous := r.expect[anon]; needSession[key] != (anonymous == http.StatusUnauthorized) {
				t.Errorf("%s: the document says a session is needed: %v; anonymous visitors expect %d", key, needSession[key], anonymous)
			}
			write := !strings.HasPrefix(key, "GET ") || key == "GET /auth/logout"
			used := false // the shared copy
			callers := make([]caller, 0, len(actors)+len(w.members))
			for _, a := range actors {
				callers = append(callers, caller{who: a, as: a})
			}
			for _, m := range append(callers, w.members...) {
				a := m.who
				want, ok := r.expect[m.as]
				if !ok {
					t.Errorf("%s: no expectation for %s", key, m.as)
					continue
				}
				if m.role != "" && r.member != 0 {
					want = r.member
				}
				if rs, stated := roles[key]; m.role != "" && stated && !slices.Contains(rs, m.role) && want != http.StatusUnauthorized {
					want = http.StatusForbidden // refused by the role, before any object is read
				}
				onCopy := want < 400 && write
				used = used || !onCopy
				t.Run(key+" as "+string(a), func(t *testing.T) {
					s := server
					switch {
					case onCopy && postgres:
						s = daemontest.New(t, scratch) // its background work ends with the subtest
					case onCopy:
						s = daemontest.New(t, storetest.Clone(t, origin))
					}
					if res := call(t, s, key, r, a, m.as); res.Status != want {
						t.Fatalf("%s as %s: %d, want %d: %s", key, a, res.Status, want, res.Body)
					}
				})
				if onCopy && postgres {
					scratch = storetest.Restore(t, origin, scratch)
				}
			}
			if !used {
				continue
			}
			if after := storetest.SnapshotExcept(t, shared, storetest.Bookkeeping...); after != before {
				t.Errorf("%s, read or refused, changed the database:\n%s", key, storetest.Changes(before, after))
				shared = storetest.Clone(t, origin)
				server = daemontest.New(t, shared)
			}
			// Each operation starts with no count of attempts (a refused
			// password counts one, and the refusals share the copy).
			if _, err := store.Exec(context.Background(), shared, `DELETE FROM throttle`); err != nil {
				t.Fatal(err)
			}
		}
		for key := range matrix {
			found := false
			for _, k := range keys {
				found = found || k == key
			}
			if !found {
				t.Errorf("matrix row %q matches no operation of the document", key)
			}
		}
	})
}
