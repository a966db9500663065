package trade

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/planning"
	"primeur/core/store"
)

// PriceMonths is how many calendar months the price hint covers: the
// current month and the 11 before it.
const PriceMonths = 12

// Price is the average price of a product (PRODUCT §3 "Price record").
type Price struct {
	Product string      `json:"product" doc:"Product id"`
	Value   decimal.Dec `json:"value" doc:"Quantity-weighted average unit price HT in EUR of the commitments accepted this month and the 11 before, platform-wide"`
}

// Prices returns, per product, the quantity-weighted average price of the
// commitments in force that were accepted during the current month or the
// 11 before it, platform-wide (PRODUCT §15). It reads the monthly sums of
// table price_months — at most PriceMonths rows per product — so its cost
// does not grow with the platform's trade.
func Prices(ctx context.Context, q store.Q, now time.Time) ([]Price, error) {
	return prices(ctx, q, now, "")
}

// PriceOf returns one product's entry of Prices, read alone; ok is false
// when the product has none (no commitment in force accepted in the last
// PriceMonths months).
func PriceOf(ctx context.Context, q store.Q, product string, now time.Time) (p Price, ok bool, err error) {
	ps, err := prices(ctx, q, now, product)
	if err != nil || len(ps) == 0 {
		return Price{}, false, err
	}
	return ps[0], true, nil
}

// prices computes Prices, for one product when product is set.
func prices(ctx context.Context, q store.Q, now time.Time, product string) ([]Price, error) {
	var w store.Where
	w.And(true, "month >= ?", calendar.MonthOf(now).AddMonths(-(PriceMonths-1)).String()).
		And(product != "", "product_id = ?", product)
	var out []Price
	var id string
	var amount, quantity store.Int64
	if err := store.Each(ctx, q, `SELECT product_id AS product,
			CAST(SUM(amount) AS BIGINT) AS amount, CAST(SUM(quantity) AS BIGINT) AS quantity
		FROM price_months WHERE `+w.SQL()+`
		GROUP BY product_id HAVING SUM(quantity) > 0 ORDER BY product_id`, w.Args(), []any{&id, &amount, &quantity}, func() {
		// Round half up: both sums are positive.
		out = append(out, Price{Product: id, Value: decimal.Dec((2*amount + quantity) / (2 * quantity))})
	}); err != nil {
		return nil, fmt.Errorf("trade: prices: %w", err)
	}
	if out == nil {
		out = []Price{}
	}
	return out, nil
}

// priceDelta is what a change of commitment adds to one month's sums.
type priceDelta struct {
	month            string
	amount, quantity int64
}

// change is a change of commitment: on the need of shop for product in
// month (the need's), the commitment old of producer (nil when there was
// none) replaced at now by one of quantity × price (quantity 0 ends it).
// area is the shop's département.
type change struct {
	product, month, shop, producer, area string
	old                                  *planning.Proposal
	quantity, price                      decimal.Dec
	now                                  time.Time
}

// countCommitment keeps the price sums (price_months and the comparison's
// tables) in step when accept makes the change c.
func countCommitment(ctx context.Context, q store.Q, c change) error {
	s := newPriceSums()
	s.count(c)
	return s.write(ctx, q)
}

// priceKey is a row of price_months.
type priceKey struct{ product, month string }

// priceSums are changes of the price sums being gathered: those of
// price_months and those of the comparison (compare.go).
type priceSums struct {
	months map[priceKey]*priceDelta
	pairs  map[pairKey]*pairDelta
}

func newPriceSums() priceSums {
	return priceSums{months: map[priceKey]*priceDelta{}, pairs: map[pairKey]*pairDelta{}}
}

// count adds what the change c changes: in price_months, the old
// commitment leaves the month it was accepted in and the new one counts in
// now's month; in the comparison, the pair's sums of the need's month
// change by the difference.
func (s priceSums) count(c change) {
	add := func(month string, amount, qty int64) {
		k := priceKey{c.product, month}
		d := s.months[k]
		if d == nil {
			d = &priceDelta{month: month}
			s.months[k] = d
		}
		d.amount += amount
		d.quantity += qty
	}
	pair := s.pair(c)
	if c.old != nil && c.old.Quantity > 0 {
		amount, qty := int64(c.old.Quantity)*int64(c.old.Price), int64(c.old.Quantity)
		add(calendar.MonthOf(time.UnixMilli(c.old.UpdatedAt).In(c.now.Location())).String(), -amount, -qty)
		pair.amount, pair.quantity, pair.purchases = pair.amount-amount, pair.quantity-qty, pair.purchases-1
	}
	if c.quantity > 0 {
		amount, qty := int64(c.quantity)*int64(c.price), int64(c.quantity)
		add(calendar.MonthOf(c.now).String(), amount, qty)
		pair.amount, pair.quantity, pair.purchases = pair.amount+amount, pair.quantity+qty, pair.purchases+1
	}
}

