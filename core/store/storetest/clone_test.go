package storetest_test

import (
	"slices"
	"testing"

	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestCloneIsACopy: a clone holds every table, row and column of its
// source, keeps its constraints, indexes (by name) and sequences, and
// neither sees the other's later writes.
func TestCloneIsACopy(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		for _, q := range []string{
			`CREATE TABLE parent (id TEXT PRIMARY KEY, n BIGINT NOT NULL DEFAULT 7, CHECK (n >= 0))`,
			`CREATE TABLE child (id TEXT PRIMARY KEY, parent_id TEXT NOT NULL REFERENCES parent(id) ON DELETE CASCADE, s TEXT)`,
			`CREATE UNIQUE INDEX child_by_parent ON child (parent_id, s)`,
			`INSERT INTO parent (id) VALUES ('p1')`,
			`INSERT INTO parent (id, n) VALUES ('p2', 3)`,
			`INSERT INTO child (id, parent_id, s) VALUES ('c1', 'p1', 'x'), ('c2', 'p2', NULL)`,
		} {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		before := storetest.Snapshot(t, db)
		clone := storetest.Clone(t, db)
		if got := storetest.Snapshot(t, clone); got != before {
			t.Fatalf("the clone differs:\n%s", storetest.Changes(before, got))
		}
		// Constraints, defaults and indexes came along.
		for _, refused := range []string{
			`INSERT INTO child (id, parent_id) VALUES ('c3', 'nobody')`,
			`INSERT INTO parent (id, n) VALUES ('p3', -1)`,
			`INSERT INTO parent (id) VALUES ('p1')`,
			`INSERT INTO child (id, parent_id, s) VALUES ('c4', 'p1', 'x')`,
		} {
			if _, err := clone.Exec(refused); err == nil {
				t.Errorf("the clone took %s", refused)
			}
		}
		if _, err := clone.Exec(`INSERT INTO parent (id) VALUES ('p4')`); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := clone.Get(&n, `SELECT n FROM parent WHERE id = 'p4'`); err != nil || n != 7 {
			t.Fatalf("default: %d, %v", n, err)
		}
		if _, err := clone.Exec(`DELETE FROM parent WHERE id = 'p1'`); err != nil {
			t.Fatal(err)
		}
		if err := clone.Get(&n, `SELECT COUNT(*) FROM child`); err != nil || n != 1 {
			t.Fatalf("cascade: %d children, %v", n, err)
		}
		if got, want := indexes(t, clone), indexes(t, db); !slices.Equal(got, want) || !slices.Contains(got, "child_by_parent") {
			t.Errorf("the clone's indexes: %v, the source's: %v", got, want)
		}
		// The source saw nothing of it, and the clone nothing of the
		// source's next writes.
		if got := storetest.Snapshot(t, db); got != before {
			t.Fatalf("the source changed:\n%s", storetest.Changes(before, got))
		}
		if _, err := db.Exec(`INSERT INTO parent (id) VALUES ('p5')`); err != nil {
			t.Fatal(err)
		}
		if err := clone.Get(&n, `SELECT COUNT(*) FROM parent WHERE id = 'p5'`); err != nil || n != 0 {
			t.Fatalf("the clone sees the source's write: %d, %v", n, err)
		}
		// The migrations' own table, with its sequence on PostgreSQL.
		var versions, cloned int
		if err := db.Get(&versions, `SELECT COUNT(*) FROM goose_db_version`); err != nil {
			t.Fatal(err)
		}
		if err := clone.Get(&cloned, `SELECT COUNT(*) FROM goose_db_version`); err != nil || cloned != versions || versions == 0 {
			t.Fatalf("versions: %d cloned of %d, %v", cloned, versions, err)
		}
		if _, err := clone.Exec(`INSERT INTO goose_db_version (version_id, is_applied) VALUES (999999, false)`); err != nil {
			t.Fatalf("the clone's sequence: %v", err)
		}
	})
}

// indexes are the names of the indexes of db's tables parent and child.
func indexes(t *testing.T, db *store.DB) []string {
	t.Helper()
	query := `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('parent', 'child') ORDER BY name`
	if db.Dialect == store.Postgres {
		query = `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename IN ('parent', 'child') ORDER BY indexname`
	}
	var out []string
	if err := db.Select(&out, query); err != nil {
		t.Fatal(err)
	}
	return out
}
