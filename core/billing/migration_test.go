package billing_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounting"
	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/payments"
	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// v39 is the fixture of TestDocumentsMigration, made by the code of
// schema version 39 (testdata/v39/generate.go.txt, run at commit edfa0b8):
// the demo world played on to 21 December 2026 through the real
// operations and jobs — November's invoices (their first sends failed
// once), a claim's credit note and complementary invoice issued with an
// invoice, the demo's claims settled, a payment within the escompte's
// window and its escompte credit note (unsent, one attempt), a payment in
// part, reminders — every table's rows (world.json), every document as
// billing read it then (documents.json), the accounts of every pair
// (accounts.json) and the books of every month on both sides (books/: the
// FEC and registers as written; files.json: the hash of each PDF and XML).
const v39 = "testdata/v39"

// fixtureTable is a table of world.json.
type fixtureTable struct {
	Name    string           `json:"name"`
	Columns []string         `json:"columns"`
	Types   []string         `json:"types"`
	Rows    [][]any          `json:"rows"`
	index   map[string]int   // column → position
	byID    map[string][]any // rows by their first column
}

func loadFixture(t *testing.T) map[string]*fixtureTable {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(v39, "world.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tables []*fixtureTable
	if err := dec.Decode(&tables); err != nil {
		t.Fatal(err)
	}
	out := map[string]*fixtureTable{}
	for i, tb := range tables {
		tb.index, tb.byID = map[string]int{}, map[string][]any{}
		for j, c := range tb.Columns {
			tb.index[c] = j
		}
		for _, r := range tb.Rows {
			for j, v := range r {
				if n, ok := v.(json.Number); ok {
					if r[j], err = n.Int64(); err != nil {
						t.Fatalf("%s.%s: %v", tb.Name, tb.Columns[j], err)
					}
				}
			}
			if s, ok := r[0].(string); ok {
				tb.byID[s] = r
			}
		}
		out[tb.Name] = tb
		tb.Name = fmt.Sprintf("%03d %s", i, tb.Name) // the order of creation, for the load
	}
	return out
}

// TestDocumentsMigration: migration 40 moves invoices and credit_notes,
// with their lines, into documents and document_lines, on a database made
// by the code of version 39 — every row's every field kept, each document
// read by billing as it was read then, the numbering (counters, series)
// and the references of the documents to their invoices, deliveries and
// payments kept, the accounts and the books (FEC and registers byte for
// byte, each PDF and XML by its hash) unchanged; and the one series
// constraint refuses a number taken in the series, whichever kind took it.
// The state of their emails, moved into sends by migration 42, is read
// there (TestSendsMigration).
func TestDocumentsMigration(t *testing.T) {
	t.Parallel()
	fixture := loadFixture(t)
	storetest.EachEmpty(t, func(t *testing.T, db *store.DB) {
		if _, err := schema.MigrateTo(ctx, db, 39); err != nil {
			t.Fatal(err)
		}
		load(t, db, fixture)
		if _, err := schema.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
		for _, gone := range []string{"invoices", "invoice_lines", "credit_notes", "credit_note_lines"} {
			if ok, err := store.HasTable(ctx, db, gone); err != nil || ok {
				t.Fatalf("table %s still there (%v)", gone, err)
			}
		}
		documentRows(t, db, fixture)
		documentsRead(t, db)
		unchangedTables(t, db, fixture)
		accountsAndBooks(t, db)
		oneSeries(t, db)
	})
}

// load writes the fixture's rows into a database at version 39.
func load(t *testing.T, db *store.DB, fixture map[string]*fixtureTable) {
	t.Helper()
	var tables []*fixtureTable
	for _, tb := range fixture {
		tables = append(tables, tb)
	}
	// By the order of creation: a table after those it refers to.
	for i := range tables {
		for j := i + 1; j < len(tables); j++ {
			if tables[j].Name < tables[i].Name {
				tables[i], tables[j] = tables[j], tables[i]
			}
		}
	}
	if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		// What migrations wrote (the catalogue) goes first: the fixture
		// holds it.
		for i := len(tables) - 1; i >= 0; i-- {
			if _, err := store.Exec(ctx, tx, `DELETE FROM `+strings.SplitN(tables[i].Name, " ", 2)[1]); err != nil {
				return err
			}
		}
		for _, tb := range tables {
			name := strings.SplitN(tb.Name, " ", 2)[1]
			if err := store.Insert(ctx, tx, name, tb.Columns, len(tb.Rows), func(i int, dst []any) {
				copy(dst, tb.Rows[i])
			}); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// value reads a column as the fixture holds it: int64, bool, string or nil.
func value(v any) any {
	switch x := v.(type) {
	case []byte:
		return string(x)
	case int32:
		return int64(x)
	case int:
		return int64(x)
	}
	return v
}

// documentRows: each row of invoices and credit_notes is a row of
// documents, every column of the old row equal in the new one, with its
// kind and series; each line, a line of document_lines.
func documentRows(t *testing.T, db *store.DB, fixture map[string]*fixtureTable) {
	t.Helper()
	var n int
	if err := store.Get(ctx, db, &n, `SELECT COUNT(*) FROM documents`); err != nil {
		t.Fatal(err)
	}
	invoices, credits := fixture["invoices"], fixture["credit_notes"]
	if n != len(invoices.Rows)+len(credits.Rows) || len(invoices.Rows) < 30 || len(credits.Rows) < 5 {
		t.Fatalf("%d documents from %d invoices and %d credit notes", n, len(invoices.Rows), len(credits.Rows))
	}
	kinds := map[string]bool{}
	for _, old := range []*fixtureTable{invoices, credits} {
		for id, r := range old.byID {
			cols := append([]string{"kind", "series", "invoice_id", "delivery_id", "payment_id"}, old.Columns...)
			row := db.QueryRowxContext(ctx, db.Rebind(`SELECT `+movedColumns("documents", cols)+` FROM documents t
				LEFT JOIN sends s ON s.message_key = CASE WHEN t.kind = 'invoice' THEN 'invoice-' ELSE 'credit-' END || t.id
				WHERE t.id = ?`), id)
			got, err := row.SliceScan()
			if err != nil {
				t.Fatalf("%s %s: %v", old.Name, id, err)
			}
			for i := range got {
				got[i] = value(got[i])
				if b, ok := got[i].(int64); ok && (cols[i] == "vat_exempt") {
					got[i] = b != 0
				}
			}
			kind, series := "invoice", "FA"
			var refers, deliveryID, paymentID any
			if old == credits {
				kind = r[old.index["kind"]].(string)
				refers, deliveryID, paymentID = r[old.index["invoice_id"]], r[old.index["delivery_id"]], r[old.index["payment_id"]]
				if kind != "complement" {
					series = "AV"
				}
			}
			kinds[kind] = true
			want := append([]any{kind, series, refers, deliveryID, paymentID}, r...)
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Errorf("%s %s: %s = %#v, was %#v", old.Name, id, cols[i], got[i], want[i])
				}
			}
			if number := r[old.index["number"]].(string); !strings.HasPrefix(number, series+"-") {
				t.Errorf("%s %s: number %s in series %s", old.Name, id, number, series)
			}
		}
	}
	if len(kinds) != 4 {
		t.Fatalf("kinds %v: the fixture misses a kind", kinds)
	}
	for _, old := range []struct{ table, fk string }{{"invoice_lines", "invoice_id"}, {"credit_note_lines", "credit_note_id"}} {
		tb := fixture[old.table]
		for _, r := range tb.Rows {
			cols := []string{"chrono", "date", "product_id", "product", "unit", "quantity", "price", "amount", "claim_type", "claim_comment"}
			got, err := db.QueryRowxContext(ctx, db.Rebind(`SELECT `+strings.Join(cols, ", ")+` FROM document_lines
				WHERE document_id = ? AND position = ?`), r[tb.index[old.fk]], r[tb.index["position"]]).SliceScan()
			if err != nil {
				t.Fatalf("%s %v: %v", old.table, r, err)
			}
			for i, c := range cols {
				want := any("")
				if j, ok := tb.index[c]; ok {
					want = r[j]
				}
				if g := value(got[i]); !reflect.DeepEqual(g, want) {
					t.Errorf("%s %v: %s = %#v, was %#v", old.table, r[:2], c, g, want)
				}
			}
		}
		var lines int
		if err := store.Get(ctx, db, &lines, `SELECT COUNT(*) FROM document_lines`); err != nil {
			t.Fatal(err)
		}
		if lines != len(fixture["invoice_lines"].Rows)+len(fixture["credit_note_lines"].Rows) {
			t.Fatalf("%d lines", lines)
		}
	}
}

// documentsRead: each document as billing reads it now is the document
// billing read at version 39 — an invoice's kind, unnamed then, is now
// KindInvoice.
func documentsRead(t *testing.T, db *store.DB) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(v39, "documents.json"))
	if err != nil {
		t.Fatal(err)
	}
	var was map[string]billing.Invoice
	if err := json.Unmarshal(raw, &was); err != nil {
		t.Fatal(err)
	}
	norm := func(d billing.Invoice) string {
		d.IssuedAt = d.IssuedAt.UTC()
		if d.SentAt != nil {
			s := d.SentAt.UTC()
			d.SentAt = &s
		}
		if d.Kind == "" {
			d.Kind = billing.KindInvoice
		}
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for id, w := range was {
		// Migration 47 gave each line its document's rate and each
		// document its one-rate breakdown.
		for i := range w.Lines {
			w.Lines[i].VATRate = w.VATRate
		}
		w.Breakdown = []billing.RateTotal{{Rate: w.VATRate, Basis: w.TotalHT, VAT: w.TotalVAT}}
		got, err := billing.Document(ctx, db, id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if g, w := norm(got), norm(w); g != w {
			t.Errorf("document %s now\n%s\nwas\n%s", id, g, w)
		}
	}
}

// unchangedTables: the other tables are as they were — the counters of
// the series, the payments and their allocations, the reminders and the
// documents they name among them.
func unchangedTables(t *testing.T, db *store.DB, fixture map[string]*fixtureTable) {
	t.Helper()
	for _, name := range []string{"counters", "payments", "payment_allocations", "reminders", "reminder_documents", "orders", "deliveries", "delivery_lines"} {
		tb := fixture[name]
		join := map[string]string{
			"deliveries": ` t LEFT JOIN sends s ON s.message_key = 'note-' || t.id`,
			"reminders":  ` t LEFT JOIN sends s ON s.message_key = 'reminder-' || t.id`,
		}[name]
		cols := strings.Join(tb.Columns, ", ")
		if join != "" {
			cols = movedColumns(name, tb.Columns)
		}
		all := allRows(t, db, `SELECT `+cols+` FROM `+name+join)
		n := len(all)
		for _, got := range all {
			var want []any
			for _, r := range tb.Rows {
				if reflect.DeepEqual(value(got[0]), r[0]) && (len(r) < 2 || reflect.DeepEqual(value(got[1]), r[1])) {
					want = r
				}
			}
			for i := range got {
				g := value(got[i])
				if b, ok := g.(int64); ok && strings.EqualFold(tb.Types[i], "BOOLEAN") {
					g = b != 0
				}
				if want == nil || !reflect.DeepEqual(g, want[i]) {
					t.Fatalf("%s: row %v not as it was", name, got)
				}
			}
		}
		if n != len(tb.Rows) || (name != "reminders" && name != "reminder_documents" && n == 0) {
			t.Fatalf("%s: %d rows, was %d", name, n, len(tb.Rows))
		}
	}
	if len(fixture["reminder_documents"].Rows) == 0 || len(fixture["payment_allocations"].Rows) == 0 {
		t.Fatal("the fixture misses reminders or allocations")
	}
}

// movedColumns selects columns of table t, those of its emails' state
// read, since migration 42, from their row of sends s.
func movedColumns(table string, columns []string) string {
	moved := map[string]string{"mail_claim": "s.claim", "mail_claimed_at": "s.claimed_at",
		"mail_attempts": "COALESCE(s.attempts, 0)", "sent_at": "s.sent_at"}
	if table == "deliveries" {
		moved = map[string]string{"note_claim": "s.claim", "note_claimed_at": "s.claimed_at",
			"note_attempts": "COALESCE(s.attempts, 0)", "note_sent_at": "s.sent_at"}
	}
	out := make([]string, len(columns))
	for i, c := range columns {
		out[i] = "t." + c
		if m, ok := moved[c]; ok {
			out[i] = m + " AS " + c
		}
	}
	return strings.Join(out, ", ")
}

// allRows reads every row of query.
func allRows(t *testing.T, db *store.DB, query string) [][]any {
	t.Helper()
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]any
	for rows.Next() {
		r := make([]any, len(cols))
		dst := make([]any, len(cols))
		for i := range r {
			dst[i] = &r[i]
		}
		if err := rows.Scan(dst...); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// accountsAndBooks: the accounts of every pair, and every month's books on
// both sides, are what the code of version 39 made of the same world.
func accountsAndBooks(t *testing.T, db *store.DB) {
	t.Helper()
	accs, err := payments.Accounts(ctx, db, "", "", "2026-12-21")
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(accs, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(v39, "accounts.json"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got)+"\n" != string(want) {
		t.Errorf("accounts now\n%s\nwere\n%s", got, want)
	}
	raw, err := os.ReadFile(filepath.Join(v39, "files.json"))
	if err != nil {
		t.Fatal(err)
	}
	var hashes map[string]string
	if err := json.Unmarshal(raw, &hashes); err != nil {
		t.Fatal(err)
	}
	written, compared := map[string]bool{}, 0
	for _, m := range []string{"2026-08", "2026-09", "2026-10", "2026-11", "2026-12"} {
		month, _ := calendar.ParseMonth(m + "-01")
		for _, side := range []accounting.Side{accounting.Seller, accounting.Buyer} {
			if _, err := accounting.Export(ctx, db, side, "", month, paris, func(name string, data []byte) error {
				name = fmt.Sprintf("%s/%v/%s", m, side, name)
				written[name] = true
				if strings.HasSuffix(name, ".pdf") || strings.HasSuffix(name, ".xml") {
					sum := sha256.Sum256(data)
					if h := hex.EncodeToString(sum[:]); h != hashes[name] {
						t.Errorf("%s: hash %s, was %s", name, h, hashes[name])
					}
					return nil
				}
				was, err := os.ReadFile(filepath.Join(v39, "books", filepath.FromSlash(name)))
				if err != nil {
					return err
				}
				if !bytes.Equal(data, was) {
					t.Errorf("%s differs:\n%s\nwas\n%s", name, data, was)
				}
				compared++
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name := range hashes {
		if !written[name] {
			t.Errorf("%s no longer exported", name)
		}
	}
	if compared < 20 || len(hashes) < 40 {
		t.Fatalf("%d books and %d documents compared", compared, len(hashes))
	}
}

// oneSeries: a number of the FA series taken by an invoice is refused to
// a complementary invoice, and one taken by a credit note to an escompte
// credit note; a kind in the other's series is refused.
func oneSeries(t *testing.T, db *store.DB) {
	t.Helper()
	var taken struct {
		ID       string `db:"id"`
		Producer string `db:"producer_id"`
		Year     int    `db:"year"`
		Seq      int64  `db:"seq"`
		Series   string `db:"series"`
	}
	copyAs := func(id, kind, series string, seq int64) error {
		_, err := store.Exec(ctx, db, `INSERT INTO documents (id, kind, series, order_id, invoice_id, delivery_id, payment_id,
				producer_id, distributor_id, month, year, seq, number, issued_at, issue_date, due_date, seller, buyer, notes,
				vat_rate, vat_exempt, vat_regime, discount, discount_until, total_ht, total_vat, total_ttc, terms,
				mail_seller_key, mail_buyer_key, mail_accounting_key)
			SELECT ?, ?, ?, order_id, id, NULL, NULL, producer_id, distributor_id, month, year, ?, 'X', issued_at, issue_date,
				due_date, seller, buyer, notes, vat_rate, vat_exempt, vat_regime, discount, discount_until, total_ht, total_vat,
				total_ttc, terms, '', '', ''
			FROM documents WHERE id = ?`, "copy-"+kind, kind, series, seq, id)
		return err
	}
	for _, c := range []struct{ of, kind string }{{"invoice", "complement"}, {"credit", "discount"}} {
		if err := store.Get(ctx, db, &taken, `SELECT id, producer_id, year, seq, series FROM documents WHERE kind = ?
			ORDER BY id LIMIT 1`, c.of); err != nil {
			t.Fatal(err)
		}
		if err := copyAs(taken.ID, c.kind, taken.Series, taken.Seq); !store.IsUniqueViolation(err) {
			t.Fatalf("%s numbered as %s's %s-%d-%d: %v", c.kind, c.of, taken.Series, taken.Year, taken.Seq, err)
		}
	}
	if err := copyAs(taken.ID, "complement", "AV", 999999); err == nil {
		t.Fatal("a complementary invoice in the credit notes' series accepted")
	}
	if err := copyAs(taken.ID, "complement", "FA", 999999); err != nil {
		t.Fatalf("a complementary invoice of a free number: %v", err)
	}
}
