package reliability

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/mail/mailtest"
	"primeur/core/orders"
	"primeur/core/store"
)

var paris = func() *time.Location {
	loc, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		panic(err)
	}
	return loc
}()

// november is the month the worlds of these tests trade in; the daemons
// run as of December 1st, after the invoices' 06:00.
const (
	november = "2026-11-01"
	december = "2026-12-01T07:00:00+01:00"
)

// shape says what a world holds: producers × shops orders in November,
// each with done deliveries (their notes already emailed) and planned ones
// (due to lock, their notes to email), and some orders with a done
// delivery whose claim the shop left unanswered.
type shape struct {
	producers, shops int
	done, planned    []string // delivery dates of each order
	claims           int      // orders (the first ones) with a pending claim
}

// world is what seed wrote and what the jobs must produce from it.
type world struct {
	producers []string
	orders    []string
	planned   []string       // planned deliveries, whose notes are due
	claimed   []string       // deliveries with a pending claim
	totalHT   map[string]int // expected total HT per order, in cents
}

var products = []struct {
	id    string
	price decimal.Dec
}{{"tomate", 250}, {"carotte", 120}, {"pomme-de-terre", 95}}

// batch accumulates the rows of a multi-row INSERT and writes them 300 at
// a time: seeding thousands of rows one statement each is slow in the
// race-instrumented SQLite of the test process.
type batch struct {
	ctx    context.Context
	tx     *sqlx.Tx
	prefix string // INSERT INTO t (columns) VALUES
	tuple  string // (?, ?, …)
	rows   int
	args   []any
	// parents are the batches whose rows these reference: written first.
	parents []*batch
}

func (b *batch) add(args ...any) error {
	b.rows++
	b.args = append(b.args, args...)
	if b.rows == 300 {
		return b.flush()
	}
	return nil
}

func (b *batch) flush() error {
	for _, p := range b.parents {
		if err := p.flush(); err != nil {
			return err
		}
	}
	if b.rows == 0 {
		return nil
	}
	q := b.prefix + strings.TrimSuffix(strings.Repeat(b.tuple+", ", b.rows), ", ")
	_, err := store.Exec(b.ctx, b.tx, q, b.args...)
	b.rows, b.args = 0, nil
	return err
}

