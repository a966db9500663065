package accounting_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounting"
	"primeur/core/accounting/fectest"
	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/documents"
	"primeur/core/orders"
	"primeur/core/payments"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

var (
	ctx   = context.Background()
	at    = tradetest.At
	paris = tradetest.Paris
)

// books is an export read back: its files by name.
type books map[string][]byte

func export(t *testing.T, db *store.DB, side accounting.Side, userID, month string) (books, accounting.Summary) {
	t.Helper()
	m, ok := calendar.ParseMonth(month)
	if !ok {
		t.Fatalf("month %q", month)
	}
	out := books{}
	s, err := accounting.Export(ctx, db, side, userID, m, paris, func(name string, data []byte) error {
		if _, ok := out[name]; ok {
			t.Fatalf("%s written twice", name)
		}
		out[name] = data
		return nil
	})
	if err != nil {
		t.Fatalf("export %s of %s: %v", side, month, err)
	}
	return out, s
}

// fec reads back the export's one FEC (in dir, "" or "folder/"), checked
// by fectest.Parse.
func (b books) fec(t *testing.T, dir, month string) []fectest.Line {
	t.Helper()
	m, _ := calendar.ParseMonth(month)
	var found []fectest.Line
	n := 0
	for name, data := range b {
		if strings.HasPrefix(name, dir) && strings.HasSuffix(name, ".txt") && !strings.Contains(name[len(dir):], "/") {
			found = fectest.Parse(t, name[len(dir):], data, m)
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d FEC in %q of %s: %v", n, dir, month, b.names())
	}
	return found
}

func (b books) names() []string {
	var out []string
	for n := range b {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// entry is what a FEC says of a piece: its lines as "account aux D|C
// amount", and its line on the partner's account (journal, dates,
// lettering).
func entry(lines []fectest.Line, piece string) (summary string, l fectest.Line) {
	var parts []string
	for _, line := range lines {
		if line["PieceRef"] != piece {
			continue
		}
		if line["Debit"] != "0,00" {
			parts = append(parts, line["CompteNum"]+" "+line["CompAuxNum"]+" D "+line["Debit"])
		} else {
			parts = append(parts, line["CompteNum"]+" "+line["CompAuxNum"]+" C "+line["Credit"])
		}
		if line["CompAuxNum"] != "" {
			l = line // the partner's line, which carries the lettering
		}
	}
	return strings.Join(parts, "; "), l
}

func monthOf(date string) string { return date[:7] }

// TestExportThroughOperations: a producer's and a shop's books of
// October to December, made by the real operations — invoices issued by
// the invoice run, a claim answered after the invoice and settled by a
// credit note, a complementary invoice, payments recorded, declared and
// confirmed, undone, refused, in cash — exported month by month: every FEC
// parses and balances, each document is in the month of its own date of
// issue (the credit note of December for the invoice of November is in
// December's file, not November's), each payment in the month it was paid,
// undone and refused payments nowhere, the lettering balances across the
// months, the documents' PDFs beside the FEC, the accounts the producer set
// used.
func TestExportThroughOperations(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		mont := w.User(accounts.User{Type: accounts.Producer, Email: "mont@ferme.fr", Name: "Ferme du Mont", Legal: "EI",
			SIRET: "73282932000074", APE: "0113Z", AddressLine1: "1 chemin du Mont", AddressLine2: "73000 Chambéry",
			DeliveryDays: "1111111", IBAN: "FR7630006000011234567890189", BIC: "AGRIFRPP882"})
		tx := func(fn func(tx *sqlx.Tx) error) {
			t.Helper()
			if err := db.Tx(ctx, fn); err != nil {
				t.Fatal(err)
			}
		}
		done := tradetest.Outcome{Status: orders.Done}
		claim := func(date string, product string, q decimal.Dec, status string) tradetest.Outcome {
			lock := w.Rules.LockTime(date)
			c := &tradetest.ClaimOutcome{Lines: map[string]tradetest.ClaimedLine{product: {Quantity: q, Type: orders.ClaimQuantity}},
				SentAt: lock.Add(3 * time.Hour), Status: status}
			if status == orders.ClaimAccepted {
				c.ReviewedAt = lock.Add(20 * time.Hour)
			}
			return tradetest.Outcome{Status: orders.Done, Claim: c}
		}

		// October: 10 kg of tomatoes at 2.50 and 20 kg of carrots at 1.00,
		// 5 kg of which the producer claims down; the shop answers after
		// the invoice.
		oct := w.Order(w.Farm, w.Shop, "2026-10-01")
		w.Played(oct, "2026-10-08", done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		claimed := w.Played(oct, "2026-10-28", claim("2026-10-28", "carotte", -500, orders.ClaimSent),
			tradetest.L{Product: "carotte", Price: 100, Expected: 2000})
		var fa1 billing.Invoice
		tx(func(tx *sqlx.Tx) error {
			inv, err := billing.Issue(ctx, tx, oct, at(2026, 11, 1, 6, 0), paris)
			if inv != nil {
				fa1 = *inv
			}
			return err
		})
		if fa1.TotalHT != 4500 || fa1.TotalVAT != 248 || fa1.TotalTTC != 4748 {
			t.Fatalf("October's invoice: %+v", fa1)
		}
		// November: the shop declares 30 € for it, which the producer
		// confirms two days later; a payment recorded and undone; a
		// declaration refused.
		var p1, undone, refused payments.Payment
		tx(func(tx *sqlx.Tx) error {
			var err error
			if p1, err = payments.Declare(ctx, tx, w.Shop, payments.Input{PartnerID: w.Farm.ID, Amount: 3000, PaidOn: "2026-11-20",
				Method: payments.Transfer, Reference: "VIR LAC 20/11", Documents: []string{fa1.ID}}, at(2026, 11, 20, 10, 0), "2026-11-20"); err != nil {
				return err
			}
			_, err = payments.Confirm(ctx, tx, w.Farm, p1.ID, true, at(2026, 11, 22, 9, 0), "2026-11-22")
			return err
		})
		tx(func(tx *sqlx.Tx) error {
			var err error
			if undone, err = payments.Record(ctx, tx, w.Farm, payments.Input{PartnerID: w.Shop.ID, Amount: 500, PaidOn: "2026-11-25",
				Method: payments.Cheque}, at(2026, 11, 25, 9, 0), "2026-11-25"); err != nil {
				return err
			}
			if _, err = payments.Undo(ctx, tx, w.Farm, undone.ID, at(2026, 11, 26, 9, 0)); err != nil {
				return err
			}
			if refused, err = payments.Declare(ctx, tx, w.Shop, payments.Input{PartnerID: w.Farm.ID, Amount: 700, PaidOn: "2026-11-26",
				Method: payments.Transfer}, at(2026, 11, 26, 10, 0), "2026-11-26"); err != nil {
				return err
			}
			_, err = payments.Confirm(ctx, tx, w.Farm, refused.ID, false, at(2026, 11, 27, 9, 0), "2026-11-27")
			return err
		})

		// November's deliveries, invoiced on the 1st: 4 kg of tomatoes;
		// 10 kg of carrots ordered, 8 sent, 2 claimed up and accepted (a
		// complementary invoice); the other farm's 10 kg of apples, without
		// VAT.
		nov := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Played(nov, "2026-11-05", done, tradetest.L{Product: "tomate", Price: 250, Expected: 400})
		up := claim("2026-11-18", "carotte", 200, orders.ClaimAccepted)
		up.Sent = map[string]decimal.Dec{"carotte": 800}
		w.Played(nov, "2026-11-18", up, tradetest.L{Product: "carotte", Price: 100, Expected: 1000})
		montNov := w.Order(mont, w.Shop, "2026-11-01")
		w.Played(montNov, "2026-11-12", done, tradetest.L{Product: "pomme", Price: 200, Expected: 1000})
		var fa2, montFA billing.Invoice
		tx(func(tx *sqlx.Tx) error {
			for _, o := range []struct {
				id  string
				inv *billing.Invoice
			}{{nov, &fa2}, {montNov, &montFA}} {
				inv, err := billing.Issue(ctx, tx, o.id, at(2026, 12, 1, 6, 0), paris)
				if err != nil {
					return err
				}
				*o.inv = *inv
			}
			return nil
		})
		cs, err := billing.Credits(ctx, db, nov, "", "")
		if err != nil || len(cs) != 1 || cs[0].Kind != billing.KindComplement {
			t.Fatalf("complementary invoice: %+v, %v", cs, err)
		}
		fa3 := cs[0]
		if fa2.Number != "FA-2026-000002" || fa2.TotalTTC != 1899 || fa3.TotalTTC != 211 {
			t.Fatalf("November's invoices: %s %v, %s %v", fa2.Number, fa2.TotalTTC, fa3.Number, fa3.TotalTTC)
		}
		if !montFA.VATExempt || montFA.TotalVAT != 0 || montFA.TotalTTC != 2000 {
			t.Fatalf("the other farm's invoice: %+v", montFA)
		}

		// December: the shop accepts October's claim (a credit note of 5 kg
		// of carrots, dated the day of the answer); the producer records the
		// rest of October's invoice by transfer, and November's in cash.
		var av1 billing.Invoice
		tx(func(tx *sqlx.Tx) error {
			now := at(2026, 12, 3, 9, 0)
			if _, err := w.Rules.Review(ctx, tx, w.Shop.ID, oct, claimed, true, now); err != nil {
				return err
			}
			docs, err := billing.SettleOrder(ctx, tx, oct, now, paris)
			if len(docs) == 1 {
				av1 = docs[0]
			}
			return err
		})
		if av1.Kind != billing.KindCredit || av1.TotalTTC != 528 || av1.Refers == nil || av1.Refers.Number != fa1.Number {
			t.Fatalf("the credit note: %+v", av1)
		}
		var p2, cash payments.Payment
		tx(func(tx *sqlx.Tx) error {
			var err error
			if p2, err = payments.Record(ctx, tx, w.Farm, payments.Input{PartnerID: w.Shop.ID, Amount: fa1.TotalTTC - av1.TotalTTC - 3000,
				PaidOn: "2026-12-10", Method: payments.Transfer, Documents: []string{fa1.ID}}, at(2026, 12, 10, 18, 0), "2026-12-10"); err != nil {
				return err
			}
			cash, err = payments.Record(ctx, tx, w.Farm, payments.Input{PartnerID: w.Shop.ID, Amount: fa2.TotalTTC, PaidOn: "2026-12-15",
				Method: payments.Cash, Documents: []string{fa2.ID}}, at(2026, 12, 15, 18, 0), "2026-12-15")
			return err
		})

		// The producer's books, month by month.
		months, err := accounting.Months(ctx, db, accounting.Seller, w.Farm.ID)
		if err != nil || !slices.IsSortedFunc(months, func(a, b string) int { return strings.Compare(b, a) }) ||
			!slices.Contains(months, monthOf(fa1.IssueDate)) || !slices.Contains(months, "2026-12") || !slices.Contains(months, "2026-11") {
			t.Fatalf("months %v, %v", months, err)
		}
		if monthOf(fa1.IssueDate) == monthOf(av1.IssueDate) || monthOf(av1.IssueDate) != "2026-12" {
			t.Fatalf("invoice of %s, credit note of %s: not the case this test is about", fa1.IssueDate, av1.IssueDate)
		}
		docs := map[string]billing.Invoice{fa1.Number: fa1, av1.Number: av1, fa2.Number: fa2, fa3.Number: fa3}
		var all []fectest.Line
		byMonth := map[string][]fectest.Line{}
		shopSIREN, farmSIREN := w.Shop.SIRET[:9], w.Farm.SIRET[:9]
		for _, month := range months {
			b, s := export(t, db, accounting.Seller, w.Farm.ID, month)
			lines := b.fec(t, "", month)
			byMonth[month] = lines
			all = append(all, lines...)
			if s.Entries == 0 || s.Files != len(b) {
				t.Fatalf("%s: %+v, %v", month, s, b.names())
			}
			// Each document of the month, and only those, with its PDF.
			register := string(b["journal-ventes-"+month+".csv"])
			for number, d := range docs {
				_, line := entry(lines, number)
				in := monthOf(d.IssueDate) == month
				_, pdf := b[documents.InvoiceFileName(number)]
				if (line != nil) != in || pdf != in || strings.Contains(register, "\n"+d.IssueDate+";"+number+";") != in {
					t.Fatalf("%s (issued %s) in %s's FEC: %v, PDF: %v, register: %v", number, d.IssueDate, month, line != nil, pdf, register)
				}
				if in && (line["EcritureDate"] != strings.ReplaceAll(d.IssueDate, "-", "") || line["JournalCode"] != "VT") {
					t.Fatalf("%s: %v", number, line)
				}
			}
			// Each recorded payment in the month it was paid; the undone and
			// refused ones nowhere.
			for _, p := range []payments.Payment{p1, p2, cash} {
				if _, line := entry(lines, p.ID); (line != nil) != (monthOf(p.PaidOn) == month) {
					t.Fatalf("payment of %s in %s: %v", p.PaidOn, month, line)
				}
			}
			for _, p := range []payments.Payment{undone, refused} {
				if _, line := entry(lines, p.ID); line != nil {
					t.Fatalf("a payment %s in the books: %v", p.Status, line)
				}
			}
			// Exported again, the same file.
			again, _ := export(t, db, accounting.Seller, w.Farm.ID, month)
			for name, data := range b {
				if strings.HasSuffix(name, ".txt") && string(again[name]) != string(data) {
					t.Fatalf("%s changed when exported again", name)
				}
			}
		}
		if n := fectest.Lettered(t, all); n != 2 {
			t.Fatalf("%d lettering codes, want October's and November's invoices", n)
		}

		// By hand: October's invoice, settled by the credit note and the two
		// payments on 10 December; the credit note; the payments.
		for _, tt := range []struct {
			piece, month, want, journal, valid, let string
		}{
			{fa1.Number, monthOf(fa1.IssueDate), "411 " + shopSIREN + " D 47,48; 701  C 45,00; 44571  C 2,48", "VT",
				strings.ReplaceAll(fa1.IssueDate, "-", ""), "FA2026000001"},
			{av1.Number, "2026-12", "411 " + shopSIREN + " C 5,28; 701  D 5,00; 44571  D 0,28", "VT", "20261203", "FA2026000001"},
			{p1.ID, "2026-11", "512  D 30,00; 411 " + shopSIREN + " C 30,00", "BQ", "20261122", "FA2026000001"},
			{p2.ID, "2026-12", "512  D 12,20; 411 " + shopSIREN + " C 12,20", "BQ", "20261210", "FA2026000001"},
			{cash.ID, "2026-12", "530  D 18,99; 411 " + shopSIREN + " C 18,99", "CA", "20261215", "FA2026000002"},
			{fa3.Number, monthOf(fa3.IssueDate), "411 " + shopSIREN + " D 2,11; 701  C 2,00; 44571  C 0,11", "VT",
				strings.ReplaceAll(fa3.IssueDate, "-", ""), ""},
		} {
			got, line := entry(byMonth[tt.month], tt.piece)
			if got != tt.want || line["JournalCode"] != tt.journal || line["ValidDate"] != tt.valid || line["EcritureLet"] != tt.let ||
				line["CompAuxLib"] != w.Shop.Name {
				t.Errorf("%s in %s: %s %v\nwant %s %s validated %s lettered %q", tt.piece, tt.month, got, line, tt.want, tt.journal, tt.valid, tt.let)
			}
			if tt.let == "FA2026000001" && line["DateLet"] != "20261210" {
				t.Errorf("%s lettered on %s", tt.piece, line["DateLet"])
			}
		}

		// The shop's books of December: its purchases from both farms, the
		// credit note, its payments; each farm's documents in its folder.
		b, _ := export(t, db, accounting.Buyer, w.Shop.ID, "2026-12")
		lines := b.fec(t, "", "2026-12")
		wantShop := map[string]string{
			av1.Number: "401 " + farmSIREN + " D 5,28; 607  C 5,00; 44566  C 0,28",
			p2.ID:      "401 " + farmSIREN + " D 12,20; 512  C 12,20",
		}
		if monthOf(montFA.IssueDate) == "2026-12" {
			wantShop[montFA.Number] = "401 732829320 C 20,00; 607  D 20,00"
			if _, ok := b[accounting.Folder(montFA.Seller)+"/"+documents.InvoiceFileName(montFA.Number)]; !ok {
				t.Fatalf("the other farm's invoice in the shop's export: %v", b.names())
			}
		}
		for piece, want := range wantShop {
			if got, line := entry(lines, piece); got != want || (piece != p2.ID && line["JournalCode"] != "AC") {
				t.Errorf("the shop's %s: %s\nwant %s", piece, got, want)
			}
		}
		if _, ok := b[accounting.Folder(av1.Seller)+"/"+documents.InvoiceFileName(av1.Number)]; !ok {
			t.Fatalf("the credit note in the shop's export: %v", b.names())
		}
		if _, ok := b["journal-achats-2026-12.csv"]; !ok {
			t.Fatalf("the shop's register: %v", b.names())
		}

		// Every producer's books of the other farm's month: a folder each.
		every, _ := export(t, db, accounting.Seller, "", monthOf(montFA.IssueDate))
		for _, party := range []billing.Party{fa2.Seller, montFA.Seller} {
			b := books{}
			for name, data := range every {
				if rest, ok := strings.CutPrefix(name, accounting.Folder(party)+"/"); ok {
					b[rest] = data
				}
			}
			if len(b) == 0 {
				t.Fatalf("no folder for %s: %v", party.Name, every.names())
			}
			b.fec(t, "", monthOf(montFA.IssueDate))
		}

		// The accounts the producer sets; the shop's books keep theirs.
		tx(func(tx *sqlx.Tx) error {
			_, err := accounting.SaveLedger(ctx, tx, w.Farm.ID, map[string]string{accounting.Customers: "4110000", accounting.Sales: "7011",
				accounting.Cash: "531"})
			return err
		})
		b, _ = export(t, db, accounting.Seller, w.Farm.ID, "2026-12")
		if got, _ := entry(b.fec(t, "", "2026-12"), av1.Number); got != "4110000 "+shopSIREN+" C 5,28; 7011  D 5,00; 44571  D 0,28" {
			t.Fatalf("with the producer's accounts: %s", got)
		}
		if got, _ := entry(b.fec(t, "", "2026-12"), cash.ID); !strings.HasPrefix(got, "531  D ") {
			t.Fatalf("cash with the producer's accounts: %s", got)
		}
		b, _ = export(t, db, accounting.Buyer, w.Shop.ID, "2026-12")
		if got, _ := entry(b.fec(t, "", "2026-12"), av1.Number); got != wantShop[av1.Number] {
			t.Fatalf("the shop's books with the producer's accounts set: %s", got)
		}

		// A month without anything: no file.
		if b, s := export(t, db, accounting.Seller, w.Farm.ID, "2026-09"); len(b) != 0 || s.Files != 0 {
			t.Fatalf("September: %v", b.names())
		}
	})
}

// TestLedger: the accounts a user sets are stored when they differ from
// the defaults, read back over them; a refusal changes nothing.
func TestLedger(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		save := func(sent map[string]string) error {
			return db.Tx(ctx, func(tx *sqlx.Tx) error {
				_, err := accounting.SaveLedger(ctx, tx, w.Farm.ID, sent)
				return err
			})
		}
		if err := save(map[string]string{accounting.Sales: "7011", accounting.Customers: "411", accounting.Bank: " 5121 "}); err != nil {
			t.Fatal(err)
		}
		l, err := accounting.LoadLedger(ctx, db, w.Farm.ID)
		if err != nil || l.Number(accounting.Sales) != "7011" || l.Number(accounting.Bank) != "5121" || l.Number(accounting.Customers) != "411" {
			t.Fatalf("ledger %v, %v", l, err)
		}
		if got := storetest.Snapshot(t, db, "ledger_accounts"); strings.Count(got, "\n") != 3 {
			t.Fatalf("rows for the defaults:\n%s", got)
		}
		before := storetest.Snapshot(t, db)
		if err := save(map[string]string{accounting.Sales: "601"}); err == nil {
			t.Fatal("601 as sales accepted")
		}
		if after := storetest.Snapshot(t, db); after != before {
			t.Fatalf("a refusal changed:\n%s", storetest.Changes(before, after))
		}
		if err := save(nil); err != nil {
			t.Fatal(err)
		}
		if l, _ := accounting.LoadLedger(ctx, db, w.Farm.ID); l.Number(accounting.Sales) != "701" {
			t.Fatalf("back to the defaults: %v", l)
		}
		if l, _ := accounting.LoadLedger(ctx, db, w.Shop.ID); l.Number(accounting.Purchases) != "607" {
			t.Fatalf("another user's: %v", l)
		}
	})
}

