package notify

import (
	"context"
	"fmt"
	"time"

	"primeur/core/grammar"
	"primeur/core/printable"
	"primeur/core/store"
)

// EInvoice is the kind of a document's status on the producer's approved
// platform (PRODUCT §16 "Electronic invoicing through an approved
// platform"): the producer hears of a rejection (213), a refusal (210) or
// a deposit the platform did not receive; the shop of a deposit (200) and
// of a payment cashed (212).
const EInvoice = "einvoice"

func init() {
	Kinds = append(Kinds, Kind{EInvoice, "Factures électroniques : dépôts, rejets, refus et encaissements", true, true})
}

// PaymentsLink is the payments screen of a producer or a shop, where each
// invoice shows its status.
func PaymentsLink(toProducer bool) string {
	if toProducer {
		return "/prod/payments"
	}
	return "/dis/payments"
}

// InvoiceStatus queues the lines of a document's new status on the PA:
// number is the document's, reason the motive ("" for none). Statuses
// that tell neither side anything new queue nothing.
func InvoiceStatus(ctx context.Context, q store.Q, producerID, producerName, shopID, shopName, number, status, reason string, at time.Time) error {
	producerName, shopName = printable.Line(producerName), printable.Line(shopName)
	why := ""
	if reason != "" {
		why = " (motif : " + printable.Line(reason) + ")"
	}
	var toProducer, toShop string
	switch status {
	case "213":
		toProducer = fmt.Sprintf("Votre plateforme agréée a rejeté la facture %s%s : elle est réputée non émise ; corrigez-en la cause, une facture corrigée la remplacera.", number, why)
	case "210":
		toProducer = fmt.Sprintf("%s %s refusé la facture %s%s.", shopName, grammar.Avoir(shopName), number, why)
	case "irrecevable":
		toProducer = fmt.Sprintf("Votre plateforme agréée n'a pas pu recevoir la facture %s%s.", number, why)
	case "200":
		toShop = fmt.Sprintf("La facture %s %s a été déposée sur sa plateforme agréée.", number, grammar.De(producerName))
	case "212":
		toShop = fmt.Sprintf("La facture %s %s est encaissée : votre paiement est reçu.", number, grammar.De(producerName))
	}
	if toProducer != "" {
		if err := Queue(ctx, q, Item{UserID: producerID, Kind: EInvoice, At: at, Link: PaymentsLink(true), Line: toProducer}); err != nil {
			return err
		}
	}
	if toShop != "" {
		if err := Queue(ctx, q, Item{UserID: shopID, Kind: EInvoice, At: at, Link: PaymentsLink(false), Line: toShop}); err != nil {
			return err
		}
	}
	return nil
}
