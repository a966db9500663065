package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core/offers"
	"primeur/core/trade"
)

// Offers a shop can take (issue 39, PRODUCT §3 "Offers"): a producer
// posts availability or a surplus of one of its products for a month;
// shops list them and take one in one step (core/offers).

// OfferBody is an offer as the producer's form sends it.
type OfferBody struct {
	SuppliedProduct string  `json:"suppliedProduct" required:"false" maxLength:"64" doc:"One of the producer's live products (GET /api/supplied-products). Needed"`
	Month           string  `json:"month" required:"false" maxLength:"20" doc:"The month offered: this month or one of the 24 next. Needed" example:"2027-02"`
	Quantity        float64 `json:"quantity" required:"false" doc:"The quantity offered in the product type's unit: more than 0, 2 decimals for kg and litres, whole otherwise" example:"200"`
	Price           float64 `json:"price" required:"false" doc:"Unit price HT in EUR per unit of the type, more than 0, 2 decimals at most" example:"1.6"`
}

// CreateOfferInput posts an offer.
type CreateOfferInput struct {
	Body OfferBody
}

// OfferPath names an offer.
type OfferPath struct {
	OfferID string `path:"offerId" maxLength:"64" doc:"The offer's id"`
}

// TakeOfferInput takes part of an offer.
type TakeOfferInput struct {
	OfferPath
	Body struct {
		Quantity float64 `json:"quantity" required:"false" doc:"What the shop takes, in the type's unit: more than 0, at most what remains" example:"80"`
	}
}

// ListOffersInput restricts a shop's list of offers.
type ListOffersInput struct {
	ProductType string `query:"productType" maxLength:"200" doc:"Offers of this catalogue type only" example:"pomme-reinette"`
	Month       string `query:"month" maxLength:"20" doc:"Offers of this month only" example:"2027-02"`
	Producer    string `query:"producer" maxLength:"64" doc:"Offers of this producer only (its page)"`
}

// OfferOutput is one offer.
type OfferOutput struct {
	Body offers.Offer
}

// OffersOutput is a list of offers.
type OffersOutput struct {
	Body []offers.Offer
}

func (d *Daemon) registerOffers(api huma.API) {
	tags := []string{"Products"}
	errs := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity}
	huma.Register(api, huma.Operation{
		OperationID: "list-offers", Method: http.MethodGet, Path: "/offers", Tags: tags,
		Summary: "Offers: a producer's own, or those a shop may take",
		Description: "A producer reads its offers not withdrawn whose month is not over. A shop reads the offers " +
			"with something left, of a month not over, of products on sale, nearest producer first (road distance), " +
			"then by month and product; at most 200, restricted by type, month or producer.",
		Errors: errs,
	}, d.listOffers)
	huma.Register(api, huma.Operation{
		OperationID: "create-offer", Method: http.MethodPost, Path: "/offers", Tags: tags,
		Summary: "Post an offer of one of the producer's products (producers)",
		Description: "A quantity of one of its live products for a month, at a unit price HT (PRODUCT §3 \"Offers\"); " +
			"each rule refuses in French (422), 409 past 200 offers. Answers the offer.",
		DefaultStatus: http.StatusCreated,
		Errors:        append(errs, http.StatusConflict),
	}, d.createOffer)
	huma.Register(api, huma.Operation{
		OperationID: "withdraw-offer", Method: http.MethodDelete, Path: "/offers/{offerId}", Tags: tags,
		Summary:       "Withdraw one of the producer's offers (producers)",
		Description:   "Shops no longer see it; what they took stays theirs.",
		DefaultStatus: http.StatusNoContent,
		Errors:        append(errs, http.StatusNotFound),
	}, d.withdrawOffer)
	huma.Register(api, huma.Operation{
		OperationID: "take-offer", Method: http.MethodPost, Path: "/offers/{offerId}/take", Tags: []string{"Proposals"},
		Summary: "Take part of an offer (shops)",
		Description: "In one transaction: the shop's need of the offer's type and month is created (or raised by what " +
			"its open part lacks), the producer's proposal is made from the offer (its product, its price) and " +
			"accepted, and the offer's remaining quantity goes down. More than remains is 422; an offer withdrawn or " +
			"over, a producer without delivery days, or a need this producer already negotiates is 409." +
			tradeAnswerDoc + " `events` are the acceptance's; `order` is the order the commitment joined.",
		Errors: append(errs, http.StatusNotFound, http.StatusConflict),
	}, d.takeOffer)
}

func (d *Daemon) listOffers(ctx context.Context, in *ListOffersInput) (*OffersOutput, error) {
	u := currentUser(ctx)
	var (
		os  []offers.Offer
		err error
	)
	if u.IsProducer() {
		os, err = offers.Own(ctx, d.db, u.ID, d.now())
	} else {
		os, err = offers.ForShop(ctx, d.db, u.ID, offers.Filter{Type: in.ProductType, Month: in.Month, Producer: in.Producer}, d.now())
	}
	if err != nil {
		return nil, err
	}
	return &OffersOutput{Body: os}, nil
}

func (d *Daemon) createOffer(ctx context.Context, in *CreateOfferInput) (*OfferOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	o, err := inTx(ctx, d, func(tx *sqlx.Tx) (offers.Offer, error) {
		return offers.Create(ctx, tx, u.ID, offers.Input{SuppliedProduct: in.Body.SuppliedProduct, Month: in.Body.Month,
			Quantity: in.Body.Quantity, Price: in.Body.Price}, d.now())
	})
	if err != nil {
		return nil, err
	}
	return &OfferOutput{Body: o}, nil
}

func (d *Daemon) withdrawOffer(ctx context.Context, in *OfferPath) (*struct{}, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	_, err = inTx(ctx, d, func(tx *sqlx.Tx) (struct{}, error) {
		return struct{}{}, offers.Withdraw(ctx, tx, u.ID, in.OfferID, d.now())
	})
	return nil, err
}

func (d *Daemon) takeOffer(ctx context.Context, in *TakeOfferInput) (*TradeOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	return d.tradeTx(ctx, func(tx *sqlx.Tx) (trade.Outcome, error) {
		return offers.Take(ctx, tx, u, in.OfferID, in.Body.Quantity, d.now())
	})
}
