package billing_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

var (
	ctx   = context.Background()
	rules = delivery.DefaultRules()
	at    = tradetest.At
	paris = tradetest.Paris
)

func claim(t *testing.T, db *store.DB, w *tradetest.World, order, id, product string, qty float64, when time.Time) {
	t.Helper()
	kind := "quality"
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		_, err := rules.SendClaim(ctx, tx, w.Farm.ID, order, id, delivery.Claim{Lines: []delivery.LineClaim{
			{ID: w.Line(id, product), QuantityClaimed: &qty, ClaimType: &kind},
		}}, when)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func review(t *testing.T, db *store.DB, w *tradetest.World, order, id string, ok bool, when time.Time) {
	t.Helper()
	if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		_, err := rules.Review(ctx, tx, w.Shop.ID, order, id, ok, when)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// issueDue issues the invoice of every order due at now, each in its own
// transaction: steps 3 and 4 of the invoices job (core/jobs.Invoices). Its
// steps 1 and 2, the lock of the deliveries due and the acceptance of the
// claims past their delay, the tests take themselves where they need them.
func issueDue(db *store.DB, now time.Time) ([]billing.Invoice, error) {
	ids, err := billing.Due(ctx, db, now, rules.Location)
	if err != nil {
		return nil, err
	}
	var (
		out  []billing.Invoice
		errs []error
	)
	for _, id := range ids {
		inv, err := billing.IssueDue(ctx, db, id, now, rules.Location)
		switch {
		case err != nil:
			errs = append(errs, err)
		case inv != nil:
			out = append(out, *inv)
		}
	}
	return out, errors.Join(errs...)
}

// lockAndAccept is what the invoices job does before it issues: it locks
// the deliveries due and accepts the claims past their delay; it returns
// how many claims it accepted.
func lockAndAccept(t *testing.T, db *store.DB, now time.Time) int {
	t.Helper()
	if _, err := rules.LockDue(ctx, db, now); err != nil {
		t.Fatal(err)
	}
	n, err := rules.Autovalidate(ctx, db, now)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestInvoiceAmountsAndClaims(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		tomato := func(sent decimal.Dec) tradetest.L {
			return tradetest.L{Product: "tomate", Price: 250, Expected: 1000, Sent: tradetest.Dec(sent)}
		}
		accepted := w.Delivery(o, "2026-11-05", orders.Done, tomato(1000))
		rejected := w.Delivery(o, "2026-11-12", orders.Done, tomato(1000))
		pending := w.Delivery(o, "2026-11-19", orders.Done, tradetest.L{Product: "laitue", Price: 90, Expected: 2000, Sent: tradetest.Dec(1800)})
		w.Delivery(o, "2026-11-24", orders.Cancelled, tomato(1000))
		w.Delivery(o, "2026-11-26", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 500})
		// The last one is still planned: the lock before the invoices makes it done.
		lastDay := w.Delivery(o, "2026-11-30", orders.Planned, tradetest.L{Product: "laitue", Price: 90, Expected: 1000})

		claim(t, db, w, o, accepted, "tomate", -3, at(2026, 11, 25, 9, 0))
		review(t, db, w, o, accepted, true, at(2026, 11, 25, 10, 0))
		claim(t, db, w, o, rejected, "tomate", -2, at(2026, 11, 25, 9, 0))
		review(t, db, w, o, rejected, false, at(2026, 11, 25, 10, 0))
		claim(t, db, w, o, pending, "laitue", 2, at(2026, 11, 29, 9, 0)) // not reviewed, not yet 48 h old

		// On the 1st the claim is 45 h old: the shop still has 3 h to
		// answer, so the order waits (the last delivery is locked anyway).
		autovalidated := lockAndAccept(t, db, at(2026, 12, 1, 6, 0))
		issued, err := issueDue(db, at(2026, 12, 1, 6, 0))
		if err != nil || len(issued) != 0 || autovalidated != 0 {
			t.Fatalf("the 1st: %d invoices, %d claims accepted, %v", len(issued), autovalidated, err)
		}
		if w.Get(pending).ClaimStatus != orders.ClaimSent || w.Get(lastDay).Status != orders.Done {
			t.Fatal("the 1st: a claim younger than the delay accepted, or the last delivery not locked")
		}
		// The next day it is accepted (48 h have passed), then billed.
		autovalidated = lockAndAccept(t, db, at(2026, 12, 2, 6, 0))
		issued, err = issueDue(db, at(2026, 12, 2, 6, 0))
		if err != nil || len(issued) != 1 || autovalidated != 1 {
			t.Fatalf("the 2nd: %d invoices, %d claims accepted, %v", len(issued), autovalidated, err)
		}
		inv, err := billing.ForOrder(ctx, db, o)
		if err != nil {
			t.Fatal(err)
		}
		type line struct {
			chrono int64
			qty    decimal.Dec
			amount decimal.Dec
		}
		var got []line
		for _, l := range inv.Lines {
			got = append(got, line{l.Chrono, l.Quantity, l.Amount})
		}
		want := []line{
			{1, 700, 1750},  // 10 kg sent, −3 accepted: 7 kg × 2,50 €
			{2, 1000, 2500}, // claim refused: the sent 10 kg
			{3, 2000, 1800}, // 18 sent, +2 auto-validated after 48 h: 20 × 0,90 €
			{5, 500, 1250},  // no sent quantity: the expected 5 kg
			{6, 1000, 900},  // locked before the invoices
		}
		if !slices.Equal(got, want) {
			t.Fatalf("lines %+v, want %+v", got, want)
		}
		if inv.TotalHT != 8200 || inv.TotalVAT != 451 || inv.TotalTTC != 8651 || inv.VATRate != 550 || inv.VATExempt {
			t.Fatalf("totals %v %v %v rate %d exempt %v", inv.TotalHT, inv.TotalVAT, inv.TotalTTC, inv.VATRate, inv.VATExempt)
		}
		// Issued on the 2nd; the due date follows the deliveries, not the issue.
		if inv.Number != "FA-2026-000001" || inv.IssueDate != "2026-12-02" || inv.DueDate != "2026-12-10" || inv.Month != "2026-11-01" {
			t.Fatalf("invoice %s issued %s due %s month %s", inv.Number, inv.IssueDate, inv.DueDate, inv.Month)
		}
		var notes []int64
		for _, n := range inv.Notes {
			notes = append(notes, n.Chrono)
		}
		if !slices.Equal(notes, []int64{1, 2, 3, 5, 6}) {
			t.Fatalf("notes %v (the cancelled delivery counts nowhere)", notes)
		}
		if w.Get(pending).ClaimStatus != orders.ClaimAccepted {
			t.Fatal("the claim past its delay was not accepted")
		}
		feed, _ := activity.Feed(ctx, db, w.Shop.ID, "", 1)
		if feed[0].Type != activity.ClaimAutovalidate {
			t.Fatalf("last event %s", feed[0].Type)
		}
		if inv.Seller.Name != "Ferme des Aravis" || inv.Buyer.EmailAccounting != "compta@lac.fr" || inv.Seller.IBAN == "" ||
			!slices.Contains(inv.Terms, billing.LatePenalty) || slices.Contains(inv.Terms, billing.VATExemptMention) {
			t.Fatalf("parties or terms %+v %+v %v", inv.Seller, inv.Buyer, inv.Terms)
		}

		// The view of the order carries the invoice for both parties.
		full, _ := orders.Get(ctx, db, o)
		if full.ViewFor(w.Shop.ID).Invoice == nil || full.ViewFor(w.Farm.ID).Invoice.Number != inv.Number {
			t.Fatal("order view without invoice")
		}
		// Running again issues nothing.
		if again, err := issueDue(db, at(2026, 12, 2, 6, 5)); err != nil || len(again) != 0 {
			t.Fatalf("second run: %d, %v", len(again), err)
		}
	})
}

