package planning_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/activity"
	"primeur/core/decimal"
	"primeur/core/planning"
	"primeur/core/planning/planningtest"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// quantity reads the shop's need for a product and month (-1 if none).
func quantity(t *testing.T, db *store.DB, shopID, product, month string) decimal.Dec {
	t.Helper()
	var q []decimal.Dec
	if err := db.Select(&q, db.Rebind(`SELECT quantity FROM needs WHERE distributor_id = ? AND product_id = ? AND month = ?`), shopID, product, month); err != nil {
		t.Fatal(err)
	}
	if len(q) == 0 {
		return -1
	}
	return q[0]
}

func importFile(t *testing.T, db *store.DB, shopID, name string, at time.Time, opts planning.ImportOptions) planning.ImportResult {
	t.Helper()
	res, err := planning.ImportXLSX(context.Background(), db, shopID, name, xlsxFile(t, name), at, opts)
	if err != nil {
		t.Fatalf("import %s: %v", name, err)
	}
	return res
}

func TestImportXLSX(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		var progress []string
		res := importFile(t, db, f.shop.ID, "good.xlsx", now, planning.ImportOptions{
			Progress: func(done, total int, month string) { progress = append(progress, month) },
		})
		// 11 tomato, 6 melon, 12 potato and 3 carrot cells.
		if res.DBSuccesses != 32 || len(res.Needs) != 32 || len(res.DBErrors) != 0 {
			t.Fatalf("result: %d successes, %d needs, errors %+v", res.DBSuccesses, len(res.Needs), res.DBErrors)
		}
		if !slices.Equal(res.ProductsFound, []string{"Tomate", "Melon", "Pomme de terre", "Carotte"}) ||
			!slices.Equal(res.ProductsMissing, []string{"Kumquat", "Yuzu", "Physalis", "Fruit du dragon"}) {
			t.Fatalf("products %v / %v", res.ProductsFound, res.ProductsMissing)
		}
		if len(progress) != 12 || progress[0] != "2027-01-01" || progress[11] != "2027-12-01" {
			t.Fatalf("progress %v", progress)
		}
		ev := res.Event
		if ev.Type != activity.NeedImport || *ev.Data.Count != 32 || len(ev.Data.Dates) != 12 || ev.Data.Dates[0] != "2027-01-01" || ev.Origin.Email != "shop@x.fr" {
			t.Fatalf("event %+v", ev)
		}
		if got := quantity(t, db, f.shop.ID, "tomate", "2027-04-01"); got != 15025 {
			t.Fatalf("tomato in April = %v", got)
		}
		if got := quantity(t, db, f.shop.ID, "tomate", "2027-03-01"); got != -1 {
			t.Fatalf("an empty cell wrote %v", got)
		}
		if got := quantity(t, db, f.shop.ID, "melon", "2027-07-01"); got != decimal.FromInt(120) {
			t.Fatalf("melon in July = %v", got)
		}
		if list, _ := planning.List(context.Background(), db, planning.Filter{DistributorID: f.other.ID}); len(list) != 0 {
			t.Fatal("another shop got needs")
		}

		// Importing the same file again changes nothing but still counts.
		again := importFile(t, db, f.shop.ID, "good.xlsx", now, planning.ImportOptions{})
		if again.DBSuccesses != 32 || len(again.Needs) != 0 {
			t.Fatalf("re-import: %d successes, %d needs written", again.DBSuccesses, len(again.Needs))
		}

		// Accents and case.
		acc := importFile(t, db, f.shop.ID, "accents-case.xlsx", now, planning.ImportOptions{})
		if acc.DBSuccesses != 9 || len(acc.ProductsMissing) != 0 || quantity(t, db, f.shop.ID, "chou-fleur", "2027-02-01") != decimal.FromInt(14) ||
			quantity(t, db, f.shop.ID, "clementine", "2027-01-01") != 4050 {
			t.Fatalf("accents: %+v", acc)
		}

		feed, _ := activity.Feed(context.Background(), db, f.shop.ID, "", 0)
		if len(feed) != 3 || feed[0].Type != activity.NeedImport {
			t.Fatalf("one need:import event per import: %d events", len(feed))
		}
	})
}

