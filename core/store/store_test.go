package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"primeur/core/store"
	"primeur/core/store/storetest"
)

func TestOpenExistingCreatesNothing(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, dir string) string // returns the database path
	}{
		{"missing directory", func(t *testing.T, dir string) string { return filepath.Join(dir, "absent", "primeur.db") }},
		{"missing file", func(t *testing.T, dir string) string { return filepath.Join(dir, "primeur.db") }},
		{"empty file", func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "primeur.db")
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			return path
		}},
		{"not a database", func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "primeur.db")
			if err := os.WriteFile(path, make([]byte, 8192), 0o600); err != nil {
				t.Fatal(err)
			}
			return path
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := tt.prepare(t, dir)
			before, _ := os.ReadDir(dir)
			db, err := store.OpenExisting(context.Background(), "", path)
			var none *store.NoDatabaseError
			if !errors.As(err, &none) || none.Where != path {
				if db != nil {
					db.Close()
				}
				t.Fatalf("err = %v, want a NoDatabaseError naming %s", err, path)
			}
			if want := "aucune base Primeur dans " + path + " ; lancez primeur migrate"; err.Error() != want {
				t.Fatalf("message %q, want %q", err, want)
			}
			if after, _ := os.ReadDir(dir); len(after) != len(before) {
				t.Fatalf("entries %v, were %v", after, before)
			}
		})
	}
}

func TestHasTable(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for name, want := range map[string]bool{"users": true, "needs": true, "nope": false} {
			if got, err := store.HasTable(ctx, db, name); err != nil || got != want {
				t.Errorf("HasTable(%s) = %v, %v", name, got, err)
			}
		}
	})
}

// TestEach: every row scanned into the same destinations, in order, the
// IN (?) list expanded, on both engines; no row, no call; a scan that
// does not fit fails.
func TestEach(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for _, id := range []string{"t-pomme", "t-poire", "t-prune"} {
			if _, err := store.Exec(ctx, db, `INSERT INTO products (id, name, name_key, unit, share, ref_price, coefs)
				VALUES (?, ?, ?, 'kg', 100, 250, '1,1,1,1,1,1,1,1,1,1,1,1')`, id, id, id); err != nil {
				t.Fatal(err)
			}
		}
		var id string
		var share int64
		var got []string
		err := store.Each(ctx, db, `SELECT id, share FROM products WHERE id IN (?) AND share = ? ORDER BY id DESC`,
			[]any{[]string{"t-pomme", "t-prune", "nope"}, 100}, []any{&id, &share}, func() { got = append(got, fmt.Sprintf("%s %d", id, share)) })
		if err != nil || strings.Join(got, ",") != "t-prune 100,t-pomme 100" {
			t.Fatalf("rows %q, %v", got, err)
		}
		calls := 0
		if err := store.Each(ctx, db, `SELECT id FROM products WHERE id = ?`, []any{"nope"}, []any{&id}, func() { calls++ }); err != nil || calls != 0 {
			t.Fatalf("no row: %d calls, %v", calls, err)
		}
		if err := store.Each(ctx, db, `SELECT id FROM products`, nil, []any{&share}, func() {}); err == nil {
			t.Fatal("a text scanned into an integer")
		}
	})
}

func TestInt64Scan(t *testing.T) {
	for _, tt := range []struct {
		src  any
		want store.Int64
		ok   bool
	}{
		{int64(-42), -42, true},
		{[]byte("1700000000000"), 1700000000000, true},
		{"7", 7, true},
		{"7.5", 0, false},
		{nil, 0, false},
		{3.0, 0, false},
	} {
		var v store.Int64
		if err := v.Scan(tt.src); (err == nil) != tt.ok || v != tt.want {
			t.Errorf("Scan(%#v) = %d, %v", tt.src, v, err)
		}
	}
}

// TestBackupIsASnapshot backs up while a transaction has written a row and
// not committed it: the backup does not wait for it, holds every committed
// row and not the pending one, and is a checked, self-contained file.
func TestBackupIsASnapshot(t *testing.T) {
	ctx := context.Background()
	db := storetest.SQLite(t)
	insert := `INSERT INTO throttle (key, attempts, window_start, window_end) VALUES (?, 1, 0, 0)`
	if _, err := store.Exec(ctx, db, insert, "committed"); err != nil {
		t.Fatal(err)
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Exec(ctx, tx, insert, "pending"); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "sauvegarde.db")
	if err := db.Backup(ctx, file, false); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := db.Backup(ctx, file, false); !errors.Is(err, os.ErrExist) {
		t.Fatalf("second backup to the same file: %v", err)
	}
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Stat(file + suffix); err == nil {
			t.Errorf("the backup has a %s file", suffix)
		}
	}
	copied, err := store.OpenReadOnly(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	defer copied.Close()
	if err := copied.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
	var keys []string
	if err := store.Select(ctx, copied, &keys, `SELECT key FROM throttle ORDER BY key`); err != nil {
		t.Fatal(err)
	}
	if len(keys) != 1 || keys[0] != "committed" {
		t.Fatalf("backup holds %v", keys)
	}
	var mode string
	if err := copied.Get(&mode, `PRAGMA journal_mode`); err != nil || mode != "delete" {
		t.Fatalf("journal mode %q %v", mode, err)
	}
	if pg := os.Getenv(storetest.EnvURL); pg != "" {
		if err := storetest.Postgres(t).Backup(ctx, filepath.Join(t.TempDir(), "pg.db"), false); !errors.Is(err, store.ErrNotSQLite) {
			t.Fatalf("backup of PostgreSQL: %v", err)
		}
	}
}

// TestInstallWaitsForEveryProcessToClose: a restore is refused while the
// data directory's database is open anywhere, and goes through once closed.
func TestInstallWaitsForEveryProcessToClose(t *testing.T) {
	ctx := context.Background()
	src := storetest.SQLite(t)
	file := filepath.Join(t.TempDir(), "sauvegarde.db")
	if err := src.Backup(ctx, file, false); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "data", "primeur.db")
	open, err := store.Open(ctx, "", target)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	if _, err := store.Install(ctx, file, target, now); !errors.Is(err, store.ErrInUse) {
		t.Fatalf("install under an open database: %v", err)
	}
	open.Close()
	aside, err := store.Install(ctx, file, target, now)
	if err != nil || aside != filepath.Join(filepath.Dir(target), "primeur-avant-restauration-20261120-100000.db") {
		t.Fatalf("install: %q %v", aside, err)
	}
	db, err := store.OpenExisting(ctx, "", target)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if ok, err := store.HasTable(ctx, db, "users"); err != nil || !ok {
		t.Fatalf("restored database without users: %v %v", ok, err)
	}
	// The restored database, open, is held like any other.
	if _, err := store.Install(ctx, file, target, now); !errors.Is(err, store.ErrInUse) {
		t.Fatalf("install under an open database: %v", err)
	}
}
