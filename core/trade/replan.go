package trade

import (
	"context"
	"fmt"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/orders"
	"primeur/core/store"
)

// EnsureOrder returns the id of the order of (producer, shop, month),
// creating it when missing, and locks it until the transaction ends.
func EnsureOrder(ctx context.Context, q store.Q, producerID, shopID, month string, now time.Time) (string, error) {
	ms := now.UnixMilli()
	if _, err := store.Exec(ctx, q, `INSERT INTO orders (id, producer_id, distributor_id, month, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (producer_id, distributor_id, month) DO NOTHING`,
		core.NewID(), producerID, shopID, month, ms, ms); err != nil {
		return "", fmt.Errorf("trade: create order: %w", err)
	}
	var id string
	if err := store.Get(ctx, q, &id, `SELECT id FROM orders WHERE producer_id = ? AND distributor_id = ? AND month = ?`+store.ForUpdate(q),
		producerID, shopID, month); err != nil {
		return "", fmt.Errorf("trade: lock order: %w", err)
	}
	return id, nil
}

// ReplanOrder brings the order's planned deliveries in line with the
// producer's commitments after a commitment changed (an acceptance, a
// correction, a commitment ended): see PlanOrder. The re-plannable
// deliveries keep their dates. A change of a delivery by the shop
// (delivery.Update, delivery.Cancel) re-plans nothing: PRODUCT §15 re-plans
// on a change of a commitment or of the producer's delivery days, and a
// cancelled delivery counts as delivered. The caller holds the
// transaction; the order is locked here.
func ReplanOrder(ctx context.Context, q store.Q, orderID string, now time.Time) error {
	return replanOrder(ctx, q, orderID, now, false)
}

