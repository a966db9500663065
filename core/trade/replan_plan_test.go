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
