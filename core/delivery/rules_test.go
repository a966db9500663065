package delivery_test

import (
	"testing"
	"time"

	"primeur/core/delivery"
	"primeur/core/trade/tradetest"
)

var at = tradetest.At

func TestLockTimes(t *testing.T) {
	t.Parallel()
	r := delivery.DefaultRules()
	tests := []struct {
		name    string
		day     string
		now     time.Time
		locked  bool
		through string
	}{
		{"morning of the day", "2026-11-20", at(2026, 11, 20, 11, 59), false, "2026-11-19"},
		{"at the lock", "2026-11-20", at(2026, 11, 20, 12, 0), true, "2026-11-20"},
		{"the day before", "2026-11-20", at(2026, 11, 19, 23, 59), false, "2026-11-19"},
		{"days after", "2026-11-20", at(2026, 11, 23, 8, 0), true, "2026-11-22"},
		{"spring DST day", "2026-03-29", at(2026, 3, 29, 12, 0), true, "2026-03-29"},
		{"autumn DST day", "2026-10-25", at(2026, 10, 25, 11, 59), false, "2026-10-24"},
		{"UTC instant after Paris noon", "2026-07-01", time.Date(2026, 7, 1, 10, 0, 0, 0, time.UTC), true, "2026-07-01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.Locked(tt.day, tt.now); got != tt.locked {
				t.Errorf("Locked = %v", got)
			}
			if got := r.LockedThrough(tt.now); got != tt.through {
				t.Errorf("LockedThrough = %s", got)
			}
		})
	}
	if got := r.LockTime("2026-07-01"); !got.Equal(time.Date(2026, 7, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("summer lock = %v", got)
	}
	if r.LockLabel() != "12h" {
		t.Errorf("label %q", r.LockLabel())
	}
	r.LockAt = 7*time.Hour + 30*time.Minute
	if r.LockLabel() != "7h30" || r.Locked("2026-11-20", at(2026, 11, 20, 7, 29)) || !r.Locked("2026-11-20", at(2026, 11, 20, 7, 30)) {
		t.Errorf("7h30 lock: %s", r.LockLabel())
	}
}
