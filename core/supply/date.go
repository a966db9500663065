package supply

import (
	"time"
)

// Date is a calendar day without time zone, counted in days since
// 1970-01-01. The projection steps through days with plain integer
// arithmetic; the time zone only matters when today is taken from a clock
// (DateOf, in the business time zone).
type Date int

const dateLayout = "2006-01-02"

// ParseDate reads "YYYY-MM-DD"; ok is false for anything else, or for a
// year outside 2000–2100.
func ParseDate(s string) (Date, bool) {
	if len(s) != len(dateLayout) {
		return 0, false
	}
	t, err := time.Parse(dateLayout, s)
	if err != nil || t.Year() < 2000 || t.Year() > 2100 {
		return 0, false
	}
	return Date(t.Unix() / 86400), true
}

// DateOf is the calendar day of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

func (d Date) time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// String is "YYYY-MM-DD".
func (d Date) String() string { return d.time().Format(dateLayout) }

// MarshalText writes the date as "YYYY-MM-DD".
func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// Weekday is the day of the week (time.Sunday = 0).
func (d Date) Weekday() time.Weekday {
	// 1970-01-01 was a Thursday.
	return time.Weekday(((int(d)+4)%7 + 7) % 7)
}

// AddDays is the day n days later (earlier when n < 0).
func (d Date) AddDays(n int) Date { return d + Date(n) }

// Month is the first day of the date's month, "2026-12-01", the key of needs.
func (d Date) Month() string { return d.time().Format("2006-01") + "-01" }

// Monday is the Monday of the date's week (weeks start on Monday, SPEC §1).
func (d Date) Monday() Date {
	return d - Date((int(d.Weekday())+6)%7)
}

// workingDays is the number of days of the date's month that are not
// Sundays (SPEC §9: Sundays, ISO day 7, carry no need).
func (d Date) workingDays() int {
	t := d.time()
	first := Date(time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC).Unix() / 86400)
	next := Date(time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, time.UTC).Unix() / 86400)
	n := 0
	for x := first; x < next; x++ {
		if x.Weekday() != time.Sunday {
			n++
		}
	}
	return n
}
