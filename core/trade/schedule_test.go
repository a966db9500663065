package trade_test

import (
	"slices"
	"testing"
	"time"

	"primeur/core/decimal"
	"primeur/core/trade"
)

var paris = func() *time.Location {
	loc, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		panic(err)
	}
	return loc
}()

func at(y int, m time.Month, d, h int) time.Time { return time.Date(y, m, d, h, 0, 0, 0, paris) }

// days builds delivery days from indexes (0 = Monday).
func days(idx ...int) [7]bool {
	var d [7]bool
	for _, i := range idx {
		d[i] = true
	}
	return d
}

func TestSchedule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		month string
		days  [7]bool
		now   time.Time
		want  []string
	}{
		// 2026-11-20 is a Friday.
		{"next month, Monday and Thursday", "2026-12-01", days(0, 3), at(2026, 11, 20, 10),
			[]string{"2026-12-03", "2026-12-07", "2026-12-10", "2026-12-14", "2026-12-17", "2026-12-21", "2026-12-24", "2026-12-28", "2026-12-31"}},
		{"current month starts tomorrow", "2026-11-01", days(0, 3), at(2026, 11, 20, 10),
			[]string{"2026-11-23", "2026-11-26", "2026-11-30"}},
		{"tomorrow is a delivery day", "2026-11-01", days(5), at(2026, 11, 20, 23),
			[]string{"2026-11-21", "2026-11-28"}},
		{"today is never planned", "2026-11-01", days(4), at(2026, 11, 20, 1),
			[]string{"2026-11-27"}},
		{"late in the month, none left: the next delivery day", "2026-11-01", days(0, 3), at(2026, 11, 27, 10),
			[]string{"2026-11-30"}},
		{"last day of the month: next month's first delivery day", "2026-11-01", days(3), at(2026, 11, 30, 10),
			[]string{"2026-12-03"}},
		{"across the year end", "2026-12-01", days(4), at(2026, 12, 28, 9),
			[]string{"2027-01-01"}},
		{"February of a leap year", "2028-02-01", days(1), at(2027, 12, 1, 9),
			[]string{"2028-02-01", "2028-02-08", "2028-02-15", "2028-02-22", "2028-02-29"}},
		{"daylight saving change inside the month", "2027-03-01", days(6), at(2027, 2, 10, 9),
			[]string{"2027-03-07", "2027-03-14", "2027-03-21", "2027-03-28"}},
		{"a past month: the next delivery day", "2026-10-01", days(2), at(2026, 11, 20, 10),
			[]string{"2026-11-25"}},
		{"no delivery day", "2026-12-01", days(), at(2026, 11, 20, 10), nil},
		{"bad month", "décembre", days(0), at(2026, 11, 20, 10), nil},
	}
	for _, tt := range tests {
		if got := trade.Schedule(tt.month, tt.days, tt.now); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestSplit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		total decimal.Dec
		n     int
		unit  string
		want  []decimal.Dec
	}{
		{10000, 3, "kg", []decimal.Dec{3333, 3333, 3334}},
		{1000, 3, "un", []decimal.Dec{300, 300, 400}},
		{1000, 4, "kg", []decimal.Dec{250, 250, 250, 250}},
		{200, 3, "un", []decimal.Dec{0, 0, 200}},
		{2, 3, "kg", []decimal.Dec{0, 0, 2}},
		{4999, 1, "kg", []decimal.Dec{4999}},
		{1100, 9, "un", []decimal.Dec{100, 100, 100, 100, 100, 100, 100, 100, 300}},
		{500, 0, "kg", nil},
	}
	for _, tt := range tests {
		got := trade.Split(tt.total, tt.n, tt.unit)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Split(%v, %d, %s) = %v, want %v", tt.total, tt.n, tt.unit, got, tt.want)
		}
		var sum decimal.Dec
		for _, q := range got {
			sum += q
		}
		if tt.n > 0 && sum != tt.total {
			t.Errorf("Split(%v, %d) sums to %v", tt.total, tt.n, sum)
		}
	}
}

func TestReplannable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		date string
		now  time.Time
		want bool
	}{
		{"2026-11-20", at(2026, 11, 20, 1), false},
		{"2026-11-20", at(2026, 11, 20, 13), false},
		{"2026-11-19", at(2026, 11, 20, 8), false},
		{"2026-11-21", at(2026, 11, 20, 23), true},
		{"2026-12-24", at(2026, 11, 20, 10), true},
	}
	for _, tt := range tests {
		if got := trade.Replannable(tt.date, tt.now); got != tt.want {
			t.Errorf("Replannable(%s, %v) = %v", tt.date, tt.now, got)
		}
	}
}
