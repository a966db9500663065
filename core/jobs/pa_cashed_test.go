package jobs_test

import (
	"slices"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/jobs"
	"primeur/core/pa"
	"primeur/core/payments"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestPACashed (issue 38): once the farm records the payment in full of
// its deposited invoice, the next run posts its Encaissée (212) to the PA
// — a CDAR flow of the farm's, validated by the local PA against the
// standard's document — once, and the invoice's history and both
// parties' feeds say so; an invoice partly paid, rejected (213) or
// refused is not cashed; later runs post nothing more.
func TestPACashed(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w, e, srv := paMonth(t, db)
		run(t, jobs.PA, e, at(2026, 12, 1, 6, 0))
		var doc struct {
			ID    string `db:"id"`
			Total int64  `db:"total_ttc"`
		}
		if err := store.Get(ctx, db, &doc, `SELECT id, total_ttc FROM documents WHERE number = 'FA-2026-000001' AND producer_id = ?`, w.Farm.ID); err != nil {
			t.Fatal(err)
		}
		// Every shop pays in full: the first's invoice is cashed; the
		// second's was rejected (213), the third's refused (210).
		accs, err := payments.Accounts(ctx, db, w.Farm.ID, "", "2026-12-05")
		if err != nil || len(accs) != 3 {
			t.Fatal(len(accs), err)
		}
		for _, a := range accs {
			if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
				_, err := payments.Record(ctx, tx, w.Farm, payments.Input{PartnerID: a.DistributorID, Amount: a.Owed, PaidOn: "2026-12-05",
					Method: payments.Transfer}, at(2026, 12, 5, 9, 0), "2026-12-05")
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}
		r := run(t, jobs.PA, e, at(2026, 12, 5, 9, 5))
		if r.Get(jobs.PAStatuses) != 1 {
			t.Fatalf("run after the payment: %s %q", r, statusLines(t, db))
		}
		if r := run(t, jobs.PA, e, at(2026, 12, 5, 9, 10)); r.Get(jobs.PAStatuses) != 0 {
			t.Fatalf("a later run: %s", r)
		}
		lines := statusLines(t, db)
		if !slices.Contains(lines, "FA-2026-000001 Encaissée | Déposée | Encaissée") {
			t.Fatalf("%q", lines)
		}
		var cdars []string
		for _, f := range srv.Flows() {
			if f.FlowSyntax == pa.SyntaxCDAR && f.FlowDirection == pa.DirectionOut {
				cdars = append(cdars, f.Name+" "+f.Ack.Status)
			}
		}
		if !slices.Equal(cdars, []string{"FA-2026-000001-212.xml Ok"}) {
			t.Fatalf("lifecycle flows posted %q", cdars)
		}
		var told []string
		if err := store.Select(ctx, db, &told, `SELECT line FROM notifications WHERE user_id = ? AND kind = 'einvoice' ORDER BY created_at, line`, w.Shop.ID); err != nil {
			t.Fatal(err)
		}
		if len(told) != 3 || !slices.Contains(told, "La facture FA-2026-000001 de Ferme des Aravis est encaissée : votre paiement est reçu.") ||
			!slices.Contains(told, "L'avoir AV-2026-000001 de Ferme des Aravis a été déposé sur sa plateforme agréée.") {
			t.Fatalf("the shop's notifications %q", told)
		}
	})
}
