package storetest_test

import (
	"os"
	"strings"
	"testing"

	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestPostgresSchemasAreRecycled: on PostgreSQL, the schema of a test
// that ended is the next test's, holding the template's rows again —
// rows changed, deleted and added put back, a sequence set back — while
// a schema whose shape a test changed is dropped, and the next test gets
// a copy of the template as it was. The tables are new to the planner, as
// a copy's are.
func TestPostgresSchemasAreRecycled(t *testing.T) {
	if os.Getenv(storetest.EnvURL) == "" {
		t.Skip("PostgreSQL only: a SQLite database is a file copy")
	}
	schemaOf := func(t *testing.T, db *store.DB) string {
		t.Helper()
		var name string
		if err := db.Get(&name, "SELECT current_schema()"); err != nil {
			t.Fatal(err)
		}
		return name
	}
	// added inserts a row into goose's version table, whose id a
	// sequence gives, and returns that id.
	added := func(t *testing.T, db *store.DB) int64 {
		t.Helper()
		var id int64
		if err := db.Get(&id, "INSERT INTO goose_db_version (version_id, is_applied) VALUES (999999, true) RETURNING id"); err != nil {
			t.Fatal(err)
		}
		return id
	}
	var first, want string
	var firstID int64
	t.Run("a test that writes", func(t *testing.T) {
		db := storetest.Postgres(t)
		first, want = schemaOf(t, db), storetest.Snapshot(t, db)
		for _, q := range []string{
			`UPDATE products SET name = name || ' (modifié)'`,
			`DELETE FROM families WHERE id NOT IN (SELECT family_id FROM products WHERE family_id IS NOT NULL)`,
			`DELETE FROM goose_db_version WHERE version_id = (SELECT MAX(version_id) FROM goose_db_version WHERE version_id < 999999)`,
		} {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		firstID = added(t, db)
		// Pages of rows, counted by an ANALYZE, that the next test must not
		// be told of.
		for _, q := range []string{
			`INSERT INTO goose_db_version (version_id, is_applied) SELECT 1000000 + g, true FROM generate_series(1, 5000) g`,
			`ANALYZE goose_db_version`,
		} {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		if storetest.Snapshot(t, db) == want {
			t.Fatal("the writes changed nothing")
		}
	})
	t.Run("the next test", func(t *testing.T) {
		db := storetest.Postgres(t)
		if got := schemaOf(t, db); got != first {
			t.Fatalf("schema %s, want the ended test's %s", got, first)
		}
		if got := storetest.Snapshot(t, db); got != want {
			t.Fatalf("the recycled schema is not the template:\n%s", storetest.Changes(want, got))
		}
		// The planner counts the rows and pages there are, or has never
		// counted them as for a copy: nothing of the ended test's rows (an
		// empty table's "no row in 21 pages" made the next test's queries
		// nested scans).
		var seen struct {
			Tuples float64 `db:"reltuples"`
			Pages  int64   `db:"relpages"`
			Rows   int64   `db:"rows"`
			Blocks int64   `db:"blocks"`
		}
		if err := db.Get(&seen, `SELECT c.reltuples, c.relpages, (SELECT COUNT(*) FROM goose_db_version) AS rows,
			pg_relation_size(c.oid) / 8192 AS blocks FROM pg_class c WHERE c.oid = 'goose_db_version'::regclass`); err != nil {
			t.Fatal(err)
		}
		fresh := seen.Tuples == -1 && seen.Pages == 0
		counted := seen.Tuples == float64(seen.Rows) && seen.Pages == seen.Blocks
		if !fresh && !counted {
			t.Fatalf("goose_db_version: the planner counts %v rows in %d pages; it holds %d rows in %d pages", seen.Tuples, seen.Pages, seen.Rows, seen.Blocks)
		}
		// Nor will it be counted behind the test's back: an ANALYZE of a
		// table emptied by DELETE is what said "no row in 21 pages".
		var options string
		if err := db.Get(&options, `SELECT coalesce(array_to_string(reloptions, ','), '') FROM pg_class WHERE oid = 'goose_db_version'::regclass`); err != nil ||
			!strings.Contains(options, "autovacuum_enabled=false") {
			t.Fatalf("goose_db_version: options %q (%v), want autovacuum off", options, err)
		}
		var stats int
		if err := db.Get(&stats, `SELECT COUNT(*) FROM pg_statistic WHERE starelid = 'goose_db_version'::regclass`); err != nil || stats != 0 {
			t.Fatalf("goose_db_version: %d column statistics of the ended test's rows (%v)", stats, err)
		}
		if id := added(t, db); id != firstID {
			t.Fatalf("the sequence gave %d, want %d as in a copy of the template", id, firstID)
		}
		if _, err := db.Exec(`ALTER TABLE families ADD COLUMN extra TEXT`); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("after a test that changed the shape", func(t *testing.T) {
		db := storetest.Postgres(t)
		if got := schemaOf(t, db); got == first {
			t.Fatalf("schema %s again, though a column was added to it", got)
		}
		var left int
		if err := db.Get(&left, "SELECT COUNT(*) FROM pg_namespace WHERE nspname = $1", first); err != nil || left != 0 {
			t.Fatalf("the changed schema %s is still there (%d, %v)", first, left, err)
		}
		if got := storetest.Snapshot(t, db); got != want {
			t.Fatalf("the new schema is not the template:\n%s", storetest.Changes(want, got))
		}
	})
}

// TestPostgresCommitsDoNotWaitForTheDisk: a test's PostgreSQL connections
// commit without waiting for the server's log flush (WithSearchPath).
func TestPostgresCommitsDoNotWaitForTheDisk(t *testing.T) {
	if os.Getenv(storetest.EnvURL) == "" {
		t.Skip("PostgreSQL only")
	}
	var got string
	if err := storetest.Postgres(t).Get(&got, "SHOW synchronous_commit"); err != nil || got != "off" {
		t.Fatalf("synchronous_commit %q (%v), want off", got, err)
	}
}
