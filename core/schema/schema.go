// Package schema owns Primeur's database schema: the SQL migrations in
// migrations/ (one text for SQLite and PostgreSQL; the product catalogue
// of version 3 written out as rows) and the Go migrations of
// gomigrations.go (versions 10, 19, 30 and 32: backfills and a table
// rebuilt on SQLite, where SQL alone could not do it). Every migration
// runs in its own transaction and is frozen: it calls no domain package.
package schema

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"primeur/core/store"
)

//go:embed migrations/*.sql
var migrations embed.FS

func provider(db *store.DB, opts ...goose.ProviderOption) (*goose.Provider, error) {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	dialect := goose.DialectSQLite3
	if db.Dialect == store.Postgres {
		dialect = goose.DialectPostgres
	}
	opts = append(opts, goose.WithGoMigrations(goMigrations(db.Dialect)...))
	p, err := goose.NewProvider(dialect, db.DB.DB, fsys, opts...)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return p, nil
}

// migrating is the provider that applies migrations. On PostgreSQL, where
// replicas share the database, it holds a session-level advisory lock for
// the whole run, one per schema: replicas of a new version started
// together migrate one after the other, each finding nothing pending once
// the first is done, instead of running the same migration side by side
// (TestReplicasMigrateOnce). A waiting replica tries again every second,
// for at most 5 minutes. SQLite's migrations already run one at a time
// (BEGIN IMMEDIATE), and one machine serves its file.
func migrating(ctx context.Context, db *store.DB) (*goose.Provider, error) {
	if db.Dialect != store.Postgres {
		return provider(db)
	}
	var where string
	if err := store.Get(ctx, db, &where, `SELECT current_database() || '.' || COALESCE(current_schema(), '')`); err != nil {
		return nil, fmt.Errorf("schema: lock: %w", err)
	}
	h := fnv.New64a()
	h.Write([]byte("primeur migrations " + where))
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(int64(h.Sum64())), lock.WithLockTimeout(1, 300))
	if err != nil {
		return nil, fmt.Errorf("schema: lock: %w", err)
	}
	return provider(db, goose.WithSessionLocker(locker))
}

// Migrate applies every pending migration and returns how many ran. A
// database that already has every migration this binary knows is not
// handed to goose at all: goose reads and parses every migration file
// when it makes its provider (two 4 MB buffers per file), which every
// command and every daemon start paid for nothing once the schema was
// current (issue 35).
func Migrate(ctx context.Context, db *store.DB) (int, error) {
	if current, err := upToDate(ctx, db); err != nil {
		return 0, err
	} else if current {
		return 0, nil
	}
	p, err := migrating(ctx, db)
	if err != nil {
		return 0, err
	}
	res, err := p.Up(ctx)
	if err != nil {
		return len(res), fmt.Errorf("schema: migrate: %w", err)
	}
	return len(res), nil
}

// MigrateTo applies the pending migrations up to version, included, and
// returns how many ran: tests of a data migration fill the tables it reads
// first.
func MigrateTo(ctx context.Context, db *store.DB, version int64) (int, error) {
	p, err := migrating(ctx, db)
	if err != nil {
		return 0, err
	}
	res, err := p.UpTo(ctx, version)
	if err != nil {
		return len(res), fmt.Errorf("schema: migrate to %d: %w", version, err)
	}
	return len(res), nil
}

// State is one migration and whether it ran.
type State struct {
	Version int64
	Name    string
	Applied bool
}

// Status lists every migration and whether it is applied.
func Status(ctx context.Context, db *store.DB) ([]State, error) {
	p, err := provider(db)
	if err != nil {
		return nil, err
	}
	st, err := p.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("schema: status: %w", err)
	}
	out := make([]State, len(st))
	for i, s := range st {
		name := s.Source.Path
		if name == "" {
			name = fmt.Sprintf("go migration %d", s.Source.Version)
		}
		out[i] = State{Version: s.Source.Version, Name: name, Applied: s.State == goose.StateApplied}
	}
	return out, nil
}

// ErrNewer: the database's schema is newer than this binary knows (a backup
// or a database from a later version of Primeur).
var ErrNewer = errors.New("schema: the database is newer than this version of Primeur")

