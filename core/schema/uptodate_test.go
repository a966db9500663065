package schema_test

import (
	"context"
	"testing"

	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestUpToDate: Migrate leaves goose out only when the database has applied
// exactly the migrations the binary knows; a pending, missing, newer or
// rolled-back version goes to goose, which applies or refuses it.
func TestUpToDate(t *testing.T) {
	cases := []struct {
		name   string
		change string // run on a migrated database
		want   bool
	}{
		{"every migration applied", "", true},
		{"the last one pending", "DELETE FROM goose_db_version WHERE version_id = (SELECT MAX(version_id) FROM goose_db_version)", false},
		{"one missing below the last", "DELETE FROM goose_db_version WHERE version_id = 20", false},
		{"one newer than the binary", "INSERT INTO goose_db_version (version_id, is_applied) VALUES (999999, true)", false},
		{"one rolled back", "INSERT INTO goose_db_version (version_id, is_applied) VALUES (20, false)", false},
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				db := storetest.Clone(t, db)
				if c.change != "" {
					if _, err := db.ExecContext(ctx, c.change); err != nil {
						t.Fatal(err)
					}
				}
				got, err := schema.UpToDate(ctx, db)
				if err != nil || got != c.want {
					t.Fatalf("up to date: %v, %v; want %v", got, err, c.want)
				}
			})
		}
	})
	storetest.EachEmpty(t, func(t *testing.T, db *store.DB) {
		if got, err := schema.UpToDate(context.Background(), db); err != nil || got {
			t.Fatalf("an empty database is up to date: %v, %v", got, err)
		}
	})
}
