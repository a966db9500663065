package jobs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/jobs"
	"primeur/core/mail"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// Size of the benchmark world: 50 producers × 20 shops = 1,000 orders for
// November 2026, each with 4 done deliveries of 3 products (12,000 lines),
// their notes emailed.
const (
	benchShops      = 20
	benchDeliveries = 4
)

// benchProducers is the world's producers: 50, or 5 with -short (make
// test-bench, which runs each benchmark once to show that it still runs).
func benchProducers() int {
	if testing.Short() {
		return 5
	}
	return 50
}

var benchProducts = []string{"tomate", "laitue", "carotte"}

// seedBench writes the world in one transaction: the accounts, the shops'
// needs and the orders, through the operations (tradetest.Play): trade
// plans the producers' four Tuesdays of November.
func seedBench(b *testing.B, db *store.DB, round int) {
	b.Helper()
	ctx := context.Background()
	rules := delivery.DefaultRules()
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		// The producers deliver on Tuesdays: the four of November.
		user := func(id, kind, name string) error {
			days := "0000000"
			if kind == accounts.Producer {
				days = "0100000"
			}
			return accounts.Insert(ctx, tx, accounts.User{ID: id, Type: kind, Email: id + "@bench.fr", EmailKey: id + "@bench.fr",
				Name: name, PasswordHash: "x", SIRET: "12345678200010", TVAIntracom: "FR11123456782",
				IBAN: "FR7630006000011234567890189", BIC: "AGRIFRPP882", AddressLine1: "1 rue du Marché",
				AddressLine2: "74000 Annecy", DeliveryDays: days})
		}
		var shops []string
		for s := range benchShops {
			shop := fmt.Sprintf("r%d-shop%d", round, s)
			if err := user(shop, accounts.Distributor, fmt.Sprintf("Magasin %d", s)); err != nil {
				return err
			}
			var cells []planning.Cell
			for _, p := range benchProducts {
				cells = append(cells, planning.Cell{ProductID: p, Month: "2026-11-01", Quantity: 3000_00})
			}
			if _, err := planning.WriteAll(ctx, tx, shop, cells, at(2026, 10, 1, 9, 0)); err != nil {
				return err
			}
			shops = append(shops, shop)
		}
		var batch tradetest.Batch
		sent := map[string]decimal.Dec{}
		var cs []tradetest.Commitment
		for i, p := range benchProducts {
			cs = append(cs, tradetest.Commitment{ProductID: p, Quantity: benchDeliveries * 1400, Price: decimal.Dec(150 + 10*i)})
			sent[p] = 1300 // 13 kg or pieces: a little short
		}
		for f := range benchProducers() {
			farm := fmt.Sprintf("r%d-farm%d", round, f)
			if err := user(farm, accounts.Producer, fmt.Sprintf("Ferme %d", f)); err != nil {
				return err
			}
			for _, shop := range shops {
				batch.Agreements = append(batch.Agreements, tradetest.Agreement{
					ProducerID: farm, ShopID: shop, Month: "2026-11-01", At: at(2026, 10, 31, 9, 0), Commitments: cs,
					Outcome: func(_ int, d orders.FullDelivery) tradetest.Outcome {
						return tradetest.Outcome{Status: orders.Done, Sent: sent, NoteSentAt: rules.LockTime(d.Date).Add(time.Hour)}
					},
				})
			}
		}
		_, err := tradetest.Play(ctx, tx, rules, batch)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
}

func benchDBs(b *testing.B, fn func(b *testing.B, open func(testing.TB) *store.DB)) {
	b.Run("sqlite", func(b *testing.B) { fn(b, storetest.SQLite) })
	if os.Getenv(storetest.EnvURL) != "" {
		b.Run("postgres", func(b *testing.B) { fn(b, storetest.Postgres) })
	}
}

