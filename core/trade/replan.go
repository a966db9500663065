package trade

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/store"
)

// EnsureOrder returns the id of the order of (producer, shop, month),
// creating it when missing, and locks it until the transaction ends. Its
// callers write the order's commitments their own way: the commitments it
// kept are forgotten (kept.go).
func EnsureOrder(ctx context.Context, q store.Q, producerID, shopID, month string, now time.Time) (string, error) {
	o, _, _, err := lockOrder(ctx, q, producerID, shopID, month, now, `commitments = NULL`)
	return o.ID, err
}

// ensureOrder is EnsureOrder for an acceptance, which keeps the order's
// commitments: it returns the order's row, the commitments it keeps (not
// Valid: not known) and whether it has an invoice.
func ensureOrder(ctx context.Context, q store.Q, producerID, shopID, month string, now time.Time) (orders.Order, sql.NullString, bool, error) {
	return lockOrder(ctx, q, producerID, shopID, month, now, `updated_at = orders.updated_at`)
}

// lockOrder is ensureOrder in one statement: the insert, or on conflict
// the update set (changing nothing, or forgetting the kept commitments),
// which takes the row's lock (PostgreSQL; on SQLite the transaction holds
// the write lock), returns the order either way.
func lockOrder(ctx context.Context, q store.Q, producerID, shopID, month string, now time.Time, set string) (orders.Order, sql.NullString, bool, error) {
	ms := now.UnixMilli()
	o := orders.Order{ProducerID: producerID, DistributorID: shopID, Month: month}
	var (
		kept     sql.NullString
		invoices int
	)
	if err := q.QueryRowxContext(ctx, q.Rebind(`INSERT INTO orders (id, producer_id, distributor_id, month, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (producer_id, distributor_id, month) DO UPDATE SET `+set+`
		RETURNING id, commitments, (SELECT COUNT(*) FROM documents WHERE documents.order_id = orders.id AND documents.kind = 'invoice')`),
		core.NewID(), producerID, shopID, month, ms, ms).Scan(&o.ID, &kept, &invoices); err != nil {
		return orders.Order{}, sql.NullString{}, false, fmt.Errorf("trade: lock order: %w", err)
	}
	return o, kept, invoices > 0, nil
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
	_, err := replanOrder(ctx, q, orderID, now, false, nil)
	return err
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
		if _, err := replanOrder(ctx, q, id, now, true, nil); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// replanOrder locks the order, reads what PlanOrder looks at, and writes
// the plan. days are the producer's delivery days when the caller read
// them under the producer's lock (an acceptance); nil: read here. It
// returns the order as the plan left it, with its deliveries and lines as
// orders.Load reads them but for the columns the views do not show
// (without its invoice: an order still traded on has none, see
// answerOrder); nil when the plan deleted the order.
//
// It reads only what the plan and the answer need — the order's
// deliveries and their lines, the producer's days, the commitments — in a
// few statements, and writes only what the plan changes, each kind of
// change in one statement (writePlan): a correction of one commitment
// rewrites the lines of its product on the re-plannable deliveries, and
// touches those deliveries and the order. Every line of the order is read,
// not only the changed product's: the other products' lines may differ
// from their share too (a delivery no longer re-plannable since the last
// plan changes how what remains is split), and the plan brings them back,
// as it always did (TestReplanMatchesTheFullReplan).
func replanOrder(ctx context.Context, q store.Q, orderID string, now time.Time, newDays bool, days *[7]bool) (*orders.Full, error) {
	var o orders.Order
	if err := store.Get(ctx, q, &o, `SELECT id, producer_id, distributor_id, month FROM orders WHERE id = ?`+store.ForUpdate(q), orderID); err != nil {
		if store.IsNotFound(err) {
			return nil, fmt.Errorf("trade: order %s: %w", orderID, core.ErrNotFound)
		}
		return nil, fmt.Errorf("trade: lock order %s: %w", orderID, err)
	}
	if days == nil {
		var dd string
		if err := store.Get(ctx, q, &dd, `SELECT delivery_days FROM users WHERE id = ?`, o.ProducerID); err != nil {
			return nil, fmt.Errorf("trade: days of producer %s: %w", o.ProducerID, err)
		}
		d := accounts.User{DeliveryDays: dd}.Days()
		days = &d
	}
	return replanLocked(ctx, q, o, now, newDays, *days)
}

// replanLocked is replanOrder of an order the caller locked and read (id,
// producer, shop, month), with the producer's days.
func replanLocked(ctx context.Context, q store.Q, o orders.Order, now time.Time, newDays bool, days [7]bool) (*orders.Full, error) {
	return replanChecked(ctx, q, o, now, newDays, days, nil, kept{})
}

// commitmentsOf are the commitments of the order o: those it keeps (stored
// Valid), or read.
func commitmentsOf(ctx context.Context, q store.Q, o orders.Order, stored sql.NullString) ([]Commitment, error) {
	if stored.Valid {
		return decodeCommitments(stored.String)
	}
	return readCommitments(ctx, q, o.ProducerID, o.DistributorID, o.Month)
}

// replanChecked is replanLocked with check, when not nil, run on the plan
// before it is written: its error is returned and nothing is written (an
// acceptance's minimum order, minimumCheck). k, when known, are the
// order's commitments as they stand in the transaction (an acceptance:
// kept.go), which the order keeps from now on; otherwise they are read
// here, and what the order kept is left as it is.
func replanChecked(ctx context.Context, q store.Q, o orders.Order, now time.Time, newDays bool, days [7]bool, check func(Plan) error,
	k kept) (*orders.Full, error) {
	orderID := o.ID
	deliveries, err := orderDeliveries(ctx, q, orderID)
	if err != nil {
		return nil, err
	}
	cs := k.commitments
	if !k.known {
		if cs, err = readCommitments(ctx, q, o.ProducerID, o.DistributorID, o.Month); err != nil {
			return nil, err
		}
	}
	p := PlanOrder(PlanInput{
		Month: o.Month, Days: days, Commitments: cs, Deliveries: deliveries, Now: now, NewDays: newDays,
	})
	if check != nil {
		if err := check(p); err != nil {
			return nil, err
		}
	}
	return writePlan(ctx, q, o, deliveries, p, now, k.write())
}

// readCommitments reads the commitments of the order of (producer, shop,
// month). The shop's needs of the month first (needs_distributor_month),
// then the producer's commitment on each: SQLite, which plans without
// statistics, would otherwise walk every need of the shop in product order
// to spare a sort (CROSS JOIN fixes its join order; PostgreSQL plans it as
// any join). PlanOrder sorts the commitments itself.
func readCommitments(ctx context.Context, q store.Q, producerID, shopID, month string) ([]Commitment, error) {
	var cs []Commitment
	if err := store.Select(ctx, q, &cs, commitmentsQuery, shopID, month, producerID); err != nil {
		return nil, fmt.Errorf("trade: commitments of %s for %s in %s: %w", producerID, shopID, month, err)
	}
	return cs, nil
}

// commitmentsQuery reads the commitments of an order's producer on the
// needs of its shop and month. The needs come from the index
// needs_distributor_month alone, which holds their product and id
// (migration 00028; TestCommitmentsAreReadFromTheIndex).
const commitmentsQuery = `SELECT n.id AS need_id, n.product_id, pr.unit, p.quantity, p.price
	FROM needs n CROSS JOIN proposals p JOIN products pr ON pr.id = n.product_id
	WHERE n.distributor_id = ? AND n.month = ? AND p.need_id = n.id AND p.producer_id = ?
	AND p.status = 'accepted' AND p.quantity > 0`

// orderDeliveries reads an order's deliveries and their lines, in one
// statement: what PlanOrder and writePlan look at, and what the order's
// view shows. Scanned by hand: the round-trip reads them on every
// acceptance. A delivery without lines comes as one row of empty line
// columns.
func orderDeliveries(ctx context.Context, q store.Q, orderID string) ([]orders.FullDelivery, error) {
	rows, err := q.QueryContext(ctx, q.Rebind(`SELECT d.id, d.status, d.date, d.chrono, d.claim_status, d.claim_by, d.claim_sent_at, d.claim_reviewed_at,
		COALESCE(l.id, ''), COALESCE(l.need_id, ''), COALESCE(l.product_id, ''), COALESCE(l.price, 0), COALESCE(l.quantity_expected, 0),
		l.quantity_sent, COALESCE(l.quantity_claimed, 0), COALESCE(l.claim_type, ''), COALESCE(l.claim_comment, '')
		FROM deliveries d LEFT JOIN delivery_lines l ON l.delivery_id = d.id WHERE d.order_id = ?`), orderID)
	if err != nil {
		return nil, fmt.Errorf("trade: deliveries of order %s: %w", orderID, err)
	}
	defer rows.Close()
	var (
		out []orders.FullDelivery
		at  = map[string]int{}
		d   orders.FullDelivery
		l   orders.Line
	)
	for rows.Next() {
		l = orders.Line{}
		if err := rows.Scan(&d.ID, &d.Status, &d.Date, &d.Chrono, &d.ClaimStatus, &d.ClaimBy, &d.ClaimSentAt, &d.ClaimReviewedAt,
			&l.ID, &l.NeedID, &l.ProductID, &l.Price, &l.QuantityExpected, &l.QuantitySent,
			&l.QuantityClaimed, &l.ClaimType, &l.ClaimComment); err != nil {
			return nil, fmt.Errorf("trade: deliveries of order %s: %w", orderID, err)
		}
		i, ok := at[d.ID]
		if !ok {
			i = len(out)
			at[d.ID] = i
			out = append(out, orders.FullDelivery{Delivery: orders.Delivery{ID: d.ID, OrderID: orderID, Status: d.Status,
				Date: d.Date, Chrono: d.Chrono, ClaimStatus: d.ClaimStatus, ClaimBy: d.ClaimBy, ClaimSentAt: d.ClaimSentAt, ClaimReviewedAt: d.ClaimReviewedAt}})
		}
		if l.ID != "" {
			l.DeliveryID = d.ID
			out[i].Lines = append(out[i].Lines, l)
		}
		d.ClaimSentAt, d.ClaimReviewedAt = nil, nil
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("trade: deliveries of order %s: %w", orderID, err)
	}
	return out, nil
}

// lineUpdate is a line's new values.
type lineUpdate struct {
	id, need      string
	price, amount decimal.Dec
}

// planWrites gathers what a plan changes in existing deliveries, to write
// each kind of change in one statement.
type planWrites struct {
	updates []lineUpdate
	deleted []string // line ids
	added   []orders.Line
	touched []string // delivery ids changed
}

// writePlan applies a plan of the order o, whose deliveries are as read
// under its lock, in the caller's transaction: the deliveries the plan
// drops are deleted, the others created (with the producer's next
// delivery-note number) or moved and given their lines, writing only what
// differs; the order is deleted when the plan says so, and its updated_at
// set when anything changed. The changes to existing deliveries are
// written kind by kind, each in one statement: the lines deleted, the
// lines given each new value, the lines added, the deliveries touched. It
// returns the order as it leaves it, nil when deleted. keep, when not nil,
// are the commitments the order keeps (kept.go), written with its
// updated_at.
func writePlan(ctx context.Context, q store.Q, o orders.Order, deliveries []orders.FullDelivery, p Plan, now time.Time, keep *string) (*orders.Full, error) {
	ms := now.UnixMilli()
	changed := false
	if len(p.Delete) > 0 {
		if _, err := store.ExecIn(ctx, q, `DELETE FROM deliveries WHERE id IN (?)`, p.Delete); err != nil {
			return nil, fmt.Errorf("trade: delete deliveries of %s: %w", o.ID, err)
		}
		changed = true
	}
	at := make(map[string]int, len(deliveries))
	for i, d := range deliveries {
		at[d.ID] = i
	}
	after := orders.Full{Order: o, Deliveries: make([]orders.FullDelivery, 0, len(p.Deliveries)+len(deliveries))}
	kept := make(map[string]bool, len(p.Deliveries))
	var w planWrites
	for _, d := range p.Deliveries {
		if d.ID == "" {
			nd, err := createDelivery(ctx, q, o, d, ms)
			if err != nil {
				return nil, err
			}
			after.Deliveries = append(after.Deliveries, nd)
			changed = true
			continue
		}
		i, ok := at[d.ID]
		if !ok {
			return nil, fmt.Errorf("trade: delivery %s is not one of order %s", d.ID, o.ID)
		}
		old := deliveries[i]
		if old.Date != d.Date {
			if _, err := store.Exec(ctx, q, `UPDATE deliveries SET date = ?, updated_at = ? WHERE id = ?`, d.Date, ms, old.ID); err != nil {
				return nil, fmt.Errorf("trade: move delivery %s: %w", old.ID, err)
			}
			changed = true
		}
		nd, touched := w.lines(old, d)
		if touched { // a move stamped it already
			w.touched = append(w.touched, old.ID)
		}
		after.Deliveries = append(after.Deliveries, nd)
		kept[d.ID] = true
	}
	if err := w.write(ctx, q, ms); err != nil {
		return nil, err
	}
	changed = changed || len(w.touched) > 0
	if p.DeleteOrder {
		if _, err := store.Exec(ctx, q, `DELETE FROM orders WHERE id = ?`, o.ID); err != nil {
			return nil, fmt.Errorf("trade: delete order %s: %w", o.ID, err)
		}
		return nil, nil
	}
	var err error
	switch {
	case changed && keep != nil:
		_, err = store.Exec(ctx, q, `UPDATE orders SET updated_at = ?, commitments = ? WHERE id = ?`, ms, *keep, o.ID)
	case changed:
		_, err = store.Exec(ctx, q, `UPDATE orders SET updated_at = ? WHERE id = ?`, ms, o.ID)
	case keep != nil:
		_, err = store.Exec(ctx, q, `UPDATE orders SET commitments = ? WHERE id = ?`, *keep, o.ID)
	}
	if err != nil {
		return nil, fmt.Errorf("trade: touch order %s: %w", o.ID, err)
	}
	// The deliveries the plan does not name (not re-plannable) stay as
	// they are; those it dropped are gone.
	dropped := make(map[string]bool, len(p.Delete))
	for _, id := range p.Delete {
		dropped[id] = true
	}
	for _, d := range deliveries {
		if !kept[d.ID] && !dropped[d.ID] {
			after.Deliveries = append(after.Deliveries, d)
		}
	}
	// As orders.Load orders them: deliveries by date and chrono, lines by
	// product.
	for _, d := range after.Deliveries {
		slices.SortFunc(d.Lines, func(a, b orders.Line) int { return cmp.Compare(a.ProductID, b.ProductID) })
	}
	slices.SortFunc(after.Deliveries, func(a, b orders.FullDelivery) int {
		return cmp.Or(cmp.Compare(a.Date, b.Date), cmp.Compare(a.Chrono, b.Chrono))
	})
	return &after, nil
}

// lines notes what brings an existing delivery, old as read, to its
// planned lines (date included), and returns the delivery as the writes
// leave it and whether its lines change.
func (w *planWrites) lines(old orders.FullDelivery, d PlannedDelivery) (orders.FullDelivery, bool) {
	changed := false
	current := make(map[string]orders.Line, len(old.Lines))
	for _, l := range old.Lines {
		current[l.ProductID] = l
	}
	after := old
	after.Date = d.Date
	after.Lines = make([]orders.Line, 0, len(d.Lines))
	for _, pl := range d.Lines {
		l, ok := current[pl.ProductID]
		delete(current, pl.ProductID)
		switch {
		case !ok:
			l = newLine(old.ID, pl)
			w.added = append(w.added, l)
			changed = true
		case l.QuantityExpected != pl.Quantity || l.Price != pl.Price || l.NeedID != pl.NeedID:
			w.updates = append(w.updates, lineUpdate{id: l.ID, need: pl.NeedID, price: pl.Price, amount: pl.Quantity})
			if l.QuantityExpected != pl.Quantity { // see write
				l.QuantitySent = nil
			}
			l.NeedID, l.Price, l.QuantityExpected = pl.NeedID, pl.Price, pl.Quantity
			changed = true
		}
		after.Lines = append(after.Lines, l)
	}
	for _, l := range current {
		w.deleted = append(w.deleted, l.ID)
		changed = true
	}
	return after, changed
}

// write runs the statements of the changes noted.
func (w *planWrites) write(ctx context.Context, q store.Q, ms int64) error {
	if len(w.deleted) > 0 {
		if _, err := store.ExecIn(ctx, q, `DELETE FROM delivery_lines WHERE id IN (?)`, w.deleted); err != nil {
			return fmt.Errorf("trade: delete lines: %w", err)
		}
	}
	if err := w.update(ctx, q); err != nil {
		return err
	}
	for _, l := range w.added {
		if err := insertLine(ctx, q, l); err != nil {
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

// update gives the lines noted their new values, all in one statement
// (updateLines), in a fixed order so that two runs write alike.
func (w *planWrites) update(ctx context.Context, q store.Q) error {
	if len(w.updates) == 0 {
		return nil
	}
	slices.SortFunc(w.updates, func(a, b lineUpdate) int { return cmp.Compare(a.id, b.id) })
	args := make([]any, 0, 4*len(w.updates))
	for _, u := range w.updates {
		args = append(args, u.id, u.need, u.price, u.amount)
	}
	if _, err := store.Exec(ctx, q, updateLines(len(w.updates)), args...); err != nil {
		return fmt.Errorf("trade: update lines: %w", err)
	}
	return nil
}

// updateLines is the statement that gives n lines new values: each row of
// its VALUES a line's id, need, price and expected quantity. A quantity
// the shop set against the old expectation no longer applies once the
// expectation changes. Each line is found by its key
// (TestLinesAreUpdatedByTheirKey).
func updateLines(n int) string {
	var b strings.Builder
	b.WriteString(`UPDATE delivery_lines SET need_id = v.column2, price = v.column3, quantity_expected = v.column4,
		quantity_sent = CASE WHEN delivery_lines.quantity_expected = v.column4 THEN delivery_lines.quantity_sent ELSE NULL END
		FROM (VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(?, ?, CAST(? AS BIGINT), CAST(? AS BIGINT))")
	}
	b.WriteString(`) AS v WHERE delivery_lines.id = v.column1`)
	return b.String()
}

// createDelivery writes a new planned delivery with the producer's next
// delivery-note number, and its lines, and returns it.
func createDelivery(ctx context.Context, q store.Q, o orders.Order, d PlannedDelivery, ms int64) (orders.FullDelivery, error) {
	chrono, err := store.Next(ctx, q, "chrono:"+o.ProducerID)
	if err != nil {
		return orders.FullDelivery{}, fmt.Errorf("trade: %w", err)
	}
	nd := orders.FullDelivery{Delivery: orders.Delivery{ID: core.NewID(), OrderID: o.ID, Status: orders.Planned, Date: d.Date,
		Chrono: chrono, ClaimStatus: orders.ClaimVoid, ClaimBy: orders.ByProducer}}
	if _, err := store.Exec(ctx, q, `INSERT INTO deliveries (id, order_id, producer_id, status, date, chrono, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, nd.ID, o.ID, o.ProducerID, nd.Status, nd.Date, chrono, ms, ms); err != nil {
		return orders.FullDelivery{}, fmt.Errorf("trade: create delivery: %w", err)
	}
	for _, pl := range d.Lines {
		l := newLine(nd.ID, pl)
		if err := insertLine(ctx, q, l); err != nil {
			return orders.FullDelivery{}, err
		}
		nd.Lines = append(nd.Lines, l)
	}
	return nd, nil
}

// newLine is a planned line as a new row of delivery.
func newLine(deliveryID string, pl PlannedLine) orders.Line {
	return orders.Line{ID: core.NewID(), DeliveryID: deliveryID, NeedID: pl.NeedID, ProductID: pl.ProductID, Price: pl.Price,
		QuantityExpected: pl.Quantity}
}

// insertLine adds a planned line to its delivery.
func insertLine(ctx context.Context, q store.Q, l orders.Line) error {
	if _, err := store.Exec(ctx, q, `INSERT INTO delivery_lines (id, delivery_id, need_id, product_id, price, quantity_expected)
		VALUES (?, ?, ?, ?, ?, ?)`, l.ID, l.DeliveryID, l.NeedID, l.ProductID, l.Price, l.QuantityExpected); err != nil {
		return fmt.Errorf("trade: add line to %s: %w", l.DeliveryID, err)
	}
	return nil
}
