package billing_test

import (
	"context"
	"encoding/json"
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
	"primeur/core/facturx"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/terms"
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

// review answers a claim as the daemon does: the shop's answer, and in
// the same transaction the documents settling it once the order is
// invoiced.
func review(t *testing.T, db *store.DB, w *tradetest.World, order, id string, ok bool, when time.Time) {
	t.Helper()
	if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var shop string
		if err := store.Get(ctx, tx, &shop, `SELECT distributor_id FROM orders WHERE id = ?`, order); err != nil {
			return err
		}
		if _, err := rules.Review(ctx, tx, shop, order, id, ok, when); err != nil {
			return err
		}
		_, err := billing.SettleOrder(ctx, tx, order, when, paris)
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

// credits lists the credit notes and complementary invoices of an order.
func credits(t *testing.T, db *store.DB, order string) []billing.Invoice {
	t.Helper()
	cs, err := billing.Credits(ctx, db, order, "", "")
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cs {
		if cs[i], err = billing.GetCredit(ctx, db, c.ID); err != nil {
			t.Fatal(err)
		}
	}
	return cs
}

func TestInvoiceAmountsAndClaims(t *testing.T) {
	t.Parallel()
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

		// Each claim within two working days of its delivery.
		claim(t, db, w, o, accepted, "tomate", -3, at(2026, 11, 6, 9, 0))
		review(t, db, w, o, accepted, true, at(2026, 11, 6, 10, 0))
		claim(t, db, w, o, rejected, "tomate", -2, at(2026, 11, 13, 9, 0))
		review(t, db, w, o, rejected, false, at(2026, 11, 13, 10, 0))
		claim(t, db, w, o, pending, "laitue", 2, at(2026, 11, 20, 9, 0)) // not reviewed; it raises the amount

		// On the 1st the claim is 11 days old, but it asks the shop to pay
		// more: silence does not accept it, it waits for the shop's
		// answer. The invoice is issued all the same, on what was sent,
		// with the credit note of the claim accepted before.
		autovalidated := lockAndAccept(t, db, at(2026, 12, 1, 6, 0))
		issued, err := issueDue(db, at(2026, 12, 1, 6, 0))
		if err != nil || len(issued) != 1 || autovalidated != 0 {
			t.Fatalf("the 1st: %d invoices, %d claims accepted, %v", len(issued), autovalidated, err)
		}
		if w.Get(pending).ClaimStatus != orders.ClaimSent || w.Get(lastDay).Status != orders.Done {
			t.Fatal("the 1st: a claim raising the amount accepted, or the last delivery not locked")
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
		lines := func(inv billing.Invoice) []line {
			var got []line
			for _, l := range inv.Lines {
				got = append(got, line{l.Chrono, l.Quantity, l.Amount})
			}
			return got
		}
		want := []line{
			{1, 1000, 2500}, // 10 kg sent: the accepted claim is settled by a credit note
			{2, 1000, 2500}, // claim refused: the sent 10 kg
			{3, 1800, 1620}, // 18 sent; its claim waits for the shop
			{5, 500, 1250},  // no sent quantity: the expected 5 kg
			{6, 1000, 900},  // locked before the invoices
		}
		if got := lines(inv); !slices.Equal(got, want) {
			t.Fatalf("lines %+v, want %+v", got, want)
		}
		if inv.TotalHT != 8770 || inv.TotalVAT != 482 || inv.TotalTTC != 9252 || inv.VATRate != 550 || inv.VATExempt {
			t.Fatalf("totals %v %v %v rate %d exempt %v", inv.TotalHT, inv.TotalVAT, inv.TotalTTC, inv.VATRate, inv.VATExempt)
		}
		// Issued on the 1st; the due date follows the deliveries, not the issue.
		if inv.Number != "FA-2026-000001" || inv.IssueDate != "2026-12-01" || inv.DueDate != "2026-12-10" || inv.Month != "2026-11-01" {
			t.Fatalf("invoice %s issued %s due %s month %s", inv.Number, inv.IssueDate, inv.DueDate, inv.Month)
		}
		var notes []int64
		for _, n := range inv.Notes {
			notes = append(notes, n.Chrono)
		}
		if !slices.Equal(notes, []int64{1, 2, 3, 5, 6}) {
			t.Fatalf("notes %v (the cancelled delivery counts nowhere)", notes)
		}
		cs := credits(t, db, o)
		if len(cs) != 1 || cs[0].Kind != billing.KindCredit || cs[0].Number != "AV-2026-000001" || cs[0].DeliveryID != accepted ||
			cs[0].Refers.Number != inv.Number || cs[0].Refers.Date != inv.IssueDate || cs[0].IssueDate != "2026-12-01" ||
			!slices.Equal(lines(cs[0]), []line{{1, 300, 750}}) || cs[0].TotalVAT != 41 || cs[0].TotalTTC != 791 || cs[0].DueDate != "" {
			t.Fatalf("credit notes with the invoice: %+v", cs)
		}
		if !slices.Contains(inv.Terms, billing.Term{Subject: facturx.NotePenalty, Text: billing.LatePenalty}) ||
			slices.ContainsFunc(inv.Terms, func(t billing.Term) bool { return t.Text == billing.VATExemptMention }) ||
			inv.Seller.Name != "Ferme des Aravis" || inv.Buyer.EmailAccounting != "" || inv.Seller.IBAN == "" {
			t.Fatalf("parties or terms %+v %+v %v", inv.Seller, inv.Buyer, inv.Terms)
		}

		// The next day the system still accepts nothing and nothing is
		// settled; the shop accepts the claim at 06:00: it is settled, in
		// its answer's transaction, by a complementary invoice of 2
		// lettuces, numbered in the invoice sequence.
		if n := lockAndAccept(t, db, at(2026, 12, 2, 6, 0)); n != 0 {
			t.Fatalf("the 2nd: %d claims accepted", n)
		}
		if again, err := issueDue(db, at(2026, 12, 2, 6, 5)); err != nil || len(again) != 0 {
			t.Fatalf("second run: %d, %v", len(again), err)
		}
		if settled, err := billing.SettleDue(ctx, db, at(2026, 12, 2, 6, 0), paris); err != nil || len(settled) != 0 {
			t.Fatalf("settled %+v, %v", settled, err)
		}
		review(t, db, w, o, pending, true, at(2026, 12, 2, 6, 0))
		cs = credits(t, db, o)
		if len(cs) != 2 || cs[1].Kind != billing.KindComplement || cs[1].Number != "FA-2026-000002" || cs[1].DeliveryID != pending ||
			!slices.Equal(lines(cs[1]), []line{{3, 200, 180}}) || cs[1].DueDate != "2027-01-09" || cs[1].Refers.Number != inv.Number {
			t.Fatalf("complementary invoice: %+v", cs)
		}
		// Settling again issues nothing; the invoice is unchanged.
		if again, err := billing.SettleDue(ctx, db, at(2026, 12, 3, 6, 0), paris); err != nil || len(again) != 0 {
			t.Fatalf("settled again %+v, %v", again, err)
		}
		if after, _ := billing.ForOrder(ctx, db, o); after.TotalHT != inv.TotalHT || len(after.Lines) != len(inv.Lines) {
			t.Fatal("settling a claim changed the invoice")
		}
		feed, _ := activity.Feed(ctx, db, w.Farm.ID, "", 1)
		if feed[0].Type != activity.ClaimReview {
			t.Fatalf("last event %s", feed[0].Type)
		}
		// The view of the order carries the invoice for both parties.
		full, _ := orders.Get(ctx, db, o)
		if full.ViewFor(w.Shop.ID).Invoice == nil || full.ViewFor(w.Farm.ID).Invoice.Number != inv.Number {
			t.Fatal("order view without invoice")
		}
	})
}

// TestAClaimAnsweredAfterTheInvoiceIsSettledByACreditNote: a claim sent
// on the last evening of the month is neither accepted nor billed by the
// run of the 1st at 06:00, which invoices every order on what was sent.
// When the shop accepts it, a credit note is issued at once, in the
// producer's credit series, referring to the invoice; when the shop does
// not answer, the system accepts it only claims.autovalidate-after after
// it was sent, and the credit note follows. A rejected claim settles
// nothing. (core/jobs goes through the jobs and the emails.)
func TestAClaimAnsweredAfterTheInvoiceIsSettledByACreditNote(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		shop2 := w.User(accounts.User{Type: accounts.Distributor, Email: "deux@magasin.fr", Name: "Deuxième magasin"})
		shop3 := w.User(accounts.User{Type: accounts.Distributor, Email: "trois@magasin.fr", Name: "Troisième magasin"})
		answered, unanswered, refused := w.Order(w.Farm, w.Shop, "2026-11-01"), w.Order(w.Farm, shop2, "2026-11-01"), w.Order(w.Farm, shop3, "2026-11-01")
		tomato := tradetest.L{Product: "tomate", Price: 250, Expected: 1000, Sent: tradetest.Dec(1000)}
		d1 := w.Delivery(answered, "2026-11-30", orders.Done, tomato)
		d2 := w.Delivery(unanswered, "2026-11-30", orders.Done, tomato)
		d3 := w.Delivery(refused, "2026-11-30", orders.Done, tomato)
		lastEvening := at(2026, 11, 30, 21, 30)
		claim(t, db, w, answered, d1, "tomate", -3, lastEvening)
		kind := "quantity"
		for _, c := range []struct {
			order, id string
			qty       float64
		}{{unanswered, d2, -4}, {refused, d3, -1}} {
			q := c.qty
			if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
				_, err := rules.SendClaim(ctx, tx, w.Farm.ID, c.order, c.id, delivery.Claim{Lines: []delivery.LineClaim{
					{ID: w.Line(c.id, "tomate"), QuantityClaimed: &q, ClaimType: &kind}}}, lastEvening)
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}

		// The 1st, 06:00: every order invoiced on the 10 kg sent, no claim
		// accepted, no credit note.
		if n := lockAndAccept(t, db, at(2026, 12, 1, 6, 0)); n != 0 {
			t.Fatalf("the 1st accepted %d claims sent the evening before", n)
		}
		issued, err := issueDue(db, at(2026, 12, 1, 6, 0))
		if err != nil || len(issued) != 3 {
			t.Fatalf("the 1st: %+v, %v", issued, err)
		}
		for _, inv := range issued {
			if inv.TotalHT != 2500 {
				t.Fatalf("invoice %s: %v HT", inv.Number, inv.TotalHT)
			}
		}
		if w.Get(d1).ClaimStatus != orders.ClaimSent || len(credits(t, db, answered)) != 0 {
			t.Fatal("the 1st: a claim sent the evening before was accepted or settled")
		}

		// The shop accepts the first claim: the credit note comes with
		// its answer (the daemon settles in the answer's transaction, as
		// review does here).
		review(t, db, w, answered, d1, true, at(2026, 12, 1, 10, 0))
		inv1, _ := billing.ForOrder(ctx, db, answered)
		cs := credits(t, db, answered)
		if len(cs) != 1 || cs[0].Number != "AV-2026-000001" || cs[0].TotalHT != 750 || cs[0].Refers.Number != inv1.Number ||
			cs[0].IssueDate != "2026-12-01" || cs[0].Kind != billing.KindCredit {
			t.Fatalf("credit note of the answered claim: %+v", cs)
		}
		// The third shop refuses its claim: nothing to settle.
		review(t, db, w, refused, d3, false, at(2026, 12, 1, 11, 0))
		if len(credits(t, db, refused)) != 0 {
			t.Fatal("a refused claim was settled")
		}

		// Unanswered: one minute before the delay nothing is accepted; at
		// the delay the system accepts it, and the next settlement issues
		// AV-2026-000002.
		if n, err := rules.Autovalidate(ctx, db, lastEvening.Add(rules.AutovalidateAfter-time.Minute)); err != nil || n != 0 {
			t.Fatalf("before the delay: %d, %v", n, err)
		}
		if n, err := rules.Autovalidate(ctx, db, lastEvening.Add(rules.AutovalidateAfter)); err != nil || n != 1 {
			t.Fatalf("at the delay: %d, %v", n, err)
		}
		settled, err := billing.SettleDue(ctx, db, lastEvening.Add(rules.AutovalidateAfter), paris)
		if err != nil || len(settled) != 1 || settled[0].Number != "AV-2026-000002" || settled[0].TotalHT != 1000 ||
			settled[0].IssueDate != "2026-12-02" || settled[0].OrderID != unanswered {
			t.Fatalf("settled %+v, %v", settled, err)
		}
	})
}

