package demo

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/delivery"
	"primeur/core/orders"
	"primeur/core/store"
)

// seedDeliveries gives the deliveries screens (issue 6) something to show
// on top of the orders the trade step planned: on the first shop's orders, a
// claim the shop accepted last month and a claim waiting for its answer this
// month; then the invoices of the months over, as the 1st-of-month run
// would have issued them. The documents of the past count as emailed, so
// the daemon's first job runs do not mail the whole history into the
// outbox; the deliveries of today and after keep their emails to come.
func seedDeliveries(ctx context.Context, tx *sqlx.Tx, _ *store.DB, w *World) error {
	if len(w.Shops) == 0 {
		return nil
	}
	rules := delivery.DefaultRules()
	rules.Location = w.Now.Location()
	today := rules.Today(w.Now)
	month := calendar.MonthKey(today)
	lastMonth := calendar.MonthKey(calendar.AddDaysTo(month, -1))

	// The first shop's done deliveries of a month, latest first, with their
	// producer and largest line (a crate of it may go missing).
	done := func(m string) ([]claimable, error) {
		var ds []claimable
		err := store.Select(ctx, tx, &ds, `SELECT d.id, d.order_id, d.date, o.producer_id, o.distributor_id,
				(SELECT l.id FROM delivery_lines l WHERE l.delivery_id = d.id
				ORDER BY l.quantity_expected DESC, l.product_id LIMIT 1) AS line_id
			FROM deliveries d JOIN orders o ON o.id = d.order_id
			WHERE o.distributor_id = ? AND d.status = ? AND d.date >= ? AND d.date < ? AND d.date < ?
			ORDER BY d.date DESC, d.chrono DESC`,
			w.Shops[0].ID, orders.Done, m, calendar.AddMonthsTo(m, 1), today)
		return ds, err
	}

	// Last month: 5 % of a line unfit, claimed in the afternoon of the
	// delivery, accepted the next morning.
	if ds, err := done(lastMonth); err != nil {
		return fmt.Errorf("demo: deliveries of %s: %w", lastMonth, err)
	} else if len(ds) > 1 {
		d := ds[1]
		sent := rules.LockTime(d.Date).Add(3 * time.Hour)
		if err := d.claim(ctx, tx, rules, "quality", "Quelques pièces abîmées au déballage", sent); err != nil {
			return err
		}
		if _, err := rules.Review(ctx, tx, d.ShopID, d.OrderID, d.ID, true, sent.Add(20*time.Hour)); err != nil {
			return fmt.Errorf("demo: review: %w", err)
		}
	}
	// This month: a quantity missing on the latest delivery before today,
	// claimed two hours ago when its claim window was still open
	// (delivery.ClaimDeadline); the shop has not answered.
	claimed := w.Now.Add(-2 * time.Hour)
	if ds, err := done(month); err != nil {
		return fmt.Errorf("demo: deliveries of %s: %w", month, err)
	} else if len(ds) > 0 {
		if deadline, ok := delivery.ClaimDeadlineOf(ds[0].Date); ok && calendar.DateOf(claimed.In(rules.Location)) <= deadline {
			if err := ds[0].claim(ctx, tx, rules, "quantity", "Une caisse manquait à la livraison", claimed); err != nil {
				return err
			}
		}
	}

	// The notes of deliveries done before today went out 30 minutes after
	// their lock.
	if _, err := store.Exec(ctx, tx, `INSERT INTO sends (message_key, kind, subject_id, sent_at)
		SELECT 'note-' || id, 'note', id, CAST(? AS BIGINT) FROM deliveries WHERE status = ? AND date < ?
		ON CONFLICT (message_key) DO UPDATE SET sent_at = excluded.sent_at WHERE sends.sent_at IS NULL`,
		w.Now.UnixMilli(), orders.Done, today); err != nil {
		return fmt.Errorf("demo: notes sent: %w", err)
	}

	// The invoices of the months over, each issued and emailed on the
	// month's last day at billing.InvoiceHour, oldest first so that numbers
	// follow time.
	ids, err := billing.Due(ctx, tx, w.Now, rules.Location)
	if err != nil {
		return err
	}
	for _, id := range ids {
		var key string
		if err := store.Get(ctx, tx, &key, `SELECT month FROM orders WHERE id = ?`, id); err != nil {
			return fmt.Errorf("demo: order %s: %w", id, err)
		}
		m, ok := calendar.ParseMonth(key)
		if !ok {
			return fmt.Errorf("demo: order %s: month %q", id, key)
		}
		at := billing.IssueTime(m, rules.Location)
		inv, err := billing.Issue(ctx, tx, id, at, rules.Location)
		if err != nil {
			return fmt.Errorf("demo: invoice of %s: %w", id, err)
		}
		if inv == nil {
			continue // not billable yet (a delivery still planned)
		}
		// It and the credit notes of its accepted claims, issued with it.
		if _, err := store.Exec(ctx, tx, `INSERT INTO sends (message_key, kind, subject_id, sent_at)
			SELECT CASE WHEN kind = 'invoice' THEN 'invoice-' ELSE 'credit-' END || id,
				CASE WHEN kind = 'invoice' THEN 'invoice' ELSE 'credit' END, id, CAST(? AS BIGINT)
			FROM documents WHERE id = ? OR invoice_id = ?
			ON CONFLICT (message_key) DO UPDATE SET sent_at = excluded.sent_at WHERE sends.sent_at IS NULL`,
			at.UnixMilli(), inv.ID, inv.ID); err != nil {
			return fmt.Errorf("demo: invoice sent: %w", err)
		}
	}
	return nil
}

// claimable is a done delivery the demo may claim on.
type claimable struct {
	ID         string `db:"id"`
	OrderID    string `db:"order_id"`
	Date       string `db:"date"`
	ProducerID string `db:"producer_id"`
	ShopID     string `db:"distributor_id"`
	LineID     string `db:"line_id"`
}

// claim sends the producer's claim of 5 % of the delivery's largest line
// (at least one unit, negative), with a type and a comment.
func (d claimable) claim(ctx context.Context, tx *sqlx.Tx, rules delivery.Rules, kind, comment string, at time.Time) error {
	var l struct {
		Sent float64 `db:"sent"`
		Unit string  `db:"unit"`
	}
	if err := store.Get(ctx, tx, &l, `SELECT COALESCE(l.quantity_sent, l.quantity_expected) / 100.0 AS sent, p.unit
		FROM delivery_lines l JOIN products p ON p.id = l.product_id WHERE l.id = ?`, d.LineID); err != nil {
		return fmt.Errorf("demo: claim line: %w", err)
	}
	qty := float64(int(l.Sent*5)) / 100 // 5 %, to the hundredth
	if catalog.Whole(l.Unit) {
		qty = float64(int(l.Sent / 20))
	}
	if qty < 1 {
		qty = min(1, l.Sent)
	}
	if qty <= 0 {
		return nil
	}
	qty = -qty
	_, err := rules.SendClaim(ctx, tx, d.ProducerID, d.OrderID, d.ID, delivery.Claim{Lines: []delivery.LineClaim{
		{ID: d.LineID, QuantityClaimed: &qty, ClaimType: &kind, ClaimComment: &comment},
	}}, at)
	if err != nil {
		return fmt.Errorf("demo: claim on %s: %w", d.ID, err)
	}
	return nil
}
