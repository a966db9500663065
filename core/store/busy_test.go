package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"primeur/core"
	"primeur/core/limit"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// sqliteBusy returns a real SQLITE_BUSY error: the one a second connection
// without a busy timeout gets while db holds the write lock.
func sqliteBusy(t *testing.T) error {
	t.Helper()
	ctx := context.Background()
	db := storetest.SQLite(t)
	var file struct {
		Seq  int    `db:"seq"`
		Name string `db:"name"`
		File string `db:"file"`
	}
	if err := db.Get(&file, `PRAGMA database_list`); err != nil {
		t.Fatal(err)
	}
	holder, err := db.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = holder.Rollback() }()
	raw, err := sql.Open("sqlite", "file:"+file.File+"?_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	_, err = raw.ExecContext(ctx, `BEGIN IMMEDIATE`)
	if err == nil {
		t.Fatal("a second writer got the lock")
	}
	return err
}

func TestIsBusy(t *testing.T) {
	busy := sqliteBusy(t)
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"plain", errors.New("database is locked"), false},
		{"not found", sql.ErrNoRows, false},
		{"sqlite busy", busy, true},
		{"sqlite busy, wrapped", fmt.Errorf("store: begin: %w", busy), true},
		{"postgres deadlock", &pq.Error{Code: "40P01"}, true},
		{"postgres serialization failure", fmt.Errorf("x: %w", &pq.Error{Code: "40001"}), true},
		{"postgres unique violation", &pq.Error{Code: "23505"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := store.IsBusy(tt.err); got != tt.want {
				t.Fatalf("IsBusy(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}

func TestTxRetriesABusyDatabase(t *testing.T) {
	busy := sqliteBusy(t)
	tests := []struct {
		name      string
		failFirst int // attempts that end busy before one that succeeds
		wantErr   bool
		wantRows  int
	}{
		{"no contention", 0, false, 1},
		{"busy twice, then done", 2, false, 1},
		{"busy every time", 1000, true, 0},
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				key := fmt.Sprintf("busy-%d", i)
				calls := 0
				err := db.Tx(ctx, func(tx *sqlx.Tx) error {
					calls++
					// Each attempt writes, so a retried attempt must leave nothing.
					if _, err := store.Exec(ctx, tx, `INSERT INTO counters (key, value) VALUES (?, ?)`, key, calls); err != nil {
						return err
					}
					if calls <= tt.failFirst {
						return fmt.Errorf("test: %w", busy)
					}
					return nil
				})
				var n int
				if err := store.Get(ctx, db, &n, `SELECT COUNT(*) FROM counters WHERE key = ?`, key); err != nil {
					t.Fatal(err)
				}
				if n != tt.wantRows {
					t.Fatalf("%d rows committed, want %d", n, tt.wantRows)
				}
				if !tt.wantErr {
					if err != nil || calls != tt.failFirst+1 {
						t.Fatalf("err = %v after %d calls", err, calls)
					}
					return
				}
				var r *core.Refusal
				after, ok := limit.RetryAfter(err)
				if !errors.Is(err, core.ErrBusy) || !errors.As(err, &r) || r.Message != limit.MsgBusy || !ok || after != store.BusyRetryAfter {
					t.Fatalf("err = %v, want a busy refusal", err)
				}
				if calls < 2 || calls > 10 {
					t.Fatalf("%d attempts, want a few", calls)
				}
			})
		}
	})
}

// TestTxSurvivesADeadlock makes two PostgreSQL transactions take two rows
// in opposite orders: the server kills one of them (deadlock detected),
// which Tx runs again, so both commit.
func TestTxSurvivesADeadlock(t *testing.T) {
	db := storetest.Postgres(t)
	ctx := context.Background()
	for _, k := range []string{"a", "b"} {
		if _, err := store.Exec(ctx, db, `INSERT INTO counters (key, value) VALUES (?, 0)`, k); err != nil {
			t.Fatal(err)
		}
	}
	var (
		wg       sync.WaitGroup
		attempts atomic.Int64
		holding  sync.WaitGroup // both hold their first row
	)
	holding.Add(2)
	run := func(first, second string) error {
		var once sync.Once
		return db.Tx(ctx, func(tx *sqlx.Tx) error {
			attempts.Add(1)
			if _, err := store.Exec(ctx, tx, `UPDATE counters SET value = value + 1 WHERE key = ?`, first); err != nil {
				return err
			}
			once.Do(func() { holding.Done(); holding.Wait() })
			_, err := store.Exec(ctx, tx, `UPDATE counters SET value = value + 1 WHERE key = ?`, second)
			return err
		})
	}
	errs := make([]error, 2)
	for i, order := range [][2]string{{"a", "b"}, {"b", "a"}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = run(order[0], order[1])
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("a transaction failed: %v", err)
		}
	}
	var values []int
	if err := store.Select(ctx, db, &values, `SELECT value FROM counters WHERE key IN ('a', 'b') ORDER BY key`); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(values) != "[2 2]" || attempts.Load() != 3 {
		t.Fatalf("values %v after %d attempts, want [2 2] after 3 (one retried)", values, attempts.Load())
	}
}
