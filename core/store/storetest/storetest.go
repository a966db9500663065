// Package storetest runs store-backed tests on every database Primeur
// supports: a fresh SQLite file always, and PostgreSQL too when
// PRIMEUR_TEST_DATABASE_URL is set (CI sets it). Each PostgreSQL test gets its
// own schema, dropped at the end, so tests may run in parallel.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"primeur/core/store"
)

// EnvURL names the variable holding the PostgreSQL test server's URL.
const EnvURL = "PRIMEUR_TEST_DATABASE_URL"

// Each runs fn once per available database, as subtests named "sqlite" and
// "postgres", each on a freshly migrated, empty database.
func Each(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	if os.Getenv(EnvURL) != "" {
		t.Run("postgres", func(t *testing.T) { fn(t, Postgres(t)) })
	}
}

// EachEmpty is Each on databases without any migration applied, for the
// tests of migrations themselves.
func EachEmpty(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, connect(t, "", filepath.Join(t.TempDir(), "primeur.db"))) })
	if os.Getenv(EnvURL) != "" {
		t.Run("postgres", func(t *testing.T) { fn(t, connect(t, WithSearchPath(t, os.Getenv(EnvURL), newSchema(t)), "")) })
	}
}

// SQLite returns a migrated database in a new file under t.TempDir(): a
// copy of the process's migrated template (template.go).
func SQLite(t testing.TB) *store.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "primeur.db")
	if err := os.WriteFile(path, sqliteTemplate(t), 0o600); err != nil {
		t.Fatalf("storetest: %v", err)
	}
	return connect(t, "", path)
}

// SQLiteFile writes a migrated SQLite database at path (a copy of the
// process's template), for tests of commands that open the file
// themselves: migrating a fresh file costs goose's parsing of every
// migration, most of a command test's time under the race detector.
func SQLiteFile(t testing.TB, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatalf("storetest: %v", err)
	}
	if err := os.WriteFile(path, sqliteTemplate(t), 0o600); err != nil {
		t.Fatalf("storetest: %v", err)
	}
}

// Postgres returns a migrated database in a schema of its own on the server
// named by PRIMEUR_TEST_DATABASE_URL, holding the rows of the process's
// migrated template (template.go) — a copy of it, or the schema of an
// ended test put back as the template is (recycle.go) — skipping the test
// when the variable is unset.
func Postgres(t testing.TB) *store.DB {
	t.Helper()
	base := os.Getenv(EnvURL)
	if base == "" {
		t.Skip(EnvURL + " is not set")
	}
	schema := recycledSchema(t, base)
	// The connections' application is named after the schema, for
	// ServerCPU to find their backends.
	return connect(t, withParam(t, WithSearchPath(t, base, schema), "application_name", schema), "")
}

// newSchema creates a schema on the server of PRIMEUR_TEST_DATABASE_URL,
// dropped at the end of the test, and returns its name.
func newSchema(t testing.TB) string {
	t.Helper()
	schema := "t_" + randomHex(8)
	admin, err := store.Open(context.Background(), os.Getenv(EnvURL), "")
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatalf("storetest: create schema: %v", err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		admin.Close()
	})
	return schema
}

// URL returns a PostgreSQL URL whose connections use a fresh schema, for
// tests that start the daemon or a command in another process. It skips the
// test when PRIMEUR_TEST_DATABASE_URL is unset.
func URL(t testing.TB) string {
	t.Helper()
	db := Postgres(t)
	var schema string
	if err := db.Get(&schema, "SELECT current_schema()"); err != nil {
		t.Fatalf("storetest: %v", err)
	}
	return WithSearchPath(t, os.Getenv(EnvURL), schema)
}

// EmptyURL is URL without any migration: a PostgreSQL URL whose
// connections use a fresh, empty schema, for tests of what refuses a
// database without Primeur's schema. It skips the test when
// PRIMEUR_TEST_DATABASE_URL is unset.
func EmptyURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvURL)
	if base == "" {
		t.Skip(EnvURL + " is not set")
	}
	return WithSearchPath(t, base, newSchema(t))
}

// WithSearchPath adds search_path=schema to a PostgreSQL URL, and
// synchronous_commit=off: a test's commit does not wait for the server to
// flush its log to disk. What a test reads is the same — a commit is
// visible to every session at once, and lost only if the server itself
// crashes, which no test does — but the flushes were a third of the
// PostgreSQL tests' time on a busy machine (core/delivery and
// core/payments: 32–36 s with them, 22–23 s without; issue 35).
func WithSearchPath(t testing.TB, base, schema string) string {
	t.Helper()
	return withParam(t, withParam(t, base, "search_path", schema), "synchronous_commit", "off")
}

// withParam sets a connection parameter of a PostgreSQL URL.
func withParam(t testing.TB, base, key, value string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("storetest: %s: %v", EnvURL, err)
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return u.String()
}

// connect opens a database, closed at the end of the test.
func connect(t testing.TB, url, path string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), url, path)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Engine is an engine the benchmarks run on: its name and how to open a
// fresh database of it.
type Engine struct {
	Name string
	Open func(testing.TB) *store.DB
}

// Engines are SQLite, and PostgreSQL when EnvURL is set: what a benchmark
// measures on each engine.
func Engines() []Engine {
	engines := []Engine{{"sqlite", SQLite}}
	if os.Getenv(EnvURL) != "" {
		engines = append(engines, Engine{"postgres", Postgres})
	}
	return engines
}
