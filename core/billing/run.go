package billing

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/delivery"
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
		AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.order_id = o.id)
		AND EXISTS (SELECT 1 FROM deliveries d WHERE d.order_id = o.id AND d.status = ?)
		ORDER BY o.month, o.created_at, o.id`, BillableBefore(now, loc), orders.Done); err != nil {
		return nil, fmt.Errorf("billing: due orders: %w", err)
	}
	return ids, nil
}

// Deferral is an order whose invoice is due but waits for the answer to a
// claim on one of its deliveries.
type Deferral struct {
	OrderID       string `db:"id"`
	ProducerID    string `db:"producer_id"`
	DistributorID string `db:"distributor_id"`
	// Month is the billed month, "YYYY-MM-01".
	Month string `db:"month"`
	// ClaimSentAt is when its latest pending claim was sent (Unix ms);
	// the system accepts it claims.autovalidate-after later.
	ClaimSentAt int64 `db:"claim_sent_at"`
}

// Deferred lists the orders whose invoice is due at now (as Due) but that
// Issue defers because a claim on one of their deliveries still waits for
// the shop's answer, in Due's order.
func Deferred(ctx context.Context, q store.Q, now time.Time, loc *time.Location) ([]Deferral, error) {
	var out []Deferral
	if err := store.Select(ctx, q, &out, `SELECT o.id, o.producer_id, o.distributor_id, o.month,
			(SELECT MAX(c.claim_sent_at) FROM deliveries c WHERE c.order_id = o.id AND c.claim_status = 'sent') AS claim_sent_at
		FROM orders o
		WHERE o.month < ?
		AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.order_id = o.id)
		AND EXISTS (SELECT 1 FROM deliveries d WHERE d.order_id = o.id AND d.status = ?)
		AND EXISTS (SELECT 1 FROM deliveries p WHERE p.order_id = o.id AND p.claim_status = 'sent')
		ORDER BY o.month, o.created_at, o.id`, BillableBefore(now, loc), orders.Done); err != nil {
		return nil, fmt.Errorf("billing: deferred orders: %w", err)
	}
	return out, nil
}

// Run issues every invoice due at now: it first locks the deliveries due
// (so the months it bills have no planned delivery left that should be
// done) and accepts the claims the shops left unanswered for
// claims.autovalidate-after (rules.Autovalidate, what the claims job does:
// a run after a stop catches up in one go), then issues each due order in
// its own transaction (Issue), deferring those with a claim still pending.
// It returns the invoices this run issued; an order another process issued
// meanwhile is skipped. A failing order does not stop the others: their
// errors are returned together.
func Run(ctx context.Context, db *store.DB, rules delivery.Rules, now time.Time) ([]Invoice, error) {
	return RunEach(ctx, db, rules, now, nil)
}

// RunEach is Run calling issued, when not nil, with each invoice once its
// transaction has committed (the jobs log it: a crash test watches these
// lines to kill the process in the middle of a run).
func RunEach(ctx context.Context, db *store.DB, rules delivery.Rules, now time.Time, issued func(Invoice)) ([]Invoice, error) {
	if _, err := rules.LockDue(ctx, db, now); err != nil {
		return nil, err
	}
	if _, err := rules.Autovalidate(ctx, db, now); err != nil {
		return nil, err
	}
	ids, err := Due(ctx, db, now, rules.Location)
	if err != nil {
		return nil, err
	}
	var (
		all  []Invoice
		errs []error
	)
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return all, err
		}
		var inv *Invoice
		err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			var err error
			inv, err = Issue(ctx, tx, id, now, rules.Location)
			return err
		})
		switch {
		case err != nil && store.IsUniqueViolation(err):
			// Another process issued it between our check and our insert
			// (only possible if its lock was bypassed); ours rolled back.
		case err != nil:
			errs = append(errs, fmt.Errorf("billing: order %s: %w", id, err))
		case inv != nil:
			all = append(all, *inv)
			if issued != nil {
				issued(*inv)
			}
		}
	}
	return all, errors.Join(errs...)
}
