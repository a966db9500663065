package payments_test

import (
	"reflect"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/config"
	"primeur/core/decimal"
	"primeur/core/payments"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// period is a payments.Period written short: first and last day, balance,
// rate (ECB + 10 points, hundredths of a percent), penalty.
type period struct {
	from, to string
	balance  decimal.Dec
	rate     int64
	penalty  decimal.Dec
}

func periods(p payments.Penalty) []period {
	out := []period{}
	for _, q := range p.Periods {
		out = append(out, period{q.From, q.To, q.Balance, q.Rate, q.Penalty})
	}
	return out
}

// TestPenalties: hand-computed penalties per invoice and period, at the
// known rates (2024-S1 4,50 %, 2024-S2 4,25 %, 2026-S2 not listed: 2,15 %
// carried from 2026-S1), amount × (rate + 10) % × days / 365 rounded to the
// cent per period.
func TestPenalties(t *testing.T) {
	var rates config.ECBRates // the known rates
	recorded := func(paidOn string, amount decimal.Dec, allocs ...payments.Allocation) payments.Payment {
		return payments.Payment{PaidOn: paidOn, Amount: amount, Status: payments.Recorded, Allocations: allocs}
	}
	to := func(doc string, amount decimal.Dec) payments.Allocation {
		return payments.Allocation{DocumentID: doc, Amount: amount}
	}
	for _, c := range []struct {
		name    string
		account payments.Account
		today   string
		want    []payments.Penalty
		periods [][]period
	}{
		{
			// 26,38 € 23 days late at 12,15 %: 2638 × 1215 × 23 / 3 650 000 = 20,2 cents.
			name: "still overdue",
			account: payments.Account{Documents: []payments.Document{
				{ID: "oct", Kind: "invoice", Number: "FA-1", IssueDate: "2026-11-01", DueDate: "2026-11-09", Total: 2638, Balance: 2638},
				{ID: "nov", Kind: "invoice", Number: "FA-2", IssueDate: "2026-12-01", DueDate: "2026-12-10", Total: 4220, Balance: 4220},
			}},
			today:   "2026-12-02",
			want:    []payments.Penalty{{DocumentID: "oct", Number: "FA-1", DueDate: "2026-11-09", Days: 23, Penalty: 20, Indemnity: 4000}},
			periods: [][]period{{{"2026-11-10", "2026-12-02", 2638, 1215, 20}}},
		},
		{
			// 100 € due 20 June 2024: 40 € paid 10 July, a credit note of 10 €
			// on 20 July, the 50 € left paid 9 August — paid late, over two
			// semesters.
			name: "paid late in parts, across semesters",
			account: payments.Account{
				Documents: []payments.Document{
					{ID: "a", Kind: "invoice", Number: "FA-1", IssueDate: "2024-06-01", DueDate: "2024-06-20", Total: 10000, Credited: 1000, Paid: 9000},
					{ID: "c", Kind: "credit", Number: "AV-1", IssueDate: "2024-07-20", Total: 1000, Refers: "FA-1"},
				},
				Payments: []payments.Payment{recorded("2024-08-09", 5000, to("a", 5000)), recorded("2024-07-10", 4000, to("a", 4000))},
			},
			today: "2024-12-01",
			want:  []payments.Penalty{{DocumentID: "a", Number: "FA-1", DueDate: "2024-06-20", PaidOff: "2024-08-09", Days: 50, Penalty: 141, Indemnity: 4000}},
			periods: [][]period{{
				{"2024-06-21", "2024-06-30", 10000, 1450, 40}, // 10000 × 1450 × 10 / 3 650 000 = 39,7
				{"2024-07-01", "2024-07-10", 10000, 1425, 39}, // 39,0
				{"2024-07-11", "2024-07-20", 6000, 1425, 23},  // 23,4
				{"2024-07-21", "2024-08-09", 5000, 1425, 39},  // 20 days: 39,0
			}},
		},
		{
			// A payment of 150 € on 1 May pays A (due 10 May) and leaves 50 €
			// on account, which B takes at its issue (1 June), before its due
			// date: 30 € of B are late from 11 June.
			name: "what a payment left on account, from the later document's issue",
			account: payments.Account{
				Documents: []payments.Document{
					{ID: "a", Kind: "invoice", Number: "FA-1", IssueDate: "2024-04-30", DueDate: "2024-05-10", Total: 10000, Paid: 10000},
					{ID: "b", Kind: "invoice", Number: "FA-2", IssueDate: "2024-06-01", DueDate: "2024-06-10", Total: 8000, Paid: 5000,
						OnAccount: 5000, Balance: 3000},
				},
				Payments: []payments.Payment{recorded("2024-05-01", 15000, to("a", 10000))},
			},
			today:   "2024-06-30",
			want:    []payments.Penalty{{DocumentID: "b", Number: "FA-2", DueDate: "2024-06-10", Days: 20, Penalty: 24, Indemnity: 4000}},
			periods: [][]period{{{"2024-06-11", "2024-06-30", 3000, 1450, 24}}}, // 23,8
		},
		{
			// Two payments on account, the older first: A takes 60 € of the
			// one of 15 May and 40 € of the one of 25 May.
			name: "rests on account taken oldest first",
			account: payments.Account{
				Documents: []payments.Document{
					{ID: "a", Kind: "invoice", Number: "FA-1", IssueDate: "2024-04-30", DueDate: "2024-05-10", Total: 10000, Paid: 10000,
						OnAccount: 10000},
				},
				Payments: []payments.Payment{recorded("2024-05-25", 4000), recorded("2024-05-15", 6000),
					{PaidOn: "2024-05-11", Amount: 10000, Status: payments.Undone}},
			},
			today: "2024-06-30",
			want:  []payments.Penalty{{DocumentID: "a", Number: "FA-1", DueDate: "2024-05-10", PaidOff: "2024-05-25", Days: 15, Penalty: 36, Indemnity: 4000}},
			periods: [][]period{{
				{"2024-05-11", "2024-05-15", 10000, 1450, 20}, // 19,9
				{"2024-05-16", "2024-05-25", 4000, 1450, 16},  // 15,9
			}},
		},
		{
			name: "paid on its due date, not due yet, or due today: nothing",
			account: payments.Account{
				Documents: []payments.Document{
					{ID: "a", Kind: "invoice", Number: "FA-1", IssueDate: "2024-04-30", DueDate: "2024-05-10", Total: 10000, Paid: 10000},
					{ID: "b", Kind: "complement", Number: "FA-2", IssueDate: "2024-05-30", DueDate: "2024-06-30", Total: 500, Balance: 500},
					{ID: "c", Kind: "invoice", Number: "FA-3", IssueDate: "2024-06-30", DueDate: "2024-07-10", Total: 500, Balance: 500},
				},
				Payments: []payments.Payment{recorded("2024-05-10", 10000, to("a", 10000))},
			},
			today: "2024-06-30",
		},
		{
			// The balances say 20 € were paid that no dated payment
			// explains: they are taken off from the due date, so that the
			// penalties never exceed what the balances support.
			name: "what no dated reduction explains",
			account: payments.Account{Documents: []payments.Document{
				{ID: "a", Kind: "complement", Number: "FA-9", IssueDate: "2024-04-30", DueDate: "2024-05-10", Total: 10000, Paid: 2000, Balance: 8000},
			}},
			today:   "2024-05-20",
			want:    []payments.Penalty{{DocumentID: "a", Number: "FA-9", DueDate: "2024-05-10", Days: 10, Penalty: 32, Indemnity: 4000}},
			periods: [][]period{{{"2024-05-11", "2024-05-20", 8000, 1450, 32}}}, // 31,8
		},
	} {
		got := payments.Penalties(c.account, c.today, rates)
		var gotPeriods [][]period
		for i := range got {
			gotPeriods = append(gotPeriods, periods(got[i]))
			got[i].Periods = nil
		}
		if !reflect.DeepEqual(got, c.want) || !reflect.DeepEqual(gotPeriods, c.periods) {
			t.Errorf("%s:\n got %+v\n     %+v\nwant %+v\n     %+v", c.name, got, gotPeriods, c.want, c.periods)
		}
		var sum, indemnities decimal.Dec
		for _, p := range c.want {
			sum, indemnities = sum+p.Penalty, indemnities+p.Indemnity
		}
		if p, i := payments.Claimable(c.account, c.today, rates); p != sum || i != indemnities {
			t.Errorf("%s: claimable %v + %v, want %v + %v", c.name, p, i, sum, indemnities)
		}
	}
}

// TestPenaltyRates: the rate of each day is its semester's, as set.
func TestPenaltyRates(t *testing.T) {
	cfg := config.Defaults()
	cfg.Payments.ECBRates = "2026-S2=3.00"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	account := payments.Account{Documents: []payments.Document{
		{ID: "a", Kind: "invoice", Number: "FA-1", IssueDate: "2026-06-01", DueDate: "2026-06-25", Total: 100000, Balance: 100000},
	}}
	got := payments.Penalties(account, "2026-07-05", cfg.Payments.Rates)
	want := []period{
		{"2026-06-26", "2026-06-30", 100000, 1215, 166}, // 100000 × 1215 × 5 / 3 650 000 = 166,4
		{"2026-07-01", "2026-07-05", 100000, 1300, 178}, // 178,1
	}
	if len(got) != 1 || !reflect.DeepEqual(periods(got[0]), want) || got[0].Penalty != 344 || !got[0].Periods[1].Listed {
		t.Fatalf("%+v", got)
	}
}

// TestPenaltiesOfAccounts: on the database, the October invoice paid
// late in two parts (10 € on 20 November, the rest on 1 December) still
// owes its penalties and indemnity, counted on 26,38 € then 16,38 €; the
// November one is late from 11 December on what its credit note left. The
// former Claimable counted only the November invoice, at today's balance.
func TestPenaltiesOfAccounts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := newWorld(t, db)
		for _, p := range []struct {
			amount decimal.Dec
			paidOn string
		}{{1000, "2026-11-20"}, {1638, "2026-12-01"}} {
			if err := w.tx(t, func(tx *sqlx.Tx) error {
				_, err := payments.Record(ctx, tx, w.w.Farm, payments.Input{PartnerID: w.w.Shop.ID, Amount: p.amount, PaidOn: p.paidOn,
					Method: payments.Transfer}, at(2026, 12, 2, 9, 0), "2026-12-02")
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}
		today := "2026-12-20"
		got := payments.Penalties(w.account(t, true, today), today, config.ECBRates{})
		var gotPeriods [][]period
		for i := range got {
			gotPeriods = append(gotPeriods, periods(got[i]))
			got[i].Periods = nil
		}
		want := []payments.Penalty{
			{DocumentID: w.oct.ID, Number: "FA-2026-000001", DueDate: "2026-11-09", PaidOff: "2026-12-01", Days: 22, Penalty: 16, Indemnity: 4000},
			{DocumentID: w.nov.ID, Number: "FA-2026-000002", DueDate: "2026-12-10", Days: 10, Penalty: 14, Indemnity: 4000},
		}
		wantPeriods := [][]period{
			{{"2026-11-10", "2026-11-20", 2638, 1215, 10}, {"2026-11-21", "2026-12-01", 1638, 1215, 6}}, // 9,7 and 6,0
			{{"2026-12-11", "2026-12-20", 4220, 1215, 14}},                                              // 14,0
		}
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotPeriods, wantPeriods) {
			t.Fatalf("got %+v\n    %+v\nwant %+v\n     %+v", got, gotPeriods, want, wantPeriods)
		}
	})
}
