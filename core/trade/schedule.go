package trade

import (
	"time"

	"primeur/core/catalog"
	"primeur/core/decimal"
)

const day = "2006-01-02"

// Replannable reports whether a planned delivery dated date may be
// re-planned at now: it is dated tomorrow or later, so never locked (the
// lock, delivery.Rules, falls on the delivery date). A delivery of today,
// even before its lock, keeps what it carries: re-planning never plans for
// the same day (new deliveries start tomorrow), and the shop may still edit
// it until the lock.
func Replannable(date string, now time.Time) bool {
	return date > now.Format(day)
}

// DayIndex is the delivery-day index of t: 0 = Monday … 6 = Sunday (SPEC §9).
func DayIndex(t time.Time) int { return (int(t.Weekday()) + 6) % 7 }

// Schedule returns the delivery dates of a month ("2026-12-01") for a
// producer delivering on days (index 0 = Monday), seen at now (in the
// business time zone): every delivery day from the later of tomorrow and the
// 1st up to the month's end; when none is left, the first delivery day from
// that start (in the next month). Without any delivery day it returns nil.
func Schedule(month string, days [7]bool, now time.Time) []string {
	loc := now.Location()
	first, err := time.ParseInLocation(day, month, loc)
	if err != nil {
		return nil
	}
	y, m, d := now.Date()
	start := time.Date(y, m, d+1, 0, 0, 0, 0, loc)
	if first.After(start) {
		start = first
	}
	end := first.AddDate(0, 1, 0)
	var out []string
	for t := start; t.Before(end); t = t.AddDate(0, 0, 1) {
		if days[DayIndex(t)] {
			out = append(out, t.Format(day))
		}
	}
	if len(out) > 0 {
		return out
	}
	for i, t := 0, start; i < 7; i, t = i+1, t.AddDate(0, 0, 1) {
		if days[DayIndex(t)] {
			return []string{t.Format(day)}
		}
	}
	return nil
}

// Split divides total over n deliveries evenly: kilograms to the hundredth,
// pieces whole, the remainder on the last.
func Split(total decimal.Dec, n int, unit string) []decimal.Dec {
	if n <= 0 {
		return nil
	}
	step := decimal.Dec(1)
	if unit == catalog.Piece {
		step = decimal.Hundred
	}
	base := total / step / decimal.Dec(n) * step
	out := make([]decimal.Dec, n)
	for i := range out {
		out[i] = base
	}
	out[n-1] = total - base*decimal.Dec(n-1)
	return out
}
