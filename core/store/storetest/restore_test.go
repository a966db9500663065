package storetest_test

import (
	"os"
	"testing"

	"primeur/core/store/storetest"
)

// TestRestoreGivesTheOriginBack: on PostgreSQL, a clone written in every
// way — rows added, changed and deleted (a cascade among them), a
// sequence and an identity advanced — is, once restored, its origin again,
// row for row and value for value, the first time (every table) and the
// next (the tables written since, a cascade's among them); a foreign key
// still refuses what it refused (its trigger was off for the restore only).
func TestRestoreGivesTheOriginBack(t *testing.T) {
	if os.Getenv(storetest.EnvURL) == "" {
		t.Skip("PostgreSQL only: SQLite clones")
	}
	db := storetest.Postgres(t)
	for _, q := range []string{
		`CREATE SEQUENCE counter`,
		`SELECT nextval('counter')`,
		`CREATE TABLE parent (id TEXT PRIMARY KEY, n BIGINT NOT NULL DEFAULT 7)`,
		`CREATE TABLE a_child (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, parent_id TEXT NOT NULL REFERENCES parent(id) ON DELETE CASCADE,
			next_id BIGINT REFERENCES a_child(id))`,
		`INSERT INTO parent (id) VALUES ('p1'), ('p2')`,
		`INSERT INTO a_child (parent_id) VALUES ('p1'), ('p2')`,
		`UPDATE a_child SET next_id = 2 WHERE id = 1`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	tables := storetest.Tables(t, db)
	want := storetest.Snapshot(t, db, tables...)
	clone := storetest.Clone(t, db)
	for _, step := range []struct {
		name   string
		writes []string
	}{
		{"the first restore", []string{
			`SELECT nextval('counter')`,
			`INSERT INTO parent (id, n) VALUES ('p3', 1)`,
			`INSERT INTO a_child (parent_id) VALUES ('p3')`,
			`UPDATE parent SET n = 9 WHERE id = 'p2'`,
		}},
		{"a restore of the tables written", []string{
			`SELECT nextval('counter')`,
			`DELETE FROM parent WHERE id = 'p1'`, // and its child
			`INSERT INTO parent (id) VALUES ('p4')`,
		}},
		{"a restore after no write", nil},
	} {
		for _, q := range step.writes {
			if _, err := clone.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		clone = storetest.Restore(t, db, clone)
		if got := storetest.Snapshot(t, clone, tables...); got != want {
			t.Fatalf("%s:\n%s", step.name, storetest.Changes(want, got))
		}
	}
	var next, counter int64
	if err := clone.Get(&counter, `SELECT nextval('counter')`); err != nil || counter != 2 {
		t.Fatalf("the sequence: %d, %v", counter, err)
	}
	if err := clone.Get(&next, `INSERT INTO a_child (parent_id) VALUES ('p2') RETURNING id`); err != nil || next != 3 {
		t.Fatalf("the identity: %d, %v", next, err)
	}
	if _, err := clone.Exec(`INSERT INTO a_child (parent_id) VALUES ('nobody')`); err == nil {
		t.Fatal("the foreign key took a child of nobody")
	}
}
