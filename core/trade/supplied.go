package trade

import (
	"context"
	"errors"

	"primeur/core"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/supplied"
)

// MsgSuppliedProduct refuses a proposal naming a product that is not one
// of the producer's live products of the need's type (PRODUCT §3
// "Producers' products").
const MsgSuppliedProduct = "Choisissez l'un de vos produits en vente de ce type, ou aucun."

// suppliedProduct is the producer's own product a proposal names (issue
// 39): the one the producer's offer chose ("" none), checked to be one of
// its live products of the need's type; else, and on the shop's side,
// the one the negotiation named (its open proposal's, else its
// commitment's).
func (d *deal) suppliedProduct(ctx context.Context, q store.Q, chosen *string) (*string, error) {
	if chosen == nil || d.side != planning.FromProducer {
		switch {
		case d.open != nil:
			return d.open.SuppliedProduct, nil
		case d.commitment != nil:
			return d.commitment.SuppliedProduct, nil
		}
		return nil, nil
	}
	if *chosen == "" {
		return nil, nil
	}
	typ, err := supplied.LiveType(ctx, q, d.producer.ID, *chosen)
	if errors.Is(err, core.ErrNotFound) || (err == nil && typ != d.need.ProductID) {
		return nil, core.Invalid("suppliedProduct", MsgSuppliedProduct)
	}
	if err != nil {
		return nil, err
	}
	id := *chosen
	return &id, nil
}

// validationFields are the field errors of err, none when it is no
// validation error.
func validationFields(err error) []core.FieldError {
	var v *core.ValidationError
	if errors.As(err, &v) {
		return v.Fields
	}
	return nil
}
