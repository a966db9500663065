package trade

import (
	"context"
	"fmt"
	"time"

	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/store"
)

// PriceMonths is how many calendar months back the price hint reaches:
// the needs of the current month, of the 11 before it and of the months
// ahead.
const PriceMonths = 12

// Price is the average price of a product (PRODUCT §3 "Price record").
type Price struct {
	Product string      `json:"product" doc:"Product id"`
	Value   decimal.Dec `json:"value" doc:"Quantity-weighted average unit price HT in EUR of the commitments counted for needs of this month, the 11 before and the months ahead, platform-wide, over the months whose figure may be shown (PRODUCT §15 \"Price privacy\"), rounded half up to 10 cents"`
}

// Prices returns, per product, the quantity-weighted average price of the
// commitments counted (Counts) on the platform for needs of the current
// month, the PriceMonths-1 before and the months ahead, rounded half up to
// PriceStep: the national cells of price_cells for those months, each
// taken only when its own figure may be shown (cell.shown) — a product
// none of whose months may be shown has no price. It reads one row per
// product and month, whatever the platform's size.
func Prices(ctx context.Context, q store.Q, now time.Time) ([]Price, error) {
	return prices(ctx, q, now, "")
}

// PriceOf returns one product's entry of Prices, read alone; ok is false
// when the product has none.
func PriceOf(ctx context.Context, q store.Q, product string, now time.Time) (p Price, ok bool, err error) {
	ps, err := prices(ctx, q, now, product)
	if err != nil || len(ps) == 0 {
		return Price{}, false, err
	}
	return ps[0], true, nil
}

// pricesQuery reads the national cells of the months from a month on
// (price_cells_area), of one product when one is set.
func pricesQuery(one bool) string {
	q := `SELECT product_id, ` + cellColumns + ` FROM price_cells WHERE area = ? AND month >= ?`
	if one {
		q += ` AND product_id = ?`
	}
	return q + ` ORDER BY product_id`
}

// prices computes Prices, for one product when product is set.
func prices(ctx context.Context, q store.Q, now time.Time, product string) ([]Price, error) {
	args := []any{National, calendar.MonthOf(now).AddMonths(-(PriceMonths - 1)).String()}
	if product != "" {
		args = append(args, product)
	}
	out := []Price{}
	var (
		id, last         string
		c                cell
		amount, quantity int64
	)
	flush := func() {
		if quantity > 0 {
			out = append(out, Price{Product: last, Value: average(amount, quantity)})
		}
		amount, quantity = 0, 0
	}
	if err := store.Each(ctx, q, pricesQuery(product != ""), args,
		[]any{&id, (*store.Int64)(&c.Amount), (*store.Int64)(&c.Quantity), (*store.Int64)(&c.Purchases), (*store.Int64)(&c.Buyers),
			(*store.Int64)(&c.Sellers), (*store.Int64)(&c.LargestBuyer), (*store.Int64)(&c.LargestSeller)}, func() {
			if id != last {
				flush()
				last = id
			}
			if c.shown() {
				amount, quantity = amount+c.Amount, quantity+c.Quantity
			}
		}); err != nil {
		return nil, fmt.Errorf("trade: prices: %w", err)
	}
	flush()
	return out, nil
}