// priceMonthColumns are the columns of price_months (write).
var priceMonthColumns = []store.Column{{Name: "product_id", Type: "text"}, {Name: "month", Type: "text"},
	{Name: "amount", Type: "bigint"}, {Name: "quantity", Type: "bigint"}}

// write adds the changes to the price sums: price_months' rows in
// ascending (product, month) order, so concurrent acceptances lock them in
// the same order, then the comparison's.
func (s priceSums) write(ctx context.Context, q store.Q) error {
	keys := make([]priceKey, 0, len(s.months))
	for k, d := range s.months {
		if d.amount != 0 || d.quantity != 0 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(a, b int) bool {
		if keys[a].product != keys[b].product {
			return keys[a].product < keys[b].product
		}
		return keys[a].month < keys[b].month
	})
	if err := store.UpsertAdding(ctx, q, "price_months", priceMonthColumns, []string{"product_id", "month"}, []string{"amount", "quantity"},
		len(keys), func(i int, dst []any) {
			k := keys[i]
			d := s.months[k]
			dst[0], dst[1], dst[2], dst[3] = k.product, k.month, d.amount, d.quantity
		}); err != nil {
		return fmt.Errorf("trade: price sums: %w", err)
	}
	return s.writeComparison(ctx, q)
}

// RebuildPrices recomputes the price sums from the commitments in force —
// price_months, each commitment in the month (in loc) it was accepted, and
// the comparison's tables (rebuildComparison) — for tools and tests that
// write commitments without core/trade. Migrations 10 and 19 (core/schema),
// which filled the tables once, hold their own frozen copies of these
// computations (TestFrozenPriceMigrationMatchesRebuildPrices and
// TestFrozenComparisonMigrationMatchesRebuild keep them equal). The rows
// are written in bulk (store.Insert: COPY on PostgreSQL in a transaction);
// run it in a transaction, or every statement commits on its own.
func RebuildPrices(ctx context.Context, q store.Q, loc *time.Location) error {
	rows, err := q.QueryContext(ctx, `SELECT n.product_id, p.quantity, p.price, p.updated_at
		FROM proposals p JOIN needs n ON n.id = p.need_id WHERE p.status = 'accepted' AND p.quantity > 0`)
	if err != nil {
		return fmt.Errorf("trade: rebuild prices: %w", err)
	}
	defer rows.Close()
	type key struct{ product, month string }
	sums := map[key]*priceDelta{}
	for rows.Next() {
		var (
			product                string
			quantity, price, stamp int64
		)
		if err := rows.Scan(&product, &quantity, &price, &stamp); err != nil {
			return fmt.Errorf("trade: rebuild prices: %w", err)
		}
		k := key{product, calendar.MonthOf(time.UnixMilli(stamp).In(loc)).String()}
		s := sums[k]
		if s == nil {
			s = &priceDelta{month: k.month}
			sums[k] = s
		}
		s.amount += quantity * price
		s.quantity += quantity
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("trade: rebuild prices: %w", err)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("trade: rebuild prices: %w", err)
	}
	if _, err := q.ExecContext(ctx, `DELETE FROM price_months`); err != nil {
		return fmt.Errorf("trade: rebuild prices: %w", err)
	}
	keys := slices.Collect(maps.Keys(sums))
	if err := store.Insert(ctx, q, "price_months", []string{"product_id", "month", "amount", "quantity"}, len(keys), func(i int, v []any) {
		k := keys[i]
		v[0], v[1], v[2], v[3] = k.product, k.month, sums[k].amount, sums[k].quantity
	}); err != nil {
		return fmt.Errorf("trade: rebuild prices: %w", err)
	}
	return rebuildComparison(ctx, q)
}
