package commands

import (
	"context"
	"strings"
	"testing"

	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestAnOlderBinaryRefusesANewerDatabase: serve, migrate and demo — the
// commands that migrate — refuse a database whose schema is of a later
// version of Primeur, in French, and write nothing to it, as every other
// command does (schema.Open): after an upgrade, the older binary cannot
// be started on the database by mistake (README "Running Primeur for
// real", "Upgrades").
func TestAnOlderBinaryRefusesANewerDatabase(t *testing.T) {
	engines(t, func(t *testing.T, db *store.DB, _ string) {
		if _, err := db.ExecContext(context.Background(), `INSERT INTO goose_db_version (version_id, is_applied) VALUES (99999, true)`); err != nil {
			t.Fatal(err)
		}
		before := storetest.Snapshot(t, db)
		for _, args := range [][]string{
			{"migrate"},
			{"serve", "--addr", "127.0.0.1:0"},
			{"demo"},
			{"user", "list"},
		} {
			code, out, errOut := run(t, "", args...)
			if code != 1 || !strings.Contains(errOut, "primeur : la base vient d'une version plus récente de Primeur (schéma version 99999") {
				t.Errorf("%v: code %d, stdout %q, stderr %q", args, code, out, errOut)
			}
		}
		if after := storetest.Snapshot(t, db); after != before {
			t.Fatalf("the database changed:\n%s", storetest.Changes(before, after))
		}
	})
}
