// Package stats reads the figures of the progression statistics (PRODUCT §2
// "Statistics", "Progression"): per month and product, the value of a
// user's done deliveries — a shop's purchases, a producer's sales —, each
// line counted as it is invoiced (PRODUCT §16 "Invoiced quantity"):
// (quantitySent + quantityClaimed when the claim was accepted) × price,
// rounded to the cent per line. Planned and cancelled deliveries count for
// nothing. The months run from Span−1 months before the current month to
// it, so that every month of the last year has the month before it and the
// same month a year earlier. The browser computes the changes
// (ui/src/stats/progression.ts).
package stats

import (
	"context"
	"fmt"
	"sort"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/store"
)

// Span is how many months the figures cover, the current one included: the
// last 12 months, and the 13 before them that their changes compare with.
const Span = 25

// Series is one product's value per month, in the order of Progression.Months.
type Series struct {
	Product string        `json:"product" doc:"Product id" example:"tomate"`
	Values  []decimal.Dec `json:"values" doc:"EUR HT per month, as invoiced; 0 for a month without delivery"`
}

// Progression is a user's monthly values per product.
type Progression struct {
	// Months are the first days of the months, oldest first, the current
	// month last.
	Months []string `json:"months" doc:"The 25 months, oldest first, the current month last (its value so far)" example:"[\"2024-11-01\"]"`
	// Products are those with a value in one month at least, by id.
	Products []Series `json:"products" doc:"Every product with a done delivery in the months, by id"`
}

// invoicedQuantity is a line's quantity as invoiced (rewards counts the same).
const invoicedQuantity = `(COALESCE(l.quantity_sent, l.quantity_expected) +
	CASE WHEN d.claim_status = 'accepted' THEN l.quantity_claimed ELSE 0 END)`

// Monthly returns the progression figures of user (a shop's purchases, a
// producer's sales) for the Span months ending with current.
func Monthly(ctx context.Context, q store.Q, user accounts.User, current calendar.Month) (Progression, error) {
	first := current.AddMonths(-(Span - 1))
	end := current.AddMonths(1)
	months := make([]string, Span)
	index := map[string]int{}
	for i := range months {
		months[i] = first.AddMonths(i).String()
		index[months[i][:7]] = i
	}
	side := "o.distributor_id"
	if user.Type == accounts.Producer {
		side = "o.producer_id"
	}
	// From the user's orders (a delivery falls in its order's month or,
	// rarely, the next one); the status and dates are tested in the sum, as
	// in rewards, so that the plan starts from the user's orders.
	inWindow := `d.status = 'done' AND d.date >= ? AND d.date < ?`
	var rows []struct {
		Month   string      `db:"month"`
		Product string      `db:"product_id"`
		Value   decimal.Dec `db:"value"`
	}
	err := store.Select(ctx, q, &rows, `SELECT SUBSTR(d.date, 1, 7) AS month, l.product_id AS product_id,
			CAST(SUM(CASE WHEN `+inWindow+` AND `+invoicedQuantity+` > 0
				THEN (l.price * `+invoicedQuantity+` + 50) / 100 ELSE 0 END) AS BIGINT) AS value
		FROM orders o
		JOIN deliveries d ON d.order_id = o.id
		JOIN delivery_lines l ON l.delivery_id = d.id
		WHERE `+side+` = ? AND o.month >= ? AND o.month < ?
		GROUP BY SUBSTR(d.date, 1, 7), l.product_id`,
		first.String(), end.String(), user.ID, first.AddMonths(-1).String(), end.String())
	if err != nil {
		return Progression{}, fmt.Errorf("stats: monthly values: %w", err)
	}
	byProduct := map[string][]decimal.Dec{}
	for _, r := range rows {
		i, ok := index[r.Month]
		if !ok || r.Value == 0 {
			continue
		}
		values := byProduct[r.Product]
		if values == nil {
			values = make([]decimal.Dec, Span)
			byProduct[r.Product] = values
		}
		values[i] += r.Value
	}
	out := Progression{Months: months, Products: []Series{}}
	for product, values := range byProduct {
		out.Products = append(out.Products, Series{Product: product, Values: values})
	}
	sort.Slice(out.Products, func(i, j int) bool { return out.Products[i].Product < out.Products[j].Product })
	return out, nil
}
