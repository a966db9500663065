package calendar_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"primeur/core/calendar"
)

func date(t testing.TB, s string) calendar.Date {
	t.Helper()
	d, ok := calendar.ParseDate(s)
	if !ok {
		t.Fatalf("bad date %q", s)
	}
	return d
}

func paris(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestDates(t *testing.T) {
	tests := []struct {
		day       string
		weekday   time.Weekday
		index     int
		monday    string
		month     string
		working   int
		decade    int
		decadeEnd string
		french    string
		numeric   string
	}{
		{"2026-11-20", time.Friday, 4, "2026-11-16", "2026-11-01", 25, 2, "2026-11-20", "20 novembre 2026", "20/11/2026"}, // 30 days, 5 Sundays (1, 8, 15, 22, 29)
		{"2026-11-22", time.Sunday, 6, "2026-11-16", "2026-11-01", 25, 3, "2026-11-30", "22 novembre 2026", "22/11/2026"}, // a Sunday belongs to the week before it
		{"2026-11-16", time.Monday, 0, "2026-11-16", "2026-11-01", 25, 2, "2026-11-20", "16 novembre 2026", "16/11/2026"}, // a Monday is its own week's start
		{"2026-12-01", time.Tuesday, 1, "2026-11-30", "2026-12-01", 27, 1, "2026-12-10", "1er décembre 2026", "01/12/2026"},
		{"2026-12-10", time.Thursday, 3, "2026-12-07", "2026-12-01", 27, 1, "2026-12-10", "10 décembre 2026", "10/12/2026"}, // the décade's last day
		{"2026-12-11", time.Friday, 4, "2026-12-07", "2026-12-01", 27, 2, "2026-12-20", "11 décembre 2026", "11/12/2026"},
		{"2026-12-21", time.Monday, 0, "2026-12-21", "2026-12-01", 27, 3, "2026-12-31", "21 décembre 2026", "21/12/2026"}, // the third décade has 11 days
		{"2026-02-10", time.Tuesday, 1, "2026-02-09", "2026-02-01", 24, 1, "2026-02-10", "10 février 2026", "10/02/2026"},
		{"2026-02-25", time.Wednesday, 2, "2026-02-23", "2026-02-01", 24, 3, "2026-02-28", "25 février 2026", "25/02/2026"}, // …and February's 8
		{"2028-02-29", time.Tuesday, 1, "2028-02-28", "2028-02-01", 25, 3, "2028-02-29", "29 février 2028", "29/02/2028"},   // leap February, 4 Sundays
		{"2032-02-29", time.Sunday, 6, "2032-02-23", "2032-02-01", 24, 3, "2032-02-29", "29 février 2032", "29/02/2032"},    // leap February, 5 Sundays
		{"2027-01-01", time.Friday, 4, "2026-12-28", "2027-01-01", 26, 1, "2027-01-10", "1er janvier 2027", "01/01/2027"},   // the week starts the year before
		{"2026-03-29", time.Sunday, 6, "2026-03-23", "2026-03-01", 26, 3, "2026-03-31", "29 mars 2026", "29/03/2026"},       // clocks change in Paris: plain calendar days here
		{"2000-01-01", time.Saturday, 5, "1999-12-27", "2000-01-01", 26, 1, "2000-01-10", "1er janvier 2000", "01/01/2000"},
	}
	for _, tt := range tests {
		d := date(t, tt.day)
		if d.String() != tt.day || d.Weekday() != tt.weekday || d.DayIndex() != tt.index || d.Monday().String() != tt.monday ||
			d.Month().String() != tt.month || d.Month().WorkingDays() != tt.working {
			t.Errorf("%s: %s %s %d %s %s %d", tt.day, d, d.Weekday(), d.DayIndex(), d.Monday(), d.Month(), d.Month().WorkingDays())
		}
		if d.Decade() != tt.decade || d.DecadeEnd().String() != tt.decadeEnd || d.French() != tt.french || d.Numeric() != tt.numeric ||
			d.Short() != tt.numeric[:5] {
			t.Errorf("%s: décade %d ending %s, %q %q %q", tt.day, d.Decade(), d.DecadeEnd(), d.French(), d.Numeric(), d.Short())
		}
	}
	for _, bad := range []string{"", "2026-11", "2026-13-01", "2026-02-30", "2026-11-31", "20-11-2026", "1999-12-31", "2101-01-01",
		"2026-11-20T00:00:00Z", "2026-1-05", " 2026-11-20", "05/11/2026", "２０２６-11-20"} {
		if _, ok := calendar.ParseDate(bad); ok {
			t.Errorf("ParseDate(%q) accepted", bad)
		}
	}
	// 23:30 UTC on the 19th is already the 20th in Paris.
	if got := calendar.DateOf(time.Date(2026, 11, 19, 23, 30, 0, 0, time.UTC).In(paris(t))); got.String() != "2026-11-20" {
		t.Fatalf("DateOf = %s", got)
	}
	text, _ := json.Marshal(date(t, "2026-11-20"))
	if string(text) != `"2026-11-20"` {
		t.Fatalf("json %s", text)
	}
	var back struct{ D calendar.Date }
	if err := json.Unmarshal([]byte(`{"D":"2026-11-20"}`), &back); err != nil || back.D.String() != "2026-11-20" {
		t.Fatalf("read back %v %v", back.D, err)
	}
	if err := json.Unmarshal([]byte(`{"D":"20/11/2026"}`), &back); err == nil {
		t.Fatal("a French date read as a written one")
	}
	if at := date(t, "2026-03-29").At(12*time.Hour, paris(t)); !at.Equal(time.Date(2026, 3, 29, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("noon on the spring DST day = %v", at)
	}
}

func TestMonths(t *testing.T) {
	tests := []struct {
		in      string
		key     string
		last    string
		days    int
		french  string
		numeric string
	}{
		{"2026-11", "2026-11-01", "2026-11-30", 30, "novembre 2026", "11/2026"},
		{"2026-11-01", "2026-11-01", "2026-11-30", 30, "novembre 2026", "11/2026"},
		{"2026-12-31", "2026-12-01", "2026-12-31", 31, "décembre 2026", "12/2026"},
		{"2028-02-14", "2028-02-01", "2028-02-29", 29, "février 2028", "02/2028"},
		{"2100-12", "2100-12-01", "2100-12-31", 31, "décembre 2100", "12/2100"},
	}
	for _, tt := range tests {
		m, ok := calendar.ParseMonth(tt.in)
		if !ok || m.String() != tt.key || m.Last().String() != tt.last || m.Days() != tt.days || m.French() != tt.french ||
			m.Numeric() != tt.numeric || m.First().Month() != m || m.Last().Month() != m {
			t.Errorf("%s: %v %s %s %d %q %q", tt.in, ok, m, m.Last(), m.Days(), m.French(), m.Numeric())
		}
	}
	for _, bad := range []string{"", "2026", "2026-13", "2026-1", "1999-12", "2101-01", "2026-02-30", "12/2026", "2026-11-01T00:00"} {
		if _, ok := calendar.ParseMonth(bad); ok {
			t.Errorf("ParseMonth(%q) accepted", bad)
		}
	}
	dec, _ := calendar.ParseMonth("2026-12")
	if dec.AddMonths(1).String() != "2027-01-01" || dec.AddMonths(-12).String() != "2025-12-01" || dec.AddMonths(-11).Number() != time.January {
		t.Error("month arithmetic")
	}
	// The written helpers, for keys read from the database.
	for _, tt := range []struct{ got, want string }{
		{calendar.MonthKey("2026-12-31"), "2026-12-01"},
		{calendar.MonthKey("nonsense"), "nonsense"},
		{calendar.AddMonthsTo("2026-12-15", 1), "2027-01-01"},
		{calendar.AddMonthsTo("2026-01-31", 1), "2026-02-01"},
		{calendar.AddMonthsTo("2026-03-01", -3), "2025-12-01"},
		{calendar.AddDaysTo("2026-12-31", 1), "2027-01-01"},
		{calendar.AddDaysTo("2028-03-01", -1), "2028-02-29"},
		{calendar.AddDaysTo("31/12/2026", 1), "31/12/2026"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	// The month of an instant is the month of the business time zone.
	newYear := time.Date(2026, 12, 31, 23, 30, 0, 0, time.UTC)
	if got := calendar.MonthOf(calendar.NewClock(func() time.Time { return newYear }, paris(t)).Now()); got.String() != "2027-01-01" {
		t.Fatalf("New Year's Eve 23:30 UTC is in %s in Paris", got)
	}
	if m := dec.Start(paris(t)); !m.Equal(time.Date(2026, 11, 30, 23, 0, 0, 0, time.UTC)) {
		t.Fatalf("December starts at %v", m)
	}
}

func TestClock(t *testing.T) {
	loc := paris(t)
	instant := time.Date(2026, 11, 30, 23, 30, 0, 0, time.UTC)
	c := calendar.NewClock(func() time.Time { return instant }, loc)
	if now := c.Now(); !now.Equal(instant) || now.Location() != loc || c.Today().String() != "2026-12-01" || c.Zone() != loc {
		t.Fatalf("clock reads %v, today %s", now, c.Today())
	}
	if utc := calendar.NewClock(func() time.Time { return instant }, nil); utc.Today().String() != "2026-11-30" {
		t.Fatalf("a clock without a zone counts in UTC: %s", utc.Today())
	}
	if c.Stamp(instant) != "2026-12-01 00:30 CET" {
		t.Fatalf("stamp %q", c.Stamp(instant))
	}
	tests := []struct {
		in   string
		want time.Time
	}{
		{"2026-12-01T06:00:00+01:00", time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC)},
		{"2026-12-01T06:00:00Z", time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC)},
		{"2026-12-01T06:00", time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC)},
		{"2026-12-01 06:00", time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC)},
		{"2026-07-01T06:00:30", time.Date(2026, 7, 1, 4, 0, 30, 0, time.UTC)},
		{"2026-12-01", time.Date(2026, 11, 30, 23, 0, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		got, err := c.Parse(tt.in)
		if err != nil || !got.Equal(tt.want) || got.Location() != loc {
			t.Errorf("Parse(%q) = %v, %v", tt.in, got, err)
		}
	}
	for _, bad := range []string{"", "demain", "2026-13-01T06:00", "01/12/2026 06:00"} {
		if _, err := c.Parse(bad); err == nil || !strings.Contains(err.Error(), "calendar:") {
			t.Errorf("Parse(%q) accepted (%v)", bad, err)
		}
	}
}

// FuzzParseDate: a date is accepted only in its canonical YYYY-MM-DD form
// between MinYear and MaxYear, and the arithmetic built on it agrees: its
// month starts on or before it and ends on or after it, the next month
// starts right after its month's last day, its décade holds it and ends
// within its month, shifting by n days and back returns it, and what is
// not a date comes back unchanged from the written helpers.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2026-11-20", "2026-02-29", "2028-02-29", "2026-12-31", "2026-03-29", "2026-10-25",
		"0001-01-01", "9999-12-31", "2026-1-5", "20261120", " 2026-11-20", "2026-11-20T12:00:00Z", "２０２６-11-20", ""} {
		f.Add(s, int16(1))
		f.Add(s, int16(-400))
	}
	f.Fuzz(func(t *testing.T, s string, n int16) {
		d, ok := calendar.ParseDate(s)
		if !ok {
			if got := calendar.AddDaysTo(s, int(n)); got != s {
				t.Fatalf("AddDaysTo(%q) = %q: an invalid date must come back unchanged", s, got)
			}
			if _, ok := calendar.ParseMonth(s); !ok && (calendar.MonthKey(s) != s || calendar.AddMonthsTo(s, int(n)) != s) {
				t.Fatalf("%q is neither a date nor a month but was rewritten", s)
			}
			return
		}
		if len(s) != 10 || d.String() != s || d.Numeric() != s[8:10]+"/"+s[5:7]+"/"+s[:4] {
			t.Fatalf("ParseDate accepted %q, not canonical (%s)", s, d)
		}
		m := d.Month()
		if m.First() > d || m.Last() < d || m.String() != s[:8]+"01" || calendar.MonthKey(s) != m.String() {
			t.Fatalf("month of %q = %s … %s", s, m.First(), m.Last())
		}
		if m.AddMonths(1).First() != m.Last().AddDays(1) || calendar.AddMonthsTo(s, 1) != m.AddMonths(1).String() {
			t.Fatalf("month after %q = %s", s, m.AddMonths(1))
		}
		if end := d.DecadeEnd(); end < d || end.Month() != m || end.AddDays(1).Decade() == d.Decade() && end.AddDays(1).Month() == m {
			t.Fatalf("décade %d of %q ends %s", d.Decade(), s, end)
		}
		if back := d.AddDays(int(n)).AddDays(-int(n)); back != d || calendar.AddDaysTo(calendar.AddDaysTo(s, int(n)), -int(n)) != s &&
			d.AddDays(int(n)).String()[:4] >= "2000" && d.AddDays(int(n)).String()[:4] <= "2100" {
			t.Fatalf("%q shifted by %d and back = %s", s, n, back)
		}
		if d.Monday() > d || d.Monday().Weekday() != time.Monday || d-d.Monday() > 6 {
			t.Fatalf("Monday of %q = %s", s, d.Monday())
		}
	})
}

// TestStored: dates and months go to the database as their written forms
// and come back from them, whatever the driver gives (string or bytes).
func TestStored(t *testing.T) {
	d := date(t, "2026-11-20")
	if v, err := d.Value(); err != nil || v != "2026-11-20" {
		t.Fatalf("date value %v %v", v, err)
	}
	if v, err := d.Month().Value(); err != nil || v != "2026-11-01" {
		t.Fatalf("month value %v %v", v, err)
	}
	var back calendar.Date
	var m calendar.Month
	if err := back.Scan([]byte("2026-11-20")); err != nil || back != d {
		t.Fatalf("scan date %v %v", back, err)
	}
	if err := m.Scan("2026-11-01"); err != nil || m != d.Month() {
		t.Fatalf("scan month %v %v", m, err)
	}
	for _, bad := range []any{int64(20), nil, "20/11/2026"} {
		if err := back.Scan(bad); err == nil {
			t.Errorf("scanned %v", bad)
		}
	}
}