// BenchmarkInvoiceRun is the monthly run for 1,000 orders: issue every
// invoice (numbers, lines, totals, in one transaction each), render each
// PDF (Factur-X PDF/A-3b) and write each email into the outbox. One
// operation is the whole run. In the same operation, on a second database
// of the same engine seeded alike, it times issuing the same orders
// without PDFs (BenchmarkInvoiceIssue's work, outside the benchmark's
// timer) and reports the run's time over that one as x-issue — issue 20's
// goal is at most 3 — and the same ratio of the process's CPU time as
// cpu-x-issue, which other processes on the machine disturb less (on
// PostgreSQL, the server's CPU is not counted), and of its user CPU alone
// as user-cpu-x-issue (issue 42: the kernel's part is mostly the outbox's
// file creation, two files an order; on an ext4 file system without a
// journal, as on the shared development machine, creating a file passes
// over the inodes freed in the last minute — six while their table is
// unwritten — one look-up each, so that a file costs what other processes
// deleted lately, 0.07 to 0.8 ms of kernel CPU, whatever the outbox holds;
// on a tmpfs, TMPDIR=/dev/shm, that part is gone).
func BenchmarkInvoiceRun(b *testing.B) {
	benchDBs(b, func(b *testing.B, open func(testing.TB) *store.DB) {
		db, issueDB := open(b), open(b)
		outbox := mail.Outbox{Dir: filepath.Join(b.TempDir(), "outbox"), From: "no-reply@primeur.local"}
		e := env(db, outbox)
		round := 0
		var issuing, issuingCPU, runCPU, issuingUser, runUser time.Duration
		for b.Loop() {
			b.StopTimer()
			round++
			seedBench(b, db, round)
			seedBench(b, issueDB, round)
			// Each measured part starts on a collected heap: the
			// collector's work on the seed's garbage is neither's.
			runtime.GC()
			start, cpu, user := time.Now(), cpuTime(), userTime()
			issueAll(b, issueDB)
			issuing, issuingCPU, issuingUser = issuing+time.Since(start), issuingCPU+cpuTime()-cpu, issuingUser+userTime()-user
			runtime.GC()
			b.StartTimer()
			cpu, user = cpuTime(), userTime()
			r, err := jobs.Invoices(context.Background(), e, at(2026, 12, 1, 6, 0))
			runCPU, runUser = runCPU+cpuTime()-cpu, runUser+userTime()-user
			if err != nil || r.Get(jobs.InvoicesIssued) != benchProducers()*benchShops || r.Get(jobs.InvoicesSent) != benchProducers()*benchShops {
				b.Fatalf("%s, %v", r, err)
			}
		}
		orders := float64(b.N * benchProducers() * benchShops)
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/orders, "ms/order")
		b.ReportMetric(float64(issuing.Microseconds())/1000/orders, "issue-ms/order")
		b.ReportMetric(b.Elapsed().Seconds()/issuing.Seconds(), "x-issue")
		b.ReportMetric(float64(runCPU.Microseconds())/1000/orders, "cpu-ms/order")
		b.ReportMetric(float64(issuingCPU.Microseconds())/1000/orders, "issue-cpu-ms/order")
		b.ReportMetric(runCPU.Seconds()/issuingCPU.Seconds(), "cpu-x-issue")
		// The same in user CPU alone: what the kernel's work (the outbox's
		// file creation, see above) leaves.
		b.ReportMetric(runUser.Seconds()/issuingUser.Seconds(), "user-cpu-x-issue")
	})
}

// cpuTime is the CPU time the process used so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// userTime is the user CPU time the process used so far.
func userTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano())
}

// issueAll issues every invoice due on 2026-12-01 without documents, as
// steps 3 and 4 of Invoices do.
func issueAll(b *testing.B, db *store.DB) {
	b.Helper()
	now, loc := at(2026, 12, 1, 6, 0), delivery.DefaultRules().Location
	due, err := billing.Due(context.Background(), db, now, loc)
	if err != nil || len(due) != benchProducers()*benchShops {
		b.Fatalf("%d due, %v", len(due), err)
	}
	for _, id := range due {
		if inv, err := billing.IssueDue(context.Background(), db, id, now, loc); err != nil || inv == nil {
			b.Fatalf("order %s: %v, %v", id, inv, err)
		}
	}
}

// BenchmarkInvoiceIssue is the same run without documents: issuing only
// (steps 3 and 4 of Invoices).
func BenchmarkInvoiceIssue(b *testing.B) {
	benchDBs(b, func(b *testing.B, open func(testing.TB) *store.DB) {
		db := open(b)
		round := 0
		for b.Loop() {
			b.StopTimer()
			round++
			seedBench(b, db, round)
			b.StartTimer()
			issueAll(b, db)
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*benchProducers()*benchShops), "ms/order")
	})
}

// BenchmarkDeliveriesRunWithWaitingInvoices is one run of the deliveries
// job (every 5 minutes) on a platform whose unsent invoices all wait for a
// confirmed address: rounds × 1,000 invoices issued to parties none of
// which confirmed its email. Nothing can go: the run's time is what the
// documents that wait cost it. Issue 20 saw 8,263 waiting credit notes take
// a run 3.3 s when each was claimed, loaded and released; the jobs now
// select only what can go (documentReady), so the run should barely grow
// with them.
func BenchmarkDeliveriesRunWithWaitingInvoices(b *testing.B) {
	for _, rounds := range []int{1, 4} {
		b.Run(fmt.Sprintf("waiting=%d", rounds*benchProducers()*benchShops), func(b *testing.B) {
			benchDBs(b, func(b *testing.B, open func(testing.TB) *store.DB) {
				db := open(b)
				now, loc := at(2026, 12, 1, 6, 0), delivery.DefaultRules().Location
				for round := 1; round <= rounds; round++ {
					seedBench(b, db, round)
				}
				due, err := billing.Due(context.Background(), db, now, loc)
				if err != nil || len(due) != rounds*benchProducers()*benchShops {
					b.Fatalf("%d due, %v", len(due), err)
				}
				for _, id := range due {
					if inv, err := billing.IssueDue(context.Background(), db, id, now, loc); err != nil || inv == nil {
						b.Fatalf("order %s: %v, %v", id, inv, err)
					}
				}
				// No address confirmed, the organisations' nor their members'
				// (people, since the teams): every invoice waits.
				for _, q := range []string{`UPDATE users SET email_confirmed = '', accounting_confirmed = ''`, `UPDATE people SET email_confirmed = ''`} {
					if _, err := store.Exec(context.Background(), db, q); err != nil {
						b.Fatal(err)
					}
				}
				e := env(db, mail.Outbox{Dir: filepath.Join(b.TempDir(), "outbox"), From: "no-reply@primeur.local"})
				for b.Loop() {
					r, err := jobs.Deliveries(context.Background(), e, now.Add(30*time.Minute))
					if err != nil || r.Get(jobs.InvoicesSent) != 0 {
						b.Fatalf("%s, %v", r, err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/run")
			})
		})
	}
}
