package orders

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"primeur/core/decimal"
	"primeur/core/store"
)

// LoadViews returns the orders matching f as viewerID sees them, what
// Views(Load(f), viewerID) gives, reading only the columns the views show:
// it serves the user load, whose largest part a shop's year of deliveries
// is (issue 20). The rows are scanned by hand straight into the views —
// no reflection, no intermediate Full —, and each order's deliveries and
// each delivery's lines are windows of a few large slabs (windows),
// sorted as Load sorts them.
func LoadViews(ctx context.Context, q store.Q, f Filter, viewerID string) ([]View, error) {
	if f.IDs != nil && len(f.IDs) == 0 {
		return []View{}, nil
	}
	where, args := f.where()
	vs := make([]View, 0, 64)
	orderAt := make(map[string]int32, 64)
	// Each query scans into one row's destinations, given once.
	var v View
	var producer, distributor string
	err := store.Each(ctx, q, `SELECT `+viewColumns.orders+`
		FROM orders o WHERE `+where+` ORDER BY o.month, o.id`, args, []any{&v.ID, &producer, &distributor, &v.Date}, func() {
		v.Distributor, v.Producer = "", ""
		if viewerID == producer {
			v.Distributor = distributor
		} else {
			v.Producer = producer
		}
		orderAt[v.ID] = int32(len(vs))
		vs = append(vs, v)
	})
	if err != nil {
		return nil, fmt.Errorf("orders: load: %w", err)
	}

	dw := newWindows[DeliveryView](len(vs), 256)
	var d DeliveryView
	var sent, reviewed, received nullMillis
	var receivedBy, signature sql.NullString
	err = store.Each(ctx, q, `SELECT `+viewColumns.deliveries+`
		FROM deliveries d JOIN orders o ON o.id = d.order_id LEFT JOIN receptions r ON r.delivery_id = d.id WHERE `+where, args,
		[]any{&d.ID, &d.OrderID, &d.Status, &d.Date, (*store.Int64)(&d.Chrono), &d.ClaimStatus, &d.ClaimBy, &sent, &reviewed,
			&received, &receivedBy, &signature}, func() {
			at, ok := orderAt[d.OrderID]
			if !ok {
				return // not one of the orders read (written in between)
			}
			d.ClaimSentAt, d.ClaimReviewedAt = sent.stamp(), reviewed.stamp()
			d.ReceivedAt, d.ReceivedBy, d.SignatureID = received.stamp(), receivedBy.String, signature.String
			dw.add(at, d)
		})
	if err != nil {
		return nil, fmt.Errorf("orders: load deliveries: %w", err)
	}
	// Every delivery by its number, orders and dates in order.
	ds := make([]*DeliveryView, 0, dw.rows)
	deliveryAt := make(map[string]int32, dw.rows)
	for i, win := range dw.finish() {
		// Chronos are unique per producer, and an order has one producer.
		slices.SortFunc(win, func(a, b DeliveryView) int {
			if c := strings.Compare(a.Date, b.Date); c != 0 {
				return c
			}
			return cmp.Compare(a.Chrono, b.Chrono)
		})
		vs[i].Deliveries = win
		for j := range win {
			deliveryAt[win[j].ID] = int32(len(ds))
			ds = append(ds, &win[j])
		}
	}

	lw := newWindows[LineView](len(ds), 1024)
	var l LineView
	var deliveryID, lastDelivery string
	var lastAt int32
	var lastOK bool
	var lineSent, lineReceived nullDec
	var reason, comment, photo sql.NullString
	err = store.Each(ctx, q, `SELECT `+viewColumns.lines+`
		FROM delivery_lines l JOIN deliveries d ON d.id = l.delivery_id JOIN orders o ON o.id = d.order_id
		LEFT JOIN reception_lines rl ON rl.line_id = l.id
		WHERE `+where, args, []any{&l.ID, &deliveryID, &l.Product, &l.Price, &l.QuantityExpected, &lineSent, &l.QuantityClaimed,
		&l.ClaimType, &l.ClaimComment, &lineReceived, &reason, &comment, &photo}, func() {
		// A delivery's lines usually come one after another: its number is
		// looked up once.
		if deliveryID != lastDelivery {
			lastDelivery = deliveryID
			lastAt, lastOK = deliveryAt[deliveryID]
		}
		at, ok := lastAt, lastOK
		if !ok {
			return
		}
		l.QuantitySent = l.QuantityExpected
		if lineSent.ok {
			l.QuantitySent = lineSent.d
		}
		l.QuantityReceived = nil
		if lineReceived.ok {
			r := lineReceived.d
			l.QuantityReceived = &r
		}
		l.ReceptionReason, l.ReceptionComment, l.PhotoID = reason.String, comment.String, photo.String
		lw.add(at, l)
	})
	if err != nil {
		return nil, fmt.Errorf("orders: load lines: %w", err)
	}
	for i, win := range lw.finish() {
		// One line per product and delivery: the product orders them.
		slices.SortFunc(win, func(a, b LineView) int { return strings.Compare(a.Product, b.Product) })
		ds[i].DeliveryLines = win
	}

	invoiced := 0
	var inv InvoiceRef
	var orderID string
	var issued store.Int64
	err = store.Each(ctx, q, `SELECT i.id, i.order_id, i.number, i.issued_at
		FROM documents i JOIN orders o ON o.id = i.order_id WHERE i.kind = 'invoice' AND i.replaced_by IS NULL AND (`+where+`)`, args, []any{&inv.ID, &orderID, &inv.Number, &issued}, func() {
		invoiced++
		if at, ok := orderAt[orderID]; ok {
			ref := InvoiceRef{ID: inv.ID, Number: inv.Number, IssuedAt: stamp((*int64)(&issued))}
			vs[at].Invoice = &ref
		}
	})
	if err != nil {
		return nil, fmt.Errorf("orders: load invoices: %w", err)
	}
	if invoiced == 0 {
		return vs, nil
	}
	var c CreditRef
	err = store.Each(ctx, q, `SELECT c.id, c.order_id, c.number, c.kind, COALESCE(c.delivery_id, '') AS delivery_id, c.issued_at
		FROM documents c JOIN orders o ON o.id = c.order_id WHERE c.kind <> 'invoice' AND (`+where+`)
		ORDER BY c.issued_at, c.number`, args,
		[]any{&c.ID, &c.OrderID, &c.Number, &c.Kind, &c.DeliveryID, (*store.Int64)(&c.Issued)}, func() {
			if at, ok := orderAt[c.OrderID]; ok && vs[at].Invoice != nil {
				c.IssuedAt = stamp(&c.Issued)
				vs[at].Invoice.Credits = append(vs[at].Invoice.Credits, c)
			}
		})
	if err != nil {
		return nil, fmt.Errorf("orders: load credit notes: %w", err)
	}
	return vs, nil
}

