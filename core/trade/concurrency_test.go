package trade_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
)

// TestConcurrentProposals has 50 producers propose 30 kg each at once on a
// 1000 kg need while the shop accepts every proposal as soon as it exists:
// exactly 33 fit (990 kg), the others are refused with the remaining-need
// message, and accepted + proposed never exceeds the need.
func TestConcurrentProposals(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		needID := f.need(t, "tomate", "2026-12", 1000)
		const n = 50
		farms := make([]accounts.User, n)
		for i := range farms {
			farms[i] = newUser(t, db, fmt.Sprintf("farm%02d@x.fr", i), accounts.Producer, "1001000")
		}

		var wg sync.WaitGroup
		results := make([]chan error, n)
		accepted := make([]error, n)
		proposed := make([]error, n)
		for i := range farms {
			results[i] = make(chan error, 1)
			wg.Add(2)
			go func() {
				defer wg.Done()
				_, err := propose(db, farms[i], needID, farms[i].ID, 30, 2, now)
				proposed[i] = err
				results[i] <- err
			}()
			go func() {
				defer wg.Done()
				if err := <-results[i]; err != nil {
					return
				}
				_, accepted[i] = review(db, f.shop, needID, farms[i].ID, true, now)
			}()
		}
		wg.Wait()

		ok, refused := 0, 0
		for i := range farms {
			switch err := proposed[i]; {
			case err == nil:
				ok++
				if accepted[i] != nil {
					t.Errorf("accepting farm %d: %v", i, accepted[i])
				}
			case message(err) == trade.ExceedsMessage(1000, "kg"):
				refused++
			default:
				var invalid *core.ValidationError
				if !errors.As(err, &invalid) {
					t.Errorf("farm %d: unexpected error %v", i, err)
				} else {
					refused++
				}
			}
		}
		n2, ps, err := planning.Get(ctx, db, needID)
		if err != nil {
			t.Fatal(err)
		}
		a, p := planning.Totals(ps)
		if a+p > n2.Quantity {
			t.Fatalf("invariant broken: accepted %v + proposed %v > %v", a, p, n2.Quantity)
		}
		if ok != 33 || refused != n-33 || a != 99000 || p != 0 {
			t.Fatalf("%d proposals passed, %d refused; accepted %v, proposed %v", ok, refused, a, p)
		}
		// Every commitment has its order and deliveries, numbered from 1 per producer.
		if c := count(t, db, `SELECT COUNT(*) FROM orders`); c != 33 {
			t.Fatalf("%d orders", c)
		}
		if c := count(t, db, `SELECT COUNT(*) FROM deliveries WHERE chrono > 9`); c != 0 {
			t.Fatal("delivery numbers are not per producer")
		}
	})
}
