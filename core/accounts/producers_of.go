package accounts

import (
	"context"
	"fmt"

	"primeur/core/store"
)

// ProducersOf names the producers a shop's screens show: those of the
// proposals and commitments on its needs of the month from ("YYYY-MM-01")
// on, and of its orders from that month on, by name. Each part goes
// through an index on the shop (needs_distributor_month,
// orders_distributor), so that what it reads follows the shop's own data
// (docs/ARCHITECTURE.md "Scale").
func ProducersOf(ctx context.Context, q store.Q, shopID, from string) ([]Name, error) {
	ns := []Name{}
	if err := store.Select(ctx, q, &ns, `SELECT u.id, u.name
		FROM (SELECT p.producer_id AS id FROM needs n JOIN proposals p ON p.need_id = n.id
				WHERE n.distributor_id = ? AND n.month >= ?
			UNION SELECT o.producer_id FROM orders o WHERE o.distributor_id = ? AND o.month >= ?) s
		CROSS JOIN users u WHERE u.id = s.id
		ORDER BY u.name, u.id`, shopID, from, shopID, from); err != nil {
		return nil, fmt.Errorf("accounts: producers of %s: %w", shopID, err)
	}
	return ns, nil
}
