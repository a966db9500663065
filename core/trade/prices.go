package trade

import (
	"context"
	"database/sql"
	"fmt"
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
	var rows []struct {
		Product  string `db:"product"`
		Amount   int64  `db:"amount"`
		Quantity int64  `db:"quantity"`
	}
	var w store.Where
	w.And(true, "month >= ?", calendar.MonthOf(now).AddMonths(-(PriceMonths-1)).String()).
		And(product != "", "product_id = ?", product)
	if err := store.Select(ctx, q, &rows, `SELECT product_id AS product,
			CAST(SUM(amount) AS BIGINT) AS amount, CAST(SUM(quantity) AS BIGINT) AS quantity
		FROM price_months WHERE `+w.SQL()+`
		GROUP BY product_id HAVING SUM(quantity) > 0 ORDER BY product_id`, w.Args()...); err != nil {
		return nil, fmt.Errorf("trade: prices: %w", err)
	}
	out := make([]Price, len(rows))
	for i, r := range rows {
		// Round half up: both sums are positive.
		out[i] = Price{Product: r.Product, Value: decimal.Dec((2*r.Amount + r.Quantity) / (2 * r.Quantity))}
	}
	return out, nil
}

// priceDelta is what a change of commitment adds to one month's sums.
type priceDelta struct {
	month            string
	amount, quantity int64
}

// countCommitment keeps price_months in step when accept replaces the
// commitment old (nil when there was none) by one of quantity × price at
// now (quantity 0 ends it).
func countCommitment(ctx context.Context, q store.Q, product string, old *planning.Proposal, quantity, price decimal.Dec, now time.Time) error {
	s := priceSums{}
	s.count(product, old, quantity, price, now)
	return s.write(ctx, q)
}

// priceKey is a row of price_months.
type priceKey struct{ product, month string }

// priceSums are changes of price_months being gathered.
type priceSums map[priceKey]*priceDelta

// count adds what replacing the commitment old (nil when there was none)
// by one of quantity × price at now changes: the old commitment leaves the
// month it was accepted in, the new one counts in now's month.
func (s priceSums) count(product string, old *planning.Proposal, quantity, price decimal.Dec, now time.Time) {
	add := func(month string, amount, qty int64) {
		k := priceKey{product, month}
		d := s[k]
		if d == nil {
			d = &priceDelta{month: month}
			s[k] = d
		}
		d.amount += amount
		d.quantity += qty
	}
	if old != nil && old.Quantity > 0 {
		add(calendar.MonthOf(time.UnixMilli(old.UpdatedAt).In(now.Location())).String(), -int64(old.Quantity)*int64(old.Price), -int64(old.Quantity))
	}
	if quantity > 0 {
		add(calendar.MonthOf(now).String(), int64(quantity)*int64(price), int64(quantity))
	}
}

// write adds the changes to price_months, rows in ascending (product,
// month) order, so concurrent acceptances lock them in the same order.
func (s priceSums) write(ctx context.Context, q store.Q) error {
	keys := make([]priceKey, 0, len(s))
	for k, d := range s {
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
	for _, k := range keys {
		d := s[k]
		if _, err := store.Exec(ctx, q, `INSERT INTO price_months (product_id, month, amount, quantity) VALUES (?, ?, ?, ?)
			ON CONFLICT (product_id, month) DO UPDATE SET amount = price_months.amount + excluded.amount,
				quantity = price_months.quantity + excluded.quantity`, k.product, k.month, d.amount, d.quantity); err != nil {
			return fmt.Errorf("trade: price sums: %w", err)
		}
	}
	return nil
}

// Execer is what RebuildPrices runs on: a *sql.Tx, a *sqlx.Tx or a
// *store.DB.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// RebuildPrices recomputes price_months from the commitments in force,
// each in the month (in loc) it was accepted, for tools and tests that
// write commitments without core/trade. Migration 10 (core/schema), which
// filled the table once, holds its own frozen copy of this computation
// (TestFrozenPriceMigrationMatchesRebuildPrices keeps the two equal).
func RebuildPrices(ctx context.Context, q Execer, d store.Dialect, loc *time.Location) error {
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
	insert := store.Rebind(d, `INSERT INTO price_months (product_id, month, amount, quantity) VALUES (?, ?, ?, ?)`)
	for k, s := range sums {
		if _, err := q.ExecContext(ctx, insert, k.product, k.month, s.amount, s.quantity); err != nil {
			return fmt.Errorf("trade: rebuild prices: %w", err)
		}
	}
	return nil
}
