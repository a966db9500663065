package daemon_test

import (
	"context"
	"testing"
	"time"

	"primeur/core/delivery"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

// TestANeedWithDeliveriesIsKept: a need whose commitment was ended by a
// correction to 0 after one of its deliveries was done has no proposal
// left, but its delivery lines still name it. Deleting it (what emptying
// its cell does) is refused with a French 409 and changes nothing; it
// answered 500 (a foreign key) before.
func TestANeedWithDeliveriesIsKept(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := daemontest.New(t, db)
		shop, _ := s.Register("shop@example.fr", "Épicerie", true)
		farm, farmID := s.Producer("ferme@example.fr", "Ferme")
		var need struct {
			ID string `json:"_id"`
		}
		shop.Do("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-11", "quantity": 30}).Expect(t, 201).JSON(t, &need)
		put, rev := "/api/proposals/"+need.ID+"/"+farmID, "/api/proposalreview/"+need.ID+"/"+farmID
		farm.Do("PUT", put, map[string]any{"quantity": 30, "price": 2.5}).Expect(t, 200)
		shop.Do("PUT", rev, map[string]any{"accepted": true}).Expect(t, 200)

		// Monday the 23rd's delivery is locked, so done.
		s.Clock.Set(time.Date(2026, 11, 24, 9, 0, 0, 0, s.Config.Location))
		locked, err := delivery.RulesOf(s.Config).LockDue(ctx, db, s.Clock.Now())
		if err != nil || len(locked) != 1 {
			t.Fatalf("locked %v, %v", locked, err)
		}
		farm.Do("PUT", put, map[string]any{"quantity": 0, "price": 2.5}).Expect(t, 200)
		shop.Do("PUT", rev, map[string]any{"accepted": true}).Expect(t, 200)

		before := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...)
		p := shop.Do("DELETE", "/api/needs/"+need.ID, nil).Expect(t, 409).Problem(t)
		if p.Detail != planning.MsgHasDeliveries {
			t.Fatalf("detail %q", p.Detail)
		}
		if after := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...); after != before {
			t.Fatalf("a refused deletion changed the database:\n%s", storetest.Changes(before, after))
		}
	})
}
