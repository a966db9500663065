package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// cacheOf is the statement cache of one connection, for inspection.
func cacheOf(t *testing.T, conn *sql.Conn) map[string]*cachedStmt {
	t.Helper()
	var out map[string]*cachedStmt
	if err := conn.Raw(func(dc any) error {
		c, ok := dc.(*cachedConn)
		if !ok {
			return fmt.Errorf("driver connection %T", dc)
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		out = make(map[string]*cachedStmt, len(c.stmts))
		for q, e := range c.stmts {
			out[q] = e
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// eachCached runs fn on a connection of each engine (PostgreSQL when
// PRIMEUR_TEST_DATABASE_URL is set) holding a table n of three rows (a
// temporary one on PostgreSQL, the connection's own).
func eachCached(t *testing.T, fn func(t *testing.T, conn *sql.Conn)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		db, err := openSQLite(context.Background(), filepath.Join(t.TempDir(), "c.db"), true)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		fn(t, cachedTable(t, db, "CREATE TABLE"))
	})
	if url := os.Getenv("PRIMEUR_TEST_DATABASE_URL"); url != "" {
		t.Run("postgres", func(t *testing.T) {
			db, err := openPostgres(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			fn(t, cachedTable(t, db, "CREATE TEMPORARY TABLE"))
		})
	}
}

func cachedTable(t *testing.T, db *DB, create string) *sql.Conn {
	t.Helper()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := conn.ExecContext(ctx, create+` n (k INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE);
		INSERT INTO n VALUES (1, 'a'), (2, 'b'), (3, 'c')`); err != nil {
		t.Fatal(err)
	}
	return conn
}

// rebind is query for the connection's driver.
func rebind(t *testing.T, conn *sql.Conn, query string) string {
	t.Helper()
	var out string
	if err := conn.Raw(func(dc any) error {
		out = Rebind(dc.(*cachedConn).dialect, query)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// values reads the one text column of a query's rows:
// values(t)(conn.QueryContext(…)).
func values(t *testing.T) func(rows *sql.Rows, err error) []string {
	return func(rows *sql.Rows, err error) []string {
		t.Helper()
		return readValues(t, rows, err)
	}
}

func readValues(t *testing.T, rows *sql.Rows, err error) []string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStatementsAreReused checks that a connection prepares a statement
// once and runs it again with other arguments, for queries and for
// writes, and that a script is left to the driver.
func TestStatementsAreReused(t *testing.T) {
	ctx := context.Background()
	eachCached(t, func(t *testing.T, conn *sql.Conn) {
		if n := len(cacheOf(t, conn)); n != 0 {
			t.Fatalf("the script was cached: %d statements", n)
		}
		sel, ins := rebind(t, conn, `SELECT v FROM n WHERE k >= ? ORDER BY k`), rebind(t, conn, `INSERT INTO n (k, v) VALUES (?, ?)`)
		if got := values(t)(conn.QueryContext(ctx, sel, 2)); !slices.Equal(got, []string{"b", "c"}) {
			t.Fatalf("first run: %v", got)
		}
		first := cacheOf(t, conn)[sel]
		if first == nil {
			t.Fatal("the query was not cached")
		}
		if _, err := conn.ExecContext(ctx, ins, 4, "d"); err != nil {
			t.Fatal(err)
		}
		if _, err := conn.ExecContext(ctx, ins, 5, "e"); err != nil {
			t.Fatal(err)
		}
		if got := values(t)(conn.QueryContext(ctx, sel, 4)); !slices.Equal(got, []string{"d", "e"}) {
			t.Fatalf("second run: %v", got)
		}
		cache := cacheOf(t, conn)
		if cache[sel] != first || cache[ins] == nil || len(cache) != 2 {
			t.Fatalf("cache %v: the query prepared again, or the insert not kept", cache)
		}
		if cache[sel].busy || cache[ins].busy {
			t.Fatal("a statement stays busy after its run")
		}
	})
}

// TestStatementRunAgainWhileReading runs a query again while its cached
// statement's rows are still open on the same connection (inside a
// transaction): the second run takes the driver's one-shot path and both
// read their own rows. SQLite only: lib/pq runs one query at a time on a
// connection.
func TestStatementRunAgainWhileReading(t *testing.T) {
	ctx := context.Background()
	eachCached(t, func(t *testing.T, conn *sql.Conn) {
		sel := rebind(t, conn, `SELECT v FROM n WHERE k >= ? ORDER BY k`)
		if sel != `SELECT v FROM n WHERE k >= ? ORDER BY k` {
			t.Skip("one query at a time on a PostgreSQL connection")
		}
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = tx.Rollback() }()
		var got []string
		func() {
			outer, err := tx.QueryContext(ctx, sel, 1)
			if err != nil {
				t.Fatal(err)
			}
			defer outer.Close()
			for outer.Next() {
				var v string
				if err := outer.Scan(&v); err != nil {
					t.Fatal(err)
				}
				inner := values(t)(tx.QueryContext(ctx, sel, 3))
				got = append(got, v+fmt.Sprint(inner))
			}
			if err := outer.Err(); err != nil {
				t.Fatal(err)
			}
		}()
		if want := []string{"a[c]", "b[c]", "c[c]"}; !slices.Equal(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if e := cacheOf(t, conn)[sel]; e == nil || e.busy {
			t.Fatalf("after both: %+v", e)
		}
	})
}

// TestStatementAfterAnError reuses statements that failed: a constraint
// violation, and a query whose context ended while it read.
func TestStatementAfterAnError(t *testing.T) {
	ctx := context.Background()
	eachCached(t, func(t *testing.T, conn *sql.Conn) {
		ins := rebind(t, conn, `INSERT INTO n (k, v) VALUES (?, ?)`)
		if _, err := conn.ExecContext(ctx, ins, 9, "a"); err == nil || !IsUniqueViolation(err) {
			t.Fatalf("duplicate value: %v", err)
		}
		if _, err := conn.ExecContext(ctx, ins, 9, "z"); err != nil {
			t.Fatalf("the statement after its failure: %v", err)
		}
		const sel = `SELECT v FROM n ORDER BY k`
		func() {
			cctx, cancel := context.WithCancel(ctx)
			rows, err := conn.QueryContext(cctx, sel)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			rows.Next()
			cancel()
			for rows.Next() { // the driver may still give the rows of a short read
			}
		}()
		if got := values(t)(conn.QueryContext(ctx, sel)); !slices.Equal(got, []string{"a", "b", "c", "z"}) {
			t.Fatalf("the query after a cancelled run: %v", got)
		}
	})
}

// TestStatementCacheIsBounded runs more distinct statements than the cache
// keeps: the least recently used are closed, the most recent kept, and
// every answer is right.
func TestStatementCacheIsBounded(t *testing.T) {
	ctx := context.Background()
	eachCached(t, func(t *testing.T, conn *sql.Conn) {
		hot := rebind(t, conn, `SELECT v FROM n WHERE k = ?`)
		nth := func(i int) string { return rebind(t, conn, fmt.Sprintf(`SELECT v || '%d' FROM n WHERE k = ?`, i)) }
		for i := range stmtCacheSize + 40 {
			if got := values(t)(conn.QueryContext(ctx, hot, 2)); !slices.Equal(got, []string{"b"}) {
				t.Fatalf("hot query: %v", got)
			}
			if got := values(t)(conn.QueryContext(ctx, nth(i), 1)); !slices.Equal(got, []string{fmt.Sprintf("a%d", i)}) {
				t.Fatalf("query %d: %v", i, got)
			}
		}
		cache := cacheOf(t, conn)
		if len(cache) != stmtCacheSize {
			t.Fatalf("%d statements kept, want %d", len(cache), stmtCacheSize)
		}
		if cache[hot] == nil {
			t.Fatal("the statement run every time was evicted")
		}
		if cache[nth(0)] != nil {
			t.Fatal("the oldest statement was kept")
		}
		if cache[nth(stmtCacheSize+39)] == nil {
			t.Fatal("the newest statement was not kept")
		}
	})
}

// TestStatementAfterSchemaChange runs a SELECT * again after a column was
// added: on SQLite the statement is kept, and SQLite prepares it again by
// itself; on PostgreSQL, which would refuse a kept one ("cached plan must
// not change result type"), it is not kept. The new column shows on both.
func TestStatementAfterSchemaChange(t *testing.T) {
	ctx := context.Background()
	eachCached(t, func(t *testing.T, conn *sql.Conn) {
		all := rebind(t, conn, `SELECT * FROM n WHERE k = ?`)
		postgres := all != `SELECT * FROM n WHERE k = ?`
		cols := func() []string {
			rows, err := conn.QueryContext(ctx, all, 1)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			c, err := rows.Columns()
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		if got := cols(); !slices.Equal(got, []string{"k", "v"}) {
			t.Fatalf("before: %v", got)
		}
		if kept := cacheOf(t, conn)[all] != nil; kept == postgres {
			t.Fatalf("SELECT * kept: %v", kept)
		}
		if _, err := conn.ExecContext(ctx, `ALTER TABLE n ADD COLUMN w TEXT`); err != nil {
			t.Fatal(err)
		}
		if got := cols(); !slices.Equal(got, []string{"k", "v", "w"}) {
			t.Fatalf("after: %v", got)
		}
	})
}