// TestReimportOverCommitments imports a file, lets producers commit and
// propose on two of its needs, then imports a file asking for less there.
func TestReimportOverCommitments(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := setup(t, db)
		first := importFile(t, db, f.shop.ID, "good.xlsx", now, planning.ImportOptions{})
		need := func(product, month string) string {
			for _, n := range first.Needs {
				if n.Product == product && n.Date == month {
					return n.ID
				}
			}
			t.Fatalf("no %s need in %s", product, month)
			return ""
		}
		f.propose(t, need("tomate", "2027-01-01"), planning.StatusAccepted, 10000) // 100 kg committed
		f.propose(t, need("tomate", "2027-02-01"), planning.StatusProposed, 8000)  // 80 kg pending
		before := quantity(t, db, f.shop.ID, "tomate", "2027-01-01")

		res := importFile(t, db, f.shop.ID, "reimport.xlsx", now, planning.ImportOptions{})
		want := []planning.ImportError{
			{Product: "Tomate", ProductID: "tomate", Date: "2027-01-01", Quantity: 5000, Reserved: 10000, Cell: "B2", Message: planning.MsgBelowReserved},
			{Product: "Tomate", ProductID: "tomate", Date: "2027-02-01", Quantity: 6000, Reserved: 8000, Cell: "C2", Message: planning.MsgBelowReserved},
		}
		if !slices.Equal(res.DBErrors, want) {
			t.Fatalf("dbErrors %+v", res.DBErrors)
		}
		if res.DBSuccesses != 30 || *res.Event.Data.Count != 30 {
			t.Fatalf("%d successes", res.DBSuccesses)
		}
		if got := quantity(t, db, f.shop.ID, "tomate", "2027-01-01"); got != before {
			t.Fatalf("a need under its commitments changed: %v", got)
		}

		// Above the commitments, the new quantity is written.
		_, err := planning.Write(ctx, db, f.shop.ID, []planning.Cell{{ProductID: "tomate", Month: "2027-01-01", Quantity: 10001}}, now)
		if err != nil || quantity(t, db, f.shop.ID, "tomate", "2027-01-01") != 10001 {
			t.Fatalf("write above commitments: %v", err)
		}
	})
}

func TestImportPastMonthsAndDryRun(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		march := time.Date(2027, 3, 5, 9, 0, 0, 0, time.UTC)
		before := storetest.Snapshot(t, db)
		dry := importFile(t, db, f.shop.ID, "good.xlsx", march, planning.ImportOptions{DryRun: true})
		// January and February are past: 2 tomato, 1 melon, 2 potato and 2 carrot cells.
		if len(dry.DBErrors) != 7 || dry.DBErrors[0].Message != planning.MsgPastMonth || dry.DBSuccesses != 25 {
			t.Fatalf("dry run: %d errors, %d successes", len(dry.DBErrors), dry.DBSuccesses)
		}
		if storetest.Snapshot(t, db) != before {
			t.Fatal("a dry run wrote")
		}
		res := importFile(t, db, f.shop.ID, "good.xlsx", march, planning.ImportOptions{})
		if res.DBSuccesses != dry.DBSuccesses || len(res.DBErrors) != len(dry.DBErrors) || len(res.Needs) != 25 {
			t.Fatalf("import after dry run: %+v", res)
		}
	})
}

func TestBadFilesChangeNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		importFile(t, db, f.shop.ID, "good.xlsx", now, planning.ImportOptions{})
		before := storetest.Snapshot(t, db)
		for _, tt := range badFiles {
			_, err := planning.ImportXLSX(context.Background(), db, f.shop.ID, tt.file, xlsxFile(t, tt.file), now, planning.ImportOptions{})
			if msg, _ := importMessage(t, err); msg != tt.msg {
				t.Errorf("%s: %q", tt.file, msg)
			}
			if storetest.Snapshot(t, db) != before {
				t.Fatalf("%s changed the database", tt.file)
			}
		}
	})
}

// TestImportRollsBackOnFailure makes the import fail midway (its caller
// gives up after six months) and checks that the months already written
// are rolled back.
func TestImportRollsBackOnFailure(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		f := setup(t, db)
		before := storetest.Snapshot(t, db)
		_, err := planning.ImportXLSX(ctx, db, f.shop.ID, "good.xlsx", xlsxFile(t, "good.xlsx"), now, planning.ImportOptions{
			Progress: func(done, _ int, _ string) {
				if done == 6 {
					cancel() // the caller gives up halfway
				}
			},
		})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
		if storetest.Snapshot(t, db) != before {
			t.Fatal("half an import stayed")
		}
	})
}

// TestImportLargeFile applies the 10 000-row file to 10 000 synthetic
// products: 120 000 needs in one transaction.
func TestImportLargeFile(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("large import (skipped with -short and -race)")
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := setup(t, db)
		if err := planningtest.AddSynthetic(ctx, db, 10_000); err != nil {
			t.Fatal(err)
		}
		res := importFile(t, db, f.shop.ID, "large-10000.xlsx", now, planning.ImportOptions{})
		if res.DBSuccesses != 120_000 || len(res.ProductsMissing) != 0 || len(res.Needs) != 120_000 {
			t.Fatalf("%d successes, %d missing", res.DBSuccesses, len(res.ProductsMissing))
		}
		var n int
		if err := db.Get(&n, db.Rebind(`SELECT COUNT(*) FROM needs WHERE distributor_id = ?`), f.shop.ID); err != nil || n != 120_000 {
			t.Fatalf("%d needs stored, %v", n, err)
		}
	})
}

