package reliability

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/mail/mailtest"
	"primeur/core/notify"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/trade/tradetest"
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
	// credited is the expected credit note (total HT, in cents) of each
	// order with a claim: the jobs accept it, the invoice bills what was
	// sent and a credit note settles the claim.
	credited map[string]int
}

var products = []struct {
	id    string
	price decimal.Dec
}{{"tomate", 250}, {"carotte", 120}, {"pomme-de-terre", 95}}

// seed writes a world through the store, in one transaction, before any
// daemon starts: the accounts, the shops' needs (planning.WriteAll) and
// the orders, through trade's and the deliveries' operations
// (tradetest.Play) — commitments accepted on the eve of November,
// deliveries on the shape's dates, done ones locked with 0.5 less of each
// product sent and their notes emailed, claims sent on 25 November and
// unanswered. Every account has turned its notifications off
// (notify.SetPref): the operations queue them for the world's trade, and
// these tests count the emails of documents and reminders alone.
func seed(t *testing.T, db *store.DB, s shape) world {
	t.Helper()
	ctx := context.Background()
	rules := delivery.DefaultRules()
	rules.Location = paris
	w := world{totalHT: map[string]int{}, credited: map[string]int{}}
	created := time.Date(2026, 10, 1, 9, 0, 0, 0, paris)
	accepted := time.Date(2026, 10, 31, 9, 0, 0, 0, paris)
	claimAt := time.Date(2026, 11, 25, 9, 0, 0, 0, paris)
	const claimDate = "2026-11-24"
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		w = world{totalHT: map[string]int{}, credited: map[string]int{}}
		var shops []string
		for i := range s.shops {
			id := fmt.Sprintf("shop-%03d", i)
			if err := accounts.Insert(ctx, tx, accounts.User{
				ID: id, Type: accounts.Distributor, Email: id + "@magasins.fr", EmailKey: id + "@magasins.fr",
				Name: fmt.Sprintf("Magasin %d", i), PasswordHash: "x", Legal: "SARL", Capital: "8000",
				SIRET: "98765432400019", TVAIntracom: "FR14987654324", APE: "4721Z", DeliveryDays: "0000000",
				AddressLine1: fmt.Sprintf("%d quai de la Tournette", i+1), AddressLine2: "74000 Annecy",
				CreatedAt: created.UnixMilli(), UpdatedAt: created.UnixMilli(),
			}); err != nil {
				return err
			}
			if err := quiet(ctx, tx, id); err != nil {
				return err
			}
			var cells []planning.Cell
			for _, p := range products {
				cells = append(cells, planning.Cell{ProductID: p.id, Month: november, Quantity: 1000000})
			}
			if _, err := planning.WriteAll(ctx, tx, id, cells, created); err != nil {
				return err
			}
			shops = append(shops, id)
		}
		var b tradetest.Batch
		for f := range s.producers {
			farm := fmt.Sprintf("farm-%02d", f)
			mandate := created.UnixMilli()
			if err := accounts.Insert(ctx, tx, accounts.User{
				ID: farm, Type: accounts.Producer, Email: farm + "@fermes.fr", EmailKey: farm + "@fermes.fr",
				Name: fmt.Sprintf("Ferme %d", f), PasswordHash: "x", Legal: "EARL", Capital: "15000",
				SIRET: "12345678200010", TVAIntracom: "FR11123456782", APE: "0113Z",
				IBAN: "FR7630006000011234567890189", BIC: "AGRIFRPP882", Tel: "0450000000",
				AddressLine1: "12 route des Aravis", AddressLine2: "74220 La Clusaz", DeliveryDays: "1111111",
				BillingMandateAt: &mandate, CreatedAt: mandate, UpdatedAt: mandate,
			}); err != nil {
				return err
			}
			if err := quiet(ctx, tx, farm); err != nil {
				return err
			}
			w.producers = append(w.producers, farm)
			for _, shop := range shops {
				n := len(b.Agreements)
				order := fmt.Sprint(n) // its id once written
				claim := n < s.claims
				dates := append([]string(nil), s.done...)
				if claim {
					dates = append(dates, claimDate)
				}
				dates = append(dates, s.planned...)
				slices.Sort(dates)
				var cs []tradetest.Commitment
				sent := map[string]decimal.Dec{}
				for i, p := range products {
					expected := decimal.Dec(1000 + 100*i + 10*(n%7))
					cs = append(cs, tradetest.Commitment{ProductID: p.id, Quantity: expected * decimal.Dec(len(dates)), Price: p.price})
					sent[p.id] = expected - 50
					for _, date := range dates {
						billed := expected // a planned line: sent = expected at the lock
						if !slices.Contains(s.planned, date) {
							billed = expected - 50
						}
						if date == claimDate && i == 0 {
							// The jobs accept the claim; a credit note settles it.
							w.credited[order] += int(billing.Amount(200, p.price))
						}
						w.totalHT[order] += int(billing.Amount(billed, p.price))
					}
				}
				b.Agreements = append(b.Agreements, tradetest.Agreement{
					ProducerID: farm, ShopID: shop, Month: november, At: accepted, Dates: dates, Commitments: cs,
					Outcome: func(_ int, d orders.FullDelivery) tradetest.Outcome {
						if slices.Contains(s.planned, d.Date) {
							return tradetest.Outcome{}
						}
						out := tradetest.Outcome{Status: orders.Done, Sent: sent, NoteSentAt: rules.LockTime(d.Date).Add(delivery.NoteDelay)}
						if d.Date == claimDate {
							out.Claim = &tradetest.ClaimOutcome{SentAt: claimAt, Lines: map[string]tradetest.ClaimedLine{
								products[0].id: {Quantity: -200, Type: orders.ClaimQuality},
							}}
						}
						return out
					},
				})
			}
		}
		written, err := tradetest.Play(ctx, tx, rules, b)
		if err != nil {
			return err
		}
		totals, credits := w.totalHT, w.credited
		w.totalHT, w.credited = map[string]int{}, map[string]int{}
		for n, o := range written {
			w.orders = append(w.orders, o.ID)
			w.totalHT[o.ID] = totals[fmt.Sprint(n)]
			if c, ok := credits[fmt.Sprint(n)]; ok {
				w.credited[o.ID] = c
			}
			for _, d := range o.Deliveries {
				switch {
				case d.Status == orders.Planned:
					w.planned = append(w.planned, d.ID)
				case d.ClaimStatus == orders.ClaimSent:
					w.claimed = append(w.claimed, d.ID)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	return w
}

// quiet turns every notification of an account off, as its profile does.
func quiet(ctx context.Context, q store.Q, userID string) error {
	for _, k := range notify.Kinds {
		if err := notify.SetPref(ctx, q, userID, userID, k.Kind, notify.None); err != nil {
			return err
		}
	}
	return nil
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
	if err := store.Select(context.Background(), db, &out, `SELECT d.id, d.order_id, d.producer_id, d.seq, d.number, d.total_ht,
		s.claim AS mail_claim, s.sent_at FROM documents d LEFT JOIN sends s ON s.message_key = 'invoice-' || d.id
		WHERE d.kind = 'invoice' ORDER BY d.producer_id, d.seq`); err != nil {
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
	return checkInvoicesLeft(t, db, w, nil)
}

// checkInvoicesLeft is checkInvoices, the invoices whose message keys are
// in left excepted from being emailed (left for an administrator).
func checkInvoicesLeft(t *testing.T, db *store.DB, w world, left map[string]bool) []invoiceRow {
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
		if !inv.SentAt.Valid && !left["invoice-"+inv.ID] {
			t.Fatalf("invoice %s of %s was never emailed", inv.Number, inv.Order)
		}
		var lines int
		if err := store.Get(context.Background(), db, &lines, `SELECT COUNT(*) FROM document_lines WHERE document_id = ?`, inv.ID); err != nil ||
			lines == 0 || lines%len(products) != 0 {
			t.Fatalf("invoice %s: %d lines (%v)", inv.Number, lines, err)
		}
	}
	checkNumbering(t, db, invs)
	return invs
}

// creditRow is a credit note as the checks read it.
type creditRow struct {
	ID       string        `db:"id"`
	Order    string        `db:"order_id"`
	Producer string        `db:"producer_id"`
	Kind     string        `db:"kind"`
	Seq      int64         `db:"seq"`
	Number   string        `db:"number"`
	TotalHT  int           `db:"total_ht"`
	SentAt   sql.NullInt64 `db:"sent_at"`
}

// checkCredits checks the end state of a world's claims: one credit note
// per claimed order with its expected total, numbered AV-2026-1…n per
// producer without gap or duplicate (the counter agreeing), every one
// emailed.
func checkCredits(t *testing.T, db *store.DB, w world) []creditRow {
	t.Helper()
	return checkCreditsLeft(t, db, w, nil)
}

// checkCreditsLeft is checkCredits, the credit notes whose message keys
// are in left excepted from being emailed (left for an administrator).
func checkCreditsLeft(t *testing.T, db *store.DB, w world, left map[string]bool) []creditRow {
	t.Helper()
	var cs []creditRow
	if err := store.Select(context.Background(), db, &cs, `SELECT d.id, d.order_id, d.producer_id, d.kind, d.seq, d.number, d.total_ht, s.sent_at
		FROM documents d LEFT JOIN sends s ON s.message_key = 'credit-' || d.id WHERE d.kind <> 'invoice' ORDER BY d.producer_id, d.seq`); err != nil {
		t.Fatal(err)
	}
	if len(cs) != len(w.credited) {
		t.Fatalf("%d credit notes for %d claimed orders", len(cs), len(w.credited))
	}
	seqs := map[string][]int64{}
	for _, c := range cs {
		if want, ok := w.credited[c.Order]; !ok || c.TotalHT != want || c.Kind != billing.KindCredit ||
			c.Number != billing.CreditNumber(2026, c.Seq) {
			t.Fatalf("credit note %s of %s: %s, total HT %d, want %d", c.Number, c.Order, c.Kind, c.TotalHT, want)
		}
		if !c.SentAt.Valid && !left["credit-"+c.ID] {
			t.Fatalf("credit note %s was never emailed", c.Number)
		}
		seqs[c.Producer] = append(seqs[c.Producer], c.Seq)
	}
	for producer, list := range seqs {
		for i, seq := range list {
			if seq != int64(i+1) {
				t.Fatalf("%s: credit numbers %v: a gap or a duplicate", producer, list)
			}
		}
		var counter int64
		if err := store.Get(context.Background(), db, &counter, `SELECT value FROM counters WHERE key = ?`,
			"credit:"+producer+":2026"); err != nil || counter != int64(len(list)) {
			t.Fatalf("%s: credit counter %d for %d credit notes (%v)", producer, counter, len(list), err)
		}
	}
	return cs
}

// messageCounts counts, per Message-ID key ("invoice-<id>", "note-<id>"),
// how many times the message was sent: the most copies any of its
// recipients received (a message goes as one copy per recipient).
func messageCounts(srv *mailtest.Server) map[string]int {
	out := map[string]int{}
	for id, byRecipient := range srv.Copies() {
		key := strings.TrimSuffix(strings.TrimPrefix(id, "<"), "@primeur.local>")
		for _, n := range byRecipient {
			out[key] = max(out[key], n)
		}
	}
	return out
}

// dropDigests takes the notification digests out of sent (messageCounts),
// each of which must have been emailed once. The notifications job runs at
// a daemon's start beside the others: when it runs after the claims job
// has accepted the seeded claims (a matter of timing), the parties get a
// digest of them, made by one replica and emailed once.
func dropDigests(t *testing.T, sent map[string]int) {
	t.Helper()
	for key, n := range sent {
		if strings.HasPrefix(key, "digest-") {
			if n != 1 {
				t.Fatalf("digest %s emailed %d times", key, n)
			}
			delete(sent, key)
		}
	}
}

// copyFile is the outbox file of a message's second or later copy.
var copyFile = regexp.MustCompile(`\.[0-9]+\.eml$`)

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
		// One file per recipient's copy: key.eml, then key.2.eml…
		if name := e.Name(); !strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".eml") && !copyFile.MatchString(name) {
			keys = append(keys, strings.TrimSuffix(name, ".eml"))
		}
	}
	slices.Sort(keys)
	return keys
}
