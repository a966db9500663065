// Package store opens Primeur's database — SQLite (pure Go, the default) or
// PostgreSQL — runs its migrations, and offers the small helpers every domain
// package uses to run one SQL text on both: queries are written with `?`
// placeholders and rebound for the driver at the call.
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"  // PostgreSQL driver
	"modernc.org/sqlite" // SQLite driver, no cgo
	sqlite3 "modernc.org/sqlite/lib"

	"primeur/core"
	"primeur/core/limit"
)

// Dialect names the database engine behind a DB.
type Dialect string

// Supported dialects.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

var bindOnce sync.Once

// DB is the database handle shared by the domain packages.
type DB struct {
	*sqlx.DB
	Dialect Dialect
	// Name says where the database is, for messages: the SQLite file's
	// path, or the PostgreSQL URL without its credentials.
	Name string
	// unlock releases the SQLite data directory's shared lock (lock.go),
	// and forgets the database's directory or server (fault.go).
	unlock func()
	// writer is the SQLite database's one write lock as this process
	// queues for it (a channel of one token; nil on PostgreSQL): Tx takes
	// it before BEGIN IMMEDIATE, so that the process's writers wait in
	// line, each woken the moment the one before commits, instead of
	// polling in SQLite's busy handler, which sleeps up to 100 ms between
	// tries. Other processes on the same file (a command run beside the
	// daemon) still meet the busy timeout.
	writer chan struct{}
	// writerClock sums the writers' waits for writer and their holds of
	// it (WriterTime); nil with writer.
	writerClock *writerClock
	// writeConn is, on SQLite, the one connection every write runs on,
	// held by whoever holds writer. SQLite drops a connection's whole page
	// cache when another connection wrote since its last transaction: with
	// the writes spread over the pool, each write transaction began with a
	// cold cache and read its pages again (issue 20, the proposal
	// round-trip). One connection for all writes keeps its cache; the
	// others read. nil on PostgreSQL and on a read-only database.
	writeConn *sqlx.Conn
	// queued counts the writers in line for writer, and open is the
	// group of writers whose transaction is left open for the next in
	// line, its commit shared (group.go); open is the writer's holder's.
	queued atomic.Int32
	open   *commitGroup
	// watch is told every statement the connections run (Watch).
	watch *watcher
	// connector opens the connections of the pool; Rehearse opens one of
	// its own with it. nil on a read-only database.
	connector driver.Connector
}

// Watch calls fn with the SQL text of every statement the database's
// connections run from now on (BEGIN and COMMIT are not statements run
// through them), from whichever goroutine runs it, until the returned stop
// is called: what tests count to hold a hot path to its statements. One
// watcher at a time; Watch replaces the previous one. A database opened
// read-only (OpenReadOnly) keeps no statements and tells no watcher.
func (db *DB) Watch(fn func(query string)) (stop func()) {
	if db.watch == nil {
		return func() {}
	}
	db.watch.fn.Store(&fn)
	return func() { db.watch.fn.Store(nil) }
}

// Q is what queries run on: a *DB or a *sqlx.Tx.
type Q interface {
	sqlx.ExtContext
}

// NoDatabaseError says that the configured place holds no Primeur database:
// no SQLite file, or a file or PostgreSQL schema without Primeur's tables.
// Its message is the one line an administrator reads.
type NoDatabaseError struct {
	// Where names the file or the database (DB.Name).
	Where string
}

// Error is the line an administrator reads, in French.
func (e *NoDatabaseError) Error() string {
	return fmt.Sprintf("aucune base Primeur dans %s ; lancez primeur migrate", e.Where)
}

// Open connects to PostgreSQL when url is set, otherwise to the SQLite file
// at sqlitePath (created with its directory if missing), and pings it. Only
// the commands that set up a database (migrate, serve, demo) call it; the
// others open an existing one (OpenExisting).
func Open(ctx context.Context, url, sqlitePath string) (*DB, error) {
	if url != "" {
		return openPostgres(ctx, url)
	}
	if err := os.MkdirAll(filepath.Dir(sqlitePath), 0o750); err != nil {
		return nil, fmt.Errorf("store: create data directory: %w", err)
	}
	return openSQLite(ctx, sqlitePath, true)
}

