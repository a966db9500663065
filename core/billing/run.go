package billing

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/orders"
	"primeur/core/store"
)

// Due lists the orders whose invoice is due at now and not yet issued:
// their month is over (BillableBefore) and they have a done delivery. The
// order is the numbering order: by month, then creation.
func Due(ctx context.Context, q store.Q, now time.Time, loc *time.Location) ([]string, error) {
	var ids []string
	if err := store.Select(ctx, q, &ids, `SELECT o.id FROM orders o
		WHERE o.month < ?
		AND NOT EXISTS (SELECT 1 FROM documents i WHERE i.order_id = o.id AND i.kind = 'invoice')
		AND EXISTS (SELECT 1 FROM deliveries d WHERE d.order_id = o.id AND d.status = ?)
		ORDER BY o.month, o.created_at, o.id`, BillableBefore(now, loc), orders.Done); err != nil {
		return nil, fmt.Errorf("billing: due orders: %w", err)
	}
	return ids, nil
}

// IssueDue issues the invoice of one order Due listed, in a transaction
// of its own (Issue, with the documents settling the claims already
// accepted), and returns it; nil when another process issued it meanwhile.
// The invoices job (core/jobs) calls it for each due order once it has
// locked the deliveries due and accepted the claims past their delay.
func IssueDue(ctx context.Context, db *store.DB, orderID string, now time.Time, loc *time.Location) (*Invoice, error) {
	var inv *Invoice
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		inv, err = Issue(ctx, tx, orderID, now, loc)
		return err
	})
	switch {
	case err != nil && store.IsUniqueViolation(err):
		// Another process issued it between our check and our insert
		// (only possible if its lock was bypassed); ours rolled back.
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("billing: order %s: %w", orderID, err)
	}
	return inv, nil
}
