// Package schema owns Primeur's database schema: the SQL migrations in
// migrations/ (one text for SQLite and PostgreSQL) and the Go migrations
// that load reference data, such as the product catalogue. Every migration
// runs in its own transaction.
package schema

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"

	"primeur/core/catalog"
	"primeur/core/config"
	"primeur/core/store"
	"primeur/core/trade"
)

//go:embed migrations/*.sql
var migrations embed.FS

// goMigrations are the migrations written in Go, by version. Their numbers
// interleave with the SQL files'.
func goMigrations(d store.Dialect) []*goose.Migration {
	seed := func(ctx context.Context, tx *sql.Tx) error { return catalog.Seed(ctx, tx, d) }
	// The price sums of 00009 from the commitments already accepted, each
	// in its month of acceptance in the default business time zone (the
	// configured one differs, if ever, by a few hours at a month's edge).
	prices := func(ctx context.Context, tx *sql.Tx) error {
		return trade.RebuildPrices(ctx, tx, d, config.Defaults().Location)
	}
	return []*goose.Migration{
		goose.NewGoMigration(3, &goose.GoFunc{RunTx: seed}, nil),
		goose.NewGoMigration(10, &goose.GoFunc{RunTx: prices}, nil),
	}
}

func provider(db *store.DB) (*goose.Provider, error) {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	dialect := goose.DialectSQLite3
	if db.Dialect == store.Postgres {
		dialect = goose.DialectPostgres
	}
	p, err := goose.NewProvider(dialect, db.DB.DB, fsys, goose.WithGoMigrations(goMigrations(db.Dialect)...))
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return p, nil
}

// Migrate applies every pending migration and returns how many ran.
func Migrate(ctx context.Context, db *store.DB) (int, error) {
	p, err := provider(db)
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
	p, err := provider(db)
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
