package planning_test

import (
	"bytes"
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/xuri/excelize/v2"

	"primeur/core"
	"primeur/core/catalog"
	"primeur/core/planning"
	"primeur/core/planning/planningtest"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// Size of the benchmark file: 300 products × 24 months (7 200 cells).
const benchProducts, benchMonths = 300, 24

func benchFile(b *testing.B) []byte {
	b.Helper()
	data, err := planningtest.Workbook(planningtest.Large(benchProducts, "2027-01", benchMonths))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkExcelImport compares, on the same 300 × 24 file and in one run:
//
//   - raw-read: what excelize alone costs, OpenReader then GetRows of the
//     first sheet;
//   - parse: planning.ParseFile (checks, reading the sheets, validation);
//   - import/<db>: planning.ImportXLSX end to end for a new shop each time
//     (catalogue, parse, 7 200 needs written in one transaction, the event);
//   - limit/<db>: the physical limit of the same work (issue 20): the
//     parse, then a bare insert of the same 7 200 rows in one transaction
//     (store.Insert: COPY on PostgreSQL, multi-row INSERT on SQLite),
//     without reading what is stored, the rules, the views nor the event.
//
// Besides ns/op, each reports cpu-ms/op: the process's CPU time (user +
// system, from getrusage) per operation, which a loaded machine disturbs
// less than wall time. (The PostgreSQL server's own CPU is not in it.)
// The figures and the ratio go to docs/BENCHMARKS.md.
func BenchmarkExcelImport(b *testing.B) {
	data := benchFile(b)
	b.Run("raw-read", func(b *testing.B) {
		defer cpuPerOp(b)()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			f, err := excelize.OpenReader(bytes.NewReader(data))
			if err != nil {
				b.Fatal(err)
			}
			rows, err := f.GetRows(f.GetSheetList()[0])
			if err != nil || len(rows) != benchProducts+1 {
				b.Fatalf("%d rows, %v", len(rows), err)
			}
			f.Close()
		}
	})
	b.Run("parse", func(b *testing.B) {
		ps, err := catalog.Catalogue()
		if err != nil {
			b.Fatal(err)
		}
		ix := catalog.NewIndex(ps)
		defer cpuPerOp(b)()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			imp, err := planning.ParseFile("bench.xlsx", data, ix, planning.ParseOptions{})
			if err != nil || len(imp.Rows) != benchProducts {
				b.Fatal(err)
			}
		}
	})
	for _, engine := range []string{"sqlite", "postgres"} {
		for _, limit := range []bool{false, true} {
			name := "import-" + engine
			if limit {
				name = "limit-" + engine
			}
			b.Run(name, func(b *testing.B) {
				var db *store.DB
				if engine == "sqlite" {
					db = storetest.SQLite(b)
				} else {
					db = storetest.Postgres(b)
				}
				ctx := context.Background()
				if err := planningtest.AddSynthetic(ctx, db, benchProducts); err != nil {
					b.Fatal(err)
				}
				defer cpuPerOp(b)()
				b.SetBytes(int64(len(data)))
				i := 0
				for b.Loop() {
					b.StopTimer()
					i++
					shop := core.NewID()
					if _, err := store.Exec(ctx, db, `INSERT INTO users (id, type, email, email_key, name, password_hash, created_at, updated_at)
						VALUES (?, 'distributor', ?, ?, 'Bench', 'x', 0, 0)`, shop, fmt.Sprintf("b%d@x.fr", i), fmt.Sprintf("b%d@x.fr", i)); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					if limit {
						bareImport(b, db, shop, data)
						continue
					}
					res, err := planning.ImportXLSX(ctx, db, shop, "bench.xlsx", data, now, planning.ImportOptions{})
					if err != nil || res.DBSuccesses != benchProducts*benchMonths {
						b.Fatalf("%d applied, %v", res.DBSuccesses, err)
					}
				}
			})
		}
	}
}

// bareImport is the limit of an import: the file parsed with the
// catalogue read, then its cells inserted as new needs in one transaction,
// nothing read back.
func bareImport(b *testing.B, db *store.DB, shop string, data []byte) {
	ctx := context.Background()
	ps, err := catalog.All(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	imp, err := planning.ParseFile("bench.xlsx", data, catalog.NewIndex(ps), planning.ParseOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var needs []planning.Need
	ms := now.UnixMilli()
	for _, r := range imp.Rows {
		for _, c := range r.Cells {
			needs = append(needs, planning.Need{ID: core.NewID(), DistributorID: shop, ProductID: r.Product.ID, Month: imp.Months[c.Month],
				Quantity: c.Quantity, CreatedAt: ms, UpdatedAt: ms})
		}
	}
	if len(needs) != benchProducts*benchMonths {
		b.Fatalf("%d cells", len(needs))
	}
	if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		return store.Insert(ctx, tx, "needs", []string{"id", "distributor_id", "product_id", "month", "quantity", "created_at", "updated_at"},
			len(needs), func(i int, v []any) {
				n := needs[i]
				v[0], v[1], v[2], v[3], v[4], v[5], v[6] = n.ID, n.DistributorID, n.ProductID, n.Month, int64(n.Quantity), n.CreatedAt, n.UpdatedAt
			})
	}); err != nil {
		b.Fatal(err)
	}
}

// cpuPerOp starts measuring the process's CPU time; the function it returns
// reports it per operation as cpu-ms/op.
func cpuPerOp(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
