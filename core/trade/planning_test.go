package trade_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
)

// plan renders an order's deliveries of a status as "date#chrono product=qty
// …" lines, in date order.
func plan(o *orders.Full, status string) []string {
	var out []string
	if o == nil {
		return out
	}
	for _, d := range o.Deliveries {
		if d.Status != status {
			continue
		}
		var ls []string
		for _, l := range d.Lines {
			ls = append(ls, fmt.Sprintf("%s=%s", l.ProductID, l.QuantityExpected))
		}
		out = append(out, fmt.Sprintf("%s#%d %s", d.Date, d.Chrono, strings.Join(ls, " ")))
	}
	return out
}

func expectPlan(t *testing.T, o *orders.Full, status string, want ...string) {
	t.Helper()
	if got := plan(o, status); !slices.Equal(got, want) {
		t.Fatalf("%s deliveries:\n got %q\nwant %q", status, got, want)
	}
}

// balanced checks done + planned = commitment for each product.
func balanced(t *testing.T, o *orders.Full, want map[string]decimal.Dec) {
	t.Helper()
	done, planned := carried(o, orders.Done), carried(o, orders.Planned)
	for product, qty := range want {
		if done[product]+planned[product] != qty {
			t.Fatalf("%s: done %v + planned %v ≠ %v", product, done[product], planned[product], qty)
		}
	}
}

