package payments_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/payments"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// yearWorld: an invoice a month from April to December 2026 (issued on
// the 1st for the month before), each paid on the 5th but June's, left
// open with its credit note, and December's; July's is paid in two halves the same day; a
// payment declared in May waits for the producer. Today is 3 December.
type yearWorld struct {
	world
	issued map[string]billing.Invoice // by issue month, "2026-04"
	today  string
}

func newYearWorld(t *testing.T, db *store.DB) yearWorld {
	w := tradetest.New(t, db)
	out := yearWorld{world: world{db: db, w: w}, issued: map[string]billing.Invoice{}, today: "2026-12-03"}
	for m := 3; m <= 11; m++ {
		order := w.Order(w.Farm, w.Shop, fmt.Sprintf("2026-%02d-01", m))
		delivered := w.Delivery(order, fmt.Sprintf("2026-%02d-08", m), orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000, Sent: tradetest.Dec(1000)})
		if m == 5 {
			// May's delivery claimed: June's invoice comes with its credit note.
			w.Exec(`UPDATE delivery_lines SET quantity_claimed = -400, claim_type = 'quality' WHERE delivery_id = ?`, delivered)
			w.Exec(`UPDATE deliveries SET claim_status = 'accepted' WHERE id = ?`, delivered)
		}
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			inv, err := billing.Issue(ctx, tx, order, at(2026, time.Month(m+1), 1, 6, 0), paris)
			if inv != nil {
				out.issued[inv.IssueDate[:7]] = *inv
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if m == 5 {
			cs, err := billing.Credits(ctx, db, order, "", "")
			if err != nil || len(cs) != 1 {
				t.Fatalf("credit notes %v, %v", cs, err)
			}
			out.credit = cs[0]
		}
	}
	pay := func(inv billing.Invoice, amount int64, day string) {
		t.Helper()
		if err := out.tx(t, func(tx *sqlx.Tx) error {
			_, err := payments.Record(ctx, tx, w.Farm, payments.Input{PartnerID: w.Shop.ID, Amount: decimal.Dec(amount), PaidOn: day,
				Method: payments.Transfer, Documents: []string{inv.ID}}, at(2026, 12, 3, 9, 0), out.today)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	for _, month := range []string{"2026-04", "2026-05", "2026-08", "2026-09", "2026-10", "2026-11"} {
		inv := out.issued[month]
		pay(inv, int64(inv.TotalTTC), month+"-05")
	}
	july := out.issued["2026-07"]
	pay(july, int64(july.TotalTTC)/2, "2026-07-05")
	pay(july, int64(july.TotalTTC)-int64(july.TotalTTC)/2, "2026-07-05")
	if err := out.tx(t, func(tx *sqlx.Tx) error {
		_, err := payments.Declare(ctx, tx, w.Shop, payments.Input{PartnerID: w.Farm.ID, Amount: 100, PaidOn: "2026-05-20",
			Method: payments.Cheque}, at(2026, 12, 3, 9, 0), out.today)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(out.issued) != 9 {
		t.Fatalf("issued %v", out.issued)
	}
	return out
}

// row names a document (its number) or a payment (its day and amount).
func rows(docs []payments.Document, pays []payments.Payment) []string {
	var out []string
	for _, d := range docs {
		out = append(out, d.IssueDate+" "+d.Number)
	}
	for _, p := range pays {
		out = append(out, fmt.Sprintf("%s pay %s %d %s", p.PaidOn, p.Status, p.Amount, p.ID))
	}
	return out
}

// TestRecentListsOpenAndRecentRows: the account as the screen lists it —
// June's invoice, open for six months, is there; August's, settled four
// months ago, is not but counted —, with the whole account's totals.
func TestRecentListsOpenAndRecentRows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := newYearWorld(t, db)
		for _, producer := range []bool{true, false} {
			all := w.account(t, producer, w.today)
			recent, older := payments.Recent(all, w.today)
			var numbers []string
			for _, d := range recent.Documents {
				numbers = append(numbers, d.IssueDate+" "+d.Status)
			}
			// June's credit note stays with its invoice, which it explains.
			want := []string{"2026-06-01 imputed", "2026-06-01 overdue", "2026-10-01 paid", "2026-11-01 paid", "2026-12-01 issued"}
			if !slices.Equal(numbers, want) {
				t.Fatalf("listed documents %v, want %v", numbers, want)
			}
			var days []string
			for _, p := range recent.Payments {
				days = append(days, p.PaidOn+" "+p.Status)
			}
			if want := []string{"2026-11-05 recorded", "2026-10-05 recorded", "2026-05-20 declared"}; !slices.Equal(days, want) {
				t.Fatalf("listed payments %v, want %v", days, want)
			}
			if older != (payments.Older{Documents: 5, Payments: 6, Before: "2026-10-01"}) {
				t.Fatalf("older %+v", older)
			}
			if recent.Owed != all.Owed || recent.Overdue != all.Overdue || recent.Declared != all.Declared || recent.OnAccount != all.OnAccount ||
				all.Owed != w.issued["2026-06"].TotalTTC-w.credit.TotalTTC+w.issued["2026-12"].TotalTTC {
				t.Fatalf("totals %+v, of the whole account %+v", recent, all)
			}
		}
	})
}

// TestHistoryPages: the older rows page by page, most recent first, each
// row once, the rows of a day never split, until none is left; a start
// that is not a day is refused in French.
func TestHistoryPages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := newYearWorld(t, db)
		all := w.account(t, false, w.today)
		recent, older := payments.Recent(all, w.today)
		listed := rows(recent.Documents, recent.Payments)
		// Everything but what the screen lists, most recent first.
		var want []string
		for _, r := range rows(all.Documents, all.Payments) {
			if !slices.Contains(listed, r) {
				want = append(want, r)
			}
		}
		slices.SortStableFunc(want, func(a, b string) int { return strings.Compare(b[:10], a[:10]) })
		if len(want) != 11 {
			t.Fatalf("older rows %v", want)
		}
		for _, limit := range []int{1, 2, 3, 50} {
			var got []string
			var sizes []int
			before := older.Before
			for before != "" {
				page, err := payments.History(all, w.today, before, limit)
				if err != nil {
					t.Fatal(err)
				}
				these := rows(page.Documents, page.Payments)
				for _, r := range these {
					if r[:10] >= before {
						t.Fatalf("limit %d: %s on a page before %s", limit, r, before)
					}
				}
				if page.Rest.Before != "" && page.Rest.Documents+page.Rest.Payments == 0 ||
					page.Rest.Before == "" && page.Rest.Documents+page.Rest.Payments != 0 {
					t.Fatalf("limit %d: rest %+v", limit, page.Rest)
				}
				slices.SortStableFunc(these, func(a, b string) int { return strings.Compare(b[:10], a[:10]) })
				got = append(got, these...)
				sizes = append(sizes, len(these))
				if left := len(want) - len(got); page.Rest.Documents+page.Rest.Payments != left {
					t.Fatalf("limit %d: rest %+v, %d left", limit, page.Rest, left)
				}
				before = page.Rest.Before
			}
			if !slices.Equal(got, want) {
				t.Fatalf("limit %d: pages\n%v\nwant\n%v", limit, got, want)
			}
			// The two payments of 5 July come together.
			switch limit {
			case 1:
				if !slices.Equal(sizes, []int{1, 1, 1, 1, 2, 1, 1, 1, 1, 1}) {
					t.Fatalf("limit 1: pages of %v", sizes)
				}
			case 50:
				if !slices.Equal(sizes, []int{11}) {
					t.Fatalf("limit 50: pages of %v", sizes)
				}
			}
		}
		// A start within the recent months lists nothing they list.
		page, err := payments.History(all, w.today, "2026-12-31", 50)
		if err != nil || len(page.Documents)+len(page.Payments) != 11 {
			t.Fatalf("before the end of December: %v, %v", rows(page.Documents, page.Payments), err)
		}
		for _, before := range []string{"", "demain", "2026-13-01", "2026-02-30", "2026-1-01", " 2026-10-01", strings.Repeat("2026-10-01", 10000)} {
			_, err := payments.History(all, w.today, before, 50)
			var v *core.ValidationError
			if !errors.As(err, &v) || len(v.Fields) != 1 || v.Fields[0].Message != payments.MsgBefore {
				t.Fatalf("before %.20q: %v", before, err)
			}
		}
	})
}