// TestAPendingClaimDefersTheInvoice: a claim sent on the last evening of
// the month is neither accepted nor billed on the 1st at 06:00 (the other
// orders are invoiced); its order is listed as deferred, and no number is
// taken for it. Once the shop answers, the next day's issue invoices it
// with the claim's outcome; unanswered, the system accepts it only
// claims.autovalidate-after after it was sent. (core/jobs'
// TestInvoicesJobDefersAnOrderWithAPendingClaim goes through the jobs.)
func TestAPendingClaimDefersTheInvoice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		shop2 := w.User(accounts.User{Type: accounts.Distributor, Email: "deux@magasin.fr", Name: "Deuxième magasin"})
		shop3 := w.User(accounts.User{Type: accounts.Distributor, Email: "trois@magasin.fr", Name: "Troisième magasin"})
		answered, unanswered, plain := w.Order(w.Farm, w.Shop, "2026-11-01"), w.Order(w.Farm, shop2, "2026-11-01"), w.Order(w.Farm, shop3, "2026-11-01")
		tomato := tradetest.L{Product: "tomate", Price: 250, Expected: 1000, Sent: tradetest.Dec(1000)}
		d1 := w.Delivery(answered, "2026-11-30", orders.Done, tomato)
		d2 := w.Delivery(unanswered, "2026-11-30", orders.Done, tomato)
		w.Delivery(plain, "2026-11-30", orders.Done, tomato)
		lastEvening := at(2026, 11, 30, 21, 30)
		claim(t, db, w, answered, d1, "tomate", -3, lastEvening)
		kind := "quantity"
		q := -4.0
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			_, err := rules.SendClaim(ctx, tx, w.Farm.ID, unanswered, d2, delivery.Claim{Lines: []delivery.LineClaim{
				{ID: w.Line(d2, "tomate"), QuantityClaimed: &q, ClaimType: &kind}}}, lastEvening)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		events := func() int {
			var n int
			if err := store.Get(ctx, db, &n, `SELECT COUNT(*) FROM events WHERE type = ?`, activity.ClaimAutovalidate); err != nil {
				t.Fatal(err)
			}
			return n
		}
		deferred := func(when time.Time) []string {
			ds, err := billing.Deferred(ctx, db, when, paris)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, d := range ds {
				if d.ClaimSentAt != lastEvening.UnixMilli() || d.Month != "2026-11-01" || d.ProducerID != w.Farm.ID {
					t.Fatalf("deferral %+v", d)
				}
				ids = append(ids, d.OrderID)
			}
			return ids
		}
		total := func(order string) decimal.Dec {
			inv, err := billing.ForOrder(ctx, db, order)
			if err != nil {
				t.Fatalf("invoice of %s: %v", order, err)
			}
			return inv.TotalHT
		}
		invoiced := func(order string) bool {
			_, err := billing.ForOrder(ctx, db, order)
			return err == nil
		}

		// The 1st, 06:00: only the order without a claim is invoiced.
		accepted := lockAndAccept(t, db, at(2026, 12, 1, 6, 0))
		issued, err := issueDue(db, at(2026, 12, 1, 6, 0))
		if err != nil || len(issued) != 1 || issued[0].OrderID != plain || issued[0].Number != "FA-2026-000001" {
			t.Fatalf("the 1st: %+v, %v", issued, err)
		}
		if accepted != 0 || w.Get(d1).ClaimStatus != orders.ClaimSent || w.Get(d2).ClaimStatus != orders.ClaimSent || events() != 0 {
			t.Fatal("the 1st: a claim sent the evening before was accepted")
		}
		if invoiced(answered) || invoiced(unanswered) {
			t.Fatal("an order with a pending claim was invoiced")
		}
		if got := deferred(at(2026, 12, 1, 6, 0)); !slices.Equal(got, []string{answered, unanswered}) {
			t.Fatalf("deferred %v", got)
		}
		// Issue itself never bills a pending claim, and takes no number.
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			inv, err := billing.Issue(ctx, tx, answered, at(2026, 12, 1, 7, 0), paris)
			if inv != nil {
				t.Fatalf("Issue billed a pending claim: %+v", inv)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}

		// The shop accepts the first claim; the next run bills 7 kg.
		review(t, db, w, answered, d1, true, at(2026, 12, 1, 10, 0))
		accepted = lockAndAccept(t, db, at(2026, 12, 2, 6, 0))
		issued, err = issueDue(db, at(2026, 12, 2, 6, 0))
		if err != nil || len(issued) != 1 || issued[0].OrderID != answered || issued[0].Number != "FA-2026-000002" {
			t.Fatalf("the 2nd: %+v, %v", issued, err)
		}
		if total(answered) != 1750 || accepted != 0 || events() != 0 || w.Get(d2).ClaimStatus != orders.ClaimSent {
			t.Fatalf("answered order: %v HT, %d auto-validations", total(answered), events())
		}
		if got := deferred(at(2026, 12, 2, 6, 0)); !slices.Equal(got, []string{unanswered}) {
			t.Fatalf("deferred on the 2nd %v", got)
		}

		// Unanswered: one minute before the delay nothing is accepted;
		// at the delay the system accepts it and the 3rd's issue bills 6 kg.
		if n, err := rules.Autovalidate(ctx, db, lastEvening.Add(rules.AutovalidateAfter-time.Minute)); err != nil || n != 0 {
			t.Fatalf("before the delay: %d, %v", n, err)
		}
		if n, err := rules.Autovalidate(ctx, db, lastEvening.Add(rules.AutovalidateAfter)); err != nil || n != 1 {
			t.Fatalf("at the delay: %d, %v", n, err)
		}
		issued, err = issueDue(db, at(2026, 12, 3, 6, 0))
		if err != nil || len(issued) != 1 || issued[0].OrderID != unanswered || issued[0].Number != "FA-2026-000003" || issued[0].IssueDate != "2026-12-03" {
			t.Fatalf("the 3rd: %+v, %v", issued, err)
		}
		if total(unanswered) != 1500 || events() != 1 || len(deferred(at(2026, 12, 3, 6, 0))) != 0 {
			t.Fatalf("unanswered order: %v HT, %d auto-validations", total(unanswered), events())
		}
	})
}

