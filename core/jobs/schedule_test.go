package jobs_test

import (
	"errors"
	"fmt"
	"testing"

	"primeur/core/billing"
	"primeur/core/jobs"
)

// TestSchedule: the cron line and the French text derived from each kind
// of schedule, and the schedules no cron line expresses.
func TestSchedule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		schedule   jobs.Schedule
		cron, text string
	}{
		{jobs.EveryMinutes(1), "* * * * *", "toutes les minutes"},
		{jobs.EveryMinutes(5), "*/5 * * * *", "toutes les 5 minutes"},
		{jobs.EveryMinutes(30), "*/30 * * * *", "toutes les 30 minutes"},
		{jobs.Hourly(0), "0 * * * *", "toutes les heures"},
		{jobs.Hourly(15), "15 * * * *", "toutes les heures, au quart"},
		{jobs.Hourly(30), "30 * * * *", "toutes les heures, à la demie"},
		{jobs.Hourly(45), "45 * * * *", "toutes les heures, à moins le quart"},
		{jobs.Hourly(7), "7 * * * *", "toutes les heures, à la minute 7"},
		{jobs.Daily(6, 0), "0 6 * * *", "tous les jours à 06:00"},
		{jobs.Daily(23, 59), "59 23 * * *", "tous les jours à 23:59"},
		{jobs.Daily(0, 5).Noting("le 1er : le mois écoulé"), "5 0 * * *", "tous les jours à 00:05 (le 1er : le mois écoulé)"},
	}
	for _, tt := range tests {
		cron, err := tt.schedule.Cron()
		if err != nil || cron != tt.cron || tt.schedule.String() != tt.text {
			t.Errorf("%+v: cron %q (%v), text %q; want %q, %q", tt.schedule, cron, err, tt.schedule.String(), tt.cron, tt.text)
		}
	}
	for _, bad := range []jobs.Schedule{
		{}, jobs.EveryMinutes(0), jobs.EveryMinutes(7), jobs.EveryMinutes(60), jobs.EveryMinutes(-5),
		jobs.Hourly(60), jobs.Hourly(-1), jobs.Daily(24, 0), jobs.Daily(-1, 0), jobs.Daily(6, 60),
	} {
		if cron, err := bad.Cron(); !errors.Is(err, jobs.ErrSchedule) || cron != "" {
			t.Errorf("%+v: cron %q, %v; want ErrSchedule", bad, cron, err)
		}
	}
}

// TestJobsSchedules: every job's schedule has a cron line, and `primeur
// jobs list` gives the texts it always gave; the invoices job runs every
// day at billing.InvoiceHour — the 1st's run bills the month just ended,
// the others settle the claims accepted since; the reminders at 09:00.
func TestJobsSchedules(t *testing.T) {
	t.Parallel()
	want := map[string]struct{ cron, text string }{
		"deliveries": {"*/5 * * * *", "toutes les 5 minutes"},
		"claims":     {"0 * * * *", "toutes les heures"},
		"purge":      {"30 * * * *", "toutes les heures, à la demie"},
		"invoices": {fmt.Sprintf("0 %d * * *", billing.InvoiceHour), fmt.Sprintf("tous les jours à %02d:00 "+
			"(le dernier jour du mois : les factures du mois ; les autres jours, les avoirs des réclamations acceptées "+
			"depuis et les commandes en retard)", billing.InvoiceHour)},
		"reminders":     {"0 9 * * *", "tous les jours à 09:00"},
		"cutoff":        {"0 8 * * *", "tous les jours à 08:00 (à partir du 25 : une fois par producteur et par mois)"},
		"notifications": {"*/5 * * * *", "toutes les 5 minutes"},
		"pa":            {"*/5 * * * *", "toutes les 5 minutes"},
	}
	if len(jobs.All) != len(want) {
		t.Fatalf("%d jobs, %d expected", len(jobs.All), len(want))
	}
	for _, j := range jobs.All {
		w, ok := want[j.Name]
		if !ok {
			t.Fatalf("job %s: no expectation", j.Name)
		}
		if cron, err := j.Schedule.Cron(); err != nil || cron != w.cron || j.Schedule.String() != w.text {
			t.Errorf("job %s: cron %q (%v) and text %q, want %q and %q", j.Name, cron, err, j.Schedule, w.cron, w.text)
		}
	}
}
