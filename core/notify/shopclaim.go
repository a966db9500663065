package notify

import (
	"context"
	"fmt"
	"time"

	"primeur/core/grammar"
	"primeur/core/printable"
	"primeur/core/store"
)

// ShopClaim queues, for the producer, the shop's claim to review: what the
// shop's reception of the delivery of day counted otherwise than the note
// (PRODUCT §16 "Reception").
func ShopClaim(ctx context.Context, q store.Q, producerID, shopName, day string, at time.Time) error {
	return Queue(ctx, q, Item{UserID: producerID, Kind: Claim, At: at, Link: DeliveriesLink(true),
		Line: fmt.Sprintf("%s %s déclaré une réclamation à la réception de la livraison du %s.", printable.Line(shopName), grammar.Avoir(printable.Line(shopName)), dayWords(day))})
}

// ShopClaimReview queues, for the shop, the producer's answer to its claim.
func ShopClaimReview(ctx context.Context, q store.Q, shopID, producerName, day string, accepted bool, at time.Time) error {
	verb := "refusé"
	if accepted {
		verb = "accepté"
	}
	return Queue(ctx, q, Item{UserID: shopID, Kind: Answer, At: at, Link: DeliveriesLink(false),
		Line: fmt.Sprintf("%s %s %s votre réclamation sur la livraison du %s.", printable.Line(producerName), grammar.Avoir(printable.Line(producerName)), verb, dayWords(day))})
}
