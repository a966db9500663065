package reliability

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"primeur/core/planning/planningtest"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// needsAndEvents is every need and every event, all their columns.
func needsAndEvents(t *testing.T, db *store.DB) string {
	return storetest.Snapshot(t, db, "needs", "events")
}

func count(t *testing.T, db *store.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := store.Get(context.Background(), db, &n, query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// integrity checks a SQLite file after a crash.
func integrity(t *testing.T, b base, db *store.DB) {
	t.Helper()
	if b.url != "" {
		return
	}
	var res string
	if err := db.Get(&res, `PRAGMA integrity_check`); err != nil || res != "ok" {
		t.Fatalf("integrity check: %q %v", res, err)
	}
}

// TestKilledImportLeavesNothingHalfWritten uploads a large Excel file to a
// real daemon, kills the daemon (SIGKILL) once the import's transaction has
// written its first month, restarts it, and checks that the shop's needs
// and the events are exactly as before, and that the same upload then
// succeeds in full.
//
// Kill point: the daemon logs "import progress" (debug level) from inside
// the import's transaction after each month it wrote; the test kills it on
// the first such line, with 11 of the file's 12 months still to write. The
// upload must then fail (no answer): had the import finished first, the
// test fails instead of passing by luck.
func TestKilledImportLeavesNothingHalfWritten(t *testing.T) {
	t.Parallel()
	const products, months = 10_000, 12
	large, err := os.ReadFile(filepath.Join("..", "testdata", "xlsx", "large-10000.xlsx")) // 2027-01 to 2027-12
	if err != nil {
		t.Fatal(err)
	}
	for _, engine := range engines(t) {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			b, db := newBase(t, engine)
			if err := planningtest.AddSynthetic(context.Background(), db, products); err != nil {
				t.Fatal(err)
			}
			const now = "2026-12-10T10:00:00+01:00"
			d1, url := serve(t, "daemon", b, now)
			shop := register(t, url, "epicerie@example.fr", true)

			// Needs already there, which the killed import changes in its
			// first month and must leave as they were.
			first, _ := planningtest.Months(planningtest.GoodFirst, 2)
			small, err := planningtest.Workbook([][]any{planningtest.Header(first),
				{planningtest.Synthetic(1), 999, 999}, {planningtest.Synthetic(2), 999}, {"Tomate", 12.5, 30}})
			if err != nil {
				t.Fatal(err)
			}
			if res := shop.mustUpload("petit.xlsx", small); res.DBSuccesses != 5 {
				t.Fatalf("small import: %+v", res)
			}
			before := needsAndEvents(t, db)

			type answer struct {
				status int
				body   []byte
				err    error
			}
			answered := make(chan answer, 1)
			mark := d1.mark()
			go func() {
				status, body, err := shop.upload("grand.xlsx", large)
				answered <- answer{status, body, err}
			}()
			line, _ := d1.waitLine("the first month written by the large import", mark, func(l string) bool {
				return hasMsg(l, "import progress") && field(l, "done") == "1" && field(l, "total") == fmt.Sprint(months)
			})
			d1.kill()
			d1.gone()
			if a := <-answered; a.err == nil {
				t.Fatalf("the upload was answered (%d): the import finished before the kill", a.status)
			}
			t.Logf("killed after %q", field(line, "month"))

			integrity(t, b, db)
			if after := needsAndEvents(t, db); after != before {
				t.Fatalf("the killed import left writes behind:\nbefore:\n%s\nafter:\n%s", before, after)
			}

			d2, url := serve(t, "daemon restarted", b, now)
			shop = login(t, url, "epicerie@example.fr")
			if res := shop.mustUpload("grand.xlsx", large); res.DBSuccesses != products*months {
				t.Fatalf("re-run: %d cells applied", res.DBSuccesses)
			}
			var shopID string
			if err := store.Get(context.Background(), db, &shopID, `SELECT id FROM users WHERE email_key = ?`, "epicerie@example.fr"); err != nil {
				t.Fatal(err)
			}
			// The large file's 120 000 needs, and the two tomato needs of the
			// small file, which the large one does not name.
			if n := count(t, db, `SELECT COUNT(*) FROM needs WHERE distributor_id = ?`, shopID); n != products*months+2 {
				t.Fatalf("%d needs after the re-run", n)
			}
			if n := count(t, db, `SELECT COUNT(*) FROM events WHERE type = 'need:import'`); n != 2 {
				t.Fatalf("%d import events", n)
			}
			if code := d2.term(); code != 0 {
				t.Fatalf("the daemon stopped with status %d", code)
			}
		})
	}
}
