package payments

import (
	"slices"

	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/config"
	"primeur/core/decimal"
)

// Indemnity is the fixed recovery indemnity of art. D441-5 of the Code de
// commerce, owed per invoice paid late: 40 €, in cents.
const Indemnity = 4000

// PenaltyPoints is what art. L441-10 adds to the ECB's refinancing rate:
// 10 points, in hundredths of a percent.
const PenaltyPoints = 1000

// PenaltyRate is the late-payment rate of art. L441-10 on a day: the ECB's
// main refinancing rate in force on the first day of its semester (1
// January for January to June, 1 July for July to December) plus 10
// points, in hundredths of a percent; with the ECB's rate, and whether
// that rate is listed in the settings (else carried from an earlier
// semester, config.ECBRates).
func PenaltyRate(rates config.ECBRates, day calendar.Date) (ecb, rate int64, listed bool) {
	ecb, listed = rates.ECBRate(calendar.SemesterOf(day))
	return ecb, ecb + PenaltyPoints, listed
}

// Period is a stretch of days an invoice was late at one balance and one
// rate.
type Period struct {
	// From and To are its first and last days late, "YYYY-MM-DD".
	From, To string
	Days     int
	// Balance is what was left to pay during it.
	Balance decimal.Dec
	// ECBRate and Rate (ECBRate + 10 points) are in hundredths of a
	// percent; Listed tells whether the semester's ECB rate is set, or
	// carried from an earlier one.
	ECBRate, Rate int64
	Listed        bool
	// Penalty is Balance × Rate × Days / 365, to the cent.
	Penalty decimal.Dec
}

// Penalty is what a producer may claim of one invoice paid late or still
// overdue.
type Penalty struct {
	DocumentID string
	Number     string
	DueDate    string
	// PaidOff is the day what was left of it was paid (or credited), late;
	// "" while something is left to pay.
	PaidOff string
	// Days late in all, up to PaidOff or today.
	Days    int
	Periods []Period
	// Penalty is the sum of the periods'; Indemnity the 40 € of art.
	// D441-5.
	Penalty, Indemnity decimal.Dec
}

// Penalties are the late-payment penalties and indemnities a producer may
// claim of an account as of today (information: never added to what is
// owed), per invoice and per period. An invoice or complementary invoice
// with something left to pay at the end of its due date is late from the
// next day: its penalties run, each day, on what was left to pay that day —
// its amount less the credit notes from their issue date and the payments
// from their date (paid_on; what a payment left on account from that date,
// or the document's issue when later, the oldest due first as build
// applies it) —, at the rate of the day's semester (PenaltyRate), over 365
// days, until today or the day it was paid off. Each such invoice, paid
// late or still overdue, owes the 40 € indemnity once. Invoices in the
// account's order; those paid in time, or not due yet, are not listed.
func Penalties(a Account, today string, rates config.ECBRates) []Penalty {
	day, ok := calendar.ParseDate(today)
	if !ok {
		return nil
	}
	cuts := reductions(a)
	var out []Penalty
	for _, d := range a.Documents {
		if !receivable(d) {
			continue
		}
		if p, late := penaltyOf(d, cuts[d.ID], day, rates); late {
			out = append(out, p)
		}
	}
	return out
}

// Claimable is the sum of Penalties: the penalties and indemnities a
// producer may claim of an account as of today.
func Claimable(a Account, today string, rates config.ECBRates) (penalties, indemnities decimal.Dec) {
	for _, p := range Penalties(a, today, rates) {
		penalties += p.Penalty
		indemnities += p.Indemnity
	}
	return penalties, indemnities
}

// receivable is whether a document is paid (an invoice or complementary
// invoice), rather than reducing the invoice it refers to (a credit note,
// of a claim or of an early-payment discount).
func receivable(d Document) bool {
	return d.Kind == billing.KindInvoice || d.Kind == billing.KindComplement
}

// reduction is what took an amount off a document's balance on a day.
type reduction struct {
	day    calendar.Date
	amount decimal.Dec
}

