package calendar

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Semester is a half-year: January to June (its first half) or July to
// December (its second), counted in half-years since year 0 — the periods
// of art. L441-10 of the Code de commerce, whose late-payment rate is the
// ECB's in force on the first day of each. Written "2026-S1", "2026-S2".
type Semester int

// SemesterOf is the half-year of the date.
func SemesterOf(d Date) Semester {
	year, month, _ := d.Parts()
	s := Semester(year * 2)
	if month >= time.July {
		s++
	}
	return s
}

// ParseSemester reads a strict "YYYY-S1" or "YYYY-S2" of a year between
// MinYear and MaxYear; ok is false for anything else.
func ParseSemester(s string) (Semester, bool) {
	year, half, found := strings.Cut(s, "-S")
	if !found || len(year) != 4 || (half != "1" && half != "2") {
		return 0, false
	}
	y, err := strconv.Atoi(year)
	if err != nil || y < MinYear || y > MaxYear {
		return 0, false
	}
	return Semester(y*2 + int(half[0]-'1')), true
}

// Year is the semester's year.
func (s Semester) Year() int { return int(s) / 2 }

// Half is 1 for January to June, 2 for July to December.
func (s Semester) Half() int { return int(s)%2 + 1 }

// String is the written form, "2026-S1".
func (s Semester) String() string { return fmt.Sprintf("%04d-S%d", s.Year(), s.Half()) }

// First is the semester's first day, 1 January or 1 July.
func (s Semester) First() Date { return Civil(s.Year(), time.Month(1+6*(s.Half()-1)), 1) }

// Last is the semester's last day, 30 June or 31 December.
func (s Semester) Last() Date { return (s + 1).First() - 1 }

// French is the semester as a French sentence writes it: its ordinal
// ("1er", "2e"), the French word for a half-year, and its year.
func (s Semester) French() string {
	if s.Half() == 1 {
		return fmt.Sprintf("1er semestre %d", s.Year())
	}
	return fmt.Sprintf("2e semestre %d", s.Year())
}
