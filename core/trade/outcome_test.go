package trade_test

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
)

// actorLoad is what a user load holds of the parts a trade outcome
// refreshes, read in full the way the daemon's user load reads them.
type actorLoad struct {
	needs  []planning.View
	orders []orders.View
	events []activity.View
}

func loadOf(t *testing.T, db store.Q, u accounts.User) actorLoad {
	t.Helper()
	var (
		l   actorLoad
		err error
	)
	nf := planning.Filter{TradedBy: u.ID, OnlyProposalsOf: u.ID}
	of := orders.Filter{ProducerID: u.ID}
	if u.IsDistributor() {
		nf, of = planning.Filter{DistributorID: u.ID}, orders.Filter{DistributorID: u.ID}
	}
	if l.needs, err = planning.List(ctx, db, nf); err != nil {
		t.Fatal(err)
	}
	if l.orders, err = orders.LoadViews(ctx, db, of, u.ID); err != nil {
		t.Fatal(err)
	}
	if l.events, err = activity.Feed(ctx, db, u.ID, "", activity.DefaultPage); err != nil {
		t.Fatal(err)
	}
	return l
}

// TestOutcome walks a negotiation through every kind of trade answer and
// checks that each outcome carries exactly what the actor's user load
// changed: the need, the order (created, grown, deleted) and the events
// recorded, each equal to the user load's item read afterwards.
func TestOutcome(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		tomatoes := f.need(t, "tomate", "2026-12", 100)
		carrots := f.need(t, "carotte", "2026-12", 50)

		const (
			noOrder = iota
			newOrder
			sameOrder
			orderGone
		)
		var orderID string
		steps := []struct {
			name   string
			actor  accounts.User
			run    func(q store.Q, at time.Time) (trade.Outcome, error)
			events []string
			order  int
		}{
			{"the farm proposes", f.farm, func(q store.Q, at time.Time) (trade.Outcome, error) {
				return trade.Propose(ctx, q, f.farm, tomatoes, f.farm.ID, trade.Offer{Quantity: 40, Price: 2.5}, at)
			}, []string{activity.ProposalRequest}, noOrder},
			{"the shop refuses", f.shop, func(q store.Q, at time.Time) (trade.Outcome, error) {
				return trade.Review(ctx, q, f.shop, tomatoes, f.farm.ID, false, at)
			}, []string{activity.ProposalReview}, noOrder},
			{"the shop refuses again: nothing recorded", f.shop, func(q store.Q, at time.Time) (trade.Outcome, error) {
				return trade.Review(ctx, q, f.shop, tomatoes, f.farm.ID, false, at)
			}, []string{}, noOrder},
			{"the farm proposes again", f.farm, func(q store.Q, at time.Time) (trade.Outcome, error) {
				return trade.Propose(ctx, q, f.farm, tomatoes, f.farm.ID, trade.Offer{Quantity: 40, Price: 2.5}, at)
			}, []string{activity.ProposalRequest}, noOrder},
			{"the shop accepts: a new order", f.shop, func(q store.Q, at time.Time) (trade.Outcome, error) {
				return trade.Review(ctx, q, f.shop, tomatoes, f.farm.ID, true, at)
			}, []string{activity.ProposalReview}, newOrder},
			{"the farm proposes carrots", f.farm, func(q store.Q, at time.Time) (trade.Outcome, error) {
				return trade.Propose(ctx, q, f.farm, carrots, f.farm.ID, trade.Offer{Quantity: 20, Price: 1.2}, at)
			}, []string{activity.ProposalRequest}, noOrder},
			{"the shop counter-proposes", f.shop, func(q store.Q, at time.Time) (trade.Outcome, error) {
				return trade.Propose(ctx, q, f.shop, carrots, f.farm.ID, trade.Offer{Quantity: 20, Price: 1.1}, at)
			}, []string{activity.ProposalRequest}, noOrder},
			{"the farm accepts: the same order grows", f.farm, func(q store.Q, at time.Time) (trade.Outcome, error) {
				return trade.Review(ctx, q, f.farm, carrots, f.farm.ID, true, at)
			}, []string{activity.ProposalReview}, sameOrder},
			{"the farm asks a correction", f.farm, func(q store.Q, at time.Time) (trade.Outcome, error) {
				return trade.Propose(ctx, q, f.farm, tomatoes, f.farm.ID, trade.Offer{Quantity: 10, Price: 2.5}, at)
			}, []string{activity.FixRequest}, noOrder},
			{"the farm withdraws it", f.farm, func(q store.Q, at time.Time) (trade.Outcome, error) {
				return trade.Withdraw(ctx, q, f.farm, tomatoes, f.farm.ID, at)
			}, []string{}, noOrder},
			{"the shop ends the carrots", f.shop, func(q store.Q, at time.Time) (trade.Outcome, error) {
				return trade.Propose(ctx, q, f.shop, carrots, f.farm.ID, trade.Offer{Quantity: 0, Price: 1.1}, at)
			}, []string{activity.FixRequest}, noOrder},
			{"the farm accepts: carrots unpriced, the order stays", f.farm, func(q store.Q, at time.Time) (trade.Outcome, error) {
				return trade.Review(ctx, q, f.farm, carrots, f.farm.ID, true, at)
			}, []string{activity.FixReview}, sameOrder},
			{"the farm ends the tomatoes", f.farm, func(q store.Q, at time.Time) (trade.Outcome, error) {
				return trade.Propose(ctx, q, f.farm, tomatoes, f.farm.ID, trade.Offer{Quantity: 0, Price: 2.5}, at)
			}, []string{activity.FixRequest}, noOrder},
			{"the shop accepts: the order is deleted", f.shop, func(q store.Q, at time.Time) (trade.Outcome, error) {
				return trade.Review(ctx, q, f.shop, tomatoes, f.farm.ID, true, at)
			}, []string{activity.FixReview}, orderGone},
		}
		for i, st := range steps {
			at := now.Add(time.Duration(i) * time.Minute)
			o, err := tx(db, func(q store.Q) (trade.Outcome, error) { return st.run(q, at) })
			if err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
			l := loadOf(t, db, st.actor)

			// The need, as the actor's load holds it; a producer's load
			// holds only the needs it trades on.
			i := slices.IndexFunc(l.needs, func(n planning.View) bool { return n.ID == o.Need.ID })
			if (i < 0 && (st.actor.IsDistributor() || len(o.Need.Proposals) > 0)) || (i >= 0 && !reflect.DeepEqual(l.needs[i], o.Need)) {
				t.Fatalf("%s: need %+v, load holds %+v", st.name, o.Need, l.needs)
			}
			// The events, on top of the actor's feed.
			var types []string
			for _, e := range o.Events {
				types = append(types, e.Type)
			}
			if o.Events == nil || !slices.Equal(types, st.events) || !reflect.DeepEqual(l.events[:len(o.Events)], o.Events) {
				t.Fatalf("%s: events %+v, feed starts %+v", st.name, o.Events, l.events[:len(st.events)])
			}
			// The order.
			switch st.order {
			case noOrder:
				if o.Order != nil || o.RemovedOrder != "" {
					t.Fatalf("%s: order %+v, removed %q", st.name, o.Order, o.RemovedOrder)
				}
			case newOrder, sameOrder:
				if o.Order == nil || o.RemovedOrder != "" || len(o.Order.Deliveries) == 0 {
					t.Fatalf("%s: order %+v, removed %q", st.name, o.Order, o.RemovedOrder)
				}
				if (st.order == newOrder) == (o.Order.ID == orderID) {
					t.Fatalf("%s: order %s after %s", st.name, o.Order.ID, orderID)
				}
				orderID = o.Order.ID
				if i := slices.IndexFunc(l.orders, func(v orders.View) bool { return v.ID == orderID }); i < 0 || !reflect.DeepEqual(l.orders[i], *o.Order) {
					t.Fatalf("%s: order %+v, load holds %+v", st.name, *o.Order, l.orders)
				}
			case orderGone:
				if o.Order != nil || o.RemovedOrder != orderID || len(l.orders) != 0 {
					t.Fatalf("%s: order %+v, removed %q (of %s), load holds %+v", st.name, o.Order, o.RemovedOrder, orderID, l.orders)
				}
			}
		}
	})
}