func TestIssuedInvoiceNeverChanges(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		w.Exec(`UPDATE users SET tvaintracom = '', vat_regime = 'franchise' WHERE id = ?`, w.Farm.ID)
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
			!slices.ContainsFunc(inv.Terms, func(t billing.Term) bool { return t.Text == billing.VATExemptMention }) {
			t.Fatalf("exempt invoice %+v", inv)
		}
	})
}

func TestWhatIsDue(t *testing.T) {
	t.Parallel()
	// A month is billed on its last day from 21:00, Paris time.
	for _, c := range []struct {
		now  time.Time
		want string
	}{
		{at(2026, 11, 30, 20, 59), "2026-11-01"},
		{at(2026, 11, 30, 21, 0), "2026-12-01"},
		{at(2026, 12, 1, 6, 0), "2026-12-01"},
		{at(2026, 11, 15, 23, 0), "2026-11-01"},
		{at(2027, 2, 28, 21, 0), "2027-03-01"},
		{at(2028, 2, 28, 22, 0), "2028-02-01"}, // a leap year: the 29th is the last day
		// 20:30 UTC on 31 December is 21:30 in Paris.
		{time.Date(2026, 12, 31, 20, 30, 0, 0, time.UTC), "2027-01-01"},
		{time.Date(2026, 12, 31, 19, 30, 0, 0, time.UTC), "2026-12-01"},
	} {
		if got := billing.BillableBefore(c.now, paris); got != c.want {
			t.Errorf("%s: %s, want %s", c.now.In(paris), got, c.want)
		}
	}
	// The due dates themselves: core/terms' TestDue.
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
	if err := store.Select(ctx, db, &rows, `SELECT producer_id, seq, number FROM documents WHERE kind = 'invoice' AND year = ? ORDER BY producer_id, seq`, year); err != nil {
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
	t.Parallel()
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
	t.Parallel()
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

// TestLegalMention: the legal form with its capital, once, and only for a
// form that has one.
func TestLegalMention(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ legal, capital, want string }{
		{"EARL", "15000", "EARL au capital de 15\u202f000\u00a0€"},
		{"SARL", "8000", "SARL au capital de 8\u202f000\u00a0€"},
		{"EARL au capital de 7 500 €, RCS Annecy", "7500", "EARL au capital de 7 500 €, RCS Annecy"},
		{"EI", "1000", "EI"},
		{"Micro-entreprise", "500", "Micro-entreprise"},
		{"EIRL Dupont", "2000", "EIRL Dupont"},
		{"GAEC", "", "GAEC"},
		{"GAEC", "0", "GAEC"},
		{"GAEC des Alpes", "30000", "GAEC des Alpes au capital de 30\u202f000\u00a0€"},
		{"SAS", "1 000 000", "SAS au capital de 1 000 000"},
		{"", "5000", ""}, // no form, no capital claimed
		{"Entreprise individuelle", "1000", "Entreprise individuelle"},
		{"EI - Jean Dupont", "1000", "EI - Jean Dupont"},
		{"Exploitant agricole", "1000", "Exploitant agricole"},
		{"Auto-entrepreneur", "1000", "Auto-entrepreneur"},
		{"Entrepreneur individuel (micro)", "1000", "Entrepreneur individuel (micro)"},
		{"Association loi 1901", "1000", "Association loi 1901"},
		{"S.A.R.L.", "7500", "S.A.R.L. au capital de 7\u202f500\u00a0€"},
		{"SCEA du Mont", "20000", "SCEA du Mont au capital de 20\u202f000\u00a0€"},
		{"Société par actions simplifiée", "1000", "Société par actions simplifiée au capital de 1\u202f000\u00a0€"},
		{"Exploitation agricole à responsabilité limitée", "7500", "Exploitation agricole à responsabilité limitée au capital de 7\u202f500\u00a0€"},
		{"", "", ""},
	} {
		if got := billing.LegalMention(billing.Party{Legal: c.legal, Capital: c.capital}); got != c.want {
			t.Errorf("%q + %q: %q, want %q", c.legal, c.capital, got, c.want)
		}
	}
}

// TestTermsOfOlderInvoices: invoices issued before terms had subjects
// stored plain strings; they read back as general notes.
func TestTermsOfOlderInvoices(t *testing.T) {
	t.Parallel()
	var ts []billing.Term
	if err := json.Unmarshal([]byte(`["Catégorie de l'opération : livraison de biens.",{"subject":"PMT","text":"40 €"}]`), &ts); err != nil {
		t.Fatal(err)
	}
	want := []billing.Term{{Subject: facturx.NoteGeneral, Text: "Catégorie de l'opération : livraison de biens."}, {Subject: "PMT", Text: "40 €"}}
	if !slices.Equal(ts, want) {
		t.Fatalf("%+v", ts)
	}
	if err := json.Unmarshal([]byte(`[42]`), &ts); err == nil {
		t.Fatal("a number read as a term")
	}
}

// TestProducerPaymentTerms: the producer's terms set the due date (within
// the law) and the mentions of its invoice, and its complementary
// invoices.
func TestProducerPaymentTerms(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		w.Exec(`UPDATE users SET payment_basis = 'month', payment_days = 5, payment_discount = 200, payment_discount_days = 10 WHERE id = ?`, w.Farm.ID)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		d := w.Delivery(o, "2026-11-23", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000, Sent: tradetest.Dec(800)})
		claim(t, db, w, o, d, "tomate", 1, at(2026, 11, 24, 9, 0))
		if _, err := issueDue(db, at(2026, 12, 1, 6, 0)); err != nil {
			t.Fatal(err)
		}
		inv, err := billing.ForOrder(ctx, db, o)
		if err != nil {
			t.Fatal(err)
		}
		pt := terms.Terms{Basis: terms.Month, Days: 5, Discount: 200, DiscountDays: 10}
		if inv.DueDate != "2026-12-05" ||
			!slices.Contains(inv.Terms, billing.Term{Subject: billing.SubjectPayment, Text: pt.Mention()}) ||
			!slices.Contains(inv.Terms, billing.Term{Subject: facturx.NoteDiscount, Text: terms.DiscountMention(200, "2026-12-05")}) ||
			inv.Discount != 200 || inv.DiscountUntil != "2026-12-05" {
			t.Fatalf("invoice due %s, terms %+v", inv.DueDate, inv.Terms)
		}
		review(t, db, w, o, d, true, at(2026, 12, 2, 9, 0))
		cs := credits(t, db, o)
		// Due as a delivery of its issue (2 December) would be: 5 January.
		if len(cs) != 1 || cs[0].Kind != billing.KindComplement || cs[0].DueDate != "2027-01-05" || cs[0].Discount != 0 {
			t.Fatalf("complementary invoice %+v", cs)
		}
	})
}
