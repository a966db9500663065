package config

import (
	"strings"
	"testing"

	"primeur/core/calendar"
)

// TestECBRates: the rate of each semester — listed (known, or set by
// payments.ecb-rates), else the last one listed before it, or after the
// last one listed payments.ecb-rate when set; before the first listed, the
// first's.
func TestECBRates(t *testing.T) {
	semester := func(s string) calendar.Semester {
		t.Helper()
		v, ok := calendar.ParseSemester(s)
		if !ok {
			t.Fatalf("semester %q", s)
		}
		return v
	}
	type want struct {
		semester string
		rate     int64
		listed   bool
	}
	for _, c := range []struct {
		name          string
		rates, legacy string
		zero          bool
		want          []want
	}{
		{"the zero value: the known rates", "", "", true, []want{
			{"2022-S2", 0, true}, {"2023-S1", 250, true}, {"2023-S2", 400, true}, {"2024-S1", 450, true},
			{"2024-S2", 425, true}, {"2025-S1", 315, true}, {"2025-S2", 215, true}, {"2026-S1", 215, true},
			{"2026-S2", 215, false}, {"2030-S1", 215, false}, {"2019-S1", 0, false},
		}},
		{"the defaults", "", "", false, []want{{"2024-S2", 425, true}, {"2026-S2", 215, false}}},
		{"semesters added and replaced", "2026-S2=2.40, 2025-S2=2.16", "", false, []want{
			{"2025-S2", 216, true}, {"2026-S1", 215, true}, {"2026-S2", 240, true}, {"2027-S1", 240, false},
		}},
		{"the deprecated single rate, after the last listed", "", "3", false, []want{
			{"2026-S1", 215, true}, {"2026-S2", 300, false}, {"2028-S2", 300, false}, {"2019-S1", 0, false},
		}},
		{"the single rate never between listed semesters", "2027-S2=1.9", "3", false, []want{
			{"2026-S2", 215, false}, {"2027-S1", 215, false}, {"2027-S2", 190, true}, {"2028-S1", 300, false},
		}},
	} {
		var r ECBRates
		if !c.zero {
			cfg := Defaults()
			cfg.Payments.ECBRates, cfg.Payments.ECBRate = c.rates, c.legacy
			if err := cfg.Validate(); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			r = cfg.Payments.Rates
		}
		for _, w := range c.want {
			if rate, listed := r.ECBRate(semester(w.semester)); rate != w.rate || listed != w.listed {
				t.Errorf("%s: %s at %d (listed %v), want %d (%v)", c.name, w.semester, rate, listed, w.rate, w.listed)
			}
		}
	}
}

// TestKnownECBRates: every semester from the first known to the last is
// listed, and the setting's documentation names the last one.
func TestKnownECBRates(t *testing.T) {
	var first, last calendar.Semester
	for s := range known {
		if first == 0 || s < first {
			first = s
		}
		last = max(last, s)
	}
	for s := first; s <= last; s++ {
		if _, ok := known[s]; !ok {
			t.Errorf("%s is not listed", s)
		}
	}
	for _, s := range Settings {
		if s.Key == KeyPaymentsECBRates && !strings.Contains(s.Usage, "jusqu'à "+last.String()) {
			t.Errorf("the help of %s does not say the known rates go up to %s: %q", s.Key, last, s.Usage)
		}
	}
}
