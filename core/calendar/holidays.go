package calendar

import (
	"time"

	"github.com/rickar/cal/v2"
	"github.com/rickar/cal/v2/ecb"
	"github.com/rickar/cal/v2/fr"
)

// The two business calendars of payments, from rickar/cal's tables (Easter
// and the days that follow it computed there):
//
//   - France: Monday to Friday, except the eleven public holidays of art.
//     L3133-1 of the Code du travail — 1 January, Easter Monday, 1 May,
//     8 May, Ascension Thursday, Whit Monday, 14 July, 15 August,
//     1 November, 11 November, 25 December (Alsace-Moselle's Good Friday
//     and 26 December, art. L3134-13, are local and not counted);
//   - TARGET2, the Eurosystem's settlement system that SEPA credit
//     transfers settle through: closed on Saturdays, Sundays, 1 January,
//     Good Friday, Easter Monday, 1 May, 25 and 26 December (the ECB's
//     long-term calendar of TARGET closing days, press release of
//     14 December 2000, unchanged since 2002; "TARGET2 calendar" on
//     ecb.europa.eu).
//
// Their zero hours are those of UTC: a Date is a civil day, read at noon
// UTC so that no time zone moves it.
var (
	france = business(fr.Holidays)
	target = business(ecb.Holidays)
)

func business(holidays []*cal.Holiday) *cal.BusinessCalendar {
	c := cal.NewBusinessCalendar()
	c.AddHoliday(holidays...)
	return c
}

// noon is the date as an instant in the middle of its UTC day.
func (d Date) noon() time.Time { return d.time().Add(12 * time.Hour) }

// FrenchBusinessDay is whether the date is a working day in France:
// Monday to Friday and not a public holiday.
func (d Date) FrenchBusinessDay() bool { return france.IsWorkday(d.noon()) }

// TargetDay is whether the date is a TARGET2 business day, a day euro
// transfers settle.
func (d Date) TargetDay() bool { return target.IsWorkday(d.noon()) }

// NextFrenchBusinessDay is the first French working day after the date.
func (d Date) NextFrenchBusinessDay() Date {
	d++
	for !d.FrenchBusinessDay() {
		d++
	}
	return d
}

// NextTargetDay is the first TARGET2 business day after the date.
func (d Date) NextTargetDay() Date {
	d++
	for !d.TargetDay() {
		d++
	}
	return d
}
