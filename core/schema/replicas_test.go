package schema_test

import (
	"context"
	"sync"
	"testing"

	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestReplicasMigrateOnce: replicas of a new version started together on
// one PostgreSQL database migrate it once: each migration applied by one
// of them, the others waiting for it (goose's session lock, one per
// schema) and then finding nothing pending — none fails (README "Running
// Primeur for real", "Upgrades").
func TestReplicasMigrateOnce(t *testing.T) {
	url := storetest.EmptyURL(t)
	const replicas = 4
	dbs := make([]*store.DB, replicas)
	for i := range dbs {
		db, err := store.Open(context.Background(), url, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs[i] = db
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total int
	)
	for i, db := range dbs {
		wg.Go(func() {
			n, err := schema.Migrate(context.Background(), db)
			if err != nil {
				t.Errorf("replica %d: %v", i, err)
			}
			mu.Lock()
			total += n
			mu.Unlock()
		})
	}
	wg.Wait()
	latest, err := schema.Latest(dbs[0])
	if err != nil {
		t.Fatal(err)
	}
	var applied, distinct int
	if err := dbs[0].Get(&applied, `SELECT COUNT(*) FROM goose_db_version WHERE version_id > 0`); err != nil {
		t.Fatal(err)
	}
	if err := dbs[0].Get(&distinct, `SELECT COUNT(DISTINCT version_id) FROM goose_db_version WHERE version_id > 0`); err != nil {
		t.Fatal(err)
	}
	st, err := schema.Status(context.Background(), dbs[0])
	if err != nil {
		t.Fatal(err)
	}
	if applied != len(st) || distinct != len(st) || total != len(st) {
		t.Fatalf("%d migrations (up to %d): %d rows applied, %d distinct, %d run by the replicas together", len(st), latest, applied, distinct, total)
	}
}
