package calendar_test

import (
	"testing"

	"primeur/core/calendar"
)

// TestBusinessDays: the French working days (Monday to Friday, not the
// public holidays of art. L3133-1 of the Code du travail, Easter's included)
// and TARGET2's (not Saturdays, Sundays, 1 January, Good Friday, Easter
// Monday, 1 May, 25 and 26 December), dates read in no time zone.
func TestBusinessDays(t *testing.T) {
	for _, c := range []struct {
		day            string
		france, target bool
	}{
		{"2026-11-30", true, true},   // a Monday
		{"2026-11-28", false, false}, // a Saturday
		{"2026-11-29", false, false}, // a Sunday
		{"2026-01-01", false, false}, // New Year's Day, a Thursday
		{"2026-04-03", true, false},  // Good Friday: TARGET2 only
		{"2026-04-05", false, false}, // Easter Sunday
		{"2026-04-06", false, false}, // Easter Monday
		{"2026-05-01", false, false}, // Labour Day, a Friday
		{"2026-05-08", false, true},  // Victory in Europe Day: France only
		{"2026-05-14", false, true},  // Ascension Thursday (Easter + 39)
		{"2026-05-25", false, true},  // Whit Monday (Easter + 50)
		{"2026-07-14", false, true},  // Bastille Day, a Tuesday
		{"2026-08-14", true, true},   // the eve of the Assumption, a Friday
		{"2025-08-15", false, true},  // Assumption, a Friday
		{"2026-11-11", false, true},  // Armistice, a Wednesday
		{"2025-11-03", true, true},   // the Monday after All Saints' Sunday: no substitute day
		{"2026-12-24", true, true},   // Christmas Eve, a Thursday
		{"2026-12-25", false, false}, // Christmas, a Friday
		{"2025-12-26", true, false},  // 26 December, a Friday: TARGET2 only
		{"2027-03-26", true, false},  // Good Friday of 2027 (Easter on 28 March)
		{"2027-03-29", false, false}, // Easter Monday of 2027
		{"2027-05-06", false, true},  // Ascension of 2027
		{"2024-04-01", false, false}, // Easter Monday of 2024
	} {
		d := date(t, c.day)
		if got := d.FrenchBusinessDay(); got != c.france {
			t.Errorf("%s: French business day %v, want %v", c.day, got, c.france)
		}
		if got := d.TargetDay(); got != c.target {
			t.Errorf("%s: TARGET2 day %v, want %v", c.day, got, c.target)
		}
	}
}

func TestNextBusinessDays(t *testing.T) {
	for _, c := range []struct {
		day, france, target string
	}{
		{"2026-11-26", "2026-11-27", "2026-11-27"}, // Thursday: the next day
		{"2026-11-27", "2026-11-30", "2026-11-30"}, // Friday: Monday
		{"2026-11-28", "2026-11-30", "2026-11-30"}, // Saturday: Monday
		{"2026-12-24", "2026-12-28", "2026-12-28"}, // Christmas on a Friday, then the weekend
		{"2026-12-31", "2027-01-04", "2027-01-04"}, // New Year's Day on a Friday
		{"2026-04-02", "2026-04-03", "2026-04-07"}, // Good Friday and Easter Monday
		{"2026-05-07", "2026-05-11", "2026-05-08"}, // 8 May: France closed, TARGET2 open
		{"2026-07-13", "2026-07-15", "2026-07-14"},
		{"2025-12-24", "2025-12-26", "2025-12-29"}, // 25 and 26 December
	} {
		d := date(t, c.day)
		if got := d.NextFrenchBusinessDay().String(); got != c.france {
			t.Errorf("after %s: French business day %s, want %s", c.day, got, c.france)
		}
		if got := d.NextTargetDay().String(); got != c.target {
			t.Errorf("after %s: TARGET2 day %s, want %s", c.day, got, c.target)
		}
	}
}

func TestSemesters(t *testing.T) {
	for _, c := range []struct {
		day, semester, first, last, french string
	}{
		{"2026-01-01", "2026-S1", "2026-01-01", "2026-06-30", "1er semestre 2026"},
		{"2026-06-30", "2026-S1", "2026-01-01", "2026-06-30", "1er semestre 2026"},
		{"2026-07-01", "2026-S2", "2026-07-01", "2026-12-31", "2e semestre 2026"},
		{"2024-12-31", "2024-S2", "2024-07-01", "2024-12-31", "2e semestre 2024"},
	} {
		s := calendar.SemesterOf(date(t, c.day))
		if s.String() != c.semester || s.First().String() != c.first || s.Last().String() != c.last || s.French() != c.french {
			t.Errorf("%s: %s %s–%s %q", c.day, s, s.First(), s.Last(), s.French())
		}
		if p, ok := calendar.ParseSemester(c.semester); !ok || p != s {
			t.Errorf("%s reads as %v, %v", c.semester, p, ok)
		}
	}
	if s, _ := calendar.ParseSemester("2026-S2"); s+1 != calendar.SemesterOf(date(t, "2027-02-01")) {
		t.Error("the semester after 2026-S2 is not 2027-S1")
	}
	for _, bad := range []string{"", "2026-S3", "2026-S0", "2026-s1", "2026S1", "26-S1", "1999-S2", "2101-S1", "2026-S1 ", "+026-S1"} {
		if _, ok := calendar.ParseSemester(bad); ok {
			t.Errorf("%q read as a semester", bad)
		}
	}
}
