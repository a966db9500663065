package schema

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/pressly/goose/v3"

	"primeur/core/store"
)

// Pending lists every migration this binary knows, none applied: the
// status of a place that holds no Primeur database yet. It reads no
// database.
func Pending(d store.Dialect) ([]State, error) {
	var out []State
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	for _, n := range names {
		name := strings.TrimPrefix(n, "migrations/")
		digits, _, _ := strings.Cut(name, "_")
		v, err := strconv.ParseInt(digits, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("schema: migration %s: %w", name, err)
		}
		out = append(out, State{Version: v, Name: name})
	}
	for _, m := range goMigrations(d) {
		out = append(out, State{Version: m.Version, Name: fmt.Sprintf("go migration %d", m.Version)})
	}
	slices.SortFunc(out, func(a, b State) int { return int(a.Version - b.Version) })
	return out, nil
}

// StatusOnly is Status without writing anything: on a database without
// goose's version table (a PostgreSQL database or schema never migrated,
// an empty SQLite file), every migration is pending and the table is not
// created.
func StatusOnly(ctx context.Context, db *store.DB) ([]State, error) {
	ok, err := store.HasTable(ctx, db, goose.DefaultTablename)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	if !ok {
		return Pending(db.Dialect)
	}
	return Status(ctx, db)
}
