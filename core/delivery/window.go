package delivery

import (
	"fmt"

	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/orders"
)

// The claim window (PRODUCT §16 "Claims").
//
// Fresh fruit and vegetables may not be sold with rebates (remises, rabais,
// ristournes: art. L443-2 of the Code de commerce); the one exception is a
// réfaction for a product that does not conform to the order, in quality or
// in quantity, on the conditions of an interprofessional agreement. The
// Interfel agreements (21 May 2014, then 18 December 2024) and the DGCCRF's
// reading of them set those conditions: the non-conformity notified in
// writing within 24 hours of the delivery with an agréage report, the
// réfaction asked for within two working days (jours ouvrés) of the
// delivery, accepted by both parties and settled by a credit note.
//
// Primeur therefore takes a claim until the end of the second working day
// after the delivery date, in the business time zone: a delivery of Friday
// 6 November may be claimed until Tuesday 10 November at midnight, one of
// Tuesday 10 November until Friday 13 (Wednesday 11 is a holiday). The day
// is the civil day: a claim sent at 23:59 on the last day is in time.

// ClaimWorkingDays is how many working days after its delivery date a
// delivery may be claimed on.
const ClaimWorkingDays = 2

// ClaimDeadline is the last day a claim may be sent on a delivery dated
// date: the ClaimWorkingDays-th working day after it.
func ClaimDeadline(date calendar.Date) calendar.Date {
	d := date
	for n := 0; n < ClaimWorkingDays; {
		d = d.AddDays(1)
		if WorkingDay(d) {
			n++
		}
	}
	return d
}

// ClaimDeadlineOf is ClaimDeadline of a date written "YYYY-MM-DD"; false
// when it is not one.
func ClaimDeadlineOf(date string) (calendar.Date, bool) {
	d, ok := calendar.ParseDate(date)
	if !ok {
		return 0, false
	}
	return ClaimDeadline(d), true
}

// WorkingDay reports whether d is a working day (jour ouvré) as the
// produce trade counts them: Monday to Friday, a French public holiday
// excepted (calendar.Date.FrenchBusinessDay, the one French business
// calendar of the project, which the reminders follow too).
func WorkingDay(d calendar.Date) bool { return d.FrenchBusinessDay() }

var weekdays = [...]string{"lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"}

// LongDay is a date with its weekday, as the claim messages write it:
// "jeudi 5 novembre 2026".
func LongDay(d calendar.Date) string { return weekdays[d.DayIndex()] + " " + d.French() }

// ClaimClosedMessage is the refusal of a claim sent after its window,
// which closed at the end of deadline (PRODUCT §8).
func ClaimClosedMessage(deadline calendar.Date) string {
	return fmt.Sprintf(MsgClaimClosed, LongDay(deadline))
}

// AcceptedBySilence reports whether a claim of these claimed quantities
// (one per line, signed), sent by one party (orders.ByProducer or ByShop),
// may be accepted by the system once the other party has left it
// unanswered for claims.autovalidate-after: when it is made in the sole
// interest of that other party. A producer's claim must lower what the
// shop pays — some line claimed down — and no line raise it; a shop's
// claim (its reception's differences) must raise what the producer bills
// — some line claimed up — and no line lower it.
//
// Silence is not acceptance (art. 1120 of the Code civil) unless the offer
// is made in the sole interest of the one who keeps silent: a producer's
// claim that only takes quantities off the shop's bill is such an offer —
// the producer, its author, gives up part of its own invoice —, and the
// trade settles it by the credit note the réfaction calls for. A claim
// with a line claimed up asks the shop to pay more, through a
// complementary invoice: only the shop's explicit answer accepts it,
// however long it waits. The shop's claim of a quantity short or a
// quality refused asks the producer to bill less: a réfaction is accepted
// by both parties, never imposed, so only the producer's answer accepts
// it. A claim with lines both ways waits too, whatever its net amount.
// Prices are positive, so a line's amount has its quantity's sign.
func AcceptedBySilence(claimed []decimal.Dec, by string) bool {
	sign := decimal.Dec(-1) // the producer's: down only
	if by == orders.ByShop {
		sign = 1 // the shop's: up only
	}
	some := false
	for _, q := range claimed {
		if q*sign < 0 {
			return false
		}
		some = some || q != 0
	}
	return some
}

// WeekdayHolidays are the days from from to to (both included) that a
// claim window skips although they fall from Monday to Friday: the French
// public holidays of those days. The screens count working days with them
// (GET /api/deliveries/settings), as ClaimDeadline does.
func WeekdayHolidays(from, to calendar.Date) []calendar.Date {
	var out []calendar.Date
	for d := from; d <= to; d++ {
		if d.DayIndex() < 5 && !WorkingDay(d) {
			out = append(out, d)
		}
	}
	return out
}
