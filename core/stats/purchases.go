package stats

import (
	"context"
	"fmt"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/store"
)

// ChartMonths and ChartBack frame the dashboard's chart of purchases
// (PRODUCT §9 "Chart: 17 months from 4 months back").
const (
	ChartMonths = 17
	ChartBack   = 4
)

// Purchases are the dashboard chart's two series (PRODUCT §2 "Dashboard"):
// per month, the value of the user's commitments ("achats prévus") and of
// its done deliveries ("achats réalisés"). The aggregates alone travel:
// the screen no longer needs a year of needs and orders to draw them
// (issue 42).
type Purchases struct {
	Months  []string      `json:"months" doc:"The 17 months, from 4 months before the current one, first days" example:"[\"2026-07-01\"]"`
	Planned []decimal.Dec `json:"planned" doc:"EUR HT per month: Σ quantity × price of the commitments on needs of the month, each rounded to the cent (a producer's own only)"`
	Done    []decimal.Dec `json:"done" doc:"EUR HT per month: the lines of the done deliveries dated in the month as invoiced ((sent + claimed when the claim was accepted) × price, rounded to the cent per line)"`
}

// PurchasesOf returns user's chart series for the ChartMonths months from
// ChartBack before current: a shop's commitments and purchases, a
// producer's own commitments and sales. Each part reads through an index
// on the user (needs by shop, proposals by producer, orders by either).
func PurchasesOf(ctx context.Context, q store.Q, user accounts.User, current calendar.Month) (Purchases, error) {
	first := current.AddMonths(-ChartBack)
	end := first.AddMonths(ChartMonths)
	out := Purchases{Months: make([]string, ChartMonths), Planned: make([]decimal.Dec, ChartMonths), Done: make([]decimal.Dec, ChartMonths)}
	index := map[string]int{}
	for i := range out.Months {
		out.Months[i] = first.AddMonths(i).String()
		index[out.Months[i][:7]] = i
	}
	type row struct {
		Month string      `db:"month"`
		Value decimal.Dec `db:"value"`
	}
	side := "n.distributor_id = ?"
	if user.Type == accounts.Producer {
		side = "p.producer_id = ?"
	}
	var planned []row
	if err := store.Select(ctx, q, &planned, `SELECT n.month AS month,
			CAST(SUM(CASE WHEN p.quantity > 0 AND p.price > 0 THEN (p.quantity * p.price + 50) / 100 ELSE 0 END) AS BIGINT) AS value
		FROM needs n JOIN proposals p ON p.need_id = n.id
		WHERE `+side+` AND p.status = 'accepted' AND n.month >= ? AND n.month < ?
		GROUP BY n.month`, user.ID, first.String(), end.String()); err != nil {
		return Purchases{}, fmt.Errorf("stats: planned purchases: %w", err)
	}
	for _, r := range planned {
		if i, ok := index[r.Month[:min(7, len(r.Month))]]; ok { // needs' months are YYYY-MM-01
			out.Planned[i] += r.Value
		}
	}
	orderSide := "o.distributor_id = ?"
	if user.Type == accounts.Producer {
		orderSide = "o.producer_id = ?"
	}
	// A delivery falls in its order's month or, rarely, the next one.
	var done []row
	if err := store.Select(ctx, q, &done, `SELECT SUBSTR(d.date, 1, 7) AS month,
			CAST(SUM(CASE WHEN `+invoicedQuantity+` > 0 AND l.price > 0
				THEN (l.price * `+invoicedQuantity+` + 50) / 100 ELSE 0 END) AS BIGINT) AS value
		FROM orders o
		JOIN deliveries d ON d.order_id = o.id
		JOIN delivery_lines l ON l.delivery_id = d.id
		WHERE `+orderSide+` AND o.month >= ? AND o.month < ? AND d.status = 'done' AND d.date >= ? AND d.date < ?
		GROUP BY SUBSTR(d.date, 1, 7)`, user.ID, first.AddMonths(-1).String(), end.String(), first.String(), end.String()); err != nil {
		return Purchases{}, fmt.Errorf("stats: done purchases: %w", err)
	}
	for _, r := range done {
		if i, ok := index[r.Month]; ok {
			out.Done[i] += r.Value
		}
	}
	return out, nil
}
