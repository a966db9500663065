package trade

import (
	"context"
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
