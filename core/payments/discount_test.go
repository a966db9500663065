package payments_test

import (
	"errors"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/payments"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// escompteWorld: a producer granting 2 % for a payment within 10 days,
// due 30 days after the décade; its November invoice of 100 € HT (105,50 €
// TTC) issued on 30 November at 21:00, due 10 December, its escompte open
// until then: 2 € HT and 0,11 € of VAT, 2,11 € off.
func escompteWorld(t *testing.T, db *store.DB) (*tradetest.World, billing.Invoice) {
	w := tradetest.New(t, db)
	w.Exec(`UPDATE users SET payment_discount = 200, payment_discount_days = 10 WHERE id = ?`, w.Farm.ID)
	o := w.Order(w.Farm, w.Shop, "2026-11-01")
	w.Delivery(o, "2026-11-05", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 4000})
	var inv billing.Invoice
	if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		i, err := billing.Issue(ctx, tx, o, at(2026, 11, 30, 21, 0), paris)
		if i != nil {
			inv = *i
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if inv.TotalTTC != 10550 || inv.DueDate != "2026-12-10" || inv.DiscountUntil != "2026-12-10" || inv.Discount != 200 {
		t.Fatalf("invoice %+v", inv)
	}
	return w, inv
}

func record(t *testing.T, db *store.DB, farm accounts.User, shop string, amount decimal.Dec, on string) (payments.Payment, error) {
	t.Helper()
	var p payments.Payment
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		p, err = payments.Record(ctx, tx, farm, payments.Input{PartnerID: shop, Amount: amount, PaidOn: on, Method: payments.Transfer},
			at(2026, 12, 12, 9, 0), "2026-12-12")
		return err
	})
	return p, err
}

func discounts(t *testing.T, db *store.DB, order string) []billing.Invoice {
	t.Helper()
	cs, err := billing.Credits(ctx, db, order, "", "")
	if err != nil {
		t.Fatal(err)
	}
	var out []billing.Invoice
	for _, c := range cs {
		if c.Kind == billing.KindDiscount {
			out = append(out, c)
		}
	}
	return out
}

func invoiceDoc(t *testing.T, db *store.DB, w *tradetest.World, id, today string) payments.Document {
	t.Helper()
	accs, err := payments.Accounts(ctx, db, w.Farm.ID, w.Shop.ID, today)
	if err != nil || len(accs) != 1 {
		t.Fatalf("accounts %+v, %v", accs, err)
	}
	for _, d := range accs[0].Documents {
		if d.ID == id {
			return d
		}
	}
	t.Fatalf("no document %s", id)
	return payments.Document{}
}

// TestEscompte: a payment dated within the window that deducts the
// escompte settles the invoice through the escompte's credit note, neither
// late nor reminded; one dated after the window, or leaving more than the
// escompte unpaid, or paying it all, earns none; the payment that earned
// one cannot be undone; a declaration earns it once confirmed.
func TestEscompte(t *testing.T) {
	for _, c := range []escompteCase{
		{"the escompte deducted within the window", 10550 - 211, "2026-12-10", true, 0},
		{"the escompte deducted after the window", 10550 - 211, "2026-12-11", false, 211},
		{"more than the escompte left unpaid", 10550 - 300, "2026-12-05", false, 300},
		{"the whole amount paid within the window", 10550, "2026-12-05", false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) { c.run(t, db) })
		})
	}
}

// escompteCase is a payment of the escompte's invoice and what follows.
type escompteCase struct {
	name     string
	amount   decimal.Dec
	on       string
	discount bool        // whether it earns the escompte
	balance  decimal.Dec // the invoice's balance after
}