func TestDeliveryPlanning(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		tomato := f.need(t, "tomate", "2026-12", 150)
		melon := f.need(t, "melon", "2026-12", 10)
		const dec = "2026-12-01"

		// Accepted on Friday 20 November: every Monday and Thursday of
		// December, 100 kg split to the hundredth, remainder on the last.
		ok(t)(propose(db, f.farm, tomato, f.farm.ID, 100, 2, now))
		ok(t)(review(db, f.shop, tomato, f.farm.ID, true, now))
		o := order(t, db, f.farm.ID, f.shop.ID, dec)
		expectPlan(t, o, orders.Planned,
			"2026-12-03#1 tomate=11.11", "2026-12-07#2 tomate=11.11", "2026-12-10#3 tomate=11.11",
			"2026-12-14#4 tomate=11.11", "2026-12-17#5 tomate=11.11", "2026-12-21#6 tomate=11.11",
			"2026-12-24#7 tomate=11.11", "2026-12-28#8 tomate=11.11", "2026-12-31#9 tomate=11.12")
		if o.Deliveries[0].Lines[0].Price != 200 || o.Deliveries[0].Lines[0].NeedID != tomato {
			t.Fatalf("line %+v", o.Deliveries[0].Lines[0])
		}

		// A second product joins the same deliveries; pieces stay whole.
		ok(t)(propose(db, f.farm, melon, f.farm.ID, 10, 1.5, now))
		ok(t)(review(db, f.shop, melon, f.farm.ID, true, now))
		o = order(t, db, f.farm.ID, f.shop.ID, dec)
		expectPlan(t, o, orders.Planned,
			"2026-12-03#1 melon=1 tomate=11.11", "2026-12-07#2 melon=1 tomate=11.11", "2026-12-10#3 melon=1 tomate=11.11",
			"2026-12-14#4 melon=1 tomate=11.11", "2026-12-17#5 melon=1 tomate=11.11", "2026-12-21#6 melon=1 tomate=11.11",
			"2026-12-24#7 melon=1 tomate=11.11", "2026-12-28#8 melon=1 tomate=11.11", "2026-12-31#9 melon=2 tomate=11.12")

		// The shop corrects upwards at a new price; the producer accepts.
		ok(t)(propose(db, f.shop, tomato, f.farm.ID, 120, 2.1, now))
		if o2 := order(t, db, f.farm.ID, f.shop.ID, dec); !slices.Equal(plan(o2, orders.Planned), plan(o, orders.Planned)) {
			t.Fatal("a pending correction re-planned deliveries")
		}
		ok(t)(review(db, f.farm, tomato, f.farm.ID, true, now))
		o = order(t, db, f.farm.ID, f.shop.ID, dec)
		if got := plan(o, orders.Planned); got[0] != "2026-12-03#1 melon=1 tomate=13.33" || got[8] != "2026-12-31#9 melon=2 tomate=13.36" {
			t.Fatalf("after the correction: %q", got)
		}
		if o.Deliveries[8].Lines[1].Price != 210 {
			t.Fatal("planned lines keep the old price")
		}
		balanced(t, o, map[string]decimal.Dec{"tomate": 12000, "melon": 1000})

		// Thursday 10 December after noon: the first two deliveries are
		// done (the first one short), today's is locked.
		dec10 := at(2026, 12, 10, 13)
		exec(t, db, `UPDATE deliveries SET status = 'done' WHERE date IN ('2026-12-03', '2026-12-07')`)
		exec(t, db, `UPDATE delivery_lines SET quantity_sent = 1000 WHERE product_id = 'tomate' AND delivery_id =
			(SELECT id FROM deliveries WHERE date = '2026-12-03')`)
		doneBefore := plan(order(t, db, f.farm.ID, f.shop.ID, dec), orders.Done)
		ok(t)(propose(db, f.farm, tomato, f.farm.ID, 90, 2.1, dec10))
		ok(t)(review(db, f.shop, tomato, f.farm.ID, true, dec10))
		o = order(t, db, f.farm.ID, f.shop.ID, dec)
		expectPlan(t, o, orders.Done, doneBefore...)
		expectPlan(t, o, orders.Planned,
			"2026-12-10#3 melon=1 tomate=13.33",
			"2026-12-14#4 melon=1 tomate=8.89", "2026-12-17#5 melon=1 tomate=8.89", "2026-12-21#6 melon=1 tomate=8.89",
			"2026-12-24#7 melon=1 tomate=8.89", "2026-12-28#8 melon=1 tomate=8.89", "2026-12-31#9 melon=2 tomate=8.89")
		balanced(t, o, map[string]decimal.Dec{"tomate": 9000, "melon": 1000})

		// The producer now delivers on Tuesdays only: upcoming deliveries
		// move, three rows are reused with their numbers, the others go.
		exec(t, db, `UPDATE users SET delivery_days = '0100000' WHERE id = ?`, f.farm.ID)
		if _, err := trade.ReplanProducer(ctx, db, f.farm.ID, dec10); err != nil {
			t.Fatal(err)
		}
		o = order(t, db, f.farm.ID, f.shop.ID, dec)
		expectPlan(t, o, orders.Done, doneBefore...)
		expectPlan(t, o, orders.Planned,
			"2026-12-10#3 melon=1 tomate=13.33",
			"2026-12-15#4 melon=2 tomate=17.78", "2026-12-22#5 melon=2 tomate=17.78", "2026-12-29#6 melon=3 tomate=17.78")
		balanced(t, o, map[string]decimal.Dec{"tomate": 9000, "melon": 1000})

		// The shop ends the melon commitment with a correction to zero.
		ok(t)(propose(db, f.shop, melon, f.farm.ID, 0, 1.5, dec10))
		v := ok(t)(review(db, f.farm, melon, f.farm.ID, true, dec10))
		if len(v.Proposals) != 0 || v.QuantityAccepted != 0 {
			t.Fatalf("melon need after the end: %+v", v)
		}
		o = order(t, db, f.farm.ID, f.shop.ID, dec)
		expectPlan(t, o, orders.Planned,
			"2026-12-10#3 melon=1 tomate=13.33",
			"2026-12-15#4 tomate=17.78", "2026-12-22#5 tomate=17.78", "2026-12-29#6 tomate=17.78")
		expectPlan(t, o, orders.Done, doneBefore...)

		// Ending the tomato commitment too leaves only what is done or
		// locked; the order stays.
		ok(t)(propose(db, f.farm, tomato, f.farm.ID, 0, 2.1, dec10))
		ok(t)(review(db, f.shop, tomato, f.farm.ID, true, dec10))
		o = order(t, db, f.farm.ID, f.shop.ID, dec)
		expectPlan(t, o, orders.Planned, "2026-12-10#3 melon=1 tomate=13.33")
		expectPlan(t, o, orders.Done, doneBefore...)

		// January: numbering goes on after the deleted notes (never reused);
		// an order ended before any delivery disappears.
		jan := f.need(t, "tomate", "2027-01", 40)
		ok(t)(propose(db, f.farm, jan, f.farm.ID, 10, 2, dec10))
		ok(t)(review(db, f.shop, jan, f.farm.ID, true, dec10))
		expectPlan(t, order(t, db, f.farm.ID, f.shop.ID, "2027-01-01"), orders.Planned,
			"2027-01-05#10 tomate=2.5", "2027-01-12#11 tomate=2.5", "2027-01-19#12 tomate=2.5", "2027-01-26#13 tomate=2.5")
		ok(t)(propose(db, f.shop, jan, f.farm.ID, 0, 2, dec10))
		ok(t)(review(db, f.farm, jan, f.farm.ID, true, dec10))
		if order(t, db, f.farm.ID, f.shop.ID, "2027-01-01") != nil {
			t.Fatal("an empty order was kept")
		}
		ok(t)(propose(db, f.farm, jan, f.farm.ID, 3, 2, dec10))
		ok(t)(review(db, f.shop, jan, f.farm.ID, true, dec10))
		expectPlan(t, order(t, db, f.farm.ID, f.shop.ID, "2027-01-01"), orders.Planned,
			"2027-01-05#14 tomate=0.75", "2027-01-12#15 tomate=0.75", "2027-01-19#16 tomate=0.75", "2027-01-26#17 tomate=0.75")
	})
}

