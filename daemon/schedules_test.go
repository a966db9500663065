package daemon

import (
	"fmt"
	"strings"
	"testing"

	"primeur/core/billing"
	"primeur/core/jobs"
)

// TestSchedulesMatchTheJobsTexts keeps the cron lines of the scheduler and
// the French schedules `primeur jobs list` prints in step: every job has a
// cron line, and the invoices job runs every day at billing.InvoiceHour —
// the 1st's run bills the month just ended, the others the invoices a
// pending claim deferred.
func TestSchedulesMatchTheJobsTexts(t *testing.T) {
	if len(schedules) != len(jobs.All) {
		t.Fatalf("%d cron lines for %d jobs", len(schedules), len(jobs.All))
	}
	want := map[string]struct{ cron, text string }{
		"deliveries": {"*/5 * * * *", "toutes les 5 minutes"},
		"claims":     {"0 * * * *", "toutes les heures"},
		"purge":      {"30 * * * *", "toutes les heures, à la demie"},
		"invoices":   {fmt.Sprintf("0 %d * * *", billing.InvoiceHour), fmt.Sprintf("tous les jours à %02d:00", billing.InvoiceHour)},
	}
	for _, j := range jobs.All {
		w, ok := want[j.Name]
		if !ok {
			t.Fatalf("job %s: no expectation", j.Name)
		}
		if schedules[j.Name] != w.cron || !strings.HasPrefix(j.Schedule, w.text) {
			t.Errorf("job %s: cron %q and text %q, want %q and %q", j.Name, schedules[j.Name], j.Schedule, w.cron, w.text)
		}
	}
}
