package demo

import (
	"context"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// TestSeedDeliveries runs the deliveries step on orders as the trade step
// leaves them: last month all done, this month done until yesterday and
// planned after.
func TestSeedDeliveries(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := tradetest.New(t, db)
		now := tradetest.At(2026, 11, 20, 10, 0)
		tomato := tradetest.L{Product: "tomate", Price: 250, Expected: 1200, Sent: tradetest.Dec(1200)}
		october := w.Order(w.Farm, w.Shop, "2026-10-01")
		var octDeliveries []string
		for _, day := range []string{"2026-10-08", "2026-10-15", "2026-10-22"} {
			octDeliveries = append(octDeliveries, w.Delivery(october, day, orders.Done, tomato))
		}
		november := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Delivery(november, "2026-11-12", orders.Done, tomato)
		latest := w.Delivery(november, "2026-11-19", orders.Done, tomato)
		future := w.Delivery(november, "2026-11-26", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1200})

		world := &World{Now: now, Shops: []accounts.User{w.Shop}, Producers: []accounts.User{w.Farm}}
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error { return seedDeliveries(ctx, tx, db, world) }); err != nil {
			t.Fatal(err)
		}
		if got := w.Get(octDeliveries[1]); got.ClaimStatus != orders.ClaimAccepted || got.Lines[0].QuantityClaimed != -100 {
			t.Fatalf("last month's claim: %+v %+v", got.Delivery, got.Lines)
		}
		if got := w.Get(latest); got.ClaimStatus != orders.ClaimSent || got.Lines[0].QuantityClaimed != -100 {
			t.Fatalf("this month's claim: %+v %+v", got.Delivery, got.Lines)
		}
		inv, err := billing.ForOrder(ctx, db, october)
		if err != nil || inv.Number != "FA-2026-000001" || inv.IssueDate != "2026-10-31" || inv.SentAt == nil || inv.TotalHT != 3*3000 {
			t.Fatalf("October's invoice: %+v, %v", inv, err)
		}
		// Its accepted claim is settled by a credit note of 1 kg.
		credits, err := billing.Credits(ctx, db, october, "", "")
		if err != nil || len(credits) != 1 || credits[0].Number != "AV-2026-000001" || credits[0].TotalHT != 250 ||
			credits[0].Refers.Number != inv.Number || credits[0].SentAt == nil {
			t.Fatalf("October's credit notes: %+v, %v", credits, err)
		}
		if _, err := billing.ForOrder(ctx, db, november); err == nil {
			t.Fatal("November is invoiced before its end")
		}
		for _, id := range append(octDeliveries, latest) {
			if w.Get(id).NoteSentAt == nil {
				t.Errorf("note of %s not marked sent", id)
			}
		}
		if w.Get(future).NoteSentAt != nil {
			t.Error("a planned delivery's note marked sent")
		}
	})
}
