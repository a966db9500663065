package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
)

//go:embed migrations/*.sql
var migrations embed.FS

func (db *DB) provider() (*goose.Provider, error) {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, fmt.Errorf("store: migrations: %w", err)
	}
	dialect := goose.DialectSQLite3
	if db.Dialect == Postgres {
		dialect = goose.DialectPostgres
	}
	p, err := goose.NewProvider(dialect, db.DB.DB, fsys)
	if err != nil {
		return nil, fmt.Errorf("store: migrations: %w", err)
	}
	return p, nil
}

// Migrate applies every pending migration, each in its own transaction, and
// returns how many ran.
func (db *DB) Migrate(ctx context.Context) (int, error) {
	p, err := db.provider()
	if err != nil {
		return 0, err
	}
	res, err := p.Up(ctx)
	if err != nil {
		return len(res), fmt.Errorf("store: migrate: %w", err)
	}
	return len(res), nil
}

// MigrationStatus lists each migration with whether it is applied.
func (db *DB) MigrationStatus(ctx context.Context) ([]MigrationState, error) {
	p, err := db.provider()
	if err != nil {
		return nil, err
	}
	st, err := p.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: migration status: %w", err)
	}
	out := make([]MigrationState, len(st))
	for i, s := range st {
		out[i] = MigrationState{
			Version: s.Source.Version,
			Name:    s.Source.Path,
			Applied: s.State == goose.StateApplied,
		}
	}
	return out, nil
}

// MigrationState is one migration and whether it ran.
type MigrationState struct {
	Version int64
	Name    string
	Applied bool
}