// OpenExisting is Open without creating anything: a missing SQLite file (or
// directory) is a *NoDatabaseError and nothing is written on the disk. It
// does not check what the database holds; core/schema does (schema.Open).
func OpenExisting(ctx context.Context, url, sqlitePath string) (*DB, error) {
	if url != "" {
		return openPostgres(ctx, url)
	}
	st, err := os.Stat(sqlitePath)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && st.Size() == 0) {
		// An empty file is what SQLite leaves when it was opened and
		// never written: no database either.
		return nil, &NoDatabaseError{Where: sqlitePath}
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("store: %s is not a file", sqlitePath)
	}
	db, err := openSQLite(ctx, sqlitePath, false)
	if notADatabase(err) {
		return nil, &NoDatabaseError{Where: sqlitePath}
	}
	return db, err
}

// notADatabase reports whether err is SQLite's "file is not a database".
func notADatabase(err error) bool {
	var coded interface{ Code() int }
	return errors.As(err, &coded) && coded.Code()&0xff == sqlite3.SQLITE_NOTADB
}

// OpenReadOnly opens a SQLite file that is not a data directory's database
// (a backup to restore) for reading only: nothing in it is changed, not even
// its journal mode. A file that is not a SQLite database is a
// *NoDatabaseError.
func OpenReadOnly(ctx context.Context, path string) (*DB, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("store: %s is not a file", path)
	}
	bindOnce.Do(func() { sqlx.BindDriver("sqlite", sqlx.QUESTION) })
	db, err := sqlx.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, fmt.Errorf("store: open sqlite: %w", err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		if notADatabase(err) {
			return nil, &NoDatabaseError{Where: path}
		}
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return &DB{DB: db, Dialect: SQLite, Name: path}, nil
}

func openPostgres(ctx context.Context, dsn string) (*DB, error) {
	// Each connection keeps its prepared statements (stmtcache.go).
	connector, err := pq.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open postgres: %w", err)
	}
	watch := &watcher{}
	caching := cachingConnector{connector, Postgres, watch}
	db := sqlx.NewDb(sql.OpenDB(caching), "postgres")
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(10)
	db.SetConnMaxIdleTime(5 * time.Minute)
	// Its network errors are faults (fault.go) while it is open.
	forget := servers.add(serverKeys(dsn)...)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		err = fmt.Errorf("store: ping %s: %w", Postgres, err)
		if FaultOf(err) == DatabaseUnavailable {
			err = &unreachable{err}
		}
		forget()
		return nil, err
	}
	return &DB{DB: db, Dialect: Postgres, Name: postgresName(dsn), watch: watch, connector: caching, unlock: forget}, nil
}

// openSQLite opens the file at path, creating it when missing only if
// create is set. The data directory's shared lock is held until Close, so
// that a restore can tell the database is in use.
func openSQLite(ctx context.Context, path string, create bool) (*DB, error) {
	return openSQLiteWith(ctx, path, create, 10000)
}

// openSQLiteWith is openSQLite with SQLite's busy timeout in milliseconds.
func openSQLiteWith(ctx context.Context, path string, create bool, busyMS int) (*DB, error) {
	bindOnce.Do(func() { sqlx.BindDriver("sqlite", sqlx.QUESTION) })
	unlock, err := shareDir(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	// busy_timeout first so the other pragmas wait for locks too;
	// _txlock=immediate makes every transaction take the write lock at
	// BEGIN, which serialises writers instead of failing on upgrade.
	// temp_store(MEMORY) keeps statement journals (multi-row upserts in a
	// transaction) off the disk, and a 16 MB page cache per connection
	// keeps a large import's pages from spilling to the WAL mid-way.
	// The journal mode is persistent, in the file: Open sets WAL on the
	// database it sets up; OpenExisting leaves the file as it is, so that
	// a file that turns out not to be Primeur's is not changed.
	mode, journal := "rwc", "&_pragma=journal_mode(WAL)"
	if !create {
		mode, journal = "rw", ""
	}
	dsn := "file:" + path + "?mode=" + mode +
		"&_pragma=busy_timeout(" + strconv.Itoa(busyMS) + ")" + journal +
		"&_pragma=foreign_keys(ON)&_pragma=synchronous(NORMAL)" +
		"&_pragma=temp_store(MEMORY)&_pragma=cache_size(-16000)&_txlock=immediate"
	// Each connection keeps its prepared statements (stmtcache.go).
	connector, err := sqlite.NewConnector(dsn)
	if err != nil {
		unlock()
		return nil, fmt.Errorf("store: open sqlite: %w", err)
	}
	watch := &watcher{}
	caching := cachingConnector{connector, SQLite, watch}
	db := sqlx.NewDb(sql.OpenDB(caching), "sqlite")
	db.SetMaxOpenConns(sqliteConns)
	db.SetMaxIdleConns(sqliteConns)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		unlock()
		return nil, fmt.Errorf("store: ping %s: %w", SQLite, err)
	}
	wc, err := db.Connx(ctx)
	if err != nil {
		db.Close()
		unlock()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	closed := sqliteDirs.add(filepath.Dir(path)) // fault.go: its disk's I/O errors
	release := func() { closed(); unlock() }
	return &DB{DB: db, Dialect: SQLite, Name: path, unlock: release, writer: make(chan struct{}, 1), writerClock: &writerClock{}, writeConn: wc, watch: watch,
		connector: caching}, nil
}

// sqliteConns is how many connections a SQLite database keeps open: the
// write connection and three readers. Each holds its page cache (16 MB,
// see openSQLiteWith) and its prepared statements (stmtcache.go), so the
// connections are most of the daemon's memory beside the requests': eight
// of them made a peak of 423 MB under 16 clients on a year of trade, four
// 279 MB, with the same CPU per request — SQLite runs each statement on one
// core, and the requests queue for a connection instead of for a core
// (issue 42, docs/BENCHMARKS.md).
const sqliteConns = 4

// postgresName is a PostgreSQL URL without its credentials nor options,
// plus the schema when search_path names one: what a message may show.
func postgresName(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "PostgreSQL"
	}
	name := "postgres://" + u.Host + u.Path
	if sp := u.Query().Get("search_path"); sp != "" {
		name += " (schéma " + sp + ")"
	}
	return name
}

