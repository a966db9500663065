package billing

import (
	"context"
	"fmt"
	"time"

	"primeur/core"
	"primeur/core/decimal"
	"primeur/core/store"
)

// French refusals of Cancel (409).
const (
	MsgCancelled      = "Cette facture est déjà annulée par l'avoir "
	MsgCancelNothing  = "Les avoirs déjà émis sur cette facture l'annulent entièrement : il n'y a plus rien à annuler."
	MsgCancelDiscount = "Un avoir d'escompte a été émis sur cette facture, payée : elle ne s'annule plus par un avoir ici. " +
		"Adressez-vous à un administrateur."
)

// RefusedTerms is the payment mention of the internal credit note
// cancelling an invoice the buyer refused on its platform.
func RefusedTerms(refused string) string {
	return "Avoir interne annulant dans les comptes du vendeur la facture " + refused +
		", refusée par le client sur sa plateforme agréée : ce qui en reste dû est annulé, un paiement déjà reçu est remboursé. " +
		"Non transmis à la plateforme agréée."
}

// Cancel issues, in the caller's transaction, the credit note cancelling
// the monthly invoice id of producerID that the buyer refused on its PA
// (the caller, core/pa, checks the status 210 Refusée): the refusal
// cancels the invoice on the platforms, and the producer cancels it in
// its books by an internal credit note (Internal: never deposited), of
// the invoice's lines net of the quantities its claims' credit notes
// already took off (PRODUCT §16 "Rejected (213) and refused (210)"). It
// does not depend on the claims' window: a refusal may come after it.
// The complementary invoices of its claims stand: each is an invoice of
// its own, with its own status.
//
// Refused (409, nothing changed): an invoice replaced or cancelled
// already, one with an escompte's credit note, one whose claims' credit
// notes took everything off. Not the producer's, or not an invoice:
// core.ErrNotFound. The order row is locked first, as Issue does.
func Cancel(ctx context.Context, q store.Q, producerID, id string, now time.Time, loc *time.Location) (Invoice, error) {
	var orderID string
	err := store.Get(ctx, q, &orderID, `SELECT order_id FROM documents WHERE id = ? AND kind = 'invoice' AND producer_id = ?`, id, producerID)
	if store.IsNotFound(err) {
		return Invoice{}, fmt.Errorf("billing: cancel %s: %w", id, core.ErrNotFound)
	}
	if err != nil {
		return Invoice{}, fmt.Errorf("billing: cancel %s: %w", id, err)
	}
	var locked string
	if err := store.Get(ctx, q, &locked, `SELECT id FROM orders WHERE id = ?`+store.ForUpdate(q), orderID); err != nil {
		return Invoice{}, fmt.Errorf("billing: lock order %s: %w", orderID, err)
	}
	inv, err := Get(ctx, q, id)
	if err != nil {
		return Invoice{}, err
	}
	var by []string
	if err := store.Select(ctx, q, &by, `SELECT r.number FROM documents d JOIN documents r ON r.id = d.replaced_by WHERE d.id = ?`, id); err != nil {
		return Invoice{}, fmt.Errorf("billing: replaced %s: %w", id, err)
	}
	if len(by) > 0 {
		return Invoice{}, core.Refuse(core.ErrConflict, MsgReplaced+by[0]+".")
	}
	var refers []struct {
		ID       string `db:"id"`
		Kind     string `db:"kind"`
		Number   string `db:"number"`
		Internal bool   `db:"internal"`
	}
	if err := store.Select(ctx, q, &refers, `SELECT id, kind, number, internal FROM documents WHERE invoice_id = ? ORDER BY number`, id); err != nil {
		return Invoice{}, fmt.Errorf("billing: documents of %s: %w", id, err)
	}
	var claims []Line
	for _, r := range refers {
		switch {
		case r.Internal:
			return Invoice{}, core.Refuse(core.ErrConflict, MsgCancelled+r.Number+".")
		case r.Kind == KindDiscount:
			return Invoice{}, core.Refuse(core.ErrConflict, MsgCancelDiscount)
		case r.Kind == KindCredit:
			cn, err := GetCredit(ctx, q, r.ID)
			if err != nil {
				return Invoice{}, err
			}
			claims = append(claims, cn.Lines...)
		}
	}
	left := Net(inv.Lines, claims)
	if len(left) == 0 {
		return Invoice{}, core.Refuse(core.ErrConflict, MsgCancelNothing)
	}
	return internalCredit(ctx, q, inv, left, RefusedTerms(inv.Number), now, loc)
}

// Net is what is left of an invoice's lines once credit notes' lines
// took quantities off: each credited line takes its quantity off the
// invoice's line of the same delivery note (Chrono) and product, at the
// invoice's price; the lines left at zero are dropped. A pure function:
// TestNet.
func Net(lines, credited []Line) []Line {
	type key struct {
		chrono  int64
		product string
	}
	off := map[key]decimal.Dec{}
	for _, c := range credited {
		off[key{c.Chrono, c.ProductID}] += c.Quantity
	}
	var out []Line
	for _, l := range lines {
		k := key{l.Chrono, l.ProductID}
		take := min(off[k], l.Quantity)
		off[k] -= take
		if l.Quantity -= take; l.Quantity <= 0 {
			continue
		}
		l.Amount = Amount(l.Quantity, l.Price)
		out = append(out, l)
	}
	return out
}
