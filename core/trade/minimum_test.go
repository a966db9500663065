package trade_test

import (
	"errors"
	"testing"

	"primeur/core"
	"primeur/core/fees"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
)

// TestMinimumOrder: PRODUCT §16 "Minimum order and delivery fees". With a
// minimum of 80 € per delivery, a proposal, a counter-proposal, a
// correction or an acceptance that would plan a delivery under it is
// refused (409) with the amount missing from the smallest delivery, and
// changes nothing; a shop's exception replaces the minimum.
func TestMinimumOrder(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		if _, err := fees.Set(ctx, db, f.farm.ID, fees.Input{Minimum: 80}, now); err != nil {
			t.Fatal(err)
		}
		// The farm delivers on Mondays and Thursdays: 9 days in December
		// 2026 from the 20th of November.
		if n := len(trade.Schedule("2026-12-01", f.farm.Days(), now)); n != 9 {
			t.Fatalf("December has %d delivery days, want 9", n)
		}
		tomato := f.need(t, "tomate", "2026-12", 1000)
		// 100 kg at 2 €: 11,11 kg (22,22 €) on each of the first 8 days.
		const short = "Commande minimum de 80,00 € par livraison : il manque 57,78 €."
		refused := func(name string, err error, want string) {
			t.Helper()
			var r *core.Refusal
			if !errors.As(err, &r) || !errors.Is(err, core.ErrConflict) || r.Message != want {
				t.Fatalf("%s: %v, want the refusal %q", name, err, want)
			}
		}
		_, err := propose(db, f.farm, tomato, f.farm.ID, 100, 2, now)
		refused("proposal", err, short)
		if n := count(t, db, `SELECT COUNT(*) FROM proposals WHERE need_id = ?`, tomato); n != 0 {
			t.Fatalf("a refused proposal wrote %d rows", n)
		}
		// A proposal made before the minimum was set: its acceptance is
		// refused too, and changes nothing.
		f.row(t, tomato, f.farm.ID, planning.StatusProposed, planning.FromProducer, 10000, 200)
		_, err = review(db, f.shop, tomato, f.farm.ID, true, now)
		refused("acceptance", err, short)
		if st, _, open := stateOf(t, db, tomato, f.farm.ID); st.Committed || open == nil || open.Status != planning.StatusProposed {
			t.Fatalf("a refused acceptance changed the negotiation: %+v", st)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM deliveries`); n != 0 {
			t.Fatalf("a refused acceptance planned %d deliveries", n)
		}
		// The shop counters at 400 kg: 88,88 € a delivery, accepted.
		ok(t)(propose(db, f.shop, tomato, f.farm.ID, 400, 2, now))
		ok(t)(review(db, f.farm, tomato, f.farm.ID, true, now))
		if n := count(t, db, `SELECT COUNT(*) FROM deliveries`); n != 9 {
			t.Fatalf("%d deliveries planned, want 9", n)
		}
		// A correction down to 300 kg (66,66 €) is refused; to 0 (no
		// delivery left) it is not.
		_, err = propose(db, f.shop, tomato, f.farm.ID, 300, 2, now)
		refused("correction", err, "Commande minimum de 80,00 € par livraison : il manque 13,34 €.")
		// Another product joins the same deliveries: 300 kg of tomatoes
		// and 90 kg of pears at 1,50 € make 81,66 € a delivery.
		pear := f.need(t, "poire", "2026-12", 500)
		ok(t)(propose(db, f.farm, pear, f.farm.ID, 90, 1.5, now))
		ok(t)(review(db, f.shop, pear, f.farm.ID, true, now))
		ok(t)(propose(db, f.shop, tomato, f.farm.ID, 300, 2, now))
		ok(t)(review(db, f.farm, tomato, f.farm.ID, true, now))

		// The other shop's exception: a minimum of 10 €.
		other, err := planning.Create(ctx, db, f.otherShop.ID, planning.NeedInput{ProductID: "tomate", Date: "2026-12", Quantity: 100}, now)
		if err != nil {
			t.Fatal(err)
		}
		_, err = propose(db, f.farm, other.ID, f.farm.ID, 45, 2, now)
		refused("other shop, no exception", err, "Commande minimum de 80,00 € par livraison : il manque 70,00 €.")
		ten := 10.0
		if _, err := fees.SetException(ctx, db, f.farm.ID, f.otherShop.ID, &ten, nil, now); err != nil {
			t.Fatal(err)
		}
		_, err = propose(db, f.farm, other.ID, f.farm.ID, 40, 2, now)
		refused("other shop, its minimum", err, "Commande minimum de 10,00 € par livraison : il manque 1,12 €.")
		ok(t)(propose(db, f.farm, other.ID, f.farm.ID, 45, 2, now))
		ok(t)(review(db, f.otherShop, other.ID, f.farm.ID, true, now))
	})
}
