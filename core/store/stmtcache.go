package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	"modernc.org/sqlite"
)

// Each connection keeps its prepared statements by SQL text
// (stmtCacheSize of them, the least recently used closed first): a
// statement run again on the same connection is only bound and run. On
// SQLite, modernc.org/sqlite prepares (parses and compiles) every statement
// anew when run through database/sql, and offers no statement cache (as of
// v1.60): on the hot paths — a proposal round-trip runs about fifty
// statements, the same texts every time — parsing was a fifth of the CPU
// (issue 20). On PostgreSQL, lib/pq runs a statement with arguments in two
// round trips (an unnamed statement parsed, then bound and run) and the
// server parses and plans it each time; a statement kept is bound and run
// in one. Queries keep their one SQL text for both databases; nothing
// changes for the callers.
//
// Left to the driver's own one-shot path: a text with a semicolon (a
// script, such as a migration's, which the drivers run statement by
// statement), a text longer than stmtCacheMaxSQL (bulk inserts of
// thousands of parameters, run once in a while), a statement whose cached
// copy is still reading rows on the same connection (a query run again
// while iterating its own results) and, on PostgreSQL, a SELECT * (whose
// columns a migration may change under a kept statement, which PostgreSQL
// refuses: "cached plan must not change result type"; SQLite prepares a
// kept statement again by itself).
const (
	stmtCacheSize   = 128
	stmtCacheMaxSQL = 8 << 10
)

// cacheable reports whether query may be kept on a connection of the
// dialect.
func cacheable(d Dialect, query string) bool {
	if len(query) > stmtCacheMaxSQL || strings.IndexByte(query, ';') >= 0 {
		return false
	}
	return d != Postgres || !strings.Contains(query, "SELECT *")
}

// cachingConnector opens connections that keep their statements.
type cachingConnector struct {
	driver.Connector
	dialect Dialect
	// watch is the DB's statement watcher (DB.Watch), shared by its
	// connections.
	watch *watcher
}

// watcher holds the function DB.Watch set, if any.
type watcher struct {
	fn atomic.Pointer[func(query string)]
}

// saw tells the watcher, if one is set, that query runs.
func (w *watcher) saw(query string) {
	if w == nil {
		return
	}
	if fn := w.fn.Load(); fn != nil && !groupStatement(query) {
		(*fn)(query)
	}
}

// Connect opens a connection of the driver and wraps it.
func (c cachingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	inner, ok := conn.(driverConn)
	if !ok {
		_ = conn.Close()
		return nil, errors.New("store: the " + string(c.dialect) + " driver's connection lacks an interface of database/sql")
	}
	return &cachedConn{inner: inner, dialect: c.dialect, watch: c.watch, stmts: map[string]*cachedStmt{}}, nil
}

// driverConn is what database/sql uses of the drivers' connections
// (modernc.org/sqlite's, lib/pq's).
type driverConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// cachedStmt is a prepared statement of a connection. busy says that it
// runs (its rows are open); a statement evicted while busy is closed when
// it is released.
type cachedStmt struct {
	stmt    preparedStmt
	busy    bool
	evicted bool
	used    uint64
}

// preparedStmt is what the driver's prepared statements offer.
type preparedStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

// cachedConn is a connection with its statement cache. database/sql uses
// a connection from one goroutine at a time; the mutex covers rows closed
// from elsewhere (a context's end).
type cachedConn struct {
	inner   driverConn
	dialect Dialect
	watch   *watcher
	// inTx says that a transaction is open on the connection.
	inTx  bool
	mu    sync.Mutex
	stmts map[string]*cachedStmt
	tick  uint64
}

// take returns the connection's statement for query, prepared now if it
// was not, and marks it busy; nil (and no error) when the query is left to
// the driver's one-shot path.
func (c *cachedConn) take(ctx context.Context, query string) (*cachedStmt, error) {
	if !cacheable(c.dialect, query) {
		return nil, nil
	}
	c.mu.Lock()
	c.tick++
	if e := c.stmts[query]; e != nil {
		if e.busy {
			c.mu.Unlock()
			return nil, nil
		}
		e.busy, e.used = true, c.tick
		c.mu.Unlock()
		return e, nil
	}
	c.mu.Unlock()
	s, err := c.inner.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	ps, ok := s.(preparedStmt)
	if !ok {
		_ = s.Close()
		return nil, nil
	}
	e := &cachedStmt{stmt: ps, busy: true}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.stmts) >= stmtCacheSize {
		c.evictLocked()
	}
	e.used = c.tick
	c.stmts[query] = e
	return e, nil
}

// evictLocked drops the least recently used statement that is not
// running (closing it), if any.
func (c *cachedConn) evictLocked() {
	var oldest string
	var found *cachedStmt
	for q, e := range c.stmts {
		if !e.busy && (found == nil || e.used < found.used) {
			oldest, found = q, e
		}
	}
	if found != nil {
		delete(c.stmts, oldest)
		_ = found.stmt.Close()
	}
}

// release marks a statement taken by take as free again.
func (c *cachedConn) release(e *cachedStmt) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.busy = false
	if e.evicted {
		_ = e.stmt.Close()
	}
}

