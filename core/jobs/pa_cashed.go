package jobs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"primeur/core/pa"
	"primeur/core/payments"
	"primeur/core/store"
)

// Encaissée (212): once an invoice deposited on the producer's PA is paid
// in full (payments: its status paid, something paid) — and neither
// rejected (213, irrecevable: not issued) nor refused by the buyer (210:
// the refusal is settled first) —, the pa job posts,
// in the producer's name, the lifecycle message 212 Encaissée — a CDAR
// flow (pa.Lifecycle.XML) — and records the status in the document's
// history, which tells the shop (notify.InvoiceStatus). For goods, whose
// VAT is due on delivery, the status is not required (XP Z12-012: 212 is
// mandatory for services under VAT on receipts); Primeur posts it so that
// both parties' platforms show the invoice settled.
//
// Once: a run takes an invoice up by setting pa_deposits.cashed_at where
// it is empty (one conditional update), then posts. A PA that does not
// answer gives it back (cashed_at emptied, tried by the next run); a PA
// that refuses it (4xx) keeps it taken, its French reason in
// cashed_error, so that a PA that does not take these messages is not
// asked again. A process killed between the two loses the status (it is
// optional): PRODUCT §16 says so.

const (
	paCashedClaim   = `UPDATE pa_deposits SET cashed_at = ? WHERE document_id = ? AND cashed_at IS NULL AND deposited_at IS NOT NULL`
	paCashedRelease = `UPDATE pa_deposits SET cashed_at = NULL WHERE document_id = ?`
	paCashedRefused = `UPDATE pa_deposits SET cashed_error = ? WHERE document_id = ?`
)

// postCashed posts the 212 of conn's producer's invoices paid in full
// since their deposit, and returns how many statuses it recorded.
func postCashed(ctx context.Context, env Env, client *pa.Client, conn pa.Connection, now time.Time) (int, error) {
	var due []struct {
		ID        string `db:"document_id"`
		Number    string `db:"number"`
		IssueDate string `db:"issue_date"`
	}
	if err := store.Select(ctx, env.DB, &due, `SELECT p.document_id, d.number, d.issue_date FROM pa_deposits p
		JOIN documents d ON d.id = p.document_id
		WHERE p.producer_id = ? AND p.deposited_at IS NOT NULL AND p.cashed_at IS NULL AND d.kind IN ('invoice', 'complement')
		AND p.status NOT IN ('213', 'irrecevable', '210', '212')`, conn.ProducerID); err != nil {
		return 0, fmt.Errorf("jobs: pa: invoices to cash: %w", err)
	}
	if len(due) == 0 {
		return 0, nil
	}
	accounts, err := payments.Accounts(ctx, env.DB, conn.ProducerID, "", env.Rules.Today(now))
	if err != nil {
		return 0, err
	}
	paid := map[string]bool{}
	for _, a := range accounts {
		for _, d := range a.Documents {
			if d.Status == payments.Paid && d.Paid > 0 {
				paid[d.ID] = true
			}
		}
	}
	siren, err := producerSIREN(ctx, env, conn.ProducerID)
	if err != nil {
		return 0, err
	}
	recorded := 0
	for _, d := range due {
		if !paid[d.ID] {
			continue
		}
		wall := env.wallClock()
		if n, err := store.Exec(ctx, env.DB, paCashedClaim, wall.UnixMilli(), d.ID); err != nil || n == 0 {
			if err != nil {
				return recorded, fmt.Errorf("jobs: pa: take up the 212 of %s: %w", d.Number, err)
			}
			continue // another run's
		}
		l := pa.Lifecycle{ID: "212-" + d.ID, At: wall.UTC(), Number: d.Number, TypeCode: "380",
			IssueDate: strings.ReplaceAll(d.IssueDate, "-", ""), Seller: siren, Status: pa.StatusCashed, Label: pa.StatusLabel(pa.StatusCashed)}
		cdar, err := l.XML()
		if err != nil {
			return recorded, err
		}
		f, err := client.DepositLifecycle(ctx, d.Number+"-212.xml", cdar)
		var pe *pa.Error
		switch {
		case errors.As(err, &pe) && pe.Refused():
			env.Log.Warn("jobs: pa: the PA refuses the Encaissée (212) status; not posted again", "document", d.Number, "err", err)
			if _, err := store.Exec(context.WithoutCancel(ctx), env.DB, paCashedRefused, pa.French(err), d.ID); err != nil {
				return recorded, fmt.Errorf("jobs: pa: %w", err)
			}
			continue
		case err != nil:
			if _, rerr := store.Exec(context.WithoutCancel(ctx), env.DB, paCashedRelease, d.ID); rerr != nil {
				env.Log.Error("jobs: pa: give back the 212", "document", d.Number, "err", rerr)
			}
			return recorded, err
		}
		n, err := env.recordStatus(ctx, d.ID, "cashed-"+f.FlowID, pa.StatusCashed, "", "", wall)
		if err != nil {
			return recorded, err
		}
		recorded += n
	}
	return recorded, nil
}
