package storetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"primeur/core/schema"
	"primeur/core/store"
)

// A test process migrates one database per engine, once, and every test's
// fresh database is a copy of it: running the 40-odd migrations again for
// each test cost up to 2 s on a busy PostgreSQL and 50-200 ms on SQLite
// (under -race), a copy a fraction of that. The migrations themselves are
// still run by every process, and tested on empty databases (EachEmpty)
// by core/schema's own tests.
//
// The templates are the process's own: on SQLite the migrated file's
// bytes in memory, on PostgreSQL a schema named tmpl_<random> held by a
// connection named after it for the life of the process. A process that
// ends leaves its schema behind; the next one to make its template drops
// every tmpl_ schema no connection is named after any more.
type templates struct {
	mu sync.Mutex

	sqlite []byte

	postgres string    // the template schema's name
	pin      *store.DB // the pool holding the schema's pinned connection
}

var migrated templates

// sqliteTemplate returns the bytes of a migrated SQLite file, made once per
// process.
func sqliteTemplate(t testing.TB) []byte {
	t.Helper()
	migrated.mu.Lock()
	defer migrated.mu.Unlock()
	if migrated.sqlite != nil {
		return migrated.sqlite
	}
	dir, err := os.MkdirTemp("", "primeur-template-")
	if err != nil {
		t.Fatalf("storetest: template: %v", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "primeur.db")
	ctx := context.Background()
	db, err := store.Open(ctx, "", path)
	if err != nil {
		t.Fatalf("storetest: template: %v", err)
	}
	if _, err := schema.Migrate(ctx, db); err != nil {
		db.Close()
		t.Fatalf("storetest: template: %v", err)
	}
	// Everything in the main file, the write-ahead log emptied, before the
	// file is read. The pool's idle connections are closed first: the one
	// the migrations ran on last counts as a reader of the log until it
	// runs another statement, and the checkpoint (which runs on the store's
	// write connection) waited the whole busy timeout for it, 10 s in
	// every test process that made this template (issue 35).
	db.SetMaxIdleConns(0)
	db.SetMaxIdleConns(8)
	var busy, frames, moved int
	if err := db.QueryRowxContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &frames, &moved); err != nil || busy != 0 {
		db.Close()
		t.Fatalf("storetest: template: checkpoint: busy %d, %v", busy, err)
	}
	if err := db.Close(); err != nil {
		t.Fatalf("storetest: template: %v", err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("storetest: template: %v", err)
	}
	migrated.sqlite = b
	return b
}

// postgresTemplate returns the name of a migrated schema of the server of
// EnvURL, made once per process, after dropping the templates of processes
// gone.
func postgresTemplate(t testing.TB, base string) string {
	t.Helper()
	migrated.mu.Lock()
	defer migrated.mu.Unlock()
	if migrated.postgres != "" {
		return migrated.postgres
	}
	ctx := context.Background()
	name := "tmpl_" + randomHex(8)
	// The pool is named after the schema before the schema exists: no
	// other process may take it for a dead one's.
	db, err := store.Open(ctx, withParam(t, WithSearchPath(t, base, name), "application_name", name), "")
	if err != nil {
		t.Fatalf("storetest: template: %v", err)
	}
	fail := func(err error) {
		db.Close()
		t.Fatalf("storetest: template: %v", err)
	}
	// One connection held for the life of the process: it names the
	// schema as alive to every other process.
	if _, err := db.Conn(ctx); err != nil {
		fail(err)
	}
	if err := dropAbandoned(ctx, db); err != nil {
		fail(err)
	}
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA "+name); err != nil {
		fail(err)
	}
	if _, err := schema.Migrate(ctx, db); err != nil {
		fail(err)
	}
	migrated.postgres, migrated.pin = name, db
	return name
}

// dropAbandoned drops the template schemas no connection of the server is
// named after, those of test processes that ended, and the test schemas
// those processes kept for recycling (recycle.go), before their templates.
func dropAbandoned(ctx context.Context, db *store.DB) error {
	var gone []string
	if err := db.SelectContext(ctx, &gone, `SELECT nspname FROM pg_namespace
		WHERE (nspname LIKE 'tmpl\_%' AND nspname NOT IN (SELECT application_name FROM pg_stat_activity))
		OR (nspname ~ '^t_[0-9a-f]{16}_[0-9a-f]+$'
			AND 'tmpl_' || split_part(nspname, '_', 2) NOT IN (SELECT application_name FROM pg_stat_activity))
		ORDER BY nspname LIKE 'tmpl\_%'`); err != nil {
		return fmt.Errorf("abandoned templates: %w", err)
	}
	for _, name := range gone {
		// Another process may be dropping it too: the first one wins.
		_, _ = db.ExecContext(ctx, "DROP SCHEMA IF EXISTS "+name+" CASCADE")
	}
	return nil
}