func (c escompteCase) run(t *testing.T, db *store.DB) {
	w, inv := escompteWorld(t, db)
	if d := invoiceDoc(t, db, w, inv.ID, "2026-12-01"); d.Discount != 211 || d.DiscountUntil != "2026-12-10" {
		t.Fatalf("offered %+v", d)
	}
	p, err := record(t, db, w.Farm, w.Shop.ID, c.amount, c.on)
	if err != nil {
		t.Fatal(err)
	}
	ds := discounts(t, db, inv.OrderID)
	if (len(ds) == 1) != c.discount || c.discount && (ds[0].TotalHT != 200 || ds[0].TotalVAT != 11 || ds[0].TotalTTC != 211 ||
		ds[0].Refers.Number != inv.Number || ds[0].IssueDate != "2026-12-12") {
		t.Fatalf("escompte credit notes %+v", ds)
	}
	d := invoiceDoc(t, db, w, inv.ID, "2026-12-20")
	if d.Balance != c.balance || (c.balance == 0) != (d.Status == payments.Paid) {
		t.Fatalf("after: %+v", d)
	}
	if !c.discount {
		return
	}
	// Issued, the credit note stays, and so does the payment.
	before := storetest.Snapshot(t, db)
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		_, err := payments.Undo(ctx, tx, w.Farm, p.ID, at(2026, 12, 13, 9, 0))
		return err
	})
	if !errors.Is(err, core.ErrConflict) {
		t.Fatalf("undo: %v", err)
	}
	if after := storetest.Snapshot(t, db); after != before {
		t.Fatalf("a refused undo changed:\n%s", storetest.Changes(before, after))
	}
	// A second payment earns no second escompte.
	if _, err := record(t, db, w.Farm, w.Shop.ID, 100, "2026-12-10"); err != nil {
		t.Fatal(err)
	}
	if n := len(discounts(t, db, inv.OrderID)); n != 1 {
		t.Fatalf("%d escompte credit notes", n)
	}
}

// TestConfirmedDeclarationsGoOnAccount: two declarations of the same
// invoice, both confirmed, pay it once; the second's amount is on account
// (it used to stay hidden in a negative balance), and it pays the next
// invoice as it comes. A declaration within the window earns the escompte
// when confirmed, whatever the day of the confirmation.
func TestConfirmedDeclarationsGoOnAccount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w, inv := escompteWorld(t, db)
		declare := func(amount decimal.Dec, on string) payments.Payment {
			t.Helper()
			var p payments.Payment
			if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
				var err error
				p, err = payments.Declare(ctx, tx, w.Shop, payments.Input{PartnerID: w.Farm.ID, Amount: amount, PaidOn: on,
					Method: payments.Transfer, Documents: []string{inv.ID}}, at(2026, 12, 5, 9, 0), "2026-12-05")
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return p
		}
		confirm := func(p payments.Payment) {
			t.Helper()
			if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
				_, err := payments.Confirm(ctx, tx, w.Farm, p.ID, true, at(2026, 12, 15, 9, 0), "2026-12-15")
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}
		first, second := declare(10550-211, "2026-12-05"), declare(10550-211, "2026-12-05")
		confirm(first)
		if n := len(discounts(t, db, inv.OrderID)); n != 1 {
			t.Fatalf("confirmed after the window, declared within it: %d escompte credit notes", n)
		}
		confirm(second)
		accs, err := payments.Accounts(ctx, db, w.Farm.ID, w.Shop.ID, "2026-12-20")
		if err != nil || len(accs) != 1 {
			t.Fatal(err)
		}
		a := accs[0]
		d := invoiceDoc(t, db, w, inv.ID, "2026-12-20")
		if d.Balance != 0 || d.Paid != 10550-211 || d.Status != payments.Paid || a.OnAccount != 10550-211 || a.Owed != -(10550-211) {
			t.Fatalf("the surplus of the second declaration: invoice %+v, account on %v owed %v", d, a.OnAccount, a.Owed)
		}
	})
}

// TestATransferWithinTheWindowDeductsTheEscompte: the shop's transfer
// executed by the escompte's last day pays the invoice less its escompte,
// and says so; executed after it, the whole amount.
func TestATransferWithinTheWindowDeductsTheEscompte(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w, inv := escompteWorld(t, db)
		w.Exec(`UPDATE users SET iban = 'FR7630006000011234567890189', bic = 'AGRIFRPP882' WHERE id = ?`, w.Shop.ID)
		shop, err := accounts.ByID(ctx, db, w.Shop.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			today, execution string
			amount           decimal.Dec
			remittance       string
		}{
			// Friday 4 December: executed Monday 7, within the window.
			{"2026-12-04", "2026-12-07", 10550 - 211, "Facture FA-2026-000001 (escompte 2,11)"},
			// Thursday 10 December, the window's last day: executed the 11th.
			{"2026-12-10", "2026-12-11", 10550, "Facture FA-2026-000001"},
		} {
			plan, err := payments.PlanTransfer(ctx, db, shop, []string{inv.ID}, at(2026, 12, 4, 10, 0), c.today)
			if err != nil {
				t.Fatal(err)
			}
			if plan.Execution != c.execution || len(plan.Transfers) != 1 || plan.Transfers[0].Amount != c.amount ||
				plan.Transfers[0].Remittance != c.remittance {
				t.Fatalf("%s: executed %s, %+v", c.today, plan.Execution, plan.Transfers)
			}
		}
	})
}
