package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core/activity"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/trade"
)

// ProposalPath names one producer's negotiation on one need.
type ProposalPath struct {
	NeedID     string `path:"needId" doc:"Need id"`
	ProducerID string `path:"producerId" doc:"Producer id: the caller itself for a producer"`
}

// ProposalInput is a proposal, counter-proposal or correction.
type ProposalInput struct {
	ProposalPath
	Body struct {
		Quantity float64 `json:"quantity" required:"true" doc:"Quantity in the product's unit (2 decimals for kg, whole pieces); 0 only in a correction, to end the commitment" example:"120.5"`
		Price    float64 `json:"price" required:"true" doc:"Unit price HT in EUR, more than 0, 2 decimals at most" example:"2.35"`
		// SuppliedProduct names one of the producer's own products (issue 39).
		SuppliedProduct *string `json:"suppliedProduct,omitempty" maxLength:"64" doc:"The producer's offer: one of its live products of the need's type (GET /api/supplied-products), empty for none; absent keeps the one the negotiation named. Ignored from the shop, whose counter-proposal keeps it"`
	}
}

// ReviewInput answers the open proposal.
type ReviewInput struct {
	ProposalPath
	Body struct {
		Accepted bool `json:"accepted" required:"true" doc:"true accepts (it becomes the commitment), false refuses"`
	}
}

// TradeAnswer answers every trade operation. PRODUCT §7 says these routes
// answer the need: its fields stay at the top level, where they always
// were, and what else the operation changed comes beside them, each shaped
// as in the user load (GET /api/user) and seen from the caller's side, so
// that the UI brings its copy up to date without loading the user again.
// A client that reads only the need is unaffected.
type TradeAnswer struct {
	planning.View
	Order        *orders.View    `json:"order,omitempty" doc:"After an acceptance, the order of the producer, the shop and the need's month with all its deliveries, as an item of the user load's orders seen from the caller's side (it replaces the item with the same _id, or joins the list). Absent when the operation changed no order, and when the acceptance deleted it (see removedOrder)"`
	RemovedOrder string          `json:"removedOrder,omitempty" doc:"After an acceptance that ended a commitment and so left its order without delivery nor commitment: the id of that order, which was deleted and leaves the user load's orders. Absent otherwise"`
	Events       []activity.View `json:"events" required:"true" doc:"The events the operation recorded, newest first, as items of the user load's events (the caller emitted them; they go on top of its feed): one for a proposal or a review, none for a withdrawal or for refusing a proposal already refused"`
}

// TradeOutput is the answer of a trade operation.
type TradeOutput struct {
	Body TradeAnswer
}

// tradeAnswerDoc is what every trade operation's description says of its
// answer.
const tradeAnswerDoc = " Answers the need as the caller sees it (its fields as PRODUCT §7 gives them) and, beside its " +
	"fields, `events`: the events recorded, as the caller's user load shows them."

func (d *Daemon) registerTrade(api huma.API) {
	tags := []string{"Proposals"}
	errs := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity}
	huma.Register(api, huma.Operation{
		OperationID: "put-proposal", Method: http.MethodPut, Path: "/proposals/{needId}/{producerId}", Tags: tags,
		Summary: "Propose, counter-propose or correct",
		Description: "The producer (for itself) or the need's shop creates or replaces the open proposal, which becomes " +
			"`proposed` with `from` the caller's side. With a commitment in place it is a correction (`fix:request`, " +
			"quantity 0 allowed to end the commitment), otherwise a proposal (`proposal:request`). The quantity may not " +
			"exceed the need less the other producers' commitments and proposals. A producer without delivery days gets " +
			"409 `Producer should first provide delivery days`." + tradeAnswerDoc + " Orders do not change: " +
			"`order` and `removedOrder` are absent.",
		Errors: errs,
	}, d.putProposal)
	huma.Register(api, huma.Operation{
		OperationID: "review-proposal", Method: http.MethodPut, Path: "/proposalreview/{needId}/{producerId}", Tags: tags,
		Summary: "Accept or refuse the open proposal",
		Description: "Only the side that did not make the open proposal. Accepted, it becomes the commitment (replacing " +
			"the previous one; quantity 0 ends it) and the order's upcoming deliveries are planned again; refused, it " +
			"becomes `rejected`. Records `proposal:review` or `fix:review` (refusing a proposal already refused changes " +
			"nothing and records nothing)." + tradeAnswerDoc + " After an acceptance it also carries the order with its " +
			"deliveries (`order`, or `removedOrder` when the order was left empty and deleted), as the user load gives it: the answer " +
			"holds everything the caller's user load changed, and reads only the need, that order and those events.",
		Errors: errs,
	}, d.reviewProposal)
	huma.Register(api, huma.Operation{
		OperationID: "delete-proposal", Method: http.MethodDelete, Path: "/proposals/{needId}/{producerId}", Tags: tags,
		Summary: "Withdraw the open proposal",
		Description: "Only the side that made it. The commitment, if any, stays. Records no event (PRODUCT has none for it)." +
			tradeAnswerDoc + " `events` is empty; orders do not change: `order` and `removedOrder` are absent.",
		Errors: errs,
	}, d.deleteProposal)
}

// tradeTx runs a trade operation in its own transaction and answers its
// outcome.
func (d *Daemon) tradeTx(ctx context.Context, op func(tx *sqlx.Tx) (trade.Outcome, error)) (*TradeOutput, error) {
	o, err := inTx(ctx, d, op)
	if err != nil {
		return nil, err
	}
	if o.Order != nil {
		vs := []orders.View{*o.Order}
		if err := withPA(ctx, d.db, vs); err != nil {
			return nil, err
		}
		o.Order = &vs[0]
	}
	return &TradeOutput{Body: TradeAnswer{
		View: o.Need, Order: o.Order, RemovedOrder: o.RemovedOrder, Events: o.Events,
	}}, nil
}

func (d *Daemon) putProposal(ctx context.Context, in *ProposalInput) (*TradeOutput, error) {
	return d.tradeTx(ctx, func(tx *sqlx.Tx) (trade.Outcome, error) {
		return trade.Propose(ctx, tx, currentUser(ctx), in.NeedID, in.ProducerID,
			trade.Offer{Quantity: in.Body.Quantity, Price: in.Body.Price, Product: in.Body.SuppliedProduct}, d.now())
	})
}

func (d *Daemon) reviewProposal(ctx context.Context, in *ReviewInput) (*TradeOutput, error) {
	return d.tradeTx(ctx, func(tx *sqlx.Tx) (trade.Outcome, error) {
		return trade.Review(ctx, tx, currentUser(ctx), in.NeedID, in.ProducerID, in.Body.Accepted, d.now())
	})
}

func (d *Daemon) deleteProposal(ctx context.Context, in *ProposalPath) (*TradeOutput, error) {
	return d.tradeTx(ctx, func(tx *sqlx.Tx) (trade.Outcome, error) {
		return trade.Withdraw(ctx, tx, currentUser(ctx), in.NeedID, in.ProducerID, d.now())
	})
}
