package closure_test

import (
	"primeur/core/documents"
	"primeur/core/documents/pdftest"

	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/closure"
	"primeur/core/orders"
	"primeur/core/payments"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

var ctx = context.Background()

// TestCloseAccount: a shop bound to its producer by a planned delivery, a
// commitment of next month, a claim waiting and an unpaid invoice cannot
// close its account, is told why, and nothing changes; once all is
// settled it closes: anonymised, off the map, unable to log in, its email
// free again, while its invoice keeps the legal details it was issued with.
func TestCloseAccount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		w.Exec(`UPDATE users SET latitude = '45.9', longitude = '6.12', lat_e6 = 45900000, lon_e6 = 6120000 WHERE id = ?`, w.Shop.ID)
		nov := w.Order(w.Farm, w.Shop, "2026-11-01")
		done := w.Delivery(nov, "2026-11-05", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000, Sent: tradetest.Dec(1000)})
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			_, err := billing.Issue(ctx, tx, nov, tradetest.At(2026, 12, 1, 6, 0), tradetest.Paris)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		dec := w.Order(w.Farm, w.Shop, "2026-12-01")
		planned := w.Delivery(dec, "2026-12-10", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		w.Exec(`UPDATE deliveries SET claim_status = 'sent' WHERE id = ?`, done)
		now := tradetest.At(2026, 12, 3, 9, 0)
		today := "2026-12-03"

		blockers, err := closure.Blockers(ctx, db, w.Shop, today)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(blockers, " ")
		for _, want := range []string{"une livraison est prévue", "un engagement court ce mois-ci ou après", "une réclamation attend une réponse",
			"26,38 € de factures restent à payer"} {
			if !strings.Contains(got, want) {
				t.Errorf("blockers %q lack %q", got, want)
			}
		}
		before := storetest.Snapshot(t, db)
		err = closure.Close(ctx, db, w.Shop, now, tradetest.Paris)
		if !errors.Is(err, core.ErrConflict) || !strings.HasPrefix(err.Error(), closure.MsgBlocked) {
			t.Fatalf("a blocked closure: %v", err)
		}
		if after := storetest.Snapshot(t, db); after != before {
			t.Fatalf("a refused closure changed:\n%s", storetest.Changes(before, after))
		}

		// Everything settled: the delivery cancelled, the commitment ended,
		// the claim answered, the invoice paid.
		w.Exec(`UPDATE deliveries SET status = 'cancelled' WHERE id = ?`, planned)
		w.Exec(`UPDATE proposals SET quantity = 0 WHERE need_id IN (SELECT id FROM needs WHERE month = '2026-12-01')`)
		w.Exec(`UPDATE deliveries SET claim_status = 'rejected' WHERE id = ?`, done)
		if _, err := payments.Record(ctx, db, w.Farm, payments.Input{PartnerID: w.Shop.ID, Amount: 2638, PaidOn: today,
			Method: payments.Transfer}, now, today); err != nil {
			t.Fatal(err)
		}
		if b, err := closure.Blockers(ctx, db, w.Shop, today); err != nil || len(b) != 0 {
			t.Fatalf("blockers once settled: %v, %v", b, err)
		}
		// A need of next month nothing refers to goes with the account.
		w.Exec(`INSERT INTO needs (id, distributor_id, product_id, month, quantity, created_at, updated_at)
			VALUES ('free-need', ?, 'poire', '2027-01-01', 1000, 0, 0)`, w.Shop.ID)
		if _, err := accounts.NewSession(ctx, db, w.Shop.ID, now); err != nil {
			t.Fatal(err)
		}
		if err := closure.Close(ctx, db, w.Shop, now, tradetest.Paris); err != nil {
			t.Fatal(err)
		}

		closed, err := accounts.ByID(ctx, db, w.Shop.ID)
		if err != nil || closed.Name != closure.ClosedName || closed.Email != "supprime-"+w.Shop.ID+"@primeur.invalid" ||
			closed.IBAN != "" || closed.AddressLine1 != "" || closed.SIRET != "" {
			t.Fatalf("closed account %+v (%v)", closed, err)
		}
		var n int
		if err := store.Get(ctx, db, &n, `SELECT COUNT(*) FROM sessions WHERE user_id = ?`, w.Shop.ID); err != nil || n != 0 {
			t.Fatalf("%d sessions (%v)", n, err)
		}
		if err := store.Get(ctx, db, &n, `SELECT COUNT(*) FROM needs WHERE id = 'free-need'`); err != nil || n != 0 {
			t.Fatalf("the free need stays (%d, %v)", n, err)
		}
		if _, _, err := accounts.Login(ctx, db, "epicerie@lac.fr", "n'importe quoi 1", "10.0.0.1", now); err == nil {
			t.Fatal("a closed account logs in")
		}
		shops, err := accounts.ShopsOf(ctx, db, w.Farm)
		if err != nil || len(shops) != 0 {
			t.Fatalf("the farm's partners %+v (%v)", shops, err)
		}
		if lat, lon := closed.LatE6, closed.LonE6; lat != nil || lon != nil {
			t.Fatalf("the closed shop keeps a position on the map: %v, %v", lat, lon)
		}
		if _, err := accounts.Register(ctx, db, accounts.Registration{Email: "epicerie@lac.fr", Password: "nouveau123", Name: "Épicerie", Distributor: true}, now); err != nil {
			t.Fatalf("the email is not free again: %v", err)
		}
		inv, err := billing.ForOrder(ctx, db, nov)
		if err != nil || inv.Buyer.Name != "Épicerie du Lac" || inv.Buyer.SIRET != "98765432400019" {
			t.Fatalf("the invoice's buyer %+v (%v)", inv.Buyer, err)
		}
		pdf, err := documents.Invoice(inv)
		if err != nil {
			t.Fatal(err)
		}
		if text := pdftest.Text(t, pdf); !strings.Contains(text, "Épicerie du Lac") || !strings.Contains(text, "98765432400019") ||
			!strings.Contains(text, "3 quai de la Tournette") || strings.Contains(text, closure.ClosedName) {
			t.Fatalf("the invoice of the closed shop reads:\n%s", text)
		}
		// Closed once.
		if err := closure.Close(ctx, db, closed, now, tradetest.Paris); err != nil {
			t.Fatalf("closing again: %v", err)
		}
	})
}
