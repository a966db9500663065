package trade

import (
	"context"
	"fmt"
	"time"

	"primeur/core/decimal"
	"primeur/core/store"
)

// giveBack is the one rule of an offer's quantity after it was taken
// (PRODUCT §3 "Offers"): a commitment made from a producer's offer
// (core/offers.Take keeps the take in offer_takes) holds of the offer at
// most what it commits. When an accepted correction lowers the producer's
// commitment on needID to kept (0 when it ends it) under what its takes
// still hold, the difference goes back to the offers' remaining, newest
// take first; each take's returned keeps what it gave back, so that a
// quantity is given back once. A correction that raises a commitment takes
// nothing from an offer: the producer negotiated it beyond the offer.
// accept calls it, in the correction's transaction, under the need's lock.
func giveBack(ctx context.Context, q store.Q, needID, producerID string, kept decimal.Dec, now time.Time) error {
	var takes []struct {
		ID    string      `db:"id"`
		Offer string      `db:"offer_id"`
		Held  decimal.Dec `db:"held"`
	}
	if err := store.Select(ctx, q, &takes, `SELECT t.id, t.offer_id, t.quantity - t.returned AS held
		FROM offer_takes t JOIN offers o ON o.id = t.offer_id
		WHERE t.need_id = ? AND o.producer_id = ? AND t.returned < t.quantity
		ORDER BY t.created_at DESC, t.id DESC`+store.ForUpdateOf(q, "t, o"), needID, producerID); err != nil {
		return fmt.Errorf("trade: takes of need %s: %w", needID, err)
	}
	var held decimal.Dec
	for _, t := range takes {
		held += t.Held
	}
	excess := held - kept
	for _, t := range takes {
		if excess <= 0 {
			break
		}
		give := min(t.Held, excess)
		excess -= give
		if _, err := store.Exec(ctx, q, `UPDATE offer_takes SET returned = returned + ? WHERE id = ?`, give, t.ID); err != nil {
			return fmt.Errorf("trade: give back take %s: %w", t.ID, err)
		}
		if _, err := store.Exec(ctx, q, `UPDATE offers SET remaining = remaining + ?, updated_at = ? WHERE id = ?`,
			give, now.UnixMilli(), t.Offer); err != nil {
			return fmt.Errorf("trade: give back to offer %s: %w", t.Offer, err)
		}
	}
	return nil
}
