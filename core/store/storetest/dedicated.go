package storetest

import (
	"context"
	"database/sql"
	"net/url"
	"os"
	"testing"

	"github.com/lib/pq"
)

// Dedicated is a PostgreSQL database of the test's own, created empty on
// the server of PRIMEUR_TEST_DATABASE_URL (the test is skipped when it is
// unset), for the tests that make their database unreachable (Cut) without
// touching what other tests share on that server. It is dropped at the end
// of the test, its sessions ended.
type Dedicated struct {
	// URL connects to it.
	URL string
	// Name is the database's name.
	Name  string
	admin *sql.DB
}

// NewDedicated creates a Dedicated database.
func NewDedicated(t testing.TB) *Dedicated {
	t.Helper()
	base := os.Getenv(EnvURL)
	if base == "" {
		t.Skip(EnvURL + " is not set")
	}
	admin, err := sql.Open("postgres", base)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	admin.SetMaxOpenConns(2)
	d := &Dedicated{Name: "primeur_t_" + randomHex(8), admin: admin}
	if _, err := admin.Exec(`CREATE DATABASE ` + pq.QuoteIdentifier(d.Name)); err != nil {
		admin.Close()
		t.Fatalf("storetest: create database: %v", err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec(`DROP DATABASE IF EXISTS ` + pq.QuoteIdentifier(d.Name) + ` WITH (FORCE)`); err != nil {
			t.Errorf("storetest: drop database %s: %v", d.Name, err)
		}
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("storetest: %s: %v", EnvURL, err)
	}
	u.Path = "/" + d.Name
	d.URL = u.String()
	return d
}

// Cut makes the database refuse every new connection (ALLOW_CONNECTIONS
// false: "database … is not currently accepting connections", a FATAL
// error) and ends the sessions it has (pg_terminate_backend: FATAL 57P01
// to their clients), as a server that stops would, and returns what lets
// it take connections again. The server and its other databases go on.
func (d *Dedicated) Cut(t testing.TB) (restore func()) {
	t.Helper()
	ctx := context.Background()
	name := pq.QuoteIdentifier(d.Name)
	if _, err := d.admin.ExecContext(ctx, `ALTER DATABASE `+name+` ALLOW_CONNECTIONS false`); err != nil {
		t.Fatalf("storetest: cut %s: %v", d.Name, err)
	}
	d.Terminate(t)
	return func() {
		t.Helper()
		if _, err := d.admin.ExecContext(ctx, `ALTER DATABASE `+name+` ALLOW_CONNECTIONS true`); err != nil {
			t.Fatalf("storetest: restore %s: %v", d.Name, err)
		}
	}
}

// Terminate ends every session of the database (pg_terminate_backend) and
// returns how many there were.
func (d *Dedicated) Terminate(t testing.TB) int {
	t.Helper()
	var n int
	err := d.admin.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM (
		SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()) t`, d.Name).Scan(&n)
	if err != nil {
		t.Fatalf("storetest: terminate the sessions of %s: %v", d.Name, err)
	}
	return n
}