func TestPlanningLateInTheMonth(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		nov := f.need(t, "courgette", "2026-11", 30)
		// The rival delivers on Tuesdays and Fridays. On Monday 30 November
		// no delivery day is left in November: the next one, Tuesday
		// 1 December, carries everything.
		mon30 := at(2026, 11, 30, 10)
		ok(t)(propose(db, f.rival, nov, f.rival.ID, 30, 1.8, mon30))
		ok(t)(review(db, f.shop, nov, f.rival.ID, true, mon30))
		expectPlan(t, order(t, db, f.rival.ID, f.shop.ID, "2026-11-01"), orders.Planned, "2026-12-01#1 courgette=30")

		// Changing delivery days on 30 November moves it to the new next day.
		exec(t, db, `UPDATE users SET delivery_days = '0010000' WHERE id = ?`, f.rival.ID)
		ids, err := trade.ReplanProducer(ctx, db, f.rival.ID, mon30)
		if err != nil || len(ids) != 1 {
			t.Fatalf("%v %v", ids, err)
		}
		expectPlan(t, order(t, db, f.rival.ID, f.shop.ID, "2026-11-01"), orders.Planned, "2026-12-02#1 courgette=30")

		// Another producer's orders are left alone.
		if ids, _ := trade.ReplanProducer(ctx, db, f.farm.ID, mon30); len(ids) != 0 {
			t.Fatalf("farm has orders %v", ids)
		}
		// Nothing changes when nothing has to: a second re-plan writes nothing.
		before := storetest.Snapshot(t, db)
		if _, err := trade.ReplanProducer(ctx, db, f.rival.ID, mon30); err != nil || storetest.Snapshot(t, db) != before {
			t.Fatalf("a re-plan without change wrote something (%v)", err)
		}
	})
}

// TestCancelledDeliveriesStayDeclined: a delivery the shop cancelled keeps
// its quantity out of re-planning, whether the producer changes its delivery
// days or the commitment is corrected.
func TestCancelledDeliveriesStayDeclined(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		tomato := f.need(t, "tomate", "2026-12", 200)
		ok(t)(propose(db, f.farm, tomato, f.farm.ID, 90, 2, now))
		ok(t)(review(db, f.shop, tomato, f.farm.ID, true, now))
		o := order(t, db, f.farm.ID, f.shop.ID, "2026-12-01")
		third := o.Deliveries[2] // 2026-12-10, 10 kg
		if _, err := delivery.DefaultRules().Cancel(ctx, db, f.shop.ID, o.ID, third.ID, now); err != nil {
			t.Fatal(err)
		}
		check := func(step string, commitment decimal.Dec) {
			t.Helper()
			o := order(t, db, f.farm.ID, f.shop.ID, "2026-12-01")
			cancelled, planned := carried(o, orders.Cancelled), carried(o, orders.Planned)
			if cancelled["tomate"] != 1000 {
				t.Fatalf("%s: cancelled %v, want the declined 10 kg", step, cancelled["tomate"])
			}
			if cancelled["tomate"]+planned["tomate"] != commitment {
				t.Fatalf("%s: cancelled %v + planned %v ≠ %v", step, cancelled["tomate"], planned["tomate"], commitment)
			}
		}
		check("after the cancel", 9000)

		exec(t, db, `UPDATE users SET delivery_days = '0100000' WHERE id = ?`, f.farm.ID)
		if _, err := trade.ReplanProducer(ctx, db, f.farm.ID, now); err != nil {
			t.Fatal(err)
		}
		check("after new delivery days", 9000)

		ok(t)(propose(db, f.shop, tomato, f.farm.ID, 120, 2, now))
		ok(t)(review(db, f.farm, tomato, f.farm.ID, true, now))
		check("after a correction", 12000)
	})
}