// TestExportEscompte: a payment within the escompte's window that deducts
// it earns a discount credit note (payments.Record, billing.IssueDiscount):
// in the producer's books of its month it debits discounts given 665 and
// the VAT collected and credits the shop, in the shop's it credits
// discounts received 765 and the VAT deductible; with the payment it
// settles November's invoice, lettered across the two months.
func TestExportEscompte(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		// 2 % for a payment within 10 days of the issue.
		w.Exec(`UPDATE users SET payment_discount = 200, payment_discount_days = 10 WHERE id = ?`, w.Farm.ID)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Played(o, "2026-11-05", tradetest.Outcome{Status: orders.Done}, tradetest.L{Product: "tomate", Price: 250, Expected: 4000})
		var inv billing.Invoice
		var pay payments.Payment
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			i, err := billing.Issue(ctx, tx, o, at(2026, 11, 30, 21, 0), paris)
			if i != nil {
				inv = *i
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if inv.TotalTTC != 10550 || inv.IssueDate != "2026-11-30" {
			t.Fatalf("invoice %+v", inv)
		}
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			var err error
			pay, err = payments.Record(ctx, tx, w.Farm, payments.Input{PartnerID: w.Shop.ID, Amount: 10550 - 211, PaidOn: "2026-12-05",
				Method: payments.Transfer, Documents: []string{inv.ID}}, at(2026, 12, 5, 9, 0), "2026-12-05")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		cs, err := billing.Credits(ctx, db, o, "", "")
		if err != nil || len(cs) != 1 || cs[0].Kind != billing.KindDiscount || cs[0].TotalTTC != 211 {
			t.Fatalf("the escompte's credit note: %+v, %v", cs, err)
		}
		disc := cs[0]

		nov, _ := export(t, db, accounting.Seller, w.Farm.ID, "2026-11")
		dec, _ := export(t, db, accounting.Seller, w.Farm.ID, "2026-12")
		novLines, decLines := nov.fec(t, "", "2026-11"), dec.fec(t, "", "2026-12")
		shopSIREN, farmSIREN := w.Shop.SIRET[:9], w.Farm.SIRET[:9]
		for _, tt := range []struct {
			lines       []fectest.Line
			piece, want string
		}{
			{novLines, inv.Number, "411 " + shopSIREN + " D 105,50; 701  C 100,00; 44571  C 5,50"},
			{decLines, disc.Number, "411 " + shopSIREN + " C 2,11; 665  D 2,00; 44571  D 0,11"},
			{decLines, pay.ID, "512  D 103,39; 411 " + shopSIREN + " C 103,39"},
		} {
			got, line := entry(tt.lines, tt.piece)
			if got != tt.want || line["EcritureLet"] != strings.ReplaceAll(inv.Number, "-", "") || line["DateLet"] != "20261205" {
				t.Errorf("%s: %s %v\nwant %s", tt.piece, got, line, tt.want)
			}
		}
		if _, line := entry(decLines, disc.Number); !strings.HasPrefix(line["EcritureLib"], "Avoir d'escompte "+disc.Number+" (facture "+inv.Number+")") {
			t.Errorf("label %q", line["EcritureLib"])
		}
		if fectest.Lettered(t, append(novLines, decLines...)) != 1 {
			t.Fatal("the invoice, its escompte and its payment not lettered together")
		}
		if !strings.Contains(string(dec["journal-ventes-2026-12.csv"]), ";"+disc.Number+";avoir d'escompte;"+inv.Number+";") {
			t.Fatalf("register:\n%s", dec["journal-ventes-2026-12.csv"])
		}

		shop, _ := export(t, db, accounting.Buyer, w.Shop.ID, "2026-12")
		if got, _ := entry(shop.fec(t, "", "2026-12"), disc.Number); got != "401 "+farmSIREN+" D 2,11; 765  C 2,00; 44566  C 0,11" {
			t.Errorf("the shop's escompte: %s", got)
		}
	})
}
