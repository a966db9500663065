package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/planning"
	"primeur/core/trade"
)

// ListNeedsInput filters the needs listed.
type ListNeedsInput struct {
	Distributor string `query:"distributor" doc:"Shop whose needs to list; required for producers, implied for shops"`
	From        string `query:"from" doc:"First month (YYYY-MM or YYYY-MM-01)"`
	To          string `query:"to" doc:"Last month (YYYY-MM or YYYY-MM-01)"`
}

// NeedsOutput is a list of needs.
type NeedsOutput struct {
	Body []planning.View
}

// NeedOutput is one need.
type NeedOutput struct {
	Body planning.View
}

// CreateNeedInput is a new need.
type CreateNeedInput struct {
	Body struct {
		Product  string  `json:"product" required:"false" doc:"Product id. Needed: refused (422) without it" example:"tomate"`
		Date     string  `json:"date" required:"false" doc:"Month (YYYY-MM or YYYY-MM-01). Needed: refused (422) without it" example:"2026-12-01"`
		Quantity float64 `json:"quantity" required:"false" doc:"Quantity in the product's unit (2 decimals for kg, whole pieces); 0 when absent" example:"120.5"`
	}
}

// UpdateNeedInput changes a need's quantity.
type UpdateNeedInput struct {
	ID   string `path:"id" doc:"Need id"`
	Body struct {
		ID       *string `json:"_id,omitempty" doc:"Ignored when equal to the path id"`
		Product  *string `json:"product,omitempty" doc:"Must be the need's product"`
		Date     *string `json:"date,omitempty" doc:"Must be the need's month"`
		Quantity float64 `json:"quantity" required:"true" doc:"New quantity"`
	}
}

// NeedIDInput names a need.
type NeedIDInput struct {
	ID string `path:"id" doc:"Need id"`
}

// BulkNeedsInput sets one product's need for several months.
type BulkNeedsInput struct {
	Body struct {
		Product    string    `json:"product" required:"false" doc:"Product id. Needed: refused (422) without it" example:"tomate"`
		Quantities []float64 `json:"quantities" required:"false" maxItems:"36" doc:"One quantity per month of dates. Needed: refused (422) without it" example:"[120, 80]"`
		Dates      []string  `json:"dates" required:"false" maxItems:"36" doc:"The months (YYYY-MM or YYYY-MM-01). Needed: refused (422) without them" example:"[\"2026-12-01\", \"2027-01-01\"]"`
	}
}

// NeedsEventOutput answers a bulk add or an import: the needs written and
// the event recorded.
type NeedsEventOutput struct {
	Body struct {
		Needs []planning.View `json:"needs"`
		Event activity.View   `json:"event"`
	}
}

func (d *Daemon) registerNeeds(api huma.API) {
	tags := []string{"Needs"}
	huma.Register(api, huma.Operation{
		OperationID: "list-needs", Method: http.MethodGet, Path: "/needs", Tags: tags,
		Summary:     "List needs",
		Description: "A shop lists its own needs. A producer lists one shop's needs (`distributor`), seeing only its own proposals; without `distributor`, the needs it trades on.",
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity},
	}, d.listNeeds)
	huma.Register(api, huma.Operation{
		OperationID: "get-need", Method: http.MethodGet, Path: "/needs/{id}", Tags: tags,
		Summary: "Read one need",
		Description: "The need as GET /api/needs lists it: a shop reads its own, a producer any shop's, seeing only its own " +
			"proposals. The planner reads it when a link names a need of a month it has not read (issue 42). Another " +
			"shop's need, or none, is 404.",
		Errors: []int{http.StatusUnauthorized, http.StatusNotFound},
	}, d.getNeed)
	huma.Register(api, huma.Operation{
		OperationID: "create-need", Method: http.MethodPost, Path: "/needs", Tags: tags,
		Summary: "Create a need (shops)", DefaultStatus: http.StatusCreated,
		Description: "One product's need for one month, in the product's unit (two decimals for kg, whole pieces). " +
			"Refused (409) in a past month or when the shop already has a need for that product and month. " +
			"Records a need:create event.",
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusConflict, http.StatusUnprocessableEntity},
	}, d.createNeed)
	huma.Register(api, huma.Operation{
		OperationID: "update-need", Method: http.MethodPut, Path: "/needs/{id}", Tags: tags,
		Summary:     "Change a need's quantity (shops)",
		Description: "Refused (409) under the sum of commitments and pending proposals, or in a past month.",
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	}, d.updateNeed)
	huma.Register(api, huma.Operation{
		OperationID: "delete-need", Method: http.MethodDelete, Path: "/needs/{id}", Tags: tags,
		Summary:     "Delete a need (shops)",
		Description: "Refused (409) while the need holds commitments or pending proposals.",
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict},
	}, d.deleteNeed)
	huma.Register(api, huma.Operation{
		OperationID: "need-prices", Method: http.MethodGet, Path: "/needs/{id}/prices", Tags: tags,
		Summary: "Compare a need's prices",
		Description: "The average unit price HT paid on the platform for the need's product and month — commitments in force — " +
			"on the whole platform and in the shop's département, with the number of purchases behind each, rounded to 10 cents. " +
			"Only commitments between two companies count: logins confirmed, valid SIRETs of two different SIRENs, 1 kg or piece " +
			"and 10 € HT at least. A figure is null unless at least 3 distinct SIRENs bought and 3 sold behind it, none holding " +
			"more than half its quantity (PRODUCT §15 \"Price privacy\"). The shop reads its own needs; a producer any shop's. " +
			"Reads two rows of sums, whatever the platform's size.",
		Errors: []int{http.StatusUnauthorized, http.StatusNotFound},
	}, d.needPrices)
	huma.Register(api, huma.Operation{
		OperationID: "bulk-needs", Method: http.MethodPost, Path: "/needs/bulk", Tags: tags,
		Summary:     "Set one product's need for several months (shops)",
		Description: "All or nothing. Records one need:create:bulk event.",
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusConflict, http.StatusUnprocessableEntity},
	}, d.bulkNeeds)
}

