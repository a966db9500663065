package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core/fees"
)

// Minimum order and delivery fees (issue 40; PRODUCT §16 "Minimum order and
// delivery fees"): a producer's settings, and the terms a shop is given by
// a producer.

// DeliveryTermsOutput is a producer's settings.
type DeliveryTermsOutput struct {
	Body fees.Settings
}

// DeliveryBand is a distance band as the form sends it.
type DeliveryBand struct {
	UpToKm float64 `json:"upToKm" required:"true" doc:"The band reaches this road distance, whole km from 1 to 1000, increasing"`
	Fee    float64 `json:"fee" required:"true" doc:"The fee HT of a delivery in the band, euros"`
}

// SetDeliveryTermsInput is a producer's terms for every shop.
type SetDeliveryTermsInput struct {
	Body struct {
		Minimum   float64        `json:"minimum" required:"true" doc:"Least amount of goods HT per delivery, euros; 0: none"`
		Fee       float64        `json:"fee" required:"true" doc:"Flat fee HT of a delivery, euros: without bands, past the last band, or for a shop that cannot be placed"`
		FreeAbove float64        `json:"freeAbove" required:"true" doc:"Amount of goods HT from which a delivery is free, euros; 0: never"`
		Bands     []DeliveryBand `json:"bands" required:"true" maxItems:"10" doc:"Fees by road distance from the farm (great-circle × 1.3), by increasing distance"`
	}
}

// ShopPath names a shop of a producer's exceptions.
type ShopPath struct {
	ShopID string `path:"shopId" maxLength:"64" doc:"The shop's id"`
}

// SetDeliveryExceptionInput is a producer's exception for one shop.
type SetDeliveryExceptionInput struct {
	ShopPath
	Body struct {
		Minimum *float64 `json:"minimum,omitempty" doc:"The shop's minimum amount of goods HT per delivery, euros; absent: the producer's"`
		Fee     *float64 `json:"fee,omitempty" doc:"The shop's fee HT per delivery, euros (0: delivered free); absent: the producer's fees"`
	}
}

// ProducerPath names a producer.
type ProducerPath struct {
	ProducerID string `path:"producerId" maxLength:"64" doc:"The producer's id"`
}

// AppliedTermsOutput are the terms of a producer for the session's shop.
type AppliedTermsOutput struct {
	Body fees.Applied
}

func (d *Daemon) registerFees(api huma.API) {
	tags := []string{"Deliveries"}
	errs := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity}
	huma.Register(api, huma.Operation{
		OperationID: "get-delivery-terms", Method: http.MethodGet, Path: "/user/delivery-terms", Tags: tags,
		Summary: "The producer's minimum order and delivery fees, and its exceptions per shop (producers)",
		Description: "Amounts HT in euros: the minimum per delivery, the flat fee, the fees by road distance band, " +
			"the amount from which a delivery is free (0: none), and the shops with their own minimum or fee.",
		Errors: errs,
	}, d.deliveryTerms)
	huma.Register(api, huma.Operation{
		OperationID: "set-delivery-terms", Method: http.MethodPut, Path: "/user/delivery-terms", Tags: tags,
		Summary: "Set the producer's minimum order and delivery fees (producers)",
		Description: "The minimum applies to every delivery the proposals and acceptances plan from now on; the fee of " +
			"a delivery is the band of the shop's distance, else the flat fee, and none from freeAbove. Answers the settings.",
		Errors: errs,
	}, d.setDeliveryTerms)
	huma.Register(api, huma.Operation{
		OperationID: "set-delivery-exception", Method: http.MethodPut, Path: "/user/delivery-terms/shops/{shopId}", Tags: tags,
		Summary:     "Set the producer's own minimum or fee for one shop (producers)",
		Description: "Either may be absent (the producer's then applies), not both. Answers the settings.",
		Errors:      append(errs, http.StatusNotFound),
	}, d.setDeliveryException)
	huma.Register(api, huma.Operation{
		OperationID: "delete-delivery-exception", Method: http.MethodDelete, Path: "/user/delivery-terms/shops/{shopId}", Tags: tags,
		Summary:     "Remove the producer's exception for one shop (producers)",
		Description: "Answers the settings.",
		Errors:      append(errs, http.StatusNotFound),
	}, d.deleteDeliveryException)
	huma.Register(api, huma.Operation{
		OperationID: "get-applied-delivery-terms", Method: http.MethodGet, Path: "/producers/{producerId}/delivery-terms", Tags: tags,
		Summary: "A producer's minimum order and delivery fee for the session's shop (shops)",
		Description: "What the shop sees before it accepts a proposal: the minimum per delivery, the fee of a delivery " +
			"(its exception, else the band of its distance, else the flat fee) and the amount from which it is free. " +
			"A producer without terms, or an id that is no producer's, answers zeros.",
		Errors: errs,
	}, d.appliedDeliveryTerms)
}

func (d *Daemon) deliveryTerms(ctx context.Context, _ *struct{}) (*DeliveryTermsOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	s, err := fees.Get(ctx, d.db, u.ID)
	if err != nil {
		return nil, err
	}
	return &DeliveryTermsOutput{Body: s}, nil
}

func (d *Daemon) setDeliveryTerms(ctx context.Context, in *SetDeliveryTermsInput) (*DeliveryTermsOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	b := in.Body
	input := fees.Input{Minimum: b.Minimum, Fee: b.Fee, FreeAbove: b.FreeAbove}
	for _, band := range b.Bands {
		input.Bands = append(input.Bands, fees.BandInput{UpToKm: band.UpToKm, Fee: band.Fee})
	}
	return d.feesTx(ctx, u.ID, func(tx *sqlx.Tx) error {
		_, err := fees.Set(ctx, tx, u.ID, input, d.now())
		return err
	})
}

func (d *Daemon) setDeliveryException(ctx context.Context, in *SetDeliveryExceptionInput) (*DeliveryTermsOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	return d.feesTx(ctx, u.ID, func(tx *sqlx.Tx) error {
		_, err := fees.SetException(ctx, tx, u.ID, in.ShopID, in.Body.Minimum, in.Body.Fee, d.now())
		return err
	})
}

func (d *Daemon) deleteDeliveryException(ctx context.Context, in *ShopPath) (*DeliveryTermsOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	return d.feesTx(ctx, u.ID, func(tx *sqlx.Tx) error { return fees.DeleteException(ctx, tx, u.ID, in.ShopID) })
}

// feesTx runs a change of a producer's settings and answers them as the
// transaction leaves them.
func (d *Daemon) feesTx(ctx context.Context, producerID string, change func(tx *sqlx.Tx) error) (*DeliveryTermsOutput, error) {
	s, err := inTx(ctx, d, func(tx *sqlx.Tx) (fees.Settings, error) {
		if err := change(tx); err != nil {
			return fees.Settings{}, err
		}
		return fees.Get(ctx, tx, producerID)
	})
	if err != nil {
		return nil, err
	}
	return &DeliveryTermsOutput{Body: s}, nil
}

func (d *Daemon) appliedDeliveryTerms(ctx context.Context, in *ProducerPath) (*AppliedTermsOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	a, err := fees.For(ctx, d.db, in.ProducerID, u.ID)
	if err != nil {
		return nil, err
	}
	return &AppliedTermsOutput{Body: a}, nil
}
