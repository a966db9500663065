package trade_test

import (
	"strings"
	"testing"

	"primeur/core/store/storetest"
	"primeur/core/trade"
)

// TestCommitmentsAreReadFromTheIndex checks on SQLite's query planner that
// the re-plan of an acceptance reads the shop's needs of the month from
// the index alone (needs_distributor_month holds their product and id,
// migration 00028), then each one's commitment by its index: without the
// covering index every need of the month is looked up in the table, on
// each acceptance (docs/BENCHMARKS.md, the proposal round-trip).
func TestCommitmentsAreReadFromTheIndex(t *testing.T) {
	t.Parallel()
	db := storetest.SQLite(t)
	plan := storetest.QueryPlan(t, db, trade.CommitmentsQuery, "shop", "2026-12", "farm")
	joined := strings.Join(plan, "; ")
	if !strings.Contains(joined, "COVERING INDEX needs_distributor_month") {
		t.Errorf("the needs are not read from the index alone: %s", joined)
	}
	for _, step := range plan {
		if strings.HasPrefix(step, "SCAN") {
			t.Errorf("a table is scanned: %s", joined)
		}
	}
}

// TestLinesAreUpdatedByTheirKey checks on SQLite's query planner that the
// re-plan's update of lines (one statement for all, UPDATE … FROM VALUES)
// finds each line by its primary key rather than scanning every line of
// the platform for each value.
func TestLinesAreUpdatedByTheirKey(t *testing.T) {
	t.Parallel()
	db := storetest.SQLite(t)
	for _, n := range []int{1, 9} {
		args := make([]any, 0, 4*n)
		for range n {
			args = append(args, "line", "need", 250, 600)
		}
		plan := storetest.QueryPlan(t, db, trade.UpdateLines(n), args...)
		joined := strings.Join(plan, "; ")
		if !strings.Contains(joined, "SEARCH delivery_lines USING INDEX") {
			t.Errorf("%d lines: not found by their key: %s", n, joined)
		}
		if strings.Contains(joined, "SCAN delivery_lines") {
			t.Errorf("%d lines: every line is scanned: %s", n, joined)
		}
	}
}
