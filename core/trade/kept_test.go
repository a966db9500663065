package trade_test

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/catalogadmin"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
)

// TestKeptCommitmentsWriters: an order keeps the commitments it plans
// from, which each acceptance writes (kept.go). Between two acceptances on
// an order, a writer of its commitments commits; the second acceptance
// must plan from the commitments as they are — the order it leaves is the
// one a full re-plan from the database leaves (trade.ReplanOrder changes
// nothing after it) — and leave the order keeping them (as the re-plan
// reads them). One case per writer of an order's commitments: a writer
// that forgets to set the kept commitments back to NULL, or to write them,
// fails its case. Without such a writer (or after an acceptance, which
// keeps them), the acceptance must not read the commitments in its
// transaction; after the others, it must.
func TestKeptCommitmentsWriters(t *testing.T) {
	t.Parallel()
	const month = "2026-12-01"
	for _, c := range []struct {
		name   string
		writer func(t *testing.T, f *fixture, carrots string)
		read   bool
	}{
		{"none", nil, false},
		{"acceptance of another need of the order", func(t *testing.T, f *fixture, carrots string) {
			ok(t)(propose(f.db, f.farm, carrots, f.farm.ID, 40, 1.5, now))
			ok(t)(review(f.db, f.shop, carrots, f.farm.ID, true, now))
		}, false},
		{"merge of a product type of the order", func(t *testing.T, f *fixture, _ string) {
			err := f.db.Tx(ctx, func(tx *sqlx.Tx) error {
				_, err := catalogadmin.Merge(ctx, tx, "poivron", "courgette", now)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}, true},
		{"EnsureOrder, its caller writing a commitment", func(t *testing.T, f *fixture, carrots string) {
			err := f.db.Tx(ctx, func(tx *sqlx.Tx) error {
				_, err := trade.EnsureOrder(ctx, tx, f.farm.ID, f.shop.ID, month, now)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			f.row(t, carrots, f.farm.ID, planning.StatusAccepted, planning.FromProducer, 40_00, 1_50)
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				f := setup(t, db)
				tomatoes := f.need(t, "tomate", month, 100)
				peppers := f.need(t, "poivron", month, 100)
				carrots := f.need(t, "carotte", month, 100)
				for _, n := range []string{tomatoes, peppers} {
					ok(t)(propose(db, f.farm, n, f.farm.ID, 30, 2, now))
					ok(t)(review(db, f.shop, n, f.farm.ID, true, now))
				}
				ok(t)(propose(db, f.farm, tomatoes, f.farm.ID, 50, 2, now)) // a correction, accepted below
				if c.writer != nil {
					c.writer(t, f, carrots)
				}
				var (
					mu   sync.Mutex
					read bool
				)
				commitments := trade.CommitmentsQuery[:strings.IndexByte(trade.CommitmentsQuery, '?')] // PostgreSQL's text too
				stop := db.Watch(func(q string) {
					mu.Lock()
					read = read || strings.HasPrefix(q, commitments)
					mu.Unlock()
				})
				_, err := review(db, f.shop, tomatoes, f.farm.ID, true, now)
				stop()
				if err != nil {
					t.Fatal(err)
				}
				if read != c.read {
					t.Errorf("the acceptance read the commitments in its transaction: %v, want %v", read, c.read)
				}
				checkKept(t, db, f, month)
				accepted := plannedLines(t, db, f, month)
				if err := db.Tx(ctx, func(tx *sqlx.Tx) error {
					return trade.ReplanOrder(ctx, tx, order(t, tx, f.farm.ID, f.shop.ID, month).ID, now)
				}); err != nil {
					t.Fatal(err)
				}
				if replanned := plannedLines(t, db, f, month); replanned != accepted {
					t.Errorf("the acceptance planned from stale commitments:\n%s\na full re-plan:\n%s", accepted, replanned)
				}
			})
		})
	}
}

// TestKeptCommitmentsFollowAcceptances: after each acceptance of a series
// on one order — commitments made, raised, lowered, ended, refused
// corrections — the order keeps its commitments as the re-plan reads them.
func TestKeptCommitmentsFollowAcceptances(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		const month = "2026-12-01"
		f := setup(t, db)
		tomatoes := f.need(t, "tomate", month, 100)
		carrots := f.need(t, "carotte", month, 100)
		for i, s := range []struct {
			need     string
			qty      float64
			accepted bool
		}{
			{tomatoes, 30, true}, {carrots, 20, true}, {tomatoes, 60, true}, {carrots, 10, true},
			{tomatoes, 5, false}, {tomatoes, 0, true}, {carrots, 0, true}, {carrots, 15, true},
		} {
			ok(t)(propose(db, f.farm, s.need, f.farm.ID, s.qty, 2.5, now))
			ok(t)(review(db, f.shop, s.need, f.farm.ID, s.accepted, now))
			if order(t, db, f.farm.ID, f.shop.ID, month) == nil {
				continue // ended, and deleted with its last commitment
			}
			t.Run(fmt.Sprint(i), func(t *testing.T) { checkKept(t, db, f, month) })
		}
	})
}

// checkKept fails unless the order of the farm and the shop for month
// keeps its commitments, as the re-plan reads them.
func checkKept(t *testing.T, db store.Q, f *fixture, month string) {
	t.Helper()
	kept, valid, read, err := trade.KeptCommitments(ctx, db, f.farm.ID, f.shop.ID, month)
	if err != nil {
		t.Fatal(err)
	}
	if !valid || kept != read {
		t.Errorf("the order keeps (%v) commitments\n%s\nthe re-plan reads\n%s", valid, kept, read)
	}
}

// plannedLines renders the planned lines of the farm's order with the
// shop for month, sorted.
func plannedLines(t *testing.T, db store.Q, f *fixture, month string) string {
	t.Helper()
	o := order(t, db, f.farm.ID, f.shop.ID, month)
	var out []string
	for _, d := range o.Deliveries {
		if d.Status != orders.Planned {
			continue
		}
		for _, l := range d.Lines {
			out = append(out, fmt.Sprintf("%s %s %s %v %v", d.Date, l.ProductID, l.NeedID, l.QuantityExpected, l.Price))
		}
	}
	slices.SortFunc(out, cmp.Compare)
	return strings.Join(out, "\n")
}