// Close closes the database and releases the data directory's lock.
func (db *DB) Close() error {
	if db.writer != nil { // the writes waiting for a shared commit get it
		if release, err := db.takeWriter(context.Background()); err == nil {
			db.commitOpen()
			release()
		}
	}
	if db.writeConn != nil {
		_ = db.writeConn.Close()
		db.writeConn = nil
	}
	err := db.DB.Close()
	if db.unlock != nil {
		db.unlock()
		db.unlock = nil
	}
	return err
}

// HasTable reports whether the database's current schema holds a table
// of that name.
func HasTable(ctx context.Context, q Q, name string) (bool, error) {
	query := `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`
	if q.DriverName() == "postgres" {
		query = `SELECT COUNT(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = ?`
	}
	var n int
	if err := Get(ctx, q, &n, query, name); err != nil {
		return false, fmt.Errorf("store: look for table %s: %w", name, err)
	}
	return n > 0, nil
}

// Retries of a transaction that met a busy database: txAttempts in all,
// the n-th retry after about txBackoff·2ⁿ⁻¹ (with jitter). BusyRetryAfter
// is the delay given to a caller refused after the last one.
const (
	txAttempts     = 4
	txBackoff      = 25 * time.Millisecond
	BusyRetryAfter = 2 * time.Second
)

// Tx runs fn in a transaction, committed when fn returns nil and rolled back
// otherwise. On SQLite the transaction holds the write lock from its start.
//
// A transaction that fails because the database is busy (SQLite still
// locked after its busy timeout; a PostgreSQL deadlock or serialization
// failure) is rolled back and run again from the start, a few times with a
// growing pause: fn must touch nothing but the transaction. Past the last
// attempt the error is a core.ErrBusy refusal with MsgBusy, marked to be
// retried after BusyRetryAfter.
func (db *DB) Tx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	var err error
	for attempt := 1; ; attempt++ {
		err = db.tx(ctx, fn)
		if err == nil || !IsBusy(err) {
			return err
		}
		if attempt == txAttempts {
			break
		}
		pause := txBackoff << (attempt - 1)
		pause += time.Duration(rand.Int64N(int64(pause)))
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("store: %w", ctx.Err())
		case <-t.C:
		}
	}
	return fmt.Errorf("store: %d attempts: %w", txAttempts, &limit.Later{
		Err: core.Refuse(core.ErrBusy, limit.MsgBusy), After: BusyRetryAfter,
	})
}

// writerWait is how long a transaction waits in the process's line for
// SQLite's write lock: as long as SQLite's own busy timeout, after which it
// is busy like a transaction that met another process's lock.
const writerWait = 10 * time.Second

// errWriterBusy is the wait in line ending without the lock, busy as
// SQLITE_BUSY is (IsBusy).
var errWriterBusy = errors.New("store: no turn to write within the busy timeout")

