package billing_test

import (
	"fmt"
	"testing"
	"time"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// accepted is the outcome of a done delivery whose claim (product →
// signed quantity) the shop accepted the next morning.
func accepted(date string, lines map[string]decimal.Dec) tradetest.Outcome {
	lock := rules.LockTime(date)
	c := &tradetest.ClaimOutcome{Lines: map[string]tradetest.ClaimedLine{}, SentAt: lock.Add(3 * time.Hour),
		Status: orders.ClaimAccepted, ReviewedAt: lock.Add(20 * time.Hour)}
	for p, q := range lines {
		c.Lines[p] = tradetest.ClaimedLine{Quantity: q, Type: orders.ClaimQuality}
	}
	return tradetest.Outcome{Status: orders.Done, Claim: c}
}

// TestSettlementOfAnOrderAmongOthers: the documents settling an order's
// accepted claims — one per delivery, in date order, their lines by
// product name — whatever the other orders' done and claimed deliveries
// around it, and whether the invoice run issues them with the invoice or
// the claims job after it. The settlement finds the deliveries by their
// order and checks their status itself (issue 20: given the status in its
// query, SQLite read every done delivery of the platform per settlement).
func TestSettlementOfAnOrderAmongOthers(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		for _, p := range []string{"tomate", "carotte", "pomme"} {
			w.Exec(`UPDATE products SET name = ? WHERE id = ?`, map[string]string{"tomate": "Tomate", "carotte": "Carotte", "pomme": "Pomme"}[p], p)
		}
		line := func(p string) tradetest.L { return tradetest.L{Product: p, Price: 300, Expected: 2000} }
		// Other orders of the platform, before and after ours in every
		// order the query could walk: done, claimed and accepted, planned.
		var others []string
		for i := range 6 {
			shop := w.User(accounts.User{Type: accounts.Distributor, Email: fmt.Sprintf("autre%d@magasin.fr", i), Name: fmt.Sprintf("Magasin %d", i)})
			o := w.Order(w.Farm, shop, "2026-11-01")
			others = append(others, o)
			for day := 2; day <= 27; day += 5 {
				date := fmt.Sprintf("2026-11-%02d", day)
				out := tradetest.Outcome{Status: orders.Done}
				if (day+i)%3 == 0 {
					out = accepted(date, map[string]decimal.Dec{"tomate": -100})
				}
				w.Played(o, date, out, line("tomate"), line("carotte"))
			}
		}
		ours := w.Order(w.Farm, w.Shop, "2026-11-01")
		late := w.Played(ours, "2026-11-24", accepted("2026-11-24", map[string]decimal.Dec{"tomate": -200, "carotte": -50}),
			line("tomate"), line("carotte"), line("pomme"))
		early := w.Played(ours, "2026-11-05", accepted("2026-11-05", map[string]decimal.Dec{"pomme": -300}), line("pomme"), line("tomate"))
		w.Played(ours, "2026-11-12", tradetest.Outcome{Status: orders.Done}, line("tomate"))
		// A claim accepted on a delivery that is not done is not settled:
		// a state no operation writes (a claim is sent on a done delivery),
		// written here to keep the settlement reading done deliveries only.
		undone := w.Played(ours, "2026-11-19", accepted("2026-11-19", map[string]decimal.Dec{"tomate": -400}), line("tomate"))
		w.Exec(`UPDATE deliveries SET status = ? WHERE id = ?`, orders.Cancelled, undone)

		// The 1st at 06:00: the invoice run issues every invoice with the
		// credit notes of the claims already accepted.
		issueAt := at(2026, 12, 1, 6, 0)
		issued, err := issueDue(db, issueAt)
		if err != nil || len(issued) != 7 {
			t.Fatalf("invoices: %d, %v", len(issued), err)
		}
		type doc struct {
			delivery string
			lines    string
			ht       decimal.Dec
		}
		read := func(order string) []doc {
			var out []doc
			for _, c := range credits(t, db, order) {
				if c.Kind != billing.KindCredit || c.IssueDate != "2026-12-01" {
					t.Fatalf("settlement of %s: %+v", order, c)
				}
				d := doc{delivery: c.DeliveryID, ht: c.TotalHT}
				for _, l := range c.Lines {
					d.lines += fmt.Sprintf("%d %s %s %v × %v = %v; ", l.Position, l.Date, l.Product, l.Quantity, l.Price, l.Amount)
				}
				out = append(out, d)
			}
			return out
		}
		got := read(ours)
		want := []doc{
			{early, "1 2026-11-05 Pomme 3 × 3 = 9; ", 900},
			{late, "1 2026-11-24 Carotte 0.5 × 3 = 1.5; 2 2026-11-24 Tomate 2 × 3 = 6; ", 750},
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("our order's credit notes:\n got %v\nwant %v", got, want)
		}
		for i, o := range others {
			n := 0
			for day := 2; day <= 27; day += 5 {
				if (day+i)%3 == 0 {
					n++
				}
			}
			if cs := read(o); len(cs) != n {
				t.Fatalf("order %d: %d credit notes, want %d", i, len(cs), n)
			}
		}

		// A claim accepted after the invoice: the claims job's settlement
		// (SettleDue) issues its credit note alone, the next number.
		next := w.Played(ours, "2026-11-26", accepted("2026-11-26", map[string]decimal.Dec{"carotte": -20}), line("carotte"))
		settled, err := billing.SettleDue(ctx, db, at(2026, 12, 2, 10, 0), paris)
		if err != nil || len(settled) != 1 || settled[0].DeliveryID != next || settled[0].TotalHT != 60 || settled[0].IssueDate != "2026-12-02" {
			t.Fatalf("settled after the invoice: %+v, %v", settled, err)
		}
		if again, err := billing.SettleDue(ctx, db, at(2026, 12, 2, 11, 0), paris); err != nil || len(again) != 0 {
			t.Fatalf("a second settlement: %+v, %v", again, err)
		}
	})
}
