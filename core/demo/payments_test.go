package demo

import (
	"context"
	"testing"

	"primeur/core/accounts"
	"primeur/core/payments"
	"primeur/core/store"
)

// seededPayments: the demo's payments screens are not "everything
// overdue" (issue 37): the shops paid their invoices before they fell due,
// but the main shop, which owes its first producer its latest invoice,
// overdue, and declared yesterday the payment of its latest to the second,
// which waits for that producer's confirmation.
func seededPayments(t *testing.T, db *store.DB) {
	ctx := context.Background()
	user := func(email string) accounts.User {
		u, err := accounts.ByEmail(ctx, db, email)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	main, first, second := user(shops[0].email), user(producers[0].email), user(producers[1].email)
	all, err := payments.Accounts(ctx, db, "", "", "2026-11-20")
	if err != nil || len(all) < 8 {
		t.Fatalf("%d accounts, %v", len(all), err)
	}
	paid := 0
	for _, a := range all {
		for _, d := range a.Documents {
			if d.Status == payments.Paid && d.Kind == "invoice" {
				paid++
			}
		}
		switch {
		case a.DistributorID == main.ID && a.ProducerID == first.ID:
			if a.Overdue <= 0 || a.Declared != 0 {
				t.Errorf("the main shop owes its first producer nothing overdue: %+v", a)
			}
		case a.DistributorID == main.ID && a.ProducerID == second.ID:
			if a.Declared <= 0 || a.Declared != a.Owed {
				t.Errorf("no payment declared to the second producer: %+v", a)
			}
		default:
			if a.Overdue != 0 || a.Owed != 0 {
				t.Errorf("%s owes %s %v (%v overdue)", a.DistributorID, a.ProducerID, a.Owed, a.Overdue)
			}
		}
	}
	if paid < 20 {
		t.Errorf("only %d invoices paid", paid)
	}
}