// takeWriter waits for the process's turn to write on SQLite (see
// DB.writer) and returns its release; on PostgreSQL it returns at once.
func (db *DB) takeWriter(ctx context.Context) (func(), error) {
	if db.writer == nil {
		return func() {}, nil
	}
	asked := time.Now()
	release := func() { <-db.writer }
	select {
	case db.writer <- struct{}{}:
		return db.writerClock.timed(asked, release), nil
	default:
	}
	t := time.NewTimer(writerWait)
	defer t.Stop()
	select {
	case db.writer <- struct{}{}:
		return db.writerClock.timed(asked, release), nil
	case <-ctx.Done():
		return nil, fmt.Errorf("store: wait to write: %w", ctx.Err())
	case <-t.C:
		return nil, errWriterBusy
	}
}

// ExecContext runs one statement outside a transaction. On SQLite it
// first takes the process's turn to write, as Tx does (see DB.writer):
// a writer that polled in SQLite's busy handler instead would meet each
// transaction of the line handing the lock straight to the next, and could
// wait out the busy timeout. A write outside a transaction is therefore an
// Exec (or store.Exec on the DB); a statement that writes and returns
// rows runs in Tx.
func (db *DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	release, err := db.takeWriter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	if db.writeConn != nil {
		db.commitOpen()
		res, err := db.writeConn.ExecContext(ctx, query, args...)
		if db.lostWriteConn(ctx, err) {
			res, err = db.writeConn.ExecContext(ctx, query, args...)
		}
		return res, err
	}
	return db.DB.ExecContext(ctx, query, args...)
}

// lostWriteConn reports whether err says that the write connection is
// gone (a driver that gave it up), and if so takes another from the pool
// for the next writes. The caller holds the writer.
func (db *DB) lostWriteConn(ctx context.Context, err error) bool {
	if !errors.Is(err, driver.ErrBadConn) && !errors.Is(err, sql.ErrConnDone) {
		return false
	}
	_ = db.writeConn.Close()
	wc, cerr := db.Connx(ctx)
	if cerr != nil {
		return false
	}
	db.writeConn = wc
	return true
}

func (db *DB) tx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	if db.writer != nil && db.writeConn != nil {
		return db.groupTx(ctx, fn)
	}
	release, err := db.takeWriter(ctx)
	if err != nil {
		return err
	}
	defer release()
	// The transaction lives until fn returns, whatever becomes of ctx, and
	// is rolled back here, in this goroutine: begun with ctx, database/sql
	// would roll it back from a goroutine of its own the moment ctx ends,
	// while lib/pq's COPY (store.Insert) may still be reading the
	// connection from another — a data race in the driver, which -race
	// caught in planning's TestImportRollsBackOnFailure (an import given up
	// halfway). fn's statements still run with ctx and fail once it ends.
	txCtx := context.WithoutCancel(ctx)
	var tx *sqlx.Tx
	if db.writeConn != nil {
		tx, err = db.writeConn.BeginTxx(txCtx, nil)
		if db.lostWriteConn(ctx, err) {
			tx, err = db.writeConn.BeginTxx(txCtx, nil)
		}
	} else {
		tx, err = db.BeginTxx(txCtx, nil)
	}
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// IsBusy reports whether err says the database could not be had at that
// moment, so that the same work may succeed if run again: SQLite's BUSY
// and LOCKED (any extended code), PostgreSQL's serialization failure and
// deadlock.
func IsBusy(err error) bool {
	if errors.Is(err, errWriterBusy) || errors.Is(err, errGroupLost) {
		return true
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		code := se.Code() & 0xff
		return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
	}
	var pe *pq.Error
	if errors.As(err, &pe) {
		return pe.Code == "40001" || pe.Code == "40P01"
	}
	return false
}

// ForUpdate is the row-locking suffix of a SELECT run on q inside a
// transaction: " FOR UPDATE" on PostgreSQL, nothing on SQLite, whose
// immediate transactions already hold the database's write lock.
func ForUpdate(q Q) string {
	if q.DriverName() == "postgres" {
		return " FOR UPDATE"
	}
	return ""
}

// ForUpdateOf is ForUpdate locking only the rows of table (its name or
// alias in the query) on PostgreSQL, not those of the tables it joins.
func ForUpdateOf(q Q, table string) string {
	if q.DriverName() == "postgres" {
		return " FOR UPDATE OF " + table
	}
	return ""
}