func TestIssuedInvoiceNeverChanges(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		d := w.Delivery(o, "2026-11-05", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		if _, err := issueDue(db, at(2026, 12, 1, 6, 0)); err != nil {
			t.Fatal(err)
		}
		before, err := billing.ForOrder(ctx, db, o)
		if err != nil {
			t.Fatal(err)
		}
		// Profiles, prices and quantities change afterwards.
		w.Exec(`UPDATE users SET name = 'Nouveau nom', iban = 'FR7612345000010000000000000', tvaintracom = '' WHERE id = ?`, w.Farm.ID)
		w.Exec(`UPDATE users SET email_accounting = 'autre@lac.fr' WHERE id = ?`, w.Shop.ID)
		w.Exec(`UPDATE delivery_lines SET price = 999, quantity_sent = 1 WHERE delivery_id = ?`, d)
		after, err := billing.ForOrder(ctx, db, o)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprintf("%+v", before) != fmt.Sprintf("%+v", after) {
			t.Fatalf("the invoice changed:\n%+v\n%+v", before, after)
		}
		if _, err := billing.Get(ctx, db, "missing"); !errors.Is(err, core.ErrNotFound) {
			t.Fatalf("missing invoice: %v", err)
		}
	})
}

func TestExemptProducer(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		w.Exec(`UPDATE users SET tvaintracom = '' WHERE id = ?`, w.Farm.ID)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Delivery(o, "2026-11-05", orders.Done, tradetest.L{Product: "tomate", Price: 333, Expected: 333})
		if _, err := issueDue(db, at(2026, 12, 1, 6, 0)); err != nil {
			t.Fatal(err)
		}
		inv, err := billing.ForOrder(ctx, db, o)
		if err != nil {
			t.Fatal(err)
		}
		// 3,33 kg × 3,33 € = 11,0889 € → 11,09 €.
		if !inv.VATExempt || inv.VATRate != 0 || inv.TotalHT != 1109 || inv.TotalVAT != 0 || inv.TotalTTC != 1109 ||
			!slices.Contains(inv.Terms, billing.VATExemptMention) {
			t.Fatalf("exempt invoice %+v", inv)
		}
	})
}