// ReplanProducer re-plans every open order of a producer after a change of
// its delivery days: the re-plannable deliveries move to the new days
// (PlanOrder with NewDays). Open orders are those of the current month or
// later and those with a re-plannable delivery. It returns the ids of the
// orders looked at.
func ReplanProducer(ctx context.Context, q store.Q, producerID string, now time.Time) ([]string, error) {
	var ids []string
	month := calendar.MonthOf(now).String()
	if err := store.Select(ctx, q, &ids, `SELECT id FROM orders WHERE producer_id = ? AND (month >= ? OR id IN
			(SELECT order_id FROM deliveries WHERE producer_id = ? AND status = ? AND date > ?))
		ORDER BY id`+store.ForUpdate(q), producerID, month, producerID, orders.Planned, calendar.DateOf(now).String()); err != nil {
		return nil, fmt.Errorf("trade: open orders of %s: %w", producerID, err)
	}
	for _, id := range ids {
		if err := replanOrder(ctx, q, id, now, true); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// replanOrder locks the order, reads what PlanOrder looks at, and writes
// the plan.
func replanOrder(ctx context.Context, q store.Q, orderID string, now time.Time, newDays bool) error {
	var locked string
	if err := store.Get(ctx, q, &locked, `SELECT id FROM orders WHERE id = ?`+store.ForUpdate(q), orderID); err != nil {
		if store.IsNotFound(err) {
			return fmt.Errorf("trade: order %s: %w", orderID, core.ErrNotFound)
		}
		return fmt.Errorf("trade: lock order %s: %w", orderID, err)
	}
	o, err := orders.Get(ctx, q, orderID)
	if err != nil {
		return err
	}
	producer, err := accounts.ByID(ctx, q, o.ProducerID)
	if err != nil {
		return fmt.Errorf("trade: %w", err)
	}
	var cs []Commitment
	if err := store.Select(ctx, q, &cs, `SELECT n.id AS need_id, n.product_id, pr.unit, p.quantity, p.price
		FROM proposals p JOIN needs n ON n.id = p.need_id JOIN products pr ON pr.id = n.product_id
		WHERE p.producer_id = ? AND n.distributor_id = ? AND n.month = ? AND p.status = 'accepted' AND p.quantity > 0
		ORDER BY n.product_id`, o.ProducerID, o.DistributorID, o.Month); err != nil {
		return fmt.Errorf("trade: commitments of order %s: %w", orderID, err)
	}
	p := PlanOrder(PlanInput{
		Month: o.Month, Days: producer.Days(), Commitments: cs, Deliveries: o.Deliveries, Now: now, NewDays: newDays,
	})
	return writePlan(ctx, q, o, p, now)
}

// writePlan applies a plan of the order o, as read under its lock, in the
// caller's transaction: the deliveries the plan drops are deleted, the
// others created (with the producer's next delivery-note number) or moved
// and given their lines; the order is deleted when the plan says so, and
// its updated_at set when anything changed.
func writePlan(ctx context.Context, q store.Q, o orders.Full, p Plan, now time.Time) error {
	ms := now.UnixMilli()
	changed := false
	for _, id := range p.Delete {
		if _, err := store.Exec(ctx, q, `DELETE FROM deliveries WHERE id = ?`, id); err != nil {
			return fmt.Errorf("trade: delete delivery %s: %w", id, err)
		}
		changed = true
	}
	existing := map[string]orders.FullDelivery{}
	for _, d := range o.Deliveries {
		existing[d.ID] = d
	}
	for _, d := range p.Deliveries {
		var c bool
		var err error
		if d.ID == "" {
			c, err = createDelivery(ctx, q, o.Order, d, ms)
		} else if old, ok := existing[d.ID]; ok {
			c, err = updateDelivery(ctx, q, old, d, ms)
		} else {
			err = fmt.Errorf("trade: delivery %s is not one of order %s", d.ID, o.ID)
		}
		if err != nil {
			return err
		}
		changed = changed || c
	}
	if p.DeleteOrder {
		if _, err := store.Exec(ctx, q, `DELETE FROM orders WHERE id = ?`, o.ID); err != nil {
			return fmt.Errorf("trade: delete order %s: %w", o.ID, err)
		}
		return nil
	}
	if changed {
		if _, err := store.Exec(ctx, q, `UPDATE orders SET updated_at = ? WHERE id = ?`, ms, o.ID); err != nil {
			return fmt.Errorf("trade: touch order %s: %w", o.ID, err)
		}
	}
	return nil
}

// createDelivery writes a new planned delivery with the producer's next
// delivery-note number, and its lines.
func createDelivery(ctx context.Context, q store.Q, o orders.Order, d PlannedDelivery, ms int64) (bool, error) {
	chrono, err := store.Next(ctx, q, "chrono:"+o.ProducerID)
	if err != nil {
		return false, fmt.Errorf("trade: %w", err)
	}
	id := core.NewID()
	if _, err := store.Exec(ctx, q, `INSERT INTO deliveries (id, order_id, producer_id, status, date, chrono, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, id, o.ID, o.ProducerID, orders.Planned, d.Date, chrono, ms, ms); err != nil {
		return false, fmt.Errorf("trade: create delivery: %w", err)
	}
	for _, l := range d.Lines {
		if err := insertLine(ctx, q, id, l); err != nil {
			return false, err
		}
	}
	return true, nil
}

// updateDelivery brings an existing delivery, old as read, to its planned
// date and lines, writing only what differs. It reports whether anything
// changed.
func updateDelivery(ctx context.Context, q store.Q, old orders.FullDelivery, d PlannedDelivery, ms int64) (bool, error) {
	changed := false
	if old.Date != d.Date {
		if _, err := store.Exec(ctx, q, `UPDATE deliveries SET date = ?, updated_at = ? WHERE id = ?`, d.Date, ms, old.ID); err != nil {
			return false, fmt.Errorf("trade: move delivery %s: %w", old.ID, err)
		}
		changed = true
	}
	current := map[string]orders.Line{}
	for _, l := range old.Lines {
		current[l.ProductID] = l
	}
	for _, pl := range d.Lines {
		l, ok := current[pl.ProductID]
		delete(current, pl.ProductID)
		switch {
		case !ok:
			if err := insertLine(ctx, q, old.ID, pl); err != nil {
				return false, err
			}
			changed = true
		case l.QuantityExpected != pl.Quantity || l.Price != pl.Price || l.NeedID != pl.NeedID:
			// A quantity the shop set against the old expectation no longer
			// applies once the expectation changes.
			if _, err := store.Exec(ctx, q, `UPDATE delivery_lines SET need_id = ?, price = ?, quantity_expected = ?,
				quantity_sent = CASE WHEN quantity_expected = ? THEN quantity_sent ELSE NULL END WHERE id = ?`,
				pl.NeedID, pl.Price, pl.Quantity, pl.Quantity, l.ID); err != nil {
				return false, fmt.Errorf("trade: update line %s: %w", l.ID, err)
			}
			changed = true
		}
	}
	for _, l := range current {
		if _, err := store.Exec(ctx, q, `DELETE FROM delivery_lines WHERE id = ?`, l.ID); err != nil {
			return false, fmt.Errorf("trade: delete line %s: %w", l.ID, err)
		}
		changed = true
	}
	if changed {
		if _, err := store.Exec(ctx, q, `UPDATE deliveries SET updated_at = ? WHERE id = ?`, ms, old.ID); err != nil {
			return false, fmt.Errorf("trade: touch delivery %s: %w", old.ID, err)
		}
	}
	return changed, nil
}

// insertLine adds a planned line to a delivery.
func insertLine(ctx context.Context, q store.Q, deliveryID string, l PlannedLine) error {
	if _, err := store.Exec(ctx, q, `INSERT INTO delivery_lines (id, delivery_id, need_id, product_id, price, quantity_expected)
		VALUES (?, ?, ?, ?, ?, ?)`, core.NewID(), deliveryID, l.NeedID, l.ProductID, l.Price, l.Quantity); err != nil {
		return fmt.Errorf("trade: add line to %s: %w", deliveryID, err)
	}
	return nil
}
