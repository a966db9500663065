package storetest_test

import (
	"context"
	"slices"
	"testing"

	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestFreshDatabaseIsMigrated: the database a test gets (a copy of the
// process's migrated template) is what running every migration on an
// empty database gives: the same tables, columns, rows (the catalogue, the
// migrations' own table), indexes, constraints and sequences, and it takes
// writes of its own.
func TestFreshDatabaseIsMigrated(t *testing.T) {
	storetest.EachEmpty(t, func(t *testing.T, migrated *store.DB) {
		if _, err := schema.Migrate(context.Background(), migrated); err != nil {
			t.Fatal(err)
		}
		fresh := storetest.SQLite(t)
		if migrated.Dialect == store.Postgres {
			fresh = storetest.Postgres(t)
		}
		// Every table's rows; the migrations' own table by versions (its
		// rows carry the time they ran).
		want, got := storetest.SnapshotExcept(t, migrated, "goose_db_version"), storetest.SnapshotExcept(t, fresh, "goose_db_version")
		if got != want {
			t.Fatalf("the copy of the template differs from a migrated database:\n%s", storetest.Changes(want, got))
		}
		var wantVersions, gotVersions []int64
		const versions = `SELECT version_id FROM goose_db_version WHERE is_applied ORDER BY id`
		if err := migrated.Select(&wantVersions, versions); err != nil {
			t.Fatal(err)
		}
		if err := fresh.Select(&gotVersions, versions); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(gotVersions, wantVersions) || len(wantVersions) < 30 {
			t.Errorf("migrations applied: copy %v, migrated %v", gotVersions, wantVersions)
		}
		if got, want := definitions(t, fresh), definitions(t, migrated); !slices.Equal(got, want) {
			t.Errorf("indexes and constraints:\n copy     %v\n migrated %v", got, want)
		}
		if _, err := schema.Check(context.Background(), fresh); err != nil {
			t.Errorf("the copy's schema version: %v", err)
		}
		// Its sequences and identities go on from where they were.
		if _, err := fresh.Exec(`INSERT INTO goose_db_version (version_id, is_applied) VALUES (999999, false)`); err != nil {
			t.Fatalf("a write to the copy: %v", err)
		}
		other := storetest.SQLite(t)
		if migrated.Dialect == store.Postgres {
			other = storetest.Postgres(t)
		}
		var n int
		if err := other.Get(&n, `SELECT COUNT(*) FROM goose_db_version WHERE version_id = 999999`); err != nil || n != 0 {
			t.Fatalf("another test's database sees the write: %d, %v", n, err)
		}
	})
}

// definitions are the names and definitions of db's indexes and
// constraints, the schema's name left out.
func definitions(t *testing.T, db *store.DB) []string {
	t.Helper()
	query := `SELECT type || ' ' || name || ' ' || tbl_name || ' ' || COALESCE(sql, '') FROM sqlite_master
		WHERE type IN ('index', 'table') ORDER BY type, name`
	if db.Dialect == store.Postgres {
		query = `SELECT 'index ' || indexname || ' ' || tablename || ' ' || replace(indexdef, schemaname || '.', '')
			FROM pg_indexes WHERE schemaname = current_schema()
			UNION ALL
			SELECT 'constraint ' || c.conname || ' ' || r.relname || ' ' || pg_get_constraintdef(c.oid, true)
			FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid
			WHERE c.connamespace = current_schema()::regnamespace
			ORDER BY 1`
	}
	var out []string
	if err := db.Select(&out, query); err != nil {
		t.Fatal(err)
	}
	return out
}
