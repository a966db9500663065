package trade

import (
	"context"
	"fmt"
	"time"

	"primeur/core/orders"
	"primeur/core/store"
)

// ReplanOrderAfter is the re-plan of an acceptance (or, with newDays, of
// new delivery days), for the tests: with the producer's days given (nil:
// read), it returns the order as the re-plan left it (nil when deleted).
func ReplanOrderAfter(ctx context.Context, q store.Q, orderID string, now time.Time, newDays bool, days *[7]bool) (*orders.Full, error) {
	return replanOrder(ctx, q, orderID, now, newDays, days)
}

// CommitmentsQuery is the re-plan's read of an order's commitments.
const CommitmentsQuery = commitmentsQuery

// UpdateLines is the re-plan's statement giving n lines new values.
var UpdateLines = updateLines

// KeptCommitments are the commitments the order of (producer, shop,
// month) keeps (kept.go; valid false: none) and those the re-plan reads,
// both as the order keeps them.
func KeptCommitments(ctx context.Context, q store.Q, producerID, shopID, month string) (kept string, valid bool, read string, err error) {
	var k []*string
	if err := store.Select(ctx, q, &k, `SELECT commitments FROM orders WHERE producer_id = ? AND distributor_id = ? AND month = ?`,
		producerID, shopID, month); err != nil || len(k) != 1 {
		return "", false, "", fmt.Errorf("order: %d, %w", len(k), err)
	}
	cs, err := readCommitments(ctx, q, producerID, shopID, month)
	if err != nil {
		return "", false, "", err
	}
	if k[0] != nil {
		kept, valid = *k[0], true
	}
	return kept, valid, encodeCommitments(cs), nil
}
