package trade

import (
	"context"
	"fmt"

	"primeur/core/store"
)

// MovePrices moves the price comparison's sums of product type from to
// into (core/catalogadmin's merge, in its transaction): each commitment
// counted for from is taken off its figures and counted the same for into
// — price_commitments, price_entities and price_cells kept in step by the
// same writes as an acceptance. The needs of from have moved to into
// first, and no shop had needs of both in one month, so that no pair of
// into is counted twice. The orders of the shops and months with needs of
// either product have their commitments changed (their product): they
// forget those they kept (kept.go).
func MovePrices(ctx context.Context, q store.Q, from, into string) error {
	if _, err := store.Exec(ctx, q, `UPDATE orders SET commitments = NULL WHERE commitments IS NOT NULL AND EXISTS
		(SELECT 1 FROM needs n WHERE n.product_id IN (?, ?) AND n.distributor_id = orders.distributor_id AND n.month = orders.month)`,
		from, into); err != nil {
		return fmt.Errorf("trade: move commitments of %s: %w", from, err)
	}
	var rows []struct {
		Shop     string `db:"shop_id"`
		Month    string `db:"month"`
		Producer string `db:"producer_id"`
		Area     string `db:"area"`
		Buyer    string `db:"buyer"`
		Seller   string `db:"seller"`
		Amount   int64  `db:"amount"`
		Quantity int64  `db:"quantity"`
	}
	if err := store.Select(ctx, q, &rows, `SELECT shop_id, month, producer_id, area, buyer, seller, amount, quantity
		FROM price_commitments WHERE product_id = ?`, from); err != nil {
		return fmt.Errorf("trade: move prices of %s: %w", from, err)
	}
	s := newPriceSums()
	for _, r := range rows {
		s.pairs[pairKey{r.Shop, r.Month, from, r.Producer}] = share{}
		s.pairs[pairKey{r.Shop, r.Month, into, r.Producer}] = share{area: r.Area, buyer: r.Buyer, seller: r.Seller,
			amount: r.Amount, quantity: r.Quantity}
	}
	if err := s.write(ctx, q); err != nil {
		return fmt.Errorf("trade: move prices of %s: %w", from, err)
	}
	// What is left of from counts nothing: its rows go.
	for _, table := range []string{"price_commitments", "price_entities", "price_cells"} {
		if _, err := store.Exec(ctx, q, `DELETE FROM `+table+` WHERE product_id = ? AND quantity = 0`, from); err != nil {
			return fmt.Errorf("trade: move prices of %s: %w", from, err)
		}
	}
	return nil
}
