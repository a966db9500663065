package planning

import (
	"context"
	"fmt"

	"primeur/core/store"
)

// Count is how many needs a shop has, every month (the user load's counter:
// the first steps' checklist asks whether there is one).
func Count(ctx context.Context, q store.Q, shopID string) (int, error) {
	var n int
	if err := store.Get(ctx, q, &n, `SELECT COUNT(*) FROM needs WHERE distributor_id = ?`, shopID); err != nil {
		return 0, fmt.Errorf("planning: count needs of %s: %w", shopID, err)
	}
	return n, nil
}
