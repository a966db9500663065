package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

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
	}
}

// ReviewInput answers the open proposal.
type ReviewInput struct {
	ProposalPath
	Body struct {
		Accepted bool `json:"accepted" required:"true" doc:"true accepts (it becomes the commitment), false refuses"`
	}
}

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
			"409 `Producer should first provide delivery days`. Answers the need as the caller sees it.",
		Errors: errs,
	}, d.putProposal)
	huma.Register(api, huma.Operation{
		OperationID: "review-proposal", Method: http.MethodPut, Path: "/proposalreview/{needId}/{producerId}", Tags: tags,
		Summary: "Accept or refuse the open proposal",
		Description: "Only the side that did not make the open proposal. Accepted, it becomes the commitment (replacing " +
			"the previous one; quantity 0 ends it) and the order's upcoming deliveries are planned again; refused, it " +
			"becomes `rejected`. Records `proposal:review` or `fix:review`. Answers the need as the caller sees it.",
		Errors: errs,
	}, d.reviewProposal)
	huma.Register(api, huma.Operation{
		OperationID: "delete-proposal", Method: http.MethodDelete, Path: "/proposals/{needId}/{producerId}", Tags: tags,
		Summary:     "Withdraw the open proposal",
		Description: "Only the side that made it. The commitment, if any, stays. Answers the need as the caller sees it.",
		Errors:      errs,
	}, d.deleteProposal)
}

func (d *Daemon) putProposal(ctx context.Context, in *ProposalInput) (*NeedOutput, error) {
	return d.needTx(ctx, func(tx *sqlx.Tx) (planning.View, error) {
		return trade.Propose(ctx, tx, currentUser(ctx), in.NeedID, in.ProducerID,
			trade.Offer{Quantity: in.Body.Quantity, Price: in.Body.Price}, d.nowLocal())
	})
}

func (d *Daemon) reviewProposal(ctx context.Context, in *ReviewInput) (*NeedOutput, error) {
	return d.needTx(ctx, func(tx *sqlx.Tx) (planning.View, error) {
		return trade.Review(ctx, tx, currentUser(ctx), in.NeedID, in.ProducerID, in.Body.Accepted, d.nowLocal())
	})
}

func (d *Daemon) deleteProposal(ctx context.Context, in *ProposalPath) (*NeedOutput, error) {
	return d.needTx(ctx, func(tx *sqlx.Tx) (planning.View, error) {
		return trade.Withdraw(ctx, tx, currentUser(ctx), in.NeedID, in.ProducerID, d.nowLocal())
	})
}