// reductions dates what reduced each receivable of the account, by
// document id: the credit notes referring to it on their issue date, the
// allocations of recorded payments on their paid_on, and what it took of
// the payments' rests on account (Document.OnAccount, as build applies
// them, the oldest due first) funded by the oldest rests first, on the
// rest's date or the document's issue when later.
func reductions(a Account) map[string][]reduction {
	out := map[string][]reduction{}
	byNumber := map[string]string{}
	for _, d := range a.Documents {
		if receivable(d) {
			byNumber[d.Number] = d.ID
		}
	}
	for _, d := range a.Documents {
		if receivable(d) {
			continue
		}
		id, ok := byNumber[d.Refers]
		day, okDay := calendar.ParseDate(d.IssueDate)
		if ok && okDay {
			out[id] = append(out[id], reduction{day, d.Total})
		}
	}
	var rests []reduction
	// Payments come newest first: the rests are taken oldest first.
	for _, p := range slices.Backward(a.Payments) {
		day, ok := calendar.ParseDate(p.PaidOn)
		if p.Status != Recorded || !ok {
			continue
		}
		left := p.Amount
		for _, al := range p.Allocations {
			out[al.DocumentID] = append(out[al.DocumentID], reduction{day, al.Amount})
			left -= al.Amount
		}
		if left > 0 {
			rests = append(rests, reduction{day, left})
		}
	}
	slices.SortStableFunc(rests, func(x, y reduction) int { return int(x.day - y.day) })
	for _, d := range a.Documents {
		issued, _ := calendar.ParseDate(d.IssueDate)
		for need := d.OnAccount; receivable(d) && need > 0 && len(rests) > 0; {
			take := min(need, rests[0].amount)
			out[d.ID] = append(out[d.ID], reduction{max(rests[0].day, issued), take})
			need -= take
			if rests[0].amount -= take; rests[0].amount == 0 {
				rests = rests[1:]
			}
		}
	}
	return out
}

// penaltyOf is a receivable's penalty as of today, and whether it was
// late at all. What build took off the document and no dated reduction
// explains is taken off from the start, so that the penalties are never
// above what the balances support.
func penaltyOf(d Document, cuts []reduction, today calendar.Date, rates config.ECBRates) (Penalty, bool) {
	due, ok := calendar.ParseDate(d.DueDate)
	if !ok || today <= due {
		return Penalty{}, false
	}
	slices.SortStableFunc(cuts, func(x, y reduction) int { return int(x.day - y.day) })
	balance := d.Total
	var dated decimal.Dec
	for _, c := range cuts {
		dated += c.amount
	}
	if undated := d.Total - d.Balance - dated; undated > 0 {
		balance -= undated
	}
	i := 0
	for ; i < len(cuts) && cuts[i].day <= due; i++ {
		balance -= cuts[i].amount
	}
	if balance <= 0 {
		return Penalty{}, false
	}
	p := Penalty{DocumentID: d.ID, Number: d.Number, DueDate: d.DueDate, Indemnity: Indemnity}
	from := due
	for ; i < len(cuts) && cuts[i].day <= today && balance > 0; i++ {
		p.accrue(from, cuts[i].day, balance, rates)
		from = cuts[i].day
		if balance -= cuts[i].amount; balance <= 0 {
			p.PaidOff = from.String()
		}
	}
	if balance > 0 {
		p.accrue(from, today, balance, rates)
	}
	return p, true
}

// accrue adds the periods of the days after `from` up to `to` at a
// balance, one per semester.
func (p *Penalty) accrue(from, to calendar.Date, balance decimal.Dec, rates config.ECBRates) {
	for from < to {
		end := min(to, calendar.SemesterOf(from+1).Last())
		ecb, rate, listed := PenaltyRate(rates, from+1)
		days := int(end - from)
		q := Period{From: (from + 1).String(), To: end.String(), Days: days, Balance: balance, ECBRate: ecb, Rate: rate, Listed: listed,
			Penalty: decimal.MulDiv(balance, rate*int64(days), 10000*365)}
		p.Periods = append(p.Periods, q)
		p.Days += days
		p.Penalty += q.Penalty
		from = end
	}
}
