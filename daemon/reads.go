package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/stats"
)

// The per-screen reads of issue 42 ("each screen asks for what it shows"):
// the user load (user.go) carries what every screen needs, and each screen
// reads the rest scoped to what it shows — the catalogue here, the orders
// of a period, the dashboard chart's aggregates; the needs of the months in
// view (GET /api/needs, needs.go) and the feed's pages (GET /api/events,
// events.go) were already scoped; the payment screens list the open and
// recent rows and page the older ones (GET /api/payments/{partnerId}/history,
// payments.go). Every one is a GET under /api/, so that
// httpx.Revalidate gives its answer a validator and answers 304 to a client
// that holds it.

// Catalogue is every product type and family: the same for every user,
// changed only by the catalogue's own commands.
type Catalogue struct {
	Products []catalog.Product `json:"products" doc:"Every product type, the retired ones included (retired: no new need)"`
	Families []catalog.Family  `json:"families" doc:"The families of product types, in the order the interface lists them"`
}

// CatalogueOutput answers GET /api/catalogue. Its validator is a hash of
// its bytes (httpx.Revalidate), so it changes only when the catalogue does;
// the browser may keep it (private, revalidated at each use).
type CatalogueOutput struct {
	CacheControl string `header:"Cache-Control" doc:"private, no-cache: the browser keeps the answer and revalidates it (If-None-Match) before each use"`
	Body         Catalogue
}

// catalogueCaching lets the browser keep the catalogue between page loads
// and ask whether it changed: not personal, a few hundred KB as JSON, sent
// again only when it changes.
const catalogueCaching = "private, no-cache"

// OrdersInput scopes the orders read to a period of months.
type OrdersInput struct {
	From string `query:"from" doc:"First month (YYYY-MM or YYYY-MM-01); 12 months before the current one when absent"`
	To   string `query:"to" doc:"Last month (YYYY-MM or YYYY-MM-01); no limit when absent"`
}

// OrdersOutput is the user's orders of a period, seen from its side.
type OrdersOutput struct {
	Body []orders.View
}

// PurchasesOutput answers GET /api/stats/purchases.
type PurchasesOutput struct {
	Body stats.Purchases
}

func (d *Daemon) registerReads(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "get-catalogue", Method: http.MethodGet, Path: "/catalogue", Tags: []string{"User"},
		Summary: "The catalogue: every product type and family",
		Description: "The same for every user; its ETag changes only when the catalogue changes, and the browser keeps it " +
			"(Cache-Control: private, no-cache), so that a screen revalidates it for a 304 instead of fetching it again (issue 42).",
		Errors: []int{http.StatusUnauthorized},
	}, d.getCatalogue)

	huma.Register(api, huma.Operation{
		OperationID: "list-orders", Method: http.MethodGet, Path: "/orders", Tags: []string{"Deliveries"},
		Summary: "The user's orders of a period, with their deliveries",
		Description: "The orders of the months from `from` to `to` (by the order's month), seen from the user's side: a " +
			"shop's with each producer, a producer's with each shop, their deliveries, lines and invoices. From 12 months " +
			"back by default. A month that is not one is refused (422).",
		Errors: []int{http.StatusUnauthorized, http.StatusUnprocessableEntity},
	}, d.listOrders)

	huma.Register(api, huma.Operation{
		OperationID: "get-purchases", Method: http.MethodGet, Path: "/stats/purchases", Tags: []string{"Statistics"},
		Summary: "The dashboard chart's commitments and done deliveries per month",
		Description: "For the 17 months from 4 months back (Europe/Paris), the value HT of the user's commitments on needs " +
			"of each month (a producer's own) and of its done deliveries dated in it, each line as invoiced (PRODUCT §2 " +
			"\"Dashboard\", §9).",
		Errors: []int{http.StatusUnauthorized},
	}, d.getPurchases)
}

func (d *Daemon) getCatalogue(ctx context.Context, _ *struct{}) (*CatalogueOutput, error) {
	out := &CatalogueOutput{CacheControl: catalogueCaching}
	var err error
	if out.Body.Products, err = catalog.All(ctx, d.db); err != nil {
		return nil, err
	}
	if out.Body.Families, err = catalog.Families(ctx, d.db); err != nil {
		return nil, err
	}
	if out.Body.Products == nil {
		out.Body.Products = []catalog.Product{}
	}
	if out.Body.Families == nil {
		out.Body.Families = []catalog.Family{}
	}
	return out, nil
}

func (d *Daemon) listOrders(ctx context.Context, in *OrdersInput) (*OrdersOutput, error) {
	u := currentUser(ctx)
	f := orders.Filter{From: calendar.MonthOf(d.now()).AddMonths(-12).String()}
	var err error
	if in.From != "" {
		if f.From, err = planning.ParseMonth("from", in.From); err != nil {
			return nil, err
		}
	}
	if in.To != "" {
		if f.To, err = planning.ParseMonth("to", in.To); err != nil {
			return nil, err
		}
	}
	if f.To != "" && f.To < f.From {
		return nil, core.Invalid("to", MsgPeriodReversed)
	}
	if u.IsDistributor() {
		f.DistributorID = u.ID
	} else {
		f.ProducerID = u.ID
	}
	vs, err := orders.LoadViews(ctx, d.db, f, u.ID)
	if err != nil {
		return nil, err
	}
	if err := withPA(ctx, d.db, vs); err != nil {
		return nil, err
	}
	return &OrdersOutput{Body: vs}, nil
}

// MsgPeriodReversed refuses a period whose last month comes before its first.
const MsgPeriodReversed = "Le dernier mois de la période précède le premier."

func (d *Daemon) getPurchases(ctx context.Context, _ *struct{}) (*PurchasesOutput, error) {
	p, err := stats.PurchasesOf(ctx, d.db, currentUser(ctx), calendar.MonthOf(d.now()))
	if err != nil {
		return nil, err
	}
	return &PurchasesOutput{Body: p}, nil
}