func TestCheckStandard(t *testing.T) {
	tests := []struct {
		name     string
		turnover float64
		months   []string
		field    string
		msg      string
	}{
		{"ok", 150000, []string{"2026-11", "2026-12-01", "2029-10"}, "", ""},
		{"zero turnover", 0, []string{"2026-12"}, "turnover", planning.MsgTurnover},
		{"negative turnover", -5, []string{"2026-12"}, "turnover", planning.MsgTurnover},
		{"NaN turnover", math.NaN(), []string{"2026-12"}, "turnover", planning.MsgTurnover},
		{"infinite turnover", math.Inf(1), []string{"2026-12"}, "turnover", planning.MsgTurnover},
		{"huge turnover", 2e9, []string{"2026-12"}, "turnover", planning.MsgTurnoverTooLarge},
		{"no months", 1000, nil, "months", planning.MsgStandardMonths},
		{"37 months", 1000, make([]string, 37), "months", planning.MsgStandardMonths},
		{"bad month", 1000, []string{"2026-12", "12/2026"}, "months[1]", planning.MsgBadMonth},
		{"past month", 1000, []string{"2026-10"}, "months[0]", planning.MsgPastMonth},
		{"repeated month", 1000, []string{"2026-12", "2026-12-01"}, "months[1]", planning.MsgStandardMonths},
	}
	for _, tt := range tests {
		months, err := planning.CheckStandard(tt.turnover, tt.months, now)
		if tt.msg == "" {
			if err != nil || fmt.Sprint(months) != "[2026-11-01 2026-12-01 2029-10-01]" {
				t.Errorf("%s: %v %v", tt.name, months, err)
			}
			continue
		}
		var v *core.ValidationError
		if !errors.As(err, &v) || v.Fields[0].Field != tt.field || v.Fields[0].Message != tt.msg {
			t.Errorf("%s: %v, want %s: %q", tt.name, err, tt.field, tt.msg)
		}
	}
}

func TestStandardImport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := setup(t, db)
		months := []string{"2026-12", "2027-01", "2027-02", "2027-03", "2027-04"}
		// A type an administrator retired is not simulated: it takes no
		// new need (issue 39).
		if _, err := store.Exec(ctx, db, `UPDATE products SET retired_at = 1 WHERE id = 'poireau'`); err != nil {
			t.Fatal(err)
		}
		before := storetest.Snapshot(t, db)
		preview, err := planning.SimulateStandard(ctx, db, 120000, months, now)
		if err != nil || len(preview) < 40 {
			t.Fatalf("simulation: %d products, %v", len(preview), err)
		}
		if storetest.Snapshot(t, db) != before {
			t.Fatal("a simulation wrote")
		}
		var carrot planning.StandardPreview
		for _, p := range preview {
			if len(p.Values) != planning.PreviewMonths {
				t.Fatalf("%s: %d months previewed", p.ID, len(p.Values))
			}
			if p.ID == "carotte" {
				carrot = p
			}
			if p.ID == "poireau" {
				t.Fatal("a retired type is simulated")
			}
		}
		// 120000/12 × 5.3 % × 1 / (0.66 × 1.3) = 617.72 kg, every month (flat).
		if carrot.Name != "Carotte" || carrot.Unit != "kg" || carrot.Values[0] != (planning.MonthQuantity{Date: "2026-12-01", Quantity: 61772}) {
			t.Fatalf("carrot %+v", carrot)
		}
		if _, err := planning.SimulateStandard(ctx, db, 1e9, months, now); refusalMessage(err) != planning.MsgTurnoverTooLarge {
			t.Fatalf("a turnover giving more than the largest need: %v", err)
		}

		// Commitments on one need: the commit keeps it and writes the rest.
		first, err := planning.Write(ctx, db, f.shop.ID, []planning.Cell{{ProductID: "carotte", Month: "2027-01-01", Quantity: 100000}}, now)
		if err != nil {
			t.Fatal(err)
		}
		f.propose(t, first.Needs[0].ID, planning.StatusAccepted, 90000)
		var res planning.StandardResult
		err = db.Tx(ctx, func(tx *sqlx.Tx) error {
			res, err = planning.ImportStandard(ctx, tx, f.shop.ID, 120000, months, now, nil)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.DBErrors) != 1 || res.DBErrors[0] != (planning.ImportError{
			Product: "Carotte", ProductID: "carotte", Date: "2027-01-01", Quantity: 61772, Reserved: 90000, Message: planning.MsgBelowReserved,
		}) {
			t.Fatalf("dbErrors %+v", res.DBErrors)
		}
		if res.DBSuccesses != len(res.Needs) || len(res.Needs) < 5*40 || res.Event.Type != activity.NeedImport || *res.Event.Data.Count != res.DBSuccesses ||
			len(res.Event.Data.Dates) != 5 {
			t.Fatalf("%d needs, %d successes, event %+v", len(res.Needs), res.DBSuccesses, res.Event)
		}
		for _, n := range res.Needs {
			if n.Quantity <= 0 {
				t.Fatalf("zero quantity written: %+v", n)
			}
		}
		if quantity(t, db, f.shop.ID, "carotte", "2027-01-01") != 100000 || quantity(t, db, f.shop.ID, "carotte", "2027-02-01") != 61772 {
			t.Fatal("carrot needs")
		}
		if _, err := planning.ImportStandard(ctx, db, f.shop.ID, 120000, []string{"2026-10"}, now, nil); refusalMessage(err) != planning.MsgPastMonth {
			t.Fatalf("past month: %v", err)
		}
	})
}
