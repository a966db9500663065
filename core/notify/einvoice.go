package notify

import (
	"context"
	"fmt"
	"strings"
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
	Kinds = append(Kinds, Kind{EInvoice, "Factures électroniques : dépôts, rejets, refus et encaissements", true, true, bookkeepers})
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
	// A credit note (AV-…) is "l'avoir", masculine.
	doc, e, pron := "la facture "+number, "e", "elle"
	if strings.HasPrefix(number, "AV-") {
		doc, e, pron = "l'avoir "+number, "", "il"
	}
	Doc := strings.ToUpper(doc[:1]) + doc[1:]
	var toProducer, toShop string
	switch status {
	case "213":
		toProducer = fmt.Sprintf("Votre plateforme agréée a rejeté %s%s : %s est réputé%s non émis%s ; corrigez-en la cause, un document corrigé sous un nouveau numéro doit le remplacer.",
			doc, why, pron, e, e)
	case "210":
		toProducer = fmt.Sprintf("%s %s refusé %s%s.", shopName, grammar.Avoir(shopName), doc, why)
	case "irrecevable":
		toProducer = fmt.Sprintf("Votre plateforme agréée n'a pas pu recevoir %s%s.", doc, why)
	case "200":
		toShop = fmt.Sprintf("%s %s a été déposé%s sur sa plateforme agréée.", Doc, grammar.De(producerName), e)
	case "212":
		toShop = fmt.Sprintf("%s %s est encaissé%s : votre paiement est reçu.", Doc, grammar.De(producerName), e)
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
