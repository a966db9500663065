package payments

import (
	"cmp"
	"slices"

	"primeur/core"
	"primeur/core/billing"
	"primeur/core/calendar"
)

// What the payment screens list (issue 42, PRODUCT §16 "Payments"): an
// account's totals are computed over its whole history, but the screen
// draws only what its user acts on — every document not settled, and the
// settled documents and the payments of the recent months — and the older
// ones on demand, page by page (History). Recent and History split the
// account's rows by one rule, older: a row is listed by exactly one of
// them.

// RecentMonths is how many months, the current one included, the screen
// lists the settled documents and the payments of.
const RecentMonths = 3

// HistoryPage is how many older rows (documents and payments together) a
// page of History holds, give or take the rows of its last day, which are
// never split. A count rather than a span of months: a year's trade of
// the largest shop is a few hundred rows, of a small one a few dozen, and
// a page by months would be too long for the one and nearly empty for the
// other; 50 rows draw in a blink on a slow line.
const HistoryPage = 50

// MsgBefore refuses a page's start that is not a day.
const MsgBefore = "Date de début de l'historique invalide : indiquez un jour au format AAAA-MM-JJ."

// Older is what an account's listed rows leave out: its settled documents
// and its payments dated before Before.
type Older struct {
	// Documents and Payments count the rows left out.
	Documents, Payments int
	// Before is the day they are dated before ("YYYY-MM-DD"): the start
	// of the recent months, or of the last page read; "" when none is
	// left.
	Before string
}

// Page is a page of an account's older rows, most recent first.
type Page struct {
	Documents []Document
	Payments  []Payment
	// Rest is what is still older than the page: Rest.Before is the
	// next page's start.
	Rest Older
}

// RecentStart is the first day of the recent months as of today
// ("YYYY-MM-DD"): the first of the month RecentMonths−1 before today's.
func RecentStart(today string) string {
	d, ok := calendar.ParseDate(today)
	if !ok {
		return today
	}
	return d.Month().AddMonths(-(RecentMonths - 1)).First().String()
}

// Settled reports whether a document has nothing left to do: a paid
// invoice with a zero balance, or a credit note (imputed on its invoice).
func Settled(d Document) bool {
	return d.Balance == 0 && (d.Status == Paid || d.Status == Imputed)
}

// olderDocuments tells, for each of the account's documents, whether the
// screen leaves it out: settled and issued before since — a credit note
// too, unless the invoice it reduces is listed, which it explains.
func olderDocuments(a Account, since string) []bool {
	older := make([]bool, len(a.Documents))
	listed := map[string]bool{}
	for i, d := range a.Documents {
		older[i] = Settled(d) && d.IssueDate < since
		if !billing.IsCredit(d.Kind) && !older[i] {
			listed[d.Number] = true
		}
	}
	for i, d := range a.Documents {
		if billing.IsCredit(d.Kind) && listed[d.Refers] {
			older[i] = false
		}
	}
	return older
}

// payOlder reports whether the screen leaves a payment out: paid before
// since and not waiting for the producer's confirmation.
func payOlder(p Payment, since string) bool { return p.Status != Declared && p.PaidOn < since }

// Recent returns the account as the screen lists it as of today — every
// document not settled, the settled ones issued in the recent months, the
// credit notes of the invoices listed, the
// payments of the recent months and those still to confirm —, its totals
// unchanged, and what it leaves out.
func Recent(a Account, today string) (Account, Older) {
	since := RecentStart(today)
	older := Older{}
	docs := make([]Document, 0, len(a.Documents))
	leftOut := olderDocuments(a, since)
	for i, d := range a.Documents {
		if leftOut[i] {
			older.Documents++
		} else {
			docs = append(docs, d)
		}
	}
	pays := make([]Payment, 0, len(a.Payments))
	for _, p := range a.Payments {
		if payOlder(p, since) {
			older.Payments++
		} else {
			pays = append(pays, p)
		}
	}
	if older.Documents+older.Payments > 0 {
		older.Before = since
	}
	a.Documents, a.Payments = docs, pays
	return a, older
}

// CheckBefore refuses, in French, a page's start that is not a day
// ("YYYY-MM-DD"): checked before anything is read.
func CheckBefore(before string) error {
	if _, ok := calendar.ParseDate(before); !ok {
		return core.Invalid("before", MsgBefore)
	}
	return nil
}

// History returns the page of the account's rows that Recent leaves out
// dated before `before` ("YYYY-MM-DD"), most recent first: up to limit
// rows, documents and payments together, and every other row of the last
// day they reach, so that the next page, before that day, neither repeats
// nor skips one. A `before` that is not a day is refused in French.
func History(a Account, today, before string, limit int) (Page, error) {
	if err := CheckBefore(before); err != nil {
		return Page{}, err
	}
	since := RecentStart(today)
	type row struct {
		day string
		doc int // index in a.Documents, or −1
		pay int // index in a.Payments, or −1
	}
	var rows []row
	leftOut := olderDocuments(a, since)
	for i, d := range a.Documents {
		if leftOut[i] && d.IssueDate < before {
			rows = append(rows, row{d.IssueDate, i, -1})
		}
	}
	for i, p := range a.Payments {
		if payOlder(p, since) && p.PaidOn < before {
			rows = append(rows, row{p.PaidOn, -1, i})
		}
	}
	// Most recent first; within a day, documents by number, payments as
	// Accounts orders them (most recent first).
	slices.SortStableFunc(rows, func(x, y row) int {
		if c := cmp.Compare(y.day, x.day); c != 0 {
			return c
		}
		if (x.doc >= 0) != (y.doc >= 0) {
			if x.doc >= 0 {
				return -1
			}
			return 1
		}
		if x.doc >= 0 {
			return cmp.Compare(a.Documents[y.doc].Number, a.Documents[x.doc].Number)
		}
		return cmp.Compare(x.pay, y.pay)
	})
	page := Page{Documents: []Document{}, Payments: []Payment{}}
	n := 0
	for n < len(rows) && (n < max(limit, 1) || rows[n].day == rows[n-1].day) {
		if r := rows[n]; r.doc >= 0 {
			page.Documents = append(page.Documents, a.Documents[r.doc])
		} else {
			page.Payments = append(page.Payments, a.Payments[r.pay])
		}
		n++
	}
	for _, r := range rows[n:] {
		if r.doc >= 0 {
			page.Rest.Documents++
		} else {
			page.Rest.Payments++
		}
	}
	if n < len(rows) {
		page.Rest.Before = rows[n-1].day
	}
	return page, nil
}