func TestWhatIsDue(t *testing.T) {
	if got := billing.BillableBefore(at(2026, 12, 1, 5, 59), paris); got != "2026-11-01" {
		t.Errorf("before 06:00: %s", got)
	}
	if got := billing.BillableBefore(at(2026, 12, 1, 6, 0), paris); got != "2026-12-01" {
		t.Errorf("at 06:00: %s", got)
	}
	if got := billing.BillableBefore(time.Date(2027, 1, 1, 5, 30, 0, 0, time.UTC), paris); got != "2027-01-01" {
		t.Errorf("05:30 UTC is 06:30 in Paris: %s", got)
	}
	// Art. L441-11 II 1°: 30 days after the end of the décade of delivery.
	for first, want := range map[string]string{
		"2026-11-01": "2026-12-10", "2026-11-10": "2026-12-10", // first décade: ends on the 10th
		"2026-11-11": "2026-12-20", "2026-11-20": "2026-12-20", // second: the 20th
		"2026-11-21": "2026-12-30", "2026-11-30": "2026-12-30", // third: the month's last day
		"2026-12-31": "2027-01-30", "2026-02-21": "2026-03-30", "2028-02-29": "2028-03-30",
		"2026-03-29": "2026-04-30", "2026-10-25": "2026-11-30", // the days clocks change in Paris
	} {
		if got := billing.DueDate(first); got != want {
			t.Errorf("due date of a first delivery on %s: %s, want %s", first, got, want)
		}
	}
	if billing.Number(2026, 1) != "FA-2026-000001" || billing.NoteNumber(12) != "BL-000012" {
		t.Error("numbers")
	}
	if billing.Amount(1, 1) != 0 || billing.Amount(50, 1) != 1 || billing.VAT(10000, 550) != 550 || billing.VAT(9, 550) != 0 {
		t.Error("rounding")
	}

	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Delivery(o, "2026-11-05", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		// A delivery planned in the next month (no delivery day left in
		// November) holds the order back until it is done.
		spill := w.Delivery(o, "2026-12-03", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		onlyCancelled := w.Order(w.Farm, w.Shop, "2026-10-01")
		w.Delivery(onlyCancelled, "2026-10-05", orders.Cancelled, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		for _, tt := range []struct {
			when time.Time
			n    int
		}{
			{at(2026, 12, 1, 5, 59), 0},
			{at(2026, 12, 1, 6, 0), 0}, // November is over, but the 3 December delivery is not done
			{at(2026, 12, 3, 12, 0), 1},
			{at(2027, 1, 1, 6, 0), 0},
		} {
			lockAndAccept(t, db, tt.when)
			issued, err := issueDue(db, tt.when)
			if err != nil || len(issued) != tt.n {
				t.Fatalf("at %v: %d invoices, %v; want %d", tt.when, len(issued), err, tt.n)
			}
		}
		inv, err := billing.ForOrder(ctx, db, o)
		if err != nil || len(inv.Notes) != 2 || inv.DueDate != "2026-12-10" {
			t.Fatalf("invoice %+v, %v", inv, err)
		}
		if w.Get(spill).Status != orders.Done {
			t.Fatal("spilled delivery not locked")
		}
		if _, err := billing.ForOrder(ctx, db, onlyCancelled); !errors.Is(err, core.ErrNotFound) {
			t.Fatalf("an order with only a cancelled delivery was invoiced: %v", err)
		}
	})
}

// world builds producers each supplying shops, with one done delivery per
// order in the month.
func world(t *testing.T, w *tradetest.World, producers, shops int, month string) map[string][]string {
	byProducer := map[string][]string{}
	farms := []accounts.User{w.Farm}
	for i := 1; i < producers; i++ {
		farms = append(farms, w.User(accounts.User{Type: accounts.Producer, Email: fmt.Sprintf("ferme%d-%s@x.fr", i, month), Name: fmt.Sprintf("Ferme %d", i)}))
	}
	stores := []accounts.User{w.Shop}
	for i := 1; i < shops; i++ {
		stores = append(stores, w.User(accounts.User{Type: accounts.Distributor, Email: fmt.Sprintf("magasin%d-%s@x.fr", i, month), Name: fmt.Sprintf("Magasin %d", i)}))
	}
	for _, f := range farms {
		for _, s := range stores {
			o := w.Order(f, s, month)
			w.Delivery(o, month[:8]+"10", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
			byProducer[f.ID] = append(byProducer[f.ID], o)
		}
	}
	return byProducer
}

// numbers lists each producer's invoice numbers of a year, in order.
func numbers(t *testing.T, db *store.DB, year int) map[string][]int64 {
	t.Helper()
	var rows []struct {
		Producer string `db:"producer_id"`
		Seq      int64  `db:"seq"`
		Number   string `db:"number"`
	}
	if err := store.Select(ctx, db, &rows, `SELECT producer_id, seq, number FROM invoices WHERE year = ? ORDER BY producer_id, seq`, year); err != nil {
		t.Fatal(err)
	}
	out := map[string][]int64{}
	for _, r := range rows {
		if r.Number != billing.Number(year, r.Seq) {
			t.Fatalf("number %s for sequence %d", r.Number, r.Seq)
		}
		out[r.Producer] = append(out[r.Producer], r.Seq)
	}
	return out
}

func continuous(t *testing.T, got map[string][]int64, orders map[string][]string) {
	t.Helper()
	for producer, os := range orders {
		want := make([]int64, len(os))
		for i := range want {
			want[i] = int64(i + 1)
		}
		if !slices.Equal(got[producer], want) {
			t.Fatalf("producer %s numbers %v, want %v", producer, got[producer], want)
		}
	}
}

func TestConcurrentRunsGiveOneInvoicePerOrderAndContinuousNumbers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		nov := world(t, w, 3, 6, "2026-11-01")
		const procs = 4
		var (
			wg     sync.WaitGroup
			mu     sync.Mutex
			issued []string
		)
		for range procs {
			h := tradetest.Handle(t, db)
			wg.Add(1)
			go func() {
				defer wg.Done()
				invs, err := issueDue(h, at(2026, 12, 1, 6, 0))
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				for _, inv := range invs {
					issued = append(issued, inv.OrderID)
				}
				mu.Unlock()
			}()
		}
		wg.Wait()
		var all []string
		for _, os := range nov {
			all = append(all, os...)
		}
		slices.Sort(all)
		slices.Sort(issued)
		if !slices.Equal(issued, all) {
			t.Fatalf("issued for %d orders in all, want each of %d once", len(issued), len(all))
		}
		continuous(t, numbers(t, db, 2026), nov)

		// December is billed in January: each producer's 2027 sequence
		// starts again at 1, and 2026 keeps its numbers.
		dec := world(t, w, 3, 6, "2026-12-01")
		for range 2 {
			if _, err := issueDue(db, at(2027, 1, 1, 6, 0)); err != nil {
				t.Fatal(err)
			}
		}
		continuous(t, numbers(t, db, 2027), dec)
		continuous(t, numbers(t, db, 2026), nov)
		inv, _ := billing.ForOrder(ctx, db, dec[w.Farm.ID][0])
		if inv.Number != "FA-2027-000001" || inv.Month != "2026-12-01" || inv.IssueDate != "2027-01-01" || inv.DueDate != "2027-01-09" {
			t.Fatalf("first invoice of 2027: %s %s %s %s", inv.Number, inv.Month, inv.IssueDate, inv.DueDate)
		}
	})
}

func TestARolledBackIssueGivesItsNumberBack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		os := world(t, w, 1, 2, "2026-11-01")[w.Farm.ID]
		boom := errors.New("boom")
		err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			if _, err := billing.Issue(ctx, tx, os[0], at(2026, 12, 1, 6, 0), paris); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatal(err)
		}
		if _, err := issueDue(db, at(2026, 12, 1, 6, 0)); err != nil {
			t.Fatal(err)
		}
		continuous(t, numbers(t, db, 2026), map[string][]string{w.Farm.ID: os})
	})
}