// Version returns the schema version the database is at: the highest
// migration applied, read from goose's version table. A database without
// that table or without any migration holds no Primeur database: the error
// is a *store.NoDatabaseError. The daemon's health check calls it, a real
// query on every request.
func Version(ctx context.Context, q store.Q, where string) (int64, error) {
	ok, err := store.HasTable(ctx, q, goose.DefaultTablename)
	if err != nil {
		return 0, fmt.Errorf("schema: %w", err)
	}
	if !ok {
		return 0, &store.NoDatabaseError{Where: where}
	}
	var v int64
	if err := store.Get(ctx, q, &v, `SELECT COALESCE(MAX(version_id), 0) FROM `+goose.DefaultTablename); err != nil {
		return 0, fmt.Errorf("schema: read version: %w", err)
	}
	if v == 0 {
		return 0, &store.NoDatabaseError{Where: where}
	}
	return v, nil
}

// Latest is the version of the last migration this binary knows.
func Latest(db *store.DB) (int64, error) {
	known, err := knownVersions(db.Dialect)
	if err != nil {
		return 0, err
	}
	var v int64
	for k := range known {
		v = max(v, k)
	}
	return v, nil
}

// knownVersions is the set of the migrations this binary holds, read from
// the SQL files' names and the Go migrations' list, without parsing a file.
func knownVersions(d store.Dialect) (map[int64]bool, error) {
	entries, err := fs.ReadDir(migrations, "migrations")
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	known := make(map[int64]bool, len(entries)+8)
	for _, e := range entries {
		v, err := goose.NumericComponent(e.Name())
		if err != nil {
			return nil, fmt.Errorf("schema: %s: %w", e.Name(), err)
		}
		known[v] = true
	}
	for _, m := range goMigrations(d) {
		known[m.Version] = true
	}
	return known, nil
}

// upToDate tells whether db has applied exactly the migrations this binary
// knows: none pending, none missing below the last, none newer. Anything
// else (a new database, one behind, one from a later binary) is goose's to
// handle or refuse. A version's last row in goose's table says whether it
// is applied (older goose versions wrote a row per down migration).
func upToDate(ctx context.Context, db *store.DB) (bool, error) {
	ok, err := store.HasTable(ctx, db, goose.DefaultTablename)
	if err != nil {
		return false, fmt.Errorf("schema: %w", err)
	}
	if !ok {
		return false, nil
	}
	var rows []struct {
		Version int64 `db:"version_id"`
		Applied bool  `db:"is_applied"`
	}
	if err := store.Select(ctx, db, &rows, `SELECT version_id, is_applied FROM `+goose.DefaultTablename+` ORDER BY id`); err != nil {
		return false, fmt.Errorf("schema: read versions: %w", err)
	}
	applied := make(map[int64]bool, len(rows))
	for _, r := range rows {
		if r.Version == 0 {
			continue
		}
		if r.Applied {
			applied[r.Version] = true
		} else {
			delete(applied, r.Version)
		}
	}
	known, err := knownVersions(db.Dialect)
	if err != nil {
		return false, err
	}
	if len(applied) != len(known) {
		return false, nil
	}
	for v := range known {
		if !applied[v] {
			return false, nil
		}
	}
	return true, nil
}

// Check returns the version of db's schema, refusing a database that holds
// no Primeur schema (*store.NoDatabaseError) or one newer than this binary
// knows (ErrNewer).
func Check(ctx context.Context, db *store.DB) (int64, error) {
	v, err := Version(ctx, db, db.Name)
	if err != nil {
		return 0, err
	}
	latest, err := Latest(db)
	if err != nil {
		return 0, err
	}
	if v > latest {
		return v, fmt.Errorf("%w: version %d, this binary knows up to %d", ErrNewer, v, latest)
	}
	return v, nil
}

// Open opens the existing Primeur database of the configuration — never
// creating one — and checks its schema (Check); it does not migrate. Every
// command but migrate, serve and demo opens the database this way, so that
// one pointed at the wrong place says so instead of creating an empty
// database.
func Open(ctx context.Context, url, sqlitePath string) (*store.DB, error) {
	db, err := store.OpenExisting(ctx, url, sqlitePath)
	if err != nil {
		return nil, err
	}
	if _, err := Check(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}
