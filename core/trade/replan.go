package trade

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/decimal"
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
	return replanOrder(ctx, q, orderID, now, false, nil)
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
		if err := replanOrder(ctx, q, id, now, true, nil); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// replanOrder locks the order, reads what PlanOrder looks at, and writes
// the plan. days are the producer's delivery days when the caller read
// them under the producer's lock (an acceptance); nil: read here.
//
// It reads only what the plan needs — the order's deliveries (id, status,
// date, chrono) and their lines, the producer's days, the commitments —
// in a few statements, and writes only what the plan changes, each kind of
// change in one statement (writePlan): a correction of one commitment
// rewrites the lines of its product on the re-plannable deliveries, and
// touches those deliveries and the order. Every line of the order is read,
// not only the changed product's: the other products' lines may differ
// from their share too (a delivery no longer re-plannable since the last
// plan changes how what remains is split), and the plan brings them back,
// as it always did (TestReplanMatchesTheFullReplan).
func replanOrder(ctx context.Context, q store.Q, orderID string, now time.Time, newDays bool, days *[7]bool) error {
	var o orders.Order
	if err := store.Get(ctx, q, &o, `SELECT id, producer_id, distributor_id, month FROM orders WHERE id = ?`+store.ForUpdate(q), orderID); err != nil {
		if store.IsNotFound(err) {
			return fmt.Errorf("trade: order %s: %w", orderID, core.ErrNotFound)
		}
		return fmt.Errorf("trade: lock order %s: %w", orderID, err)
	}
	deliveries, err := plannedDeliveries(ctx, q, orderID)
	if err != nil {
		return err
	}
	if days == nil {
		var dd string
		if err := store.Get(ctx, q, &dd, `SELECT delivery_days FROM users WHERE id = ?`, o.ProducerID); err != nil {
			return fmt.Errorf("trade: days of producer %s: %w", o.ProducerID, err)
		}
		d := accounts.User{DeliveryDays: dd}.Days()
		days = &d
	}
	// The shop's needs of the month first (needs_distributor_month), then
	// the producer's commitment on each: SQLite, which plans without
	// statistics, would otherwise walk every need of the shop in product
	// order to spare a sort (CROSS JOIN fixes its join order; PostgreSQL
	// plans it as any join). PlanOrder sorts the commitments itself.
	var cs []Commitment
	if err := store.Select(ctx, q, &cs, `SELECT n.id AS need_id, n.product_id, pr.unit, p.quantity, p.price
		FROM needs n CROSS JOIN proposals p JOIN products pr ON pr.id = n.product_id
		WHERE n.distributor_id = ? AND n.month = ? AND p.need_id = n.id AND p.producer_id = ?
		AND p.status = 'accepted' AND p.quantity > 0`, o.DistributorID, o.Month, o.ProducerID); err != nil {
		return fmt.Errorf("trade: commitments of order %s: %w", orderID, err)
	}
	p := PlanOrder(PlanInput{
		Month: o.Month, Days: *days, Commitments: cs, Deliveries: deliveries, Now: now, NewDays: newDays,
	})
	return writePlan(ctx, q, o, deliveries, p, now)
}

// plannedDeliveries reads an order's deliveries as PlanOrder and writePlan
// look at them: id, status, date and chrono, and their lines' product,
// need, price and quantities.
func plannedDeliveries(ctx context.Context, q store.Q, orderID string) ([]orders.FullDelivery, error) {
	var ds []orders.Delivery
	if err := store.Select(ctx, q, &ds, `SELECT id, status, date, chrono FROM deliveries WHERE order_id = ?`, orderID); err != nil {
		return nil, fmt.Errorf("trade: deliveries of order %s: %w", orderID, err)
	}
	if len(ds) == 0 {
		return nil, nil
	}
	var ls []orders.Line
	if err := store.Select(ctx, q, &ls, `SELECT l.id, l.delivery_id, l.need_id, l.product_id, l.price, l.quantity_expected, l.quantity_sent
		FROM deliveries d JOIN delivery_lines l ON l.delivery_id = d.id WHERE d.order_id = ?`, orderID); err != nil {
		return nil, fmt.Errorf("trade: lines of order %s: %w", orderID, err)
	}
	out := make([]orders.FullDelivery, len(ds))
	at := make(map[string]int, len(ds))
	for i, d := range ds {
		out[i].Delivery = d
		at[d.ID] = i
	}
	for _, l := range ls {
		fd := &out[at[l.DeliveryID]]
		fd.Lines = append(fd.Lines, l)
	}
	return out, nil
}

// lineChange is a new value of delivery lines: the lines given it are
// written by one statement.
type lineChange struct {
	need          string
	price, amount decimal.Dec
}

// planWrites gathers what a plan changes in existing deliveries, to write
// each kind of change in one statement.
type planWrites struct {
	updates map[lineChange][]string // line ids by new value
	deleted []string                // line ids
	added   []lineAdded
	touched []string // delivery ids changed
}

type lineAdded struct {
	delivery string
	line     PlannedLine
}