// seed writes a world through the store, in one transaction, before any
// daemon starts.
func seed(t *testing.T, db *store.DB, s shape) world {
	t.Helper()
	ctx := context.Background()
	w := world{totalHT: map[string]int{}}
	created := time.Date(2026, 10, 1, 9, 0, 0, 0, paris).UnixMilli()
	claimAt := time.Date(2026, 11, 25, 9, 0, 0, 0, paris).UnixMilli()
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		needs := &batch{ctx: ctx, tx: tx, tuple: "(?, ?, ?, ?, 1000000, ?, ?)",
			prefix: `INSERT INTO needs (id, distributor_id, product_id, month, quantity, created_at, updated_at) VALUES `}
		ords := &batch{ctx: ctx, tx: tx, tuple: "(?, ?, ?, ?, ?, ?)",
			prefix: `INSERT INTO orders (id, producer_id, distributor_id, month, created_at, updated_at) VALUES `}
		dels := &batch{ctx: ctx, tx: tx, tuple: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			prefix: `INSERT INTO deliveries (id, order_id, producer_id, status, date, chrono, claim_status, claim_sent_at,
				note_sent_at, created_at, updated_at) VALUES `}
		lines := &batch{ctx: ctx, tx: tx, tuple: "(?, ?, ?, ?, ?, ?, ?, ?, ?, '')",
			prefix: `INSERT INTO delivery_lines (id, delivery_id, need_id, product_id, price, quantity_expected,
				quantity_sent, quantity_claimed, claim_type, claim_comment) VALUES `}
		dels.parents = []*batch{ords}
		lines.parents = []*batch{needs, dels}
		var shops []string
		for i := range s.shops {
			id := fmt.Sprintf("shop-%03d", i)
			if err := accounts.Insert(ctx, tx, accounts.User{
				ID: id, Type: accounts.Distributor, Email: id + "@magasins.fr", EmailKey: id + "@magasins.fr",
				Name: fmt.Sprintf("Magasin %d", i), PasswordHash: "x", Legal: "SARL", Capital: "8000",
				SIRET: "98765432100021", TVAIntracom: "FR45987654321", APE: "4721Z", DeliveryDays: "0000000",
				AddressLine1: fmt.Sprintf("%d quai de la Tournette", i+1), AddressLine2: "74000 Annecy",
				EmailAccounting: "compta-" + id + "@magasins.fr", CreatedAt: created, UpdatedAt: created,
			}); err != nil {
				return err
			}
			for _, p := range products {
				if err := needs.add(id+"-"+p.id, id, p.id, november, created, created); err != nil {
					return err
				}
			}
			shops = append(shops, id)
		}
		for f := range s.producers {
			farm := fmt.Sprintf("farm-%02d", f)
			if err := accounts.Insert(ctx, tx, accounts.User{
				ID: farm, Type: accounts.Producer, Email: farm + "@fermes.fr", EmailKey: farm + "@fermes.fr",
				Name: fmt.Sprintf("Ferme %d", f), PasswordHash: "x", Legal: "EARL", Capital: "15000",
				SIRET: "12345678900012", TVAIntracom: "FR32123456789", APE: "0113Z",
				IBAN: "FR7630006000011234567890189", BIC: "AGRIFRPP882", Tel: "0450000000",
				AddressLine1: "12 route des Aravis", AddressLine2: "74220 La Clusaz", DeliveryDays: "1111111",
				BillingMandateAt: &created, CreatedAt: created, UpdatedAt: created,
			}); err != nil {
				return err
			}
			w.producers = append(w.producers, farm)
			chrono := 0
			for _, shop := range shops {
				order := farm + "-" + shop
				n := len(w.orders)
				if err := ords.add(order, farm, shop, november, created+int64(n), created+int64(n)); err != nil {
					return err
				}
				w.orders = append(w.orders, order)
				add := func(date, status string, claim bool) error {
					chrono++
					id := fmt.Sprintf("%s-%s", order, date)
					var noteSent, claimSent *int64
					claimStatus := orders.ClaimVoid
					if status == orders.Done {
						noteSent = &created
					}
					if claim {
						claimSent, claimStatus = &claimAt, orders.ClaimSent
						w.claimed = append(w.claimed, id)
					}
					if status == orders.Planned {
						w.planned = append(w.planned, id)
					}
					if err := dels.add(id, order, farm, status, date, chrono, claimStatus, claimSent, noteSent, created, created); err != nil {
						return err
					}
					for i, p := range products {
						expected := decimal.Dec(1000 + 100*i + 10*(n%7))
						var sent *decimal.Dec
						billed := expected // a planned line: sent = expected at the lock
						if status == orders.Done {
							v := expected - 50
							sent, billed = &v, v
						}
						claimed, kind := decimal.Dec(0), ""
						if claim && i == 0 {
							claimed, kind = -200, orders.ClaimQuality
							billed += claimed // the jobs accept it before billing
						}
						if err := lines.add(fmt.Sprintf("%s-l%d", id, i), id, shop+"-"+p.id, p.id, p.price, expected,
							sent, claimed, kind); err != nil {
							return err
						}
						w.totalHT[order] += int(billing.Amount(billed, p.price))
					}
					return nil
				}
				for _, date := range s.done {
					if err := add(date, orders.Done, false); err != nil {
						return err
					}
				}
				if n < s.claims {
					if err := add("2026-11-24", orders.Done, true); err != nil {
						return err
					}
				}
				for _, date := range s.planned {
					if err := add(date, orders.Planned, false); err != nil {
						return err
					}
				}
			}
			if _, err := store.Exec(ctx, tx, `INSERT INTO counters (key, value) VALUES (?, ?)`, "chrono:"+farm, chrono); err != nil {
				return err
			}
		}
		return lines.flush() // and its parents first
	})
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	return w
}

