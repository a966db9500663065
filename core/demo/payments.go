package demo

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

// payEarly is how many days before its due date a shop pays an invoice.
const payEarly = 2

// seedPayments settles the invoices the deliveries step issued as the
// shops pay them, through the payments operations of the screens: each by
// transfer payEarly days before it falls due, recorded by its producer
// that day — but for the main shop, whose latest invoice from the first
// producer is left unpaid (overdue once due) and whose latest from the
// second it paid late, yesterday, as it declared, waiting for the
// producer's confirmation. Invoices whose payment day has not come stay
// to pay.
func seedPayments(ctx context.Context, tx *sqlx.Tx, _ *store.DB, w *World) error {
	if len(w.Shops) == 0 || len(w.Producers) < 2 {
		return nil
	}
	loc := w.Now.Location()
	today := calendar.DateOf(w.Now.In(loc))
	users := map[string]accounts.User{}
	for _, u := range append(append([]accounts.User{}, w.Shops...), w.Producers...) {
		users[u.ID] = u
	}
	var invoices []struct {
		ID         string `db:"id"`
		ProducerID string `db:"producer_id"`
		ShopID     string `db:"distributor_id"`
		Number     string `db:"number"`
		DueDate    string `db:"due_date"`
	}
	if err := store.Select(ctx, tx, &invoices, `SELECT id, producer_id, distributor_id, number, due_date
		FROM documents WHERE kind = 'invoice' ORDER BY due_date, number, producer_id, distributor_id`); err != nil {
		return fmt.Errorf("demo: invoices to pay: %w", err)
	}
	payDay := func(due string) (calendar.Date, bool) {
		d, ok := calendar.ParseDate(due)
		return d.AddDays(-payEarly), ok && d.AddDays(-payEarly) < today
	}
	// The main shop's latest invoice due to be paid by each of its first
	// two producers.
	latest := map[string]string{}
	for _, inv := range invoices {
		if _, ok := payDay(inv.DueDate); ok && inv.ShopID == w.Shops[0].ID {
			latest[inv.ProducerID] = inv.ID
		}
	}
	unpaid, declared := latest[w.Producers[0].ID], latest[w.Producers[1].ID]
	for _, inv := range invoices {
		day, ok := payDay(inv.DueDate)
		if !ok || inv.ID == unpaid {
			continue
		}
		accts, err := payments.Accounts(ctx, tx, inv.ProducerID, inv.ShopID, day.String())
		if err != nil {
			return err
		}
		var balance decimal.Dec
		for _, a := range accts {
			for _, d := range a.Documents {
				if d.ID == inv.ID {
					balance = d.Balance
				}
			}
		}
		if balance <= 0 {
			continue
		}
		in := payments.Input{PartnerID: inv.ShopID, Amount: balance, PaidOn: day.String(),
			Method: payments.Transfer, Reference: "Virement facture " + inv.Number, Documents: []string{inv.ID}}
		if inv.ID == declared {
			yesterday := today.AddDays(-1)
			in.PartnerID, in.PaidOn = inv.ProducerID, yesterday.String()
			if _, err := payments.Declare(ctx, tx, users[inv.ShopID], in, yesterday.At(18*time.Hour, loc), yesterday.String()); err != nil {
				return fmt.Errorf("demo: declare payment of %s: %w", inv.Number, err)
			}
			continue
		}
		if _, err := payments.Record(ctx, tx, users[inv.ProducerID], in, day.At(10*time.Hour, loc), day.String()); err != nil {
			return fmt.Errorf("demo: record payment of %s: %w", inv.Number, err)
		}
	}
	return nil
}
