package trade

import (
	"time"

	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
)

// Replannable reports whether a planned delivery dated date may be
// re-planned at now: it is dated tomorrow or later, so never locked (the
// lock, delivery.Rules, falls on the delivery date). A delivery of today,
// even before its lock, keeps what it carries: re-planning never plans for
// the same day (new deliveries start tomorrow), and the shop may still edit
// it until the lock.
func Replannable(date string, now time.Time) bool {
	return date > calendar.DateOf(now).String()
}

// Schedule returns the delivery dates of a month ("2026-12-01") for a
// producer delivering on days (index 0 = Monday), seen at now (in the
// business time zone, see calendar.Clock): every delivery day from the
// later of tomorrow and the 1st up to the month's end; when none is left,
// the first delivery day from that start (in the next month). Without any
// delivery day it returns nil.
func Schedule(month string, days [7]bool, now time.Time) []string {
	m, ok := calendar.ParseMonth(month)
	if !ok {
		return nil
	}
	start := max(calendar.DateOf(now).AddDays(1), m.First())
	var out []string
	for d := start; d <= m.Last(); d++ {
		if days[d.DayIndex()] {
			out = append(out, d.String())
		}
	}
	if len(out) > 0 {
		return out
	}
	for d := start; d < start.AddDays(7); d++ {
		if days[d.DayIndex()] {
			return []string{d.String()}
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
	if catalog.Whole(unit) {
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
