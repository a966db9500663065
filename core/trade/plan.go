package trade

import (
	"cmp"
	"slices"
	"time"

	"primeur/core/decimal"
	"primeur/core/orders"
)

// Commitment is a commitment in force as its order carries it: the
// producer's accepted proposal, of more than zero, on one of the shop's
// needs of the order's month.
type Commitment struct {
	NeedID    string      `db:"need_id"`
	ProductID string      `db:"product_id"`
	Unit      string      `db:"unit"`
	Quantity  decimal.Dec `db:"quantity"`
	Price     decimal.Dec `db:"price"`
}

// PlanInput is everything re-planning an order looks at, as plain values.
type PlanInput struct {
	// Month is the order's month, "2026-12-01".
	Month string
	// Days are the producer's delivery days, index 0 = Monday.
	Days [7]bool
	// Commitments are the commitments in force of the order's producer on
	// its shop's needs of the month, one per product.
	Commitments []Commitment
	// Deliveries are the order's deliveries, whatever their status.
	Deliveries []orders.FullDelivery
	// Now is the time of the re-plan in the business time zone: its date
	// is today.
	Now time.Time
	// NewDays says that the producer's delivery days changed: the
	// re-plannable deliveries move to them.
	NewDays bool
}

// Plan is what re-planning an order changes. It names only re-plannable
// deliveries (planned, dated tomorrow or later): the others never change.
type Plan struct {
	// Deliveries are the re-plannable deliveries the order carries once
	// re-planned, in date order: existing ones kept on their date or
	// moved, and new ones.
	Deliveries []PlannedDelivery
	// Delete lists the re-plannable deliveries no longer needed.
	Delete []string
	// DeleteOrder says that the order is left without commitment nor
	// delivery.
	DeleteOrder bool
}

// PlannedDelivery is one delivery of a Plan.
type PlannedDelivery struct {
	// ID is the existing delivery reused, "" for a new one.
	ID string
	// From is the existing delivery's date, "" for a new one; it differs
	// from Date when the delivery moves.
	From string
	Date string
	// Lines are its quantities, one per product, by product id.
	Lines []PlannedLine
}

// PlannedLine is the quantity of a product a planned delivery carries, at
// the price and under the need of the commitment it comes from.
type PlannedLine struct {
	ProductID string
	NeedID    string
	Price     decimal.Dec
	Quantity  decimal.Dec
}

// PlanOrder works out how an order's deliveries follow its commitments
// (PRODUCT §15); it does no I/O.
//
// Per committed product, done + cancelled + planned equals the
// commitment. What a delivery that is done (its sent quantity, or the
// expected one when none was set), cancelled (its expected quantity: the
// shop declined it, and re-planning must not bring it back onto the other
// days) or planned for today or earlier (its expected quantity: it never
// changes, see Replannable) carries is fixed; what remains of each
// commitment is shared evenly (Split: kilograms to the hundredth, pieces
// whole, the remainder on the last) over the re-plannable deliveries,
// which keep their dates (the shop may have moved them). When none is
// left, or when the producer's delivery days changed (NewDays), the
// quantities go to the dates of Schedule instead, reusing the re-plannable
// deliveries in date order and creating the others. A re-plannable
// delivery left without any line is deleted; so is an order left without
// commitment nor delivery.
func PlanOrder(in PlanInput) Plan {
	fixed := map[string]decimal.Dec{}
	var movable []orders.FullDelivery
	for _, d := range in.Deliveries {
		switch {
		case d.Status == orders.Done:
			for _, l := range d.Lines {
				fixed[l.ProductID] += l.Sent()
			}
		case d.Status == orders.Cancelled, d.Status == orders.Planned && !Replannable(d.Date, in.Now):
			for _, l := range d.Lines {
				fixed[l.ProductID] += l.QuantityExpected
			}
		case d.Status == orders.Planned:
			movable = append(movable, d)
		}
	}
	slices.SortStableFunc(movable, func(a, b orders.FullDelivery) int {
		return cmp.Or(cmp.Compare(a.Date, b.Date), cmp.Compare(a.Chrono, b.Chrono))
	})
	commitments := slices.Clone(in.Commitments)
	slices.SortStableFunc(commitments, func(a, b Commitment) int { return cmp.Compare(a.ProductID, b.ProductID) })

	// What remains to plan of each commitment.
	remaining := map[string]decimal.Dec{}
	var total decimal.Dec
	live := 0
	for _, c := range commitments {
		if c.Quantity <= 0 {
			continue
		}
		live++
		if r := c.Quantity - fixed[c.ProductID]; r > 0 {
			remaining[c.ProductID] = r
			total += r
		}
	}

	// The dates to plan on, each bound to a re-plannable delivery while
	// one is left to reuse.
	var slots []PlannedDelivery
	switch {
	case total == 0:
	case len(movable) > 0 && !in.NewDays:
		for _, d := range movable {
			slots = append(slots, PlannedDelivery{ID: d.ID, From: d.Date, Date: d.Date})
		}
	default:
		for i, date := range Schedule(in.Month, in.Days, in.Now) {
			s := PlannedDelivery{Date: date}
			if i < len(movable) {
				s.ID, s.From = movable[i].ID, movable[i].Date
			}
			slots = append(slots, s)
		}
	}
	if len(slots) > 0 {
		for _, c := range commitments {
			if remaining[c.ProductID] == 0 {
				continue
			}
			for i, qty := range Split(remaining[c.ProductID], len(slots), c.Unit) {
				if qty > 0 {
					slots[i].Lines = append(slots[i].Lines, PlannedLine{ProductID: c.ProductID, NeedID: c.NeedID, Price: c.Price, Quantity: qty})
				}
			}
		}
	}

	var p Plan
	kept := map[string]bool{}
	for _, s := range slots {
		if len(s.Lines) == 0 {
			continue
		}
		p.Deliveries = append(p.Deliveries, s)
		if s.ID != "" {
			kept[s.ID] = true
		}
	}
	for _, d := range movable {
		if !kept[d.ID] {
			p.Delete = append(p.Delete, d.ID)
		}
	}
	p.DeleteOrder = live == 0 && len(p.Delete) == len(in.Deliveries)
	return p
}