func (d *Daemon) listNeeds(ctx context.Context, in *ListNeedsInput) (*NeedsOutput, error) {
	u := currentUser(ctx)
	f := planning.Filter{}
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
	switch {
	case u.IsDistributor():
		if in.Distributor != "" && in.Distributor != u.ID {
			return nil, core.Refuse(core.ErrForbidden, MsgProducersOnly)
		}
		f.DistributorID = u.ID
	case in.Distributor != "":
		shop, err := accounts.ByID(ctx, d.db, in.Distributor)
		if err != nil || !shop.IsDistributor() {
			return nil, core.ErrNotFound
		}
		f.DistributorID, f.OnlyProposalsOf = shop.ID, u.ID
	default:
		f.TradedBy, f.OnlyProposalsOf = u.ID, u.ID
	}
	needs, err := planning.List(ctx, d.db, f)
	if err != nil {
		return nil, err
	}
	return &NeedsOutput{Body: needs}, nil
}

func (d *Daemon) getNeed(ctx context.Context, in *NeedIDInput) (*NeedOutput, error) {
	u := currentUser(ctx)
	f := planning.Filter{ID: in.ID, OnlyProposalsOf: u.ID}
	if u.IsDistributor() {
		f = planning.Filter{ID: in.ID, DistributorID: u.ID}
	}
	needs, err := planning.List(ctx, d.db, f)
	if err != nil {
		return nil, err
	}
	if len(needs) != 1 {
		return nil, core.ErrNotFound
	}
	return &NeedOutput{Body: needs[0]}, nil
}

func (d *Daemon) createNeed(ctx context.Context, in *CreateNeedInput) (*NeedOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	return d.needTx(ctx, func(tx *sqlx.Tx) (planning.View, error) {
		return planning.Create(ctx, tx, u.ID, planning.NeedInput{
			ProductID: in.Body.Product, Date: in.Body.Date, Quantity: in.Body.Quantity,
		}, d.now())
	})
}

// needTx runs one operation on a need in its own transaction and answers
// the need.
func (d *Daemon) needTx(ctx context.Context, op func(tx *sqlx.Tx) (planning.View, error)) (*NeedOutput, error) {
	v, err := inTx(ctx, d, op)
	if err != nil {
		return nil, err
	}
	return &NeedOutput{Body: v}, nil
}

func (d *Daemon) updateNeed(ctx context.Context, in *UpdateNeedInput) (*NeedOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	return d.needTx(ctx, func(tx *sqlx.Tx) (planning.View, error) {
		if err := checkImmutable(ctx, tx, u.ID, in); err != nil {
			return planning.View{}, err
		}
		return planning.Update(ctx, tx, u.ID, in.ID, in.Body.Quantity, d.now())
	})
}

// checkImmutable refuses a PUT that would change a need's product or month;
// the fields may be sent back as they are.
func checkImmutable(ctx context.Context, tx *sqlx.Tx, shopID string, in *UpdateNeedInput) error {
	n, _, err := planning.Get(ctx, tx, in.ID)
	if err != nil || n.DistributorID != shopID {
		return err // a missing or foreign need is reported by planning.Update
	}
	b := in.Body
	if (b.ID != nil && *b.ID != n.ID) || (b.Product != nil && *b.Product != n.ProductID) ||
		(b.Date != nil && !sameMonth(*b.Date, n.Month)) {
		return core.Invalid("product", planning.MsgImmutable)
	}
	return nil
}

func sameMonth(date, month string) bool {
	m, err := planning.ParseMonth("date", date)
	return err == nil && m == month
}

func (d *Daemon) deleteNeed(ctx context.Context, in *NeedIDInput) (*NeedOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	return d.needTx(ctx, func(tx *sqlx.Tx) (planning.View, error) {
		return planning.Delete(ctx, tx, u.ID, in.ID, d.now())
	})
}

func (d *Daemon) bulkNeeds(ctx context.Context, in *BulkNeedsInput) (*NeedsEventOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	out := &NeedsEventOutput{}
	err = d.db.Tx(ctx, func(tx *sqlx.Tx) error {
		out.Body.Needs, out.Body.Event, err = planning.Bulk(ctx, tx, u.ID, in.Body.Product, in.Body.Quantities, in.Body.Dates, d.now())
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// NeedPricesInput names the need whose prices are compared.
type NeedPricesInput struct {
	ID string `path:"id" doc:"Need id"`
}

// ComparisonOutput is a need's price comparison.
type ComparisonOutput struct {
	Body trade.Comparison
}

func (d *Daemon) needPrices(ctx context.Context, in *NeedPricesInput) (*ComparisonOutput, error) {
	u := currentUser(ctx)
	n, _, err := planning.Get(ctx, d.db, in.ID)
	if err != nil {
		return nil, err
	}
	if u.IsDistributor() && n.DistributorID != u.ID {
		return nil, core.ErrNotFound
	}
	shop, err := accounts.ByID(ctx, d.db, n.DistributorID)
	if err != nil {
		return nil, err
	}
	c, err := trade.Compare(ctx, d.db, n.ProductID, n.Month, trade.AreaOf(shop.AddressLine1, shop.AddressLine2, shop.AddressLine3))
	if err != nil {
		return nil, err
	}
	return &ComparisonOutput{Body: c}, nil
}
