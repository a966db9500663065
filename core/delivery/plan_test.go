package delivery_test

import (
	"strings"
	"testing"

	"primeur/core/store/storetest"
)

// TestJobsReadPendingWork checks on SQLite's query planner that the
// periodic jobs find their work through the partial indexes of migrations
// 00011 and 00042 — the done deliveries, whose notes sent are then looked
// up in sends by key; the claims waiting for the shop — instead of every
// delivery of the platform's history (docs/BENCHMARKS.md).
func TestJobsReadPendingWork(t *testing.T) {
	t.Parallel()
	db := storetest.SQLite(t)
	for _, c := range []struct{ query, index string }{
		{`SELECT d.id FROM deliveries d WHERE d.status = 'done' AND d.date <= ?
			AND NOT EXISTS (SELECT 1 FROM sends n WHERE n.message_key = 'note-' || d.id AND n.sent_at IS NOT NULL)
			ORDER BY d.date, d.id`, "deliveries_notes_due"},
		{`SELECT id FROM deliveries WHERE claim_status = 'sent' AND claim_sent_at <= ? ORDER BY id`, "deliveries_claims_sent"},
	} {
		plan := storetest.QueryPlan(t, db, c.query, "2026-11-20")
		if joined := strings.Join(plan, "; "); !strings.Contains(joined, c.index) {
			t.Errorf("%s\ndoes not use %s: %s", c.query, c.index, joined)
		}
	}
}