// writePlan applies a plan of the order o, whose deliveries are as read
// under its lock, in the caller's transaction: the deliveries the plan
// drops are deleted, the others created (with the producer's next
// delivery-note number) or moved and given their lines, writing only what
// differs; the order is deleted when the plan says so, and its updated_at
// set when anything changed. The changes to existing deliveries are
// written kind by kind, each in one statement: the lines deleted, the
// lines given each new value, the lines added, the deliveries touched.
func writePlan(ctx context.Context, q store.Q, o orders.Order, deliveries []orders.FullDelivery, p Plan, now time.Time) error {
	ms := now.UnixMilli()
	changed := false
	if len(p.Delete) > 0 {
		if _, err := store.ExecIn(ctx, q, `DELETE FROM deliveries WHERE id IN (?)`, p.Delete); err != nil {
			return fmt.Errorf("trade: delete deliveries of %s: %w", o.ID, err)
		}
		changed = true
	}
	existing := make(map[string]orders.FullDelivery, len(deliveries))
	for _, d := range deliveries {
		existing[d.ID] = d
	}
	w := planWrites{updates: map[lineChange][]string{}}
	for _, d := range p.Deliveries {
		if d.ID == "" {
			if err := createDelivery(ctx, q, o, d, ms); err != nil {
				return err
			}
			changed = true
			continue
		}
		old, ok := existing[d.ID]
		if !ok {
			return fmt.Errorf("trade: delivery %s is not one of order %s", d.ID, o.ID)
		}
		if old.Date != d.Date {
			if _, err := store.Exec(ctx, q, `UPDATE deliveries SET date = ?, updated_at = ? WHERE id = ?`, d.Date, ms, old.ID); err != nil {
				return fmt.Errorf("trade: move delivery %s: %w", old.ID, err)
			}
			changed = true
		}
		if w.lines(old, d) { // a move stamped it already
			w.touched = append(w.touched, old.ID)
		}
	}
	if err := w.write(ctx, q, ms); err != nil {
		return err
	}
	changed = changed || len(w.touched) > 0
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

// lines notes what brings an existing delivery, old as read, to its
// planned lines, and reports whether anything differs.
func (w *planWrites) lines(old orders.FullDelivery, d PlannedDelivery) bool {
	changed := false
	current := make(map[string]orders.Line, len(old.Lines))
	for _, l := range old.Lines {
		current[l.ProductID] = l
	}
	for _, pl := range d.Lines {
		l, ok := current[pl.ProductID]
		delete(current, pl.ProductID)
		switch {
		case !ok:
			w.added = append(w.added, lineAdded{delivery: old.ID, line: pl})
			changed = true
		case l.QuantityExpected != pl.Quantity || l.Price != pl.Price || l.NeedID != pl.NeedID:
			c := lineChange{need: pl.NeedID, price: pl.Price, amount: pl.Quantity}
			w.updates[c] = append(w.updates[c], l.ID)
			changed = true
		}
	}
	for _, l := range current {
		w.deleted = append(w.deleted, l.ID)
		changed = true
	}
	return changed
}

// write runs the statements of the changes noted.
func (w *planWrites) write(ctx context.Context, q store.Q, ms int64) error {
	if len(w.deleted) > 0 {
		if _, err := store.ExecIn(ctx, q, `DELETE FROM delivery_lines WHERE id IN (?)`, w.deleted); err != nil {
			return fmt.Errorf("trade: delete lines: %w", err)
		}
	}
	// In a fixed order, so that two runs write alike.
	changes := make([]lineChange, 0, len(w.updates))
	for c := range w.updates {
		changes = append(changes, c)
	}
	slices.SortFunc(changes, func(a, b lineChange) int {
		return cmp.Or(cmp.Compare(a.need, b.need), cmp.Compare(a.price, b.price), cmp.Compare(a.amount, b.amount))
	})
	for _, c := range changes {
		// A quantity the shop set against the old expectation no longer
		// applies once the expectation changes.
		if _, err := store.ExecIn(ctx, q, `UPDATE delivery_lines SET need_id = ?, price = ?, quantity_expected = ?,
			quantity_sent = CASE WHEN quantity_expected = ? THEN quantity_sent ELSE NULL END WHERE id IN (?)`,
			c.need, c.price, c.amount, c.amount, w.updates[c]); err != nil {
			return fmt.Errorf("trade: update lines: %w", err)
		}
	}
	for _, a := range w.added {
		if err := insertLine(ctx, q, a.delivery, a.line); err != nil {
			return err
		}
	}
	if len(w.touched) > 0 {
		if _, err := store.ExecIn(ctx, q, `UPDATE deliveries SET updated_at = ? WHERE id IN (?)`, ms, w.touched); err != nil {
			return fmt.Errorf("trade: touch deliveries: %w", err)
		}
	}
	return nil
}

// createDelivery writes a new planned delivery with the producer's next
// delivery-note number, and its lines.
func createDelivery(ctx context.Context, q store.Q, o orders.Order, d PlannedDelivery, ms int64) error {
	chrono, err := store.Next(ctx, q, "chrono:"+o.ProducerID)
	if err != nil {
		return fmt.Errorf("trade: %w", err)
	}
	id := core.NewID()
	if _, err := store.Exec(ctx, q, `INSERT INTO deliveries (id, order_id, producer_id, status, date, chrono, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, id, o.ID, o.ProducerID, orders.Planned, d.Date, chrono, ms, ms); err != nil {
		return fmt.Errorf("trade: create delivery: %w", err)
	}
	for _, l := range d.Lines {
		if err := insertLine(ctx, q, id, l); err != nil {
			return err
		}
	}
	return nil
}

// insertLine adds a planned line to a delivery.
func insertLine(ctx context.Context, q store.Q, deliveryID string, l PlannedLine) error {
	if _, err := store.Exec(ctx, q, `INSERT INTO delivery_lines (id, delivery_id, need_id, product_id, price, quantity_expected)
		VALUES (?, ?, ?, ?, ?, ?)`, core.NewID(), deliveryID, l.NeedID, l.ProductID, l.Price, l.Quantity); err != nil {
		return fmt.Errorf("trade: add line to %s: %w", deliveryID, err)
	}
	return nil
}
