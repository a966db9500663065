package delivery

import (
	"context"
	"fmt"
	"sort"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/decimal"
	"primeur/core/images"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/supplied"
)

// NoteLine is one line of a delivery note.
type NoteLine struct {
	Product      string
	Unit         string
	Price        decimal.Dec
	Expected     decimal.Dec
	Sent         decimal.Dec
	Claimed      decimal.Dec
	ClaimType    string
	ClaimComment string
	// The shop's reception of the line, when it differed from the note:
	// what it received, why (quality or quantity), its comment, and
	// whether a photo goes with it (PRODUCT §16 "Reception").
	Received         decimal.Dec
	ReceptionReason  string
	ReceptionComment string
	Photo            bool
}

// Note is what a delivery note (bon de livraison) shows: both parties, the
// order, the delivery and its lines.
type Note struct {
	Order    orders.Order
	Delivery orders.Delivery
	Lines    []NoteLine
	Producer accounts.User
	Shop     accounts.User
	// Signature is the picture the shop drew at its reception (a PNG),
	// nil without one.
	Signature []byte
}

// IsParty reports whether userID is the producer or the shop of the note.
func (n Note) IsParty(userID string) bool {
	return userID != "" && (userID == n.Producer.ID || userID == n.Shop.ID)
}

// LoadNote reads the note of a delivery of an order; a missing order or
// delivery, or a delivery of another order, is core.ErrNotFound.
func LoadNote(ctx context.Context, q store.Q, orderID, deliveryID string) (Note, error) {
	full, err := orders.Get(ctx, q, orderID)
	if err != nil {
		return Note{}, err
	}
	n := Note{Order: full.Order}
	var found *orders.FullDelivery
	for i := range full.Deliveries {
		if full.Deliveries[i].ID == deliveryID {
			found = &full.Deliveries[i]
		}
	}
	if found == nil {
		return Note{}, fmt.Errorf("delivery: note %s/%s: %w", orderID, deliveryID, core.ErrNotFound)
	}
	n.Delivery = found.Delivery
	var products []struct {
		ID   string `db:"id"`
		Name string `db:"name"`
		Unit string `db:"unit"`
	}
	if err := store.Select(ctx, q, &products, `SELECT p.id, p.name, p.unit FROM products p
		WHERE p.id IN (SELECT product_id FROM delivery_lines WHERE delivery_id = ?)`, deliveryID); err != nil {
		return Note{}, fmt.Errorf("delivery: note products: %w", err)
	}
	names := map[string][2]string{}
	for _, p := range products {
		names[p.ID] = [2]string{p.Name, p.Unit}
	}
	// A line whose commitment names the producer's own product says it,
	// with its sale unit and labels (issue 39).
	own, err := supplied.DocumentNames(ctx, q, orderID)
	if err != nil {
		return Note{}, err
	}
	for _, l := range found.Lines {
		p := names[l.ProductID]
		if name, ok := own[l.NeedID]; ok {
			p[0] = name
		}
		n.Lines = append(n.Lines, NoteLine{
			Product: p[0], Unit: p[1], Price: l.Price, Expected: l.QuantityExpected, Sent: l.Sent(),
			Claimed: l.QuantityClaimed, ClaimType: l.ClaimType, ClaimComment: l.ClaimComment,
			Received: deref(l.Received), ReceptionReason: deref(l.ReceptionReason), ReceptionComment: deref(l.ReceptionComment), Photo: l.PhotoID != nil,
		})
	}
	sort.SliceStable(n.Lines, func(i, j int) bool { return n.Lines[i].Product < n.Lines[j].Product })
	if n.Producer, err = accounts.ByID(ctx, q, full.ProducerID); err != nil {
		return Note{}, err
	}
	if n.Shop, err = accounts.ByID(ctx, q, full.DistributorID); err != nil {
		return Note{}, err
	}
	if id := n.Delivery.SignatureID; id != nil {
		img, err := images.Get(ctx, q, *id)
		if err != nil {
			return Note{}, fmt.Errorf("delivery: note signature: %w", err)
		}
		n.Signature = img.Data
	}
	return n, nil
}

func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
