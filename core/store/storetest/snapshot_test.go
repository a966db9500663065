package storetest_test

import (
	"slices"
	"strings"
	"testing"

	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestSnapshotSeesEveryColumn changes a table in every way a write can,
// on both engines: each change shows in the snapshot, whatever the
// column, and Changes names the rows concerned; a write to another table
// shows only when that table is snapshotted.
func TestSnapshotSeesEveryColumn(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		tests := []struct {
			name    string
			sql     []string
			changed bool
			changes string // a line Changes must hold
		}{
			{"nothing", nil, false, ""},
			{"a rewrite to the same values", []string{`UPDATE snap SET n = n, s = s`}, false, ""},
			{"a number", []string{`UPDATE snap SET n = 3 WHERE id = 'a'`}, true, `+ snap | "a" | 3 | <nil> | <nil>`},
			{"a text", []string{`UPDATE snap SET s = 'y' WHERE id = 'b'`}, true, `+ snap | "b" | 2 | "y"`},
			{"an empty text for a null", []string{`UPDATE snap SET s = '' WHERE id = 'a'`}, true, `"a" | 1 | ""`},
			{"the last column", []string{`UPDATE snap SET late = 'z' WHERE id = 'a'`}, true, `"z"`},
			{"a row added", []string{`INSERT INTO snap (id, n) VALUES ('c', 0)`}, true, `+ snap | "c" | 0 | <nil> | <nil>`},
			{"a row removed", []string{`DELETE FROM snap WHERE id = 'b'`}, true, `- snap | "b" | 2`},
			{"a column added", []string{`ALTER TABLE snap ADD COLUMN later TEXT`}, true, `+ snap (id, n, s, late, later)`},
			{"another table", []string{`INSERT INTO other (id) VALUES ('o2')`}, false, ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				for _, q := range []string{`DROP TABLE IF EXISTS snap`, `DROP TABLE IF EXISTS other`,
					`CREATE TABLE snap (id TEXT PRIMARY KEY, n BIGINT NOT NULL, s TEXT)`,
					`ALTER TABLE snap ADD COLUMN late TEXT`,
					`CREATE TABLE other (id TEXT PRIMARY KEY)`,
					`INSERT INTO snap (id, n, s) VALUES ('b', 2, 'x'), ('a', 1, NULL)`,
					`INSERT INTO other (id) VALUES ('o1')`} {
					if _, err := db.Exec(q); err != nil {
						t.Fatal(err)
					}
				}
				before := storetest.Snapshot(t, db, "snap")
				beforeAll := storetest.Snapshot(t, db)
				for _, q := range tt.sql {
					if _, err := db.Exec(q); err != nil {
						t.Fatal(err)
					}
				}
				after := storetest.Snapshot(t, db, "snap")
				if (after != before) != tt.changed {
					t.Fatalf("changed = %v, want %v:\n%s", after != before, tt.changed, storetest.Changes(before, after))
				}
				changes := storetest.Changes(before, after)
				if (changes != "") != tt.changed || !strings.Contains(changes, tt.changes) {
					t.Fatalf("changes:\n%s\nwant a line with %q", changes, tt.changes)
				}
				if all := storetest.Snapshot(t, db); (all != beforeAll) != (len(tt.sql) > 0 && tt.name != "a rewrite to the same values") {
					t.Fatalf("every table: changed = %v\n%s", all != beforeAll, storetest.Changes(beforeAll, all))
				}
			})
		}
	})
}

// TestSnapshotExcept leaves out the tables named, and only them.
func TestSnapshotExcept(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		tables := storetest.Tables(t, db)
		for _, want := range []string{"users", "needs", "sessions", "throttle", "goose_db_version"} {
			if !slices.Contains(tables, want) {
				t.Fatalf("tables %v lack %s", tables, want)
			}
		}
		snap := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...)
		for _, table := range tables {
			shown := strings.Contains(snap, "\n"+table+" (") || strings.HasPrefix(snap, table+" (")
			if shown == slices.Contains(storetest.Bookkeeping, table) {
				t.Errorf("%s shown: %v", table, shown)
			}
		}
		before := snap
		if _, err := store.Exec(t.Context(), db, `INSERT INTO throttle (key, attempts, window_start, window_end) VALUES ('k', 1, 0, 0)`); err != nil {
			t.Fatal(err)
		}
		if after := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...); after != before {
			t.Fatalf("a bookkeeping write shows:\n%s", storetest.Changes(before, after))
		}
	})
}

// TestChanges lists the lines each side lacks, repeated lines counted.
func TestChanges(t *testing.T) {
	tests := []struct{ before, after, want string }{
		{"a\nb\n", "a\nb\n", ""},
		{"a\nb\n", "a\nc\n", "- b\n+ c\n"},
		{"a\na\n", "a\n", "- a\n"},
		{"", "x\n", "+ x\n"},
	}
	for _, tt := range tests {
		if got := storetest.Changes(tt.before, tt.after); got != tt.want {
			t.Errorf("Changes(%q, %q) = %q, want %q", tt.before, tt.after, got, tt.want)
		}
	}
}

// TestQueryPlan reads the plan's steps on both engines; on SQLite a read
// by need goes through proposals_need.
func TestQueryPlan(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		plan := storetest.QueryPlan(t, db, `SELECT id FROM proposals WHERE need_id = ?`, "n")
		if len(plan) == 0 {
			t.Fatal("no plan")
		}
		if db.Dialect == store.SQLite && !strings.Contains(strings.Join(plan, "; "), "proposals_need") {
			t.Fatalf("plan %q does not use proposals_need", plan)
		}
	})
}
