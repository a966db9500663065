package trade

import (
	"context"
	"fmt"
	"slices"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/store"
)

// commitment is an accepted proposal as an order needs it.
type commitment struct {
	NeedID    string      `db:"need_id"`
	ProductID string      `db:"product_id"`
	Unit      string      `db:"unit"`
	Quantity  decimal.Dec `db:"quantity"`
	Price     decimal.Dec `db:"price"`
}

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
// correction, a commitment ended) or after the shop changed a delivery: per
// committed product, done + cancelled + planned equals the commitment.
// Deliveries that are done or cancelled, and planned ones dated today or
// earlier, never change; the
// re-plannable ones (dated tomorrow or later, see Replannable) keep their
// dates (the shop may have moved them) and share what remains evenly; when
// none is left, new ones are planned on the producer's delivery days
// (Schedule). A delivery left without any line is deleted, and so is an
// order left without delivery nor commitment. The caller holds the
// transaction; the order is locked here.
func ReplanOrder(ctx context.Context, q store.Q, orderID string, now time.Time) error {
	return replanOrder(ctx, q, orderID, now, false)
}

// ReplanProducer re-plans every open order of a producer after a change of
// its delivery days: the re-plannable deliveries move to the new days
// (Schedule) and quantities are shared again so that done + cancelled +
// planned equals each commitment. Open orders are those of the current month or later and
// those with a re-plannable delivery. It returns the ids of the orders
// looked at.
func ReplanProducer(ctx context.Context, q store.Q, producerID string, now time.Time) ([]string, error) {
	var ids []string
	month := now.Format("2006-01") + "-01"
	if err := store.Select(ctx, q, &ids, `SELECT id FROM orders WHERE producer_id = ? AND (month >= ? OR id IN
			(SELECT order_id FROM deliveries WHERE producer_id = ? AND status = ? AND date > ?))
		ORDER BY id`+store.ForUpdate(q), producerID, month, producerID, orders.Planned, now.Format(day)); err != nil {
		return nil, fmt.Errorf("trade: open orders of %s: %w", producerID, err)
	}
	for _, id := range ids {
		if err := replanOrder(ctx, q, id, now, true); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// plan is one re-plannable delivery being rebuilt: an existing row (ID set)
// or a new one, with its quantity per product.
type plan struct {
	existing *orders.FullDelivery
	date     string
	lines    map[string]decimal.Dec
}

func replanOrder(ctx context.Context, q store.Q, orderID string, now time.Time, redate bool) error {
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
	var cs []commitment
	if err := store.Select(ctx, q, &cs, `SELECT n.id AS need_id, n.product_id, pr.unit, p.quantity, p.price
		FROM proposals p JOIN needs n ON n.id = p.need_id JOIN products pr ON pr.id = n.product_id
		WHERE p.producer_id = ? AND n.distributor_id = ? AND n.month = ? AND p.status = 'accepted' AND p.quantity > 0
		ORDER BY n.product_id`, o.ProducerID, o.DistributorID, o.Month); err != nil {
		return fmt.Errorf("trade: commitments of order %s: %w", orderID, err)
	}

	// What is fixed (done, cancelled, or planned for today or before) and
	// what may move. A cancelled delivery's quantity counts as used: the
	// shop declined it, and re-planning must not bring it back onto the
	// other days, so done + cancelled + planned equals the commitment.
	fixed := map[string]decimal.Dec{}
	var movable []*orders.FullDelivery
	for i := range o.Deliveries {
		d := &o.Deliveries[i]
		switch {
		case d.Status == orders.Done:
			for _, l := range d.Lines {
				fixed[l.ProductID] += l.Sent()
			}
		case d.Status == orders.Cancelled:
			for _, l := range d.Lines {
				fixed[l.ProductID] += l.QuantityExpected
			}
		case d.Status == orders.Planned && !Replannable(d.Date, now):
			for _, l := range d.Lines {
				fixed[l.ProductID] += l.QuantityExpected
			}
		case d.Status == orders.Planned:
			movable = append(movable, d)
		}
	}
	targets := map[string]decimal.Dec{}
	var total decimal.Dec
	for _, c := range cs {
		if t := c.Quantity - fixed[c.ProductID]; t > 0 {
			targets[c.ProductID] = t
			total += t
		}
	}

	// The dates to plan on, each bound to an existing delivery when one is
	// left to reuse (in date order).
	var plans []*plan
	switch {
	case total == 0:
	case len(movable) > 0 && !redate:
		for _, d := range movable {
			plans = append(plans, &plan{existing: d, date: d.Date})
		}
	default:
		for i, date := range Schedule(o.Month, producer.Days(), now) {
			p := &plan{date: date}
			if i < len(movable) {
				p.existing = movable[i]
			}
			plans = append(plans, p)
		}
	}
	for _, p := range plans {
		p.lines = map[string]decimal.Dec{}
	}
	if len(plans) > 0 {
		for _, c := range cs {
			if targets[c.ProductID] == 0 {
				continue
			}
			for i, qty := range Split(targets[c.ProductID], len(plans), c.Unit) {
				if qty > 0 {
					plans[i].lines[c.ProductID] = qty
				}
			}
		}
	}

	// Apply: rows not reused are deleted; reused rows and new ones get their
	// lines.
	reused := map[string]bool{}
	for _, p := range plans {
		if p.existing != nil && len(p.lines) > 0 {
			reused[p.existing.ID] = true
		}
	}
	ms := now.UnixMilli()
	changed := false
	for _, d := range movable {
		if !reused[d.ID] {
			if _, err := store.Exec(ctx, q, `DELETE FROM deliveries WHERE id = ?`, d.ID); err != nil {
				return fmt.Errorf("trade: delete delivery %s: %w", d.ID, err)
			}
			changed = true
		}
	}
	byProduct := map[string]commitment{}
	for _, c := range cs {
		byProduct[c.ProductID] = c
	}
	for _, p := range plans {
		if len(p.lines) == 0 {
			continue
		}
		c, err := p.apply(ctx, q, o.Order, byProduct, ms)
		if err != nil {
			return err
		}
		changed = changed || c
	}

	if len(cs) == 0 {
		var left int
		if err := store.Get(ctx, q, &left, `SELECT COUNT(*) FROM deliveries WHERE order_id = ?`, orderID); err != nil {
			return fmt.Errorf("trade: count deliveries of %s: %w", orderID, err)
		}
		if left == 0 {
			if _, err := store.Exec(ctx, q, `DELETE FROM orders WHERE id = ?`, orderID); err != nil {
				return fmt.Errorf("trade: delete order %s: %w", orderID, err)
			}
			return nil
		}
	}
	if changed {
		if _, err := store.Exec(ctx, q, `UPDATE orders SET updated_at = ? WHERE id = ?`, ms, orderID); err != nil {
			return fmt.Errorf("trade: touch order %s: %w", orderID, err)
		}
	}
	return nil
}

// apply writes one planned delivery: it creates the row (with the
// producer's next delivery-note number) or moves the existing one to its
// date, then sets its lines. It reports whether anything changed.
func (p *plan) apply(ctx context.Context, q store.Q, o orders.Order, cs map[string]commitment, ms int64) (bool, error) {
	var id string
	current := map[string]orders.Line{}
	changed := false
	if p.existing == nil {
		chrono, err := store.Next(ctx, q, "chrono:"+o.ProducerID)
		if err != nil {
			return false, fmt.Errorf("trade: %w", err)
		}
		id = core.NewID()
		if _, err := store.Exec(ctx, q, `INSERT INTO deliveries (id, order_id, producer_id, status, date, chrono, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, id, o.ID, o.ProducerID, orders.Planned, p.date, chrono, ms, ms); err != nil {
			return false, fmt.Errorf("trade: create delivery: %w", err)
		}
		changed = true
	} else {
		id = p.existing.ID
		for _, l := range p.existing.Lines {
			current[l.ProductID] = l
		}
		if p.existing.Date != p.date {
			if _, err := store.Exec(ctx, q, `UPDATE deliveries SET date = ?, updated_at = ? WHERE id = ?`, p.date, ms, id); err != nil {
				return false, fmt.Errorf("trade: move delivery %s: %w", id, err)
			}
			changed = true
		}
	}
	products := make([]string, 0, len(p.lines))
	for product := range p.lines {
		products = append(products, product)
	}
	slices.Sort(products)
	for _, product := range products {
		qty, c := p.lines[product], cs[product]
		l, ok := current[product]
		delete(current, product)
		switch {
		case !ok:
			if _, err := store.Exec(ctx, q, `INSERT INTO delivery_lines (id, delivery_id, need_id, product_id, price, quantity_expected)
				VALUES (?, ?, ?, ?, ?, ?)`, core.NewID(), id, c.NeedID, product, c.Price, qty); err != nil {
				return false, fmt.Errorf("trade: add line to %s: %w", id, err)
			}
			changed = true
		case l.QuantityExpected != qty || l.Price != c.Price || l.NeedID != c.NeedID:
			// A quantity the shop set against the old expectation no longer
			// applies once the expectation changes.
			if _, err := store.Exec(ctx, q, `UPDATE delivery_lines SET need_id = ?, price = ?, quantity_expected = ?,
				quantity_sent = CASE WHEN quantity_expected = ? THEN quantity_sent ELSE NULL END WHERE id = ?`,
				c.NeedID, c.Price, qty, qty, l.ID); err != nil {
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
	if changed && p.existing != nil {
		if _, err := store.Exec(ctx, q, `UPDATE deliveries SET updated_at = ? WHERE id = ?`, ms, id); err != nil {
			return false, fmt.Errorf("trade: touch delivery %s: %w", id, err)
		}
	}
	return changed, nil
}