// ExecContext runs query on its cached statement.
func (c *cachedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	c.watch.saw(query)
	ctx = c.statementContext(ctx)
	e, err := c.take(ctx, query)
	if err != nil {
		return nil, err
	}
	if e == nil {
		return c.inner.ExecContext(ctx, query, args)
	}
	defer c.release(e)
	return e.stmt.ExecContext(ctx, args)
}

// QueryContext runs query on its cached statement, which stays busy until
// its rows are closed.
func (c *cachedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	c.watch.saw(query)
	ctx = c.statementContext(ctx)
	e, err := c.take(ctx, query)
	if err != nil {
		return nil, err
	}
	if e == nil {
		return c.inner.QueryContext(ctx, query, args)
	}
	rows, err := e.stmt.QueryContext(ctx, args)
	if err != nil {
		c.release(e)
		return nil, err
	}
	return &cachedRows{Rows: rows, conn: c, stmt: e}, nil
}

// Close closes the cached statements, then the connection.
func (c *cachedConn) Close() error {
	c.mu.Lock()
	for q, e := range c.stmts {
		delete(c.stmts, q)
		if e.busy {
			e.evicted = true
			continue
		}
		_ = e.stmt.Close()
	}
	c.mu.Unlock()
	return c.inner.Close()
}

// The rest is the driver's connection as it is.

func (c *cachedConn) Prepare(query string) (driver.Stmt, error) { return c.inner.Prepare(query) }
func (c *cachedConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.inner.PrepareContext(ctx, query)
}
func (c *cachedConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx begins a transaction. On SQLite, its statements run to their
// end whatever becomes of their context (statementContext).
func (c *cachedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if c.dialect == SQLite {
		ctx = context.WithoutCancel(ctx)
	}
	tx, err := c.inner.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	c.inTx = true
	return endingTx{tx, c}, nil
}

// endingTx is a transaction that tells its connection when it ends.
type endingTx struct {
	driver.Tx
	c *cachedConn
}

func (t endingTx) Commit() error {
	t.c.inTx = false
	return t.Tx.Commit()
}

func (t endingTx) Rollback() error {
	t.c.inTx = false
	return t.Tx.Rollback()
}

// statementContext is the context a statement runs with. In a SQLite
// transaction it never ends: a SQLite transaction holds the database's one
// write lock and is short by design, and modernc.org/sqlite watches a
// context that can end with a goroutine of its own for each statement (a
// round-trip's two dozen statements, each a goroutine started and
// stopped). A transaction whose context ends is still rolled back by
// database/sql, once its running statement is over. Elsewhere, and on
// PostgreSQL (where a statement may wait for a row lock), the caller's
// context interrupts the statement itself.
func (c *cachedConn) statementContext(ctx context.Context) context.Context {
	if c.inTx && c.dialect == SQLite {
		return context.WithoutCancel(ctx)
	}
	return ctx
}
func (c *cachedConn) Ping(ctx context.Context) error         { return c.inner.Ping(ctx) }
func (c *cachedConn) ResetSession(ctx context.Context) error { return c.inner.ResetSession(ctx) }
func (c *cachedConn) IsValid() bool                          { return c.inner.IsValid() }

// CheckNamedValue converts arguments as the driver does (lib/pq's own
// rules), or by database/sql's default (modernc.org/sqlite has none).
func (c *cachedConn) CheckNamedValue(nv *driver.NamedValue) error {
	if ch, ok := c.inner.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(nv)
	}
	return driver.ErrSkip
}

// NewBackup is the SQLite connection's online backup API (store.copySQLite
// reaches it through database/sql's Conn.Raw).
func (c *cachedConn) NewBackup(dstURI string) (*sqlite.Backup, error) {
	b, ok := c.inner.(interface {
		NewBackup(dstURI string) (*sqlite.Backup, error)
	})
	if !ok {
		return nil, errors.New("store: no backup API on " + string(c.dialect))
	}
	return b.NewBackup(dstURI)
}

// cachedRows are a cached statement's rows: closing them frees the
// statement for its next run.
type cachedRows struct {
	driver.Rows
	conn *cachedConn
	stmt *cachedStmt
	once sync.Once
}

// Close resets the statement (the driver's rows of a prepared statement
// reset it rather than finalize it) and releases it.
func (r *cachedRows) Close() error {
	err := r.Rows.Close()
	r.once.Do(func() { r.conn.release(r.stmt) })
	return err
}

// The column types, as the driver's rows give them.

func (r *cachedRows) ColumnTypeDatabaseTypeName(i int) string {
	if t, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

func (r *cachedRows) ColumnTypeLength(i int) (int64, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypeLength); ok {
		return t.ColumnTypeLength(i)
	}
	return 0, false
}

func (r *cachedRows) ColumnTypeNullable(i int) (bool, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypeNullable); ok {
		return t.ColumnTypeNullable(i)
	}
	return false, false
}

func (r *cachedRows) ColumnTypePrecisionScale(i int) (int64, int64, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypePrecisionScale); ok {
		return t.ColumnTypePrecisionScale(i)
	}
	return 0, 0, false
}

func (r *cachedRows) ColumnTypeScanType(i int) reflect.Type {
	if t, ok := r.Rows.(driver.RowsColumnTypeScanType); ok {
		return t.ColumnTypeScanType(i)
	}
	return reflect.TypeFor[any]()
}