// windows gathers rows by key (an order's deliveries, a delivery's
// lines), each key's into one window of a few large slabs: a key's rows
// usually come in one run — SQLite reads them through the orders' index,
// order by order, delivery by delivery —, copied into the slab when the
// run ends, so that a shop's year of lines costs about its own size,
// without the copies of a growing slice nor an allocation per key. The
// rows of a key that come in several runs (PostgreSQL's hash joins) are
// put together in a window of their own.
type windows[T any] struct {
	win  [][]T
	slab []T
	size int // of a slab
	run  []T // the rows of the run being read, of key
	key  int32
	rows int
}

func newWindows[T any](keys, slab int) *windows[T] {
	return &windows[T]{win: make([][]T, keys), size: slab, key: -1}
}

// add adds v, of key.
func (w *windows[T]) add(key int32, v T) {
	if key != w.key {
		w.end()
		w.key = key
	}
	w.run = append(w.run, v)
	w.rows++
}

// end puts the run's rows in its key's window.
func (w *windows[T]) end() {
	if len(w.run) == 0 {
		return
	}
	if old := w.win[w.key]; old != nil { // a run more of the key
		w.win[w.key] = append(old[:len(old):len(old)], w.run...)
	} else {
		if cap(w.slab)-len(w.slab) < len(w.run) {
			w.slab = make([]T, 0, max(w.size, len(w.run)))
		}
		n := len(w.slab)
		w.slab = append(w.slab, w.run...)
		w.win[w.key] = w.slab[n:len(w.slab):len(w.slab)]
	}
	clear(w.run) // no pointer kept in the run's array
	w.run = w.run[:0]
}

// finish returns each key's window, an empty one for a key without rows.
func (w *windows[T]) finish() [][]T {
	w.end()
	none := make([]T, 0)
	for k, win := range w.win {
		if win == nil {
			w.win[k] = none
		}
	}
	return w.win
}

// nullMillis scans a nullable instant in Unix milliseconds.
type nullMillis struct {
	ms store.Int64
	ok bool
}

// Scan reads NULL or an integer.
func (n *nullMillis) Scan(src any) error {
	if n.ok = src != nil; !n.ok {
		return nil
	}
	return n.ms.Scan(src)
}

// stamp is the instant in RFC 3339, "" when NULL.
func (n nullMillis) stamp() string {
	if !n.ok {
		return ""
	}
	return stamp((*int64)(&n.ms))
}

// nullDec scans a nullable quantity.
type nullDec struct {
	d  decimal.Dec
	ok bool
}

// Scan reads NULL or a Dec.
func (n *nullDec) Scan(src any) error {
	if n.ok = src != nil; !n.ok {
		return nil
	}
	return n.d.Scan(src)
}
