package trade_test

import (
	"fmt"
	"testing"

	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// previousOf is the open proposal of producerID in a view, as the
// counter-proposal it may be: "from qty@price" of what it answers, or
// "none".
func previousOf(t *testing.T, v planning.View, producerID string) string {
	t.Helper()
	for _, p := range v.Proposals {
		if p.Producer != producerID || p.Status == planning.StatusAccepted {
			continue
		}
		if p.PreviousFrom == nil || p.PreviousQuantity == nil || p.PreviousPrice == nil {
			if p.PreviousFrom != nil || p.PreviousQuantity != nil || p.PreviousPrice != nil {
				t.Fatalf("previous values half set: %+v", p)
			}
			return "none"
		}
		return fmt.Sprintf("%s %s@%s", *p.PreviousFrom, *p.PreviousQuantity, *p.PreviousPrice)
	}
	return "no open proposal"
}

// TestCounterProposalKeepsPrevious (issue 37, finding 2): a proposal made
// over the other side's keeps that side's quantity and price, for both
// sides to read it as a counter-proposal; a side changing its own keeps
// what it answered; the commitment keeps nothing; the user load's reader
// (planning.List) reads what the operation answered.
func TestCounterProposalKeepsPrevious(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		needID := f.need(t, "tomate", "2026-12", 100)
		step := func(name string, v planning.View, want string) {
			t.Helper()
			if got := previousOf(t, v, f.farm.ID); got != want {
				t.Fatalf("%s: answer's previous values %q, want %q", name, got, want)
			}
			for _, filter := range []planning.Filter{{DistributorID: f.shop.ID}, {TradedBy: f.farm.ID, OnlyProposalsOf: f.farm.ID}} {
				views, err := planning.List(ctx, db, filter)
				if err != nil {
					t.Fatal(err)
				}
				for _, read := range views {
					if read.ID == needID {
						if got := previousOf(t, read, f.farm.ID); got != want {
							t.Fatalf("%s: read %+v: previous values %q, want %q", name, filter, got, want)
						}
					}
				}
			}
		}

		step("a first proposal", ok(t)(propose(db, f.farm, needID, f.farm.ID, 30, 2.2, now)), "none")
		step("the producer changes it", ok(t)(propose(db, f.farm, needID, f.farm.ID, 32, 2.2, now)), "none")
		step("the shop counters", ok(t)(propose(db, f.shop, needID, f.farm.ID, 25, 2, now)), "producer 32@2.2")
		step("the shop changes its counter-proposal", ok(t)(propose(db, f.shop, needID, f.farm.ID, 26, 2.05, now)), "producer 32@2.2")
		step("the producer refuses it", ok(t)(review(db, f.farm, needID, f.farm.ID, false, now)), "producer 32@2.2")
		step("the producer counters", ok(t)(propose(db, f.farm, needID, f.farm.ID, 28, 2.1, now)), "distributor 26@2.05")
		v := ok(t)(review(db, f.shop, needID, f.farm.ID, true, now))
		step("the shop accepts", v, "no open proposal")
		if n := count(t, db, `SELECT COUNT(*) FROM proposals WHERE previous_origin IS NOT NULL OR previous_quantity IS NOT NULL
			OR previous_price IS NOT NULL`); n != 0 {
			t.Fatalf("the commitment keeps previous values (%d rows)", n)
		}
		// A correction, then the other side's answer to it.
		step("the shop asks a correction", ok(t)(propose(db, f.shop, needID, f.farm.ID, 20, 2.1, now)), "none")
		step("the producer counters the correction", ok(t)(propose(db, f.farm, needID, f.farm.ID, 24, 2.1, now)), "distributor 20@2.1")
	})
}
