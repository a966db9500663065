package main

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/payments"
	"primeur/core/store"
)

// paidAfterDue is how long after its due date a seeded invoice is paid:
// the invoices due in the last paidAfterDue days stay open, some of them
// overdue, as on a platform after a year of trade (issue 42).
const paidAfterDue = 15

// payDue pays the invoices due paidAfterDue days before today or earlier,
// each by its producer recording the shop's transfer on its due date
// (payments.Record, the operation behind POST /api/payments: the payment,
// its allocation to the invoice and the shop's payment:record event), a
// few hundred to a transaction. It returns how many it paid.
func payDue(ctx context.Context, db *store.DB, now time.Time, today string) (int, error) {
	type due struct {
		ID         string      `db:"id"`
		Number     string      `db:"number"`
		ProducerID string      `db:"producer_id"`
		ShopID     string      `db:"distributor_id"`
		DueDate    string      `db:"due_date"`
		Total      decimal.Dec `db:"total_ttc"`
	}
	var invoices []due
	if err := store.Select(ctx, db, &invoices, `SELECT id, number, producer_id, distributor_id, due_date, total_ttc
		FROM documents WHERE kind = 'invoice' AND due_date <= ? AND total_ttc > 0 ORDER BY due_date, id`,
		calendar.AddDaysTo(today, -paidAfterDue)); err != nil {
		return 0, fmt.Errorf("invoices due: %w", err)
	}
	producers := map[string]accounts.User{}
	const batch = 500
	for from := 0; from < len(invoices); from += batch {
		part := invoices[from:min(from+batch, len(invoices))]
		err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			for _, inv := range part {
				producer, ok := producers[inv.ProducerID]
				if !ok {
					var err error
					if producer, err = accounts.ByID(ctx, tx, inv.ProducerID); err != nil {
						return err
					}
					producers[inv.ProducerID] = producer
				}
				if _, err := payments.Record(ctx, tx, producer, payments.Input{PartnerID: inv.ShopID, Amount: inv.Total,
					PaidOn: inv.DueDate, Method: payments.Transfer, Reference: inv.Number, Documents: []string{inv.ID}},
					now, today); err != nil {
					return fmt.Errorf("pay %s: %w", inv.Number, err)
				}
			}
			return nil
		})
		if err != nil {
			return 0, err
		}
	}
	return len(invoices), nil
}
