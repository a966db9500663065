package trade_test

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"primeur/core/planning"
	"primeur/core/trade"
)

// tableRow is one line of testdata/actions.json, the table of PRODUCT §4
// permissions shared with the UI's test (ui/src/trade/actions.test.ts).
type tableRow struct {
	Why     string        `json:"why"`
	State   trade.State   `json:"state"`
	Viewer  string        `json:"viewer"`
	Actions trade.Actions `json:"actions"`
}

func readTable(t *testing.T) []tableRow {
	t.Helper()
	data, err := os.ReadFile("testdata/actions.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []tableRow
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestAllowedMatchesTheSharedTable(t *testing.T) {
	t.Parallel()
	rows := readTable(t)
	seen := map[trade.State]map[string]bool{}
	for _, r := range rows {
		got := trade.Allowed(r.State, r.Viewer)
		if got.Propose != r.Actions.Propose || !slices.Equal(got.Commitment, r.Actions.Commitment) || !slices.Equal(got.Open, r.Actions.Open) {
			t.Errorf("%s (%+v, %s): got %+v, want %+v", r.Why, r.State, r.Viewer, got, r.Actions)
		}
		if seen[r.State] == nil {
			seen[r.State] = map[string]bool{}
		}
		if seen[r.State][r.Viewer] {
			t.Errorf("row %+v/%s appears twice", r.State, r.Viewer)
		}
		seen[r.State][r.Viewer] = true
	}
	for _, s := range trade.States() {
		for _, side := range []string{planning.FromProducer, planning.FromDistributor} {
			if !seen[s][side] {
				t.Errorf("the table misses %+v seen by the %s", s, side)
			}
		}
	}
	if len(rows) != 2*len(trade.States()) {
		t.Errorf("%d rows for %d states", len(rows), len(trade.States()))
	}
}

func TestActionsPredicates(t *testing.T) {
	t.Parallel()
	for _, s := range trade.States() {
		for _, side := range []string{planning.FromProducer, planning.FromDistributor} {
			a := trade.Allowed(s, side)
			// Only the side that did not make the open proposal reviews it
			// (not again a correction it refused: it may only corriger),
			// only its maker withdraws it.
			other := s.Open != "" && side != s.From && !(s.Committed && s.Open == planning.StatusRejected)
			if a.CanReview(true) != other || a.CanReview(false) != other {
				t.Errorf("%+v by %s: review %v", s, side, a.CanReview(true))
			}
			if a.CanWithdraw() != (s.Open != "" && side == s.From) {
				t.Errorf("%+v by %s: withdraw %v", s, side, a.CanWithdraw())
			}
			// Everyone may propose once something exists; only a producer
			// may start.
			wantPropose := s.Committed || s.Open != "" || side == planning.FromProducer
			if a.CanPropose() != wantPropose {
				t.Errorf("%+v by %s: propose %v", s, side, a.CanPropose())
			}
		}
	}
}

func TestStateOf(t *testing.T) {
	t.Parallel()
	ps := []planning.Proposal{
		{ID: "a", Producer: "p1", Status: planning.StatusAccepted, Quantity: 100},
		{ID: "b", Producer: "p2", Status: planning.StatusProposed, From: planning.FromProducer},
		{ID: "c", Producer: "p1", Status: planning.StatusRejected, From: planning.FromDistributor},
	}
	s, c, o := trade.StateOf(ps, "p1")
	if s != (trade.State{Committed: true, Open: planning.StatusRejected, From: planning.FromDistributor}) || c.ID != "a" || o.ID != "c" {
		t.Fatalf("p1: %+v %+v %+v", s, c, o)
	}
	s, c, o = trade.StateOf(ps, "p3")
	if s != (trade.State{}) || c != nil || o != nil {
		t.Fatalf("p3: %+v", s)
	}
}
