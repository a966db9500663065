package trade

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"primeur/core/decimal"
	"primeur/core/fees"
	"primeur/core/orders"
	"primeur/core/store"
)

// The minimum order (PRODUCT §16 "Minimum order and delivery fees"): a
// proposal, a counter-proposal or a correction, and the acceptance of one,
// that would plan a delivery of the order under the producer's minimum
// for the shop is refused with fees.MsgMinimum, naming what the smallest
// delivery misses. Only the deliveries the change re-plans are looked at
// (planned, tomorrow or later: Plan's); a delivery the plan empties is no
// delivery. Propose checks the plan the change would make
// (checkProposal); an acceptance checks the plan it makes before writing it
// (replanChecked), so that a refusal changes nothing.

// minimumHeld is the check of a plan against the pair's terms: nil when
// every delivery of the plan reaches the minimum.
func minimumHeld(a fees.Applied, p Plan) error {
	if a.Minimum <= 0 {
		return nil
	}
	var err error
	least := a.Minimum
	for _, d := range p.Deliveries {
		amount := goodsOf(d)
		if amount > 0 && amount < least {
			least, err = amount, a.Check(amount)
		}
	}
	return err
}

// goodsOf is a planned delivery's amount of goods HT.
func goodsOf(d PlannedDelivery) (sum decimal.Dec) {
	for _, l := range d.Lines {
		sum += fees.LineAmount(l.Quantity, l.Price)
	}
	return sum
}

// minimumCheck is the check replanChecked runs for an acceptance by the
// pair (producer, shop); nil when the pair has no minimum.
func minimumCheck(ctx context.Context, q store.Q, producerID, shopID string) (func(Plan) error, error) {
	a, err := fees.MinimumOf(ctx, q, producerID, shopID)
	if err != nil {
		return nil, fmt.Errorf("trade: %w", err)
	}
	if a.Minimum <= 0 {
		return nil, nil
	}
	return func(p Plan) error { return minimumHeld(a, p) }, nil
}

// checkProposal checks the plan the order of the deal's producer, shop and
// month would have if c were the producer's commitment on the deal's need
// (its quantity 0: the commitment ended): the commitments in force, this
// one replaced, over the order's deliveries as they are.
func (d *deal) checkProposal(ctx context.Context, q store.Q, c Commitment, now time.Time) error {
	check, err := minimumCheck(ctx, q, d.producer.ID, d.need.DistributorID)
	if err != nil || check == nil {
		return err
	}
	var rows []struct {
		ID   string         `db:"id"`
		Kept sql.NullString `db:"commitments"`
	}
	if err := store.Select(ctx, q, &rows, `SELECT id, commitments FROM orders WHERE producer_id = ? AND distributor_id = ? AND month = ?`,
		d.producer.ID, d.need.DistributorID, d.need.Month); err != nil {
		return fmt.Errorf("trade: order of %s: %w", d.need.ID, err)
	}
	o := orders.Order{ProducerID: d.producer.ID, DistributorID: d.need.DistributorID, Month: d.need.Month}
	var (
		deliveries []orders.FullDelivery
		kept       sql.NullString
	)
	if len(rows) > 0 {
		o.ID, kept = rows[0].ID, rows[0].Kept
		if deliveries, err = orderDeliveries(ctx, q, o.ID); err != nil {
			return err
		}
	}
	cs, err := commitmentsOf(ctx, q, o, kept)
	if err != nil {
		return err
	}
	return check(PlanOrder(PlanInput{Month: d.need.Month, Days: d.producer.Days(), Commitments: withCommitment(cs, c), Deliveries: deliveries, Now: now}))
}
