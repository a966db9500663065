package planning_test

import (
	"strings"
	"testing"

	"primeur/core/store/storetest"
)

// TestProposalsAreReadByNeed checks on SQLite's query planner that reading
// proposals by need — one need's (every write locks the need and reads them)
// and a shop's needs joined to theirs (the user load, GET /api/needs) — goes
// through an index instead of scanning every proposal of the platform. Before
// the index the user load of a 3,600-need shop took about a second (see
// docs/BENCHMARKS.md).
func TestProposalsAreReadByNeed(t *testing.T) {
	db := storetest.SQLite(t)
	for _, q := range []string{
		`SELECT p.id FROM proposals p WHERE p.need_id = ?`,
		`SELECT p.id FROM proposals p JOIN needs n ON n.id = p.need_id WHERE n.distributor_id = ? AND n.month >= ? ORDER BY p.created_at, p.id`,
		`SELECT p.id FROM proposals p JOIN needs n ON n.id = p.need_id WHERE n.distributor_id = ? ORDER BY p.created_at, p.id`,
	} {
		plan := storetest.QueryPlan(t, db, q, "d", "2026-12-01")
		joined := strings.Join(plan, "; ")
		for _, step := range plan {
			if strings.HasPrefix(step, "SCAN p") {
				t.Errorf("%s\nscans proposals: %s", q, joined)
			}
		}
		if !strings.Contains(joined, "proposals_need") {
			t.Errorf("%s\ndoes not use proposals_need: %s", q, joined)
		}
	}
}
