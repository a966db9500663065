package trade

import (
	"context"
	"fmt"

	"primeur/core/store"
)

// Producer names a producer a shop deals with.
type Producer struct {
	ID   string `db:"id"`
	Name string `db:"name"`
}

// ProducersOf returns the producers a shop deals with, by name: those with
// an order with it (every commitment ever accepted made one) and those
// with a proposal on its needs of month from or later (the needs its user
// load carries; open negotiations are never on past months). Its cost
// follows the shop's own trade, through the indexes on orders
// (distributor, month), needs (distributor, month) and proposals (need).
func ProducersOf(ctx context.Context, q store.Q, shopID, from string) ([]Producer, error) {
	var ps []Producer
	if err := store.Select(ctx, q, &ps, `SELECT id, name FROM users WHERE id IN (
			SELECT o.producer_id FROM orders o WHERE o.distributor_id = ?
			UNION
			SELECT p.producer_id FROM needs n JOIN proposals p ON p.need_id = n.id
			WHERE n.distributor_id = ? AND n.month >= ?)
		ORDER BY name, id`, shopID, shopID, from); err != nil {
		return nil, fmt.Errorf("trade: producers of %s: %w", shopID, err)
	}
	return ps, nil
}
