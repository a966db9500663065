package jobs_test

import (
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/jobs"
	"primeur/core/payments"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// TestTheEscompteCreditNoteIsEmailed: the invoices of the month's last
// day offer the escompte; the payment that deducts it within its window
// earns an escompte credit note, which the next run of the deliveries job
// emails to the shop's accounting and to the producer, saying what it
// grants.
func TestTheEscompteCreditNoteIsEmailed(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		w.Exec(`UPDATE users SET payment_discount = 200, payment_discount_days = 10 WHERE id = ?`, w.Farm.ID)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Emailed(o, "2026-11-10", tradetest.L{Product: "tomate", Price: 250, Expected: 4000}) // 105,50 € TTC
		e, srv := smtpEnv(t, db)
		if r := run(t, jobs.Invoices, e, at(2026, 11, 30, 21, 0)); r.Get(jobs.InvoicesSent) != 1 {
			t.Fatalf("the month's last day: %s", r)
		}
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			_, err := payments.Record(ctx, tx, w.Farm, payments.Input{PartnerID: w.Shop.ID, Amount: 10550 - 211,
				PaidOn: "2026-12-08", Method: payments.Transfer}, at(2026, 12, 8, 9, 0), "2026-12-08")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if r := run(t, jobs.Deliveries, e, at(2026, 12, 8, 9, 5)); r.Get(jobs.InvoicesSent) != 1 {
			t.Fatalf("the escompte credit note: %s", r)
		}
		msgs := srv.Merged(t)
		if len(msgs) != 2 {
			t.Fatalf("%d messages", len(msgs))
		}
		m := msgs[1]
		if m.Subject != "Avoir d'escompte AV-2026-000001 — Ferme des Aravis — facture FA-2026-000001" ||
			!strings.Contains(m.Body, "il accorde l'escompte de 2 % pour le paiement de la facture FA-2026-000001 du 30 novembre 2026") ||
			!strings.Contains(m.Body, "Montant TTC : 2,11\u00a0€") {
			t.Fatalf("message %q: %s", m.Subject, m.Body)
		}
		pdfAttachment(t, m, "AV-2026-000001.pdf")
	})
}
