// Package calendar holds the business calendar: civil dates and months as
// the product counts them (PRODUCT §1, §9), their one written form in the
// database and the API ("2026-11-20", months keyed by their first day
// "2026-11-01"), their French forms on screens and documents, the décades of
// a month (periods of ten days, French commercial law on perishable food),
// and the one clock that turns an instant into the business time zone.
//
// Every date layout of the project is written here and nowhere else.
package calendar

import (
	"database/sql/driver"
	"fmt"
	"strconv"
	"time"
)

// The written forms.
const (
	dayLayout   = "2006-01-02"
	monthLayout = "2006-01"
)

// The years a date or month of the product may fall in: what a person types
// outside them is a typing error, not a plan.
const (
	MinYear = 2000
	MaxYear = 2100
)

// Date is a calendar day without time zone, counted in days since
// 1970-01-01. Steps through days are plain integer arithmetic; the time zone
// only matters when a date is taken from an instant (DateOf) or placed at
// one (Date.At).
type Date int

// Civil is the date of year, month and day; out-of-range values normalise
// as time.Date does (day 0 is the last day of the month before).
func Civil(year int, month time.Month, day int) Date {
	return Date(time.Date(year, month, day, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// ParseDate reads a strict "YYYY-MM-DD" date of a year between MinYear and
// MaxYear; ok is false for anything else.
func ParseDate(s string) (Date, bool) {
	if len(s) != len(dayLayout) {
		return 0, false
	}
	t, err := time.Parse(dayLayout, s)
	if err != nil || t.Year() < MinYear || t.Year() > MaxYear {
		return 0, false
	}
	return Civil(t.Date()), true
}

// DateOf is the calendar day t shows in its own location. Instants of the
// product come from a Clock, which sets that location to the business time
// zone; an instant from elsewhere is placed there with Clock.In first.
func DateOf(t time.Time) Date { return Civil(t.Date()) }

func (d Date) time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// Parts are the year, month and day of the date.
func (d Date) Parts() (year int, month time.Month, day int) { return d.time().Date() }

// Day is the day of the month, 1–31.
func (d Date) Day() int { return d.time().Day() }

// String is the written form "YYYY-MM-DD".
func (d Date) String() string { return d.time().Format(dayLayout) }

// MarshalText writes the date as "YYYY-MM-DD".
func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a strict "YYYY-MM-DD".
func (d *Date) UnmarshalText(b []byte) error {
	v, ok := ParseDate(string(b))
	if !ok {
		return fmt.Errorf("calendar: bad date %q", b)
	}
	*d = v
	return nil
}

// Value writes the date to a database as its written form: dates are TEXT
// columns on both engines.
func (d Date) Value() (driver.Value, error) { return d.String(), nil }

// Scan reads a date written "YYYY-MM-DD" from a database.
func (d *Date) Scan(src any) error { return scanText(src, d) }

// scanText reads a TEXT column into a text unmarshaler.
func scanText(src any, into interface{ UnmarshalText([]byte) error }) error {
	switch v := src.(type) {
	case string:
		return into.UnmarshalText([]byte(v))
	case []byte:
		return into.UnmarshalText(v)
	}
	return fmt.Errorf("calendar: cannot read %T", src)
}

// Weekday is the day of the week (time.Sunday = 0).
func (d Date) Weekday() time.Weekday {
	// 1970-01-01 was a Thursday.
	return time.Weekday(((int(d)+4)%7 + 7) % 7)
}

// DayIndex is the index of the date's weekday in a producer's delivery
// days: 0 = Monday … 6 = Sunday (PRODUCT §9).
func (d Date) DayIndex() int { return (int(d.Weekday()) + 6) % 7 }

// AddDays is the day n days later (earlier when n < 0).
func (d Date) AddDays(n int) Date { return d + Date(n) }

// Month is the date's month.
func (d Date) Month() Month {
	y, m, _ := d.Parts()
	return MonthOfParts(y, m)
}

// Monday is the Monday of the date's week (weeks start on Monday, PRODUCT §1).
func (d Date) Monday() Date { return d - Date(d.DayIndex()) }

// Decade is the date's décade, the ten-day period of its month it falls
// in: 1 for the 1st–10th, 2 for the 11th–20th, 3 from the 21st to the
// month's end.
func (d Date) Decade() int {
	switch day := d.Day(); {
	case day <= 10:
		return 1
	case day <= 20:
		return 2
	default:
		return 3
	}
}

// DecadeEnd is the last day of the date's décade: the 10th, the 20th or
// the month's last day.
func (d Date) DecadeEnd() Date {
	m := d.Month()
	switch d.Decade() {
	case 1:
		return m.First().AddDays(9)
	case 2:
		return m.First().AddDays(19)
	default:
		return m.Last()
	}
}

// At is the instant of the date at a time of day (since midnight) in loc.
func (d Date) At(clock time.Duration, loc *time.Location) time.Time {
	y, m, day := d.Parts()
	h, min := int(clock/time.Hour), int(clock%time.Hour/time.Minute)
	return time.Date(y, m, day, h, min, 0, 0, loc)
}

var monthNames = [...]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
	"septembre", "octobre", "novembre", "décembre"}

// French is the date as a sentence writes it: "20 novembre 2026",
// "1er décembre 2026".
func (d Date) French() string {
	y, m, day := d.Parts()
	n := strconv.Itoa(day)
	if day == 1 {
		n = "1er"
	}
	return fmt.Sprintf("%s %s %d", n, monthNames[m-1], y)
}

// Numeric is the date as French forms write it: "20/11/2026".
func (d Date) Numeric() string { return d.time().Format("02/01/2006") }

// Short is the day and month of the date: "20/11".
func (d Date) Short() string { return d.time().Format("02/01") }

// Month is a month of the calendar, counted in months since January of the
// year 0. Needs, orders and invoices are per month; the written form is the
// month's first day, "2026-11-01".
type Month int

// MonthOfParts is the month of a year and month number.
func MonthOfParts(year int, month time.Month) Month { return Month(year*12 + int(month) - 1) }

// MonthOf is the month of the instant t in its own location (see DateOf).
func MonthOf(t time.Time) Month { return MonthOfParts(t.Year(), t.Month()) }

// ParseMonth reads a month written "YYYY-MM" or as any strict date of it,
// "YYYY-MM-DD", in a year between MinYear and MaxYear; ok is false for
// anything else.
func ParseMonth(s string) (Month, bool) {
	if len(s) == len(monthLayout) {
		t, err := time.Parse(monthLayout, s)
		if err != nil || t.Year() < MinYear || t.Year() > MaxYear {
			return 0, false
		}
		return MonthOf(t), true
	}
	d, ok := ParseDate(s)
	if !ok {
		return 0, false
	}
	return d.Month(), true
}

// Year is the month's year.
func (m Month) Year() int { return int(m) / 12 }

// Number is the month of the year, time.January to time.December.
func (m Month) Number() time.Month { return time.Month(int(m)%12 + 1) }

// String is the written form, the month's first day: "2026-11-01".
func (m Month) String() string { return m.First().String() }

// MarshalText writes the month as its first day, "2026-11-01".
func (m Month) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads what ParseMonth reads.
func (m *Month) UnmarshalText(b []byte) error {
	v, ok := ParseMonth(string(b))
	if !ok {
		return fmt.Errorf("calendar: bad month %q", b)
	}
	*m = v
	return nil
}

// Value writes the month to a database as its written form, its first day.
func (m Month) Value() (driver.Value, error) { return m.String(), nil }

// Scan reads a month written "YYYY-MM-01" from a database.
func (m *Month) Scan(src any) error { return scanText(src, m) }

// AddMonths is the month n months later (earlier when n < 0).
func (m Month) AddMonths(n int) Month { return m + Month(n) }

// First is the month's first day.
func (m Month) First() Date { return Civil(m.Year(), m.Number(), 1) }

// Last is the month's last day.
func (m Month) Last() Date { return Civil(m.Year(), m.Number()+1, 0) }

// Days is the number of days of the month.
func (m Month) Days() int { return int(m.Last()-m.First()) + 1 }

// WorkingDays is the number of days of the month that are not Sundays
// (PRODUCT §9: Sundays carry no need).
func (m Month) WorkingDays() int {
	n := 0
	for d := m.First(); d <= m.Last(); d++ {
		if d.Weekday() != time.Sunday {
			n++
		}
	}
	return n
}

// Start is the instant the month begins in loc.
func (m Month) Start(loc *time.Location) time.Time { return m.First().At(0, loc) }

// French is the month as a sentence writes it: "novembre 2026".
func (m Month) French() string { return fmt.Sprintf("%s %d", monthNames[m.Number()-1], m.Year()) }

// Numeric is the month as French forms write it: "11/2026".
func (m Month) Numeric() string { return fmt.Sprintf("%02d/%d", int(m.Number()), m.Year()) }

// MonthKey is the written month ("2026-11-01") of a written date or month;
// what is neither is returned as is.
func MonthKey(s string) string {
	m, ok := ParseMonth(s)
	if !ok {
		return s
	}
	return m.String()
}

// AddMonthsTo shifts a written month or date by n months and gives the
// written month; what is neither is returned as is.
func AddMonthsTo(s string, n int) string {
	m, ok := ParseMonth(s)
	if !ok {
		return s
	}
	return m.AddMonths(n).String()
}

// AddDaysTo shifts a written date by n days; what is not a date is
// returned as is.
func AddDaysTo(s string, n int) string {
	d, ok := ParseDate(s)
	if !ok {
		return s
	}
	return d.AddDays(n).String()
}

// Clock is the one clock of a process: it reads instants from a source
// (time.Now, or a shifted or frozen clock in tests and demos) and gives
// them in the business time zone, where days, months, delivery locks and
// jobs are counted.
type Clock struct {
	source func() time.Time
	zone   *time.Location
}

// NewClock is the clock of source in zone; a nil source is time.Now, a nil
// zone UTC.
func NewClock(source func() time.Time, zone *time.Location) Clock {
	if source == nil {
		source = time.Now
	}
	if zone == nil {
		zone = time.UTC
	}
	return Clock{source: source, zone: zone}
}

// Now is the current instant in the business time zone.
func (c Clock) Now() time.Time { return c.In(c.source()) }

// In places an instant in the business time zone.
func (c Clock) In(t time.Time) time.Time {
	if c.zone == nil {
		return t.UTC()
	}
	return t.In(c.zone)
}

// Zone is the business time zone.
func (c Clock) Zone() *time.Location {
	if c.zone == nil {
		return time.UTC
	}
	return c.zone
}

// Today is the current date in the business time zone.
func (c Clock) Today() Date { return DateOf(c.Now()) }

// Parse reads an instant a person types: RFC 3339 with its offset
// ("2026-12-01T06:00:00+01:00"), or a local date and time in the business
// time zone ("2026-12-01T06:00", "2026-12-01T06:00:05", "2026-12-01 06:00",
// or a date alone for its midnight).
func (c Clock) Parse(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return c.In(t), nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", dayLayout} {
		if t, err := time.ParseInLocation(layout, s, c.Zone()); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("calendar: %q is not a time like 2026-12-01T06:00:00+01:00 or 2026-12-01T06:00", s)
}

// Stamp writes an instant for a log or a terminal, in the business time
// zone: "2026-12-01 06:00 CET".
func (c Clock) Stamp(t time.Time) string { return c.In(t).Format("2006-01-02 15:04 MST") }
