package delivery_test

import (
	"strings"
	"testing"

	"primeur/core/store/storetest"
)

// TestJobsReadPendingWork checks on SQLite's query planner that the
// periodic jobs find their work through the partial indexes of migration
// 00011 — the unsent notes, the claims waiting for the shop — instead of
// every done delivery of the platform's history (docs/BENCHMARKS.md).
func TestJobsReadPendingWork(t *testing.T) {
	db := storetest.SQLite(t)
	for _, c := range []struct{ query, index string }{
		{`SELECT id FROM deliveries WHERE status = 'done' AND note_sent_at IS NULL AND date <= ? ORDER BY date, id`, "deliveries_notes_due"},
		{`SELECT id FROM deliveries WHERE claim_status = 'sent' AND claim_sent_at <= ? ORDER BY id`, "deliveries_claims_sent"},
	} {
		plan := storetest.QueryPlan(t, db, c.query, "2026-11-20")
		if joined := strings.Join(plan, "; "); !strings.Contains(joined, c.index) {
			t.Errorf("%s\ndoes not use %s: %s", c.query, c.index, joined)
		}
	}
}
