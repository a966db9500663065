package jobs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/billing"
	"primeur/core/delivery"
	"primeur/core/jobs"
	"primeur/core/mail"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// Size of the benchmark world: 50 producers × 20 shops = 1,000 orders for
// November 2026, each with 4 done deliveries of 3 products (12,000 lines).
const (
	benchProducers  = 50
	benchShops      = 20
	benchDeliveries = 4
)

var benchProducts = []string{"tomate", "laitue", "carotte"}

// seedBench writes the world in one transaction.
func seedBench(b *testing.B, db *store.DB, round int) {
	b.Helper()
	ctx := context.Background()
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		exec := func(q string, args ...any) error {
			_, err := store.Exec(ctx, tx, q, args...)
			return err
		}
		user := func(id, kind, name string) error {
			return exec(`INSERT INTO users (id, type, email, email_key, name, password_hash, siret, tvaintracom, iban, bic,
				address_line1, address_line2, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'x', '12345678900012', 'FR32123456789',
				'FR7630006000011234567890189', 'AGRIFRPP882', '1 rue du Marché', '74000 Annecy', 0, 0)`,
				id, kind, id+"@bench.fr", id+"@bench.fr", name)
		}
		for s := range benchShops {
			shop := fmt.Sprintf("r%d-shop%d", round, s)
			if err := user(shop, "distributor", fmt.Sprintf("Magasin %d", s)); err != nil {
				return err
			}
			for _, p := range benchProducts {
				if err := exec(`INSERT INTO needs (id, distributor_id, product_id, month, quantity, created_at, updated_at)
					VALUES (?, ?, ?, '2026-11-01', 100000, 0, 0)`, shop+"-"+p, shop, p); err != nil {
					return err
				}
			}
		}
		for f := range benchProducers {
			farm := fmt.Sprintf("r%d-farm%d", round, f)
			if err := user(farm, "producer", fmt.Sprintf("Ferme %d", f)); err != nil {
				return err
			}
			chrono := 0
			for s := range benchShops {
				shop := fmt.Sprintf("r%d-shop%d", round, s)
				order := farm + "-" + shop
				if err := exec(`INSERT INTO orders (id, producer_id, distributor_id, month, created_at, updated_at)
					VALUES (?, ?, ?, '2026-11-01', 0, 0)`, order, farm, shop); err != nil {
					return err
				}
				for d := range benchDeliveries {
					chrono++
					id := fmt.Sprintf("%s-d%d", order, d)
					if err := exec(`INSERT INTO deliveries (id, order_id, producer_id, status, date, chrono, note_sent_at, created_at, updated_at)
						VALUES (?, ?, ?, 'done', ?, ?, 1, 0, 0)`, id, order, farm, fmt.Sprintf("2026-11-%02d", 3+7*d), chrono); err != nil {
						return err
					}
					for i, p := range benchProducts {
						if err := exec(`INSERT INTO delivery_lines (id, delivery_id, need_id, product_id, price, quantity_expected, quantity_sent)
							VALUES (?, ?, ?, ?, ?, ?, ?)`, fmt.Sprintf("%s-l%d", id, i), id, shop+"-"+p, p, 150+10*i, 1250+100*d, 1200+100*d); err != nil {
							return err
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

func benchDBs(b *testing.B, fn func(b *testing.B, db *store.DB)) {
	b.Run("sqlite", func(b *testing.B) { fn(b, storetest.SQLite(b)) })
	if os.Getenv(storetest.EnvURL) != "" {
		b.Run("postgres", func(b *testing.B) { fn(b, storetest.Postgres(b)) })
	}
}

// BenchmarkInvoiceRun is the monthly run for 1,000 orders: issue every
// invoice (numbers, lines, totals, in one transaction each), render each
// PDF and write each email into the outbox. One operation is the whole run.
func BenchmarkInvoiceRun(b *testing.B) {
	benchDBs(b, func(b *testing.B, db *store.DB) {
		outbox := mail.Outbox{Dir: filepath.Join(b.TempDir(), "outbox"), From: "no-reply@primeur.local"}
		e := env(db, outbox)
		round := 0
		for b.Loop() {
			b.StopTimer()
			round++
			seedBench(b, db, round)
			b.StartTimer()
			r, err := jobs.Invoices(context.Background(), e, at(2026, 12, 1, 6, 0))
			if err != nil || r.Get(jobs.InvoicesIssued) != benchProducers*benchShops || r.Get(jobs.InvoicesSent) != benchProducers*benchShops {
				b.Fatalf("%s, %v", r, err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/(benchProducers*benchShops), "ms/order")
	})
}

// BenchmarkInvoiceIssue is the same run without documents: issuing only
// (steps 3 and 4 of Invoices).
func BenchmarkInvoiceIssue(b *testing.B) {
	benchDBs(b, func(b *testing.B, db *store.DB) {
		round := 0
		for b.Loop() {
			b.StopTimer()
			round++
			seedBench(b, db, round)
			b.StartTimer()
			now, loc := at(2026, 12, 1, 6, 0), delivery.DefaultRules().Location
			due, err := billing.Due(context.Background(), db, now, loc)
			if err != nil || len(due) != benchProducers*benchShops {
				b.Fatalf("%d due, %v", len(due), err)
			}
			for _, id := range due {
				if inv, err := billing.IssueDue(context.Background(), db, id, now, loc); err != nil || inv == nil {
					b.Fatalf("order %s: %v, %v", id, inv, err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/(benchProducers*benchShops), "ms/order")
	})
}