// invoiceRow is an invoice as the checks read it.
type invoiceRow struct {
	ID       string         `db:"id"`
	Order    string         `db:"order_id"`
	Producer string         `db:"producer_id"`
	Seq      int64          `db:"seq"`
	Number   string         `db:"number"`
	TotalHT  int            `db:"total_ht"`
	Claim    sql.NullString `db:"mail_claim"`
	SentAt   sql.NullInt64  `db:"sent_at"`
}

func invoices(t *testing.T, db *store.DB) []invoiceRow {
	t.Helper()
	var out []invoiceRow
	if err := store.Select(context.Background(), db, &out, `SELECT id, order_id, producer_id, seq, number, total_ht,
		mail_claim, sent_at FROM invoices ORDER BY producer_id, seq`); err != nil {
		t.Fatal(err)
	}
	return out
}

// checkNumbering checks that the invoices issued so far are numbered
// 1…n per producer, with no gap and no duplicate, and that each producer's
// counter stands at its last number: no number was taken and lost.
func checkNumbering(t *testing.T, db *store.DB, invs []invoiceRow) {
	t.Helper()
	seqs := map[string][]int64{}
	for _, inv := range invs {
		if inv.Number != billing.Number(2026, inv.Seq) {
			t.Fatalf("invoice %s: number %s for sequence %d", inv.ID, inv.Number, inv.Seq)
		}
		seqs[inv.Producer] = append(seqs[inv.Producer], inv.Seq)
	}
	for producer, list := range seqs {
		for i, seq := range list {
			if seq != int64(i+1) {
				t.Fatalf("%s: numbers %v: a gap or a duplicate", producer, list)
			}
		}
		var counter int64
		if err := store.Get(context.Background(), db, &counter, `SELECT value FROM counters WHERE key = ?`,
			"invoice:"+producer+":2026"); err != nil || counter != int64(len(list)) {
			t.Fatalf("%s: counter %d for %d invoices (%v)", producer, counter, len(list), err)
		}
	}
}

// checkInvoices checks the end state of a world's invoicing: one invoice
// per order with its expected total, numbered without gap or duplicate,
// every one emailed.
func checkInvoices(t *testing.T, db *store.DB, w world) []invoiceRow {
	t.Helper()
	invs := invoices(t, db)
	if len(invs) != len(w.orders) {
		t.Fatalf("%d invoices for %d orders", len(invs), len(w.orders))
	}
	for _, inv := range invs {
		want, ok := w.totalHT[inv.Order]
		if !ok || inv.TotalHT != want {
			t.Fatalf("invoice %s of %s: total HT %d, want %d", inv.Number, inv.Order, inv.TotalHT, want)
		}
		if !inv.SentAt.Valid {
			t.Fatalf("invoice %s of %s was never emailed", inv.Number, inv.Order)
		}
		var lines int
		if err := store.Get(context.Background(), db, &lines, `SELECT COUNT(*) FROM invoice_lines WHERE invoice_id = ?`, inv.ID); err != nil ||
			lines == 0 || lines%len(products) != 0 {
			t.Fatalf("invoice %s: %d lines (%v)", inv.Number, lines, err)
		}
	}
	checkNumbering(t, db, invs)
	return invs
}

// messageCounts counts the messages received per Message-ID key
// ("invoice-<id>", "note-<id>").
func messageCounts(srv *mailtest.Server) map[string]int {
	out := map[string]int{}
	for _, id := range srv.MessageIDs() {
		out[strings.TrimSuffix(strings.TrimPrefix(id, "<"), "@primeur.local>")]++
	}
	return out
}

// outboxKeys lists the messages of an outbox (file names without .eml),
// ignoring the temporary files of a write a kill interrupted.
func outboxKeys(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "outbox"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range entries {
		if name := e.Name(); !strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".eml") {
			keys = append(keys, strings.TrimSuffix(name, ".eml"))
		}
	}
	slices.Sort(keys)
	return keys
}
