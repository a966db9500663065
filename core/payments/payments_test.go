package payments_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/billing"
	"primeur/core/decimal"
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

// world: October and November invoices of Ferme des Aravis to Épicerie du
// Lac, the November one with a credit note; the October one due on 9
// November, the November one on 10 December.
type world struct {
	db       *store.DB
	w        *tradetest.World
	oct, nov billing.Invoice
	credit   billing.Invoice
}

func newWorld(t *testing.T, db *store.DB) world {
	w := tradetest.New(t, db)
	tomato := func(sent decimal.Dec) tradetest.L {
		return tradetest.L{Product: "tomate", Price: 250, Expected: 1000, Sent: tradetest.Dec(sent)}
	}
	oct := w.Order(w.Farm, w.Shop, "2026-10-01")
	w.Delivery(oct, "2026-10-08", orders.Done, tomato(1000)) // 25,00 € HT, 26,38 € TTC
	nov := w.Order(w.Farm, w.Shop, "2026-11-01")
	claimed := w.Delivery(nov, "2026-11-05", orders.Done, tomato(2000)) // 50,00 € HT, 52,75 € TTC
	w.Exec(`UPDATE delivery_lines SET quantity_claimed = -400, claim_type = 'quality' WHERE delivery_id = ?`, claimed)
	w.Exec(`UPDATE deliveries SET claim_status = 'accepted' WHERE id = ?`, claimed)
	out := world{db: db, w: w}
	for _, c := range []struct {
		order string
		when  time.Time
		inv   *billing.Invoice
	}{{oct, at(2026, 11, 1, 6, 0), &out.oct}, {nov, at(2026, 12, 1, 6, 0), &out.nov}} {
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			inv, err := billing.Issue(ctx, tx, c.order, c.when, paris)
			if inv != nil {
				*c.inv = *inv
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	cs, err := billing.Credits(ctx, db, nov, "", "")
	if err != nil || len(cs) != 1 {
		t.Fatalf("credit notes %v, %v", cs, err)
	}
	out.credit = cs[0] // 4 kg: 10,00 € HT, 10,55 € TTC
	if out.oct.TotalTTC != 2638 || out.nov.TotalTTC != 5275 || out.credit.TotalTTC != 1055 ||
		out.oct.DueDate != "2026-11-09" || out.nov.DueDate != "2026-12-10" {
		t.Fatalf("world: %v %v %v %s %s", out.oct.TotalTTC, out.nov.TotalTTC, out.credit.TotalTTC, out.oct.DueDate, out.nov.DueDate)
	}
	return out
}

func (w world) account(t *testing.T, producer bool, today string) payments.Account {
	t.Helper()
	p, d := w.w.Farm.ID, ""
	if !producer {
		p, d = "", w.w.Shop.ID
	}
	accs, err := payments.Accounts(ctx, w.db, p, d, today)
	if err != nil || len(accs) != 1 {
		t.Fatalf("accounts %+v, %v", accs, err)
	}
	return accs[0]
}

func (w world) tx(t *testing.T, fn func(tx *sqlx.Tx) error) error {
	t.Helper()
	return w.db.Tx(ctx, fn)
}

type docState struct {
	number  string
	balance decimal.Dec
	status  string
}

func states(a payments.Account) []docState {
	var out []docState
	for _, d := range a.Documents {
		out = append(out, docState{d.Number, d.Balance, d.Status})
	}
	return out
}

func equal(a, b []docState) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestBalancesWithPartialPaymentsCreditNotesAndUndo(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := newWorld(t, db)
		today := "2026-12-02"
		// Issued: October overdue, November open less its credit note.
		a := w.account(t, true, today)
		want := []docState{{"FA-2026-000001", 2638, payments.Overdue}, {"AV-2026-000001", 0, payments.Imputed},
			{"FA-2026-000002", 4220, payments.Open}}
		if !equal(states(a), want) || a.Owed != 6858 || a.Overdue != 2638 || a.NextDue != "2026-11-09" {
			t.Fatalf("issued: %+v owed %v overdue %v next %s", states(a), a.Owed, a.Overdue, a.NextDue)
		}

		// The producer records 30,00 € by transfer: the oldest due first.
		var p1 payments.Payment
		if err := w.tx(t, func(tx *sqlx.Tx) error {
			var err error
			p1, err = payments.Record(ctx, tx, w.w.Farm, payments.Input{PartnerID: w.w.Shop.ID, Amount: 3000, PaidOn: "2026-12-01",
				Method: payments.Transfer, Reference: "VIR 123"}, at(2026, 12, 2, 9, 0), today)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if len(p1.Allocations) != 2 || p1.Allocations[0].Amount != 2638 || p1.Allocations[1].Amount != 362 {
			t.Fatalf("allocations %+v", p1.Allocations)
		}
		a = w.account(t, false, today) // the shop's view agrees
		want = []docState{{"FA-2026-000001", 0, payments.Paid}, {"AV-2026-000001", 0, payments.Imputed},
			{"FA-2026-000002", 3858, payments.Partly}}
		if !equal(states(a), want) || a.Owed != 3858 || a.Overdue != 0 || a.NextDue != "2026-12-10" {
			t.Fatalf("after 30 €: %+v owed %v overdue %v", states(a), a.Owed, a.Overdue)
		}

		// The shop declares 50,00 € for November: nothing counts until the
		// producer confirms; then November is paid and 11,42 € are left on
		// account.
		var p2 payments.Payment
		if err := w.tx(t, func(tx *sqlx.Tx) error {
			var err error
			p2, err = payments.Declare(ctx, tx, w.w.Shop, payments.Input{PartnerID: w.w.Farm.ID, Amount: 5000, PaidOn: "2026-12-02",
				Method: payments.Cheque, Documents: []string{w.nov.ID}}, at(2026, 12, 2, 10, 0), today)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if a = w.account(t, true, today); a.Owed != 3858 || a.Declared != 5000 {
			t.Fatalf("declared: owed %v declared %v", a.Owed, a.Declared)
		}
		if err := w.tx(t, func(tx *sqlx.Tx) error {
			_, err := payments.Confirm(ctx, tx, w.w.Farm, p2.ID, true, at(2026, 12, 3, 8, 0), "2026-12-03")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		a = w.account(t, true, today)
		if a.Owed != -1142 || a.OnAccount != 1142 || a.Declared != 0 || a.Documents[2].Status != payments.Paid || a.Documents[2].Balance != 0 {
			t.Fatalf("confirmed: owed %v on account %v %+v", a.Owed, a.OnAccount, states(a))
		}

		// The first payment was a mistake: undone, October is overdue
		// again and November owes what the cheque did not cover; the
		// cheque's 11,42 € left over pay the oldest due, October, in part.
		if err := w.tx(t, func(tx *sqlx.Tx) error {
			_, err := payments.Undo(ctx, tx, w.w.Farm, p1.ID, at(2026, 12, 3, 9, 0))
			return err
		}); err != nil {
			t.Fatal(err)
		}
		a = w.account(t, true, today)
		want = []docState{{"FA-2026-000001", 2638 - 1142, payments.Overdue}, {"AV-2026-000001", 0, payments.Imputed},
			{"FA-2026-000002", 362, payments.Partly}}
		if !equal(states(a), want) || a.Owed != 2638+362-1142 || a.OnAccount != 0 || a.Overdue != 2638-1142 ||
			a.Documents[0].OnAccount != 1142 || len(a.Payments) != 2 {
			t.Fatalf("undone: %+v owed %v on account %v overdue %v", states(a), a.Owed, a.OnAccount, a.Overdue)
		}

		// A payment recorded now pays what is left, not what the credit
		// on account already paid: 14,96 € settle October, 3,62 € November.
		var p3 payments.Payment
		if err := w.tx(t, func(tx *sqlx.Tx) error {
			var err error
			p3, err = payments.Record(ctx, tx, w.w.Farm, payments.Input{PartnerID: w.w.Shop.ID, Amount: 1496 + 362, PaidOn: "2026-12-02",
				Method: payments.Transfer}, at(2026, 12, 3, 10, 0), today)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if len(p3.Allocations) != 2 || p3.Allocations[0].Amount != 1496 || p3.Allocations[1].Amount != 362 {
			t.Fatalf("allocations over the credit on account: %+v", p3.Allocations)
		}
		a = w.account(t, false, today)
		want = []docState{{"FA-2026-000001", 0, payments.Paid}, {"AV-2026-000001", 0, payments.Imputed},
			{"FA-2026-000002", 0, payments.Paid}}
		if !equal(states(a), want) || a.Owed != 0 || a.OnAccount != 0 {
			t.Fatalf("settled: %+v owed %v on account %v", states(a), a.Owed, a.OnAccount)
		}

		// The feed tells each side.
		feed, err := activity.Feed(ctx, db, w.w.Shop.ID, "", 10)
		if err != nil || feed[0].Type != activity.PaymentRecord || feed[1].Type != activity.PaymentUndo ||
			feed[2].Type != activity.PaymentConfirm || feed[3].Type != activity.PaymentDeclare || feed[4].Type != activity.PaymentRecord ||
			*feed[4].Data.Amount != 3000 || feed[4].Data.Date != "2026-12-01" {
			t.Fatalf("shop's feed %+v, %v", feed, err)
		}
	})
}

func TestRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := newWorld(t, db)
		today := "2026-12-02"
		stranger := w.w.User(accounts.User{Type: accounts.Distributor, Email: "autre@magasin.fr", Name: "Autre magasin"})
		ok := payments.Input{PartnerID: w.w.Shop.ID, Amount: 1000, PaidOn: "2026-12-01", Method: payments.Cash}
		for name, c := range map[string]struct {
			in    func(payments.Input) payments.Input
			field string
		}{
			"zero":         {func(i payments.Input) payments.Input { i.Amount = 0; return i }, "amount"},
			"too much":     {func(i payments.Input) payments.Input { i.Amount = 1_000_000_001; return i }, "amount"},
			"no date":      {func(i payments.Input) payments.Input { i.PaidOn = "hier"; return i }, "paidOn"},
			"tomorrow":     {func(i payments.Input) payments.Input { i.PaidOn = "2026-12-03"; return i }, "paidOn"},
			"method":       {func(i payments.Input) payments.Input { i.Method = "bitcoin"; return i }, "method"},
			"reference":    {func(i payments.Input) payments.Input { i.Reference = string(make([]byte, 141)); return i }, "reference"},
			"stranger":     {func(i payments.Input) payments.Input { i.PartnerID = stranger.ID; return i }, "partnerId"},
			"not its bill": {func(i payments.Input) payments.Input { i.Documents = []string{"nope"}; return i }, "documents"},
			"a credit":     {func(i payments.Input) payments.Input { i.Documents = []string{w.credit.ID}; return i }, "documents"},
		} {
			err := w.tx(t, func(tx *sqlx.Tx) error {
				_, err := payments.Record(ctx, tx, w.w.Farm, c.in(ok), at(2026, 12, 2, 9, 0), today)
				return err
			})
			var v *core.ValidationError
			if !errors.As(err, &v) || v.Fields[0].Field != c.field {
				t.Errorf("%s: %v, want a refusal of %s", name, err, c.field)
			}
		}
		var n int
		if err := store.Get(ctx, db, &n, `SELECT COUNT(*) FROM payments`); err != nil || n != 0 {
			t.Fatalf("%d payments after refusals (%v)", n, err)
		}
		// Only the producer confirms a declaration, once; only the author
		// undoes; nobody else sees the payment.
		var p payments.Payment
		if err := w.tx(t, func(tx *sqlx.Tx) error {
			var err error
			p, err = payments.Declare(ctx, tx, w.w.Shop, payments.Input{PartnerID: w.w.Farm.ID, Amount: 500, PaidOn: "2026-12-01",
				Method: payments.Transfer}, at(2026, 12, 2, 9, 0), today)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		for name, fn := range map[string]func(tx *sqlx.Tx) error{
			"shop confirms": func(tx *sqlx.Tx) error {
				_, err := payments.Confirm(ctx, tx, w.w.Shop, p.ID, true, at(2026, 12, 2, 10, 0), "2026-12-02")
				return err
			},
			"producer undoes a declaration": func(tx *sqlx.Tx) error {
				_, err := payments.Undo(ctx, tx, w.w.Farm, p.ID, at(2026, 12, 2, 10, 0))
				return err
			},
		} {
			if err := w.tx(t, fn); !errors.Is(err, core.ErrConflict) {
				t.Errorf("%s: %v", name, err)
			}
		}
		if err := w.tx(t, func(tx *sqlx.Tx) error {
			_, err := payments.Confirm(ctx, tx, stranger, p.ID, true, at(2026, 12, 2, 10, 0), "2026-12-02")
			return err
		}); !errors.Is(err, core.ErrNotFound) {
			t.Errorf("a stranger confirms: %v", err)
		}
		if err := w.tx(t, func(tx *sqlx.Tx) error {
			_, err := payments.Confirm(ctx, tx, w.w.Farm, p.ID, false, at(2026, 12, 2, 10, 0), "2026-12-02")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if err := w.tx(t, func(tx *sqlx.Tx) error {
			_, err := payments.Confirm(ctx, tx, w.w.Farm, p.ID, true, at(2026, 12, 2, 11, 0), "2026-12-02")
			return err
		}); !errors.Is(err, core.ErrConflict) {
			t.Errorf("confirmed after its refusal: %v", err)
		}
		if a := w.account(t, true, today); a.Owed != 6858 || a.Declared != 0 {
			t.Fatalf("a refused declaration counts: owed %v declared %v", a.Owed, a.Declared)
		}
	})
}

// TestTransferFile: the shop's file pays what is left of the invoices it
// names, one transfer per producer, and passes the EPC schema; a producer
// or a shop without a valid IBAN, or a document with nothing to pay, is
// refused in French.
func TestTransferFile(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := newWorld(t, db)
		other := w.w.User(accounts.User{Type: accounts.Producer, Email: "autre@ferme.fr", Name: "Ferme de l’Œuf", SIRET: "11122233300044",
			IBAN: "DE89370400440532013000", BIC: "COBADEFFXXX"})
		o := w.w.Order(other, w.w.Shop, "2026-11-01")
		w.w.Delivery(o, "2026-11-12", orders.Done, tradetest.L{Product: "tomate", Price: 333, Expected: 300})
		var third *billing.Invoice
		if err := w.tx(t, func(tx *sqlx.Tx) error {
			var err error
			third, err = billing.Issue(ctx, tx, o, at(2026, 12, 1, 6, 0), paris)
			return err
		}); err != nil || third == nil {
			t.Fatal(err)
		}
		w.w.Exec(`UPDATE users SET iban = 'FR7630006000011234567890189', bic = 'AGRIFRPP882' WHERE id = ?`, w.w.Shop.ID)
		shop, _ := accounts.ByID(ctx, db, w.w.Shop.ID)
		x, err := payments.TransferFile(ctx, db, shop, []string{w.oct.ID, w.nov.ID, third.ID, w.oct.ID}, at(2026, 12, 3, 9, 0), "2026-12-03")
		if err != nil {
			t.Fatal(err)
		}
		s := string(x)
		for _, want := range []string{"<NbOfTxs>2</NbOfTxs>", "<CtrlSum>" + cents(2638+4220+third.TotalTTC) + "</CtrlSum>",
			`<InstdAmt Ccy="EUR">68.58</InstdAmt>`, "<Ustrd>Factures FA-2026-000001 FA-2026-000002 (moins AV-2026-000001)</Ustrd>",
			"<Nm>Ferme de l&#39;OEuf</Nm>", "<IBAN>DE89370400440532013000</IBAN>", "<Dt>2026-12-04</Dt>"} {
			if !strings.Contains(s, want) {
				t.Errorf("no %s in\n%s", want, s)
			}
		}
		validateSEPA(t, x)

		for _, c := range []struct {
			name string
			docs []string
			prep func()
			msg  string
		}{
			{"nothing", nil, func() {}, payments.MsgTransferNone},
			{"a credit", []string{w.credit.ID}, func() {}, payments.MsgDocumentPay},
			{"not theirs", []string{"nope"}, func() {}, payments.MsgDocumentPay},
			{"no IBAN for the producer", []string{w.oct.ID}, func() {
				w.w.Exec(`UPDATE users SET iban = '' WHERE id = ?`, w.w.Farm.ID)
			}, "Ferme des Aravis n'a pas renseigné d'IBAN valide : son virement ne peut pas être préparé."},
			{"no IBAN for the shop", []string{third.ID}, func() {
				w.w.Exec(`UPDATE users SET iban = '' WHERE id = ?`, w.w.Shop.ID)
			}, payments.MsgShopIBAN},
		} {
			c.prep()
			shop, _ := accounts.ByID(ctx, db, w.w.Shop.ID)
			_, err := payments.TransferFile(ctx, db, shop, c.docs, at(2026, 12, 3, 9, 0), "2026-12-03")
			var v *core.ValidationError
			if !errors.As(err, &v) || v.Fields[0].Message != c.msg {
				t.Errorf("%s: %v, want %q", c.name, err, c.msg)
			}
		}
	})
}

func cents(d decimal.Dec) string { return fmt.Sprintf("%d.%02d", int64(d)/100, int64(d)%100) }

func validateSEPA(t *testing.T, x []byte) {
	t.Helper()
	if _, err := exec.LookPath("xmllint"); err != nil {
		t.Skip("xmllint is not installed (apt-get install libxml2-utils; .ci/run does)")
	}
	path := filepath.Join(t.TempDir(), "transfer.xml")
	if err := os.WriteFile(path, x, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("xmllint", "--noout", "--nonet", "--schema",
		filepath.Join("..", "..", "testdata", "sepa", "pain.001.001.09.xsd"), path).CombinedOutput(); err != nil {
		t.Fatalf("the EPC schema refuses the file: %v\n%s", err, out)
	}
}

func TestRemittance(t *testing.T) {
	plain := func(numbers ...string) []payments.RemittanceItem {
		out := make([]payments.RemittanceItem, len(numbers))
		for i, n := range numbers {
			out[i] = payments.RemittanceItem{Number: n}
		}
		return out
	}
	if got := payments.Remittance(plain("FA-2026-000001")); got != "Facture FA-2026-000001" {
		t.Error(got)
	}
	var many []string
	for i := range 30 {
		many = append(many, fmt.Sprintf("FA-2026-%06d", i+1))
	}
	got := payments.Remittance(plain(many...))
	if len(got) > 140 || !strings.HasSuffix(got, " et 23 autres") || !strings.HasPrefix(got, "Factures FA-2026-000001 FA-2026-000002") {
		t.Fatalf("%d characters: %q", len(got), got)
	}
	// Eight numbers fit in 140 characters, nine do not.
	if got := payments.Remittance(plain(many[:8]...)); len(got) > 140 || strings.Contains(got, "autre") {
		t.Fatalf("eight fit: %d %q", len(got), got)
	}
	if got := payments.Remittance(plain(many[:9]...)); len(got) > 140 || !strings.HasSuffix(got, " et 1 autre") {
		t.Fatalf("nine: %d %q", len(got), got)
	}
	// The credit notes netted and what is paid of an invoice paid in
	// part; counted when named they do not fit; numbers alone when even
	// counted they do not.
	credited := func(n int, credits ...string) payments.RemittanceItem {
		return payments.RemittanceItem{Number: many[n], Credits: credits}
	}
	for _, c := range []struct {
		items []payments.RemittanceItem
		want  string
	}{
		{[]payments.RemittanceItem{{Number: many[0], Rest: 123456}, credited(1, "AV-2026-000001"),
			credited(2, "AV-2026-000002", "AV-2026-000003")},
			"Factures FA-2026-000001 (solde 1234,56) FA-2026-000002 (moins AV-2026-000001) " +
				"FA-2026-000003 (moins AV-2026-000002 AV-2026-000003)"},
		{[]payments.RemittanceItem{{Number: many[0], Credits: []string{"AV-2026-000001"}, Rest: 5}},
			"Facture FA-2026-000001 (moins AV-2026-000001, solde 0,05)"},
		{[]payments.RemittanceItem{credited(0, "AV-2026-000001", "AV-2026-000002"), credited(1, "AV-2026-000003", "AV-2026-000004"),
			credited(2, "AV-2026-000005", "AV-2026-000006"), credited(3, "AV-2026-000007")},
			"Factures FA-2026-000001 (moins 2 avoirs) FA-2026-000002 (moins 2 avoirs) FA-2026-000003 (moins 2 avoirs) " +
				"FA-2026-000004 (moins 1 avoir)"},
		{[]payments.RemittanceItem{credited(0, "AV-2026-000001", "AV-2026-000002"), credited(1, "AV-2026-000003", "AV-2026-000004"),
			credited(2, "AV-2026-000005", "AV-2026-000006"), credited(3, "AV-2026-000007"), credited(4, "AV-2026-000008")},
			"Factures FA-2026-000001 FA-2026-000002 FA-2026-000003 FA-2026-000004 FA-2026-000005"},
	} {
		if got := payments.Remittance(c.items); got != c.want || len(got) > 140 {
			t.Errorf("%d characters: %q, want %q", len(got), got, c.want)
		}
	}
}

// TestExecutionDate: a transfer file asks for the next TARGET2 business
// day.
func TestExecutionDate(t *testing.T) {
	for today, want := range map[string]string{
		"2026-12-03": "2026-12-04", // Thursday: Friday
		"2026-12-04": "2026-12-07", // Friday: Monday
		"2026-11-28": "2026-11-30", // Saturday: Monday
		"2026-12-24": "2026-12-28", // Christmas on Friday, the weekend
		"2025-12-24": "2025-12-29", // 25 and 26 December, the weekend
		"2027-03-25": "2027-03-30", // Good Friday, Easter Monday
		"2026-04-30": "2026-05-04", // 1 May on Friday
		"2026-05-07": "2026-05-08", // 8 May: a French holiday, TARGET2 open
	} {
		if got := payments.ExecutionDate(today); got != want {
			t.Errorf("prepared on %s: executed on %s, want %s", today, got, want)
		}
	}
}

// TestTransferRemittance: the file names the credit note netted from an
// invoice and what it pays of one paid in part, and, prepared on Christmas
// Eve, asks for Monday 28 December; it passes the EPC schema.
func TestTransferRemittance(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := newWorld(t, db)
		w.w.Exec(`UPDATE users SET iban = 'FR7630006000011234567890189' WHERE id = ?`, w.w.Shop.ID)
		if err := w.tx(t, func(tx *sqlx.Tx) error {
			_, err := payments.Record(ctx, tx, w.w.Farm, payments.Input{PartnerID: w.w.Shop.ID, Amount: 1000, PaidOn: "2026-12-20",
				Method: payments.Cheque}, at(2026, 12, 20, 9, 0), "2026-12-20")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		shop, _ := accounts.ByID(ctx, db, w.w.Shop.ID)
		x, err := payments.TransferFile(ctx, db, shop, []string{w.oct.ID, w.nov.ID}, at(2026, 12, 24, 9, 0), "2026-12-24")
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"<Dt>2026-12-28</Dt>", `<InstdAmt Ccy="EUR">58.58</InstdAmt>`,
			"<Ustrd>Factures FA-2026-000001 (solde 16,38) FA-2026-000002 (moins AV-2026-000001)</Ustrd>"} {
			if !strings.Contains(string(x), want) {
				t.Errorf("no %s in\n%s", want, x)
			}
		}
		validateSEPA(t, x)
		f, err := payments.PlanTransfer(ctx, db, shop, []string{w.nov.ID}, at(2026, 12, 24, 9, 0), "2026-12-24")
		if err != nil || f.Execution != "2026-12-28" || len(f.Transfers) != 1 || f.Transfers[0].Amount != 4220 || f.Producers[0] != w.w.Farm.ID ||
			f.Transfers[0].Remittance != "Facture FA-2026-000002 (moins AV-2026-000001)" {
			t.Fatalf("plan %+v, %v", f, err)
		}
	})
}