// Get runs a single-row query into dest. A missing row is sql.ErrNoRows.
func Get(ctx context.Context, q Q, dest any, query string, args ...any) error {
	return sqlx.GetContext(ctx, q, dest, q.Rebind(query), args...)
}

// Select runs a query into the slice dest.
func Select(ctx context.Context, q Q, dest any, query string, args ...any) error {
	return sqlx.SelectContext(ctx, q, dest, q.Rebind(query), args...)
}

// Each runs query (its IN (?) arguments expanded, see In), scans every
// row into dest and calls row after each: the reads on hot paths scan
// into destinations given once, without sqlx's reflection per row.
func Each(ctx context.Context, q Q, query string, args []any, dest []any, row func()) error {
	query, args, err := In(q, query, args...)
	if err != nil {
		return err
	}
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		row()
	}
	return rows.Err()
}

// Int64 is an integer column's destination that database/sql fills
// without reflection: it reflects for a plain *int64 (as for any type but
// the few it knows and Scanners), on every row. Pass a *Int64, or an
// *int64 converted: (*store.Int64)(&n).
type Int64 int64

// Scan reads an integer, or its decimal text.
func (v *Int64) Scan(src any) error {
	var err error
	switch s := src.(type) {
	case int64:
		*v = Int64(s)
		return nil
	case []byte:
		*v, err = parseInt64(string(s))
	case string:
		*v, err = parseInt64(s)
	default:
		err = fmt.Errorf("store: scan %T into an integer", src)
	}
	return err
}

func parseInt64(s string) (Int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("store: scan %q into an integer: %w", s, err)
	}
	return Int64(n), nil
}

// Exec runs a statement and returns the number of affected rows.
func Exec(ctx context.Context, q Q, query string, args ...any) (int64, error) {
	res, err := q.ExecContext(ctx, q.Rebind(query), args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// In expands slice arguments of an IN (?) clause, then rebinds.
func In(q Q, query string, args ...any) (string, []any, error) {
	query, args, err := sqlx.In(query, args...)
	if err != nil {
		return "", nil, err
	}
	return q.Rebind(query), args, nil
}

// IsNotFound reports whether err is a missing row.
func IsNotFound(err error) bool {
	return errors.Is(err, sql.ErrNoRows)
}

// IsUniqueViolation reports whether err is a UNIQUE constraint failure on
// either engine.
func IsUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || // SQLite
		strings.Contains(msg, "duplicate key value violates unique constraint") // PostgreSQL
}

// NamedExec runs a statement with :name placeholders filled from the `db`
// tags of arg's fields, rebound for the driver.
func NamedExec(ctx context.Context, q Q, query string, arg any) (int64, error) {
	query, args, err := sqlx.Named(query, arg)
	if err != nil {
		return 0, err
	}
	return Exec(ctx, q, query, args...)
}

// Rebind rewrites `?` placeholders for the dialect's driver, for code given
// a plain *sql.Tx (Go migrations).
func Rebind(d Dialect, query string) string {
	if d == Postgres {
		return sqlx.Rebind(sqlx.DOLLAR, query)
	}
	return query
}

// ExecIn runs a statement whose slice arguments fill IN (?) clauses and
// returns the number of affected rows.
func ExecIn(ctx context.Context, q Q, query string, args ...any) (int64, error) {
	query, args, err := sqlx.In(query, args...)
	if err != nil {
		return 0, err
	}
	return Exec(ctx, q, query, args...)
}

// SelectIn runs a query whose slice arguments fill IN (?) clauses.
func SelectIn(ctx context.Context, q Q, dest any, query string, args ...any) error {
	query, args, err := In(q, query, args...)
	if err != nil {
		return err
	}
	return sqlx.SelectContext(ctx, q, dest, query, args...)
}

// Where gathers the optional conditions of a WHERE clause and their
// arguments, for queries whose filters depend on the caller.
type Where struct {
	conds []string
	args  []any
}

// And adds cond, with its `?` arguments, when ok is true.
func (w *Where) And(ok bool, cond string, args ...any) *Where {
	if ok {
		w.conds = append(w.conds, cond)
		w.args = append(w.args, args...)
	}
	return w
}

// SQL is the clause body: the conditions joined by AND, "1 = 1" without any.
func (w *Where) SQL() string {
	if len(w.conds) == 0 {
		return "1 = 1"
	}
	return strings.Join(w.conds, " AND ")
}

// Args are the arguments of the conditions, in order.
func (w *Where) Args() []any { return w.args }
