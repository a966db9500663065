package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/jmoiron/sqlx"
)

// Rehearse runs fn on a handle of db on which nothing is kept: a dry run
// of code written for a real database (the jobs' --dry-run). Every
// statement fn runs on the handle — through its Tx or outside any — runs
// on one connection of its own, inside one transaction that is rolled
// back when fn returns, whatever it returns. The handle's transactions are
// savepoints of that transaction: committed, they are released and their
// work stays visible to what fn does next; rolled back, they are undone.
// fn therefore reads what it wrote, as the real run would, and the
// database is left as it was.
//
// The handle has one connection, so that every statement sees the same
// transaction: goroutines that use it take turns, and fn must not hold a
// result set open while it runs another statement on the handle (which
// db.Tx's rule, touch nothing but the transaction, already forbids inside
// a transaction). The transaction holds what fn's writes lock until fn
// returns: on SQLite, the database's write lock from the start (its
// transactions are BEGIN IMMEDIATE); on PostgreSQL, the rows written or
// locked. A statement of fn that fails outside a transaction is undone
// alone (on PostgreSQL, where a failed statement would otherwise abort the
// whole transaction), as it would be on db.
func (db *DB) Rehearse(ctx context.Context, fn func(rehearsal *DB) error) error {
	if db.connector == nil {
		return errors.New("store: no rehearsal on a database opened read-only")
	}
	raw, err := db.connector.Connect(ctx)
	if err != nil {
		return fmt.Errorf("store: rehearsal: connect: %w", err)
	}
	conn, ok := raw.(*cachedConn)
	if !ok {
		_ = raw.Close()
		return errors.New("store: rehearsal: unexpected connection type")
	}
	outer, err := conn.BeginTx(ctx, driver.TxOptions{})
	if err != nil {
		_ = conn.Close()
		return fmt.Errorf("store: rehearsal: begin: %w", err)
	}
	rc := &rehearsalConn{cachedConn: conn, outer: outer}
	pool := sql.OpenDB(&rehearsalConnector{conn: rc, driver: db.connector.Driver()})
	pool.SetMaxOpenConns(1)
	pool.SetMaxIdleConns(1)
	pool.SetConnMaxLifetime(0)
	pool.SetConnMaxIdleTime(0)
	name := "sqlite"
	if db.Dialect == Postgres {
		name = "postgres"
	}
	r := &DB{DB: sqlx.NewDb(pool, name), Dialect: db.Dialect, Name: db.Name}
	err = fn(r)
	// Closing the pool closes the connection, which rolls the transaction
	// back first (rehearsalConn.Close); a connection the pool had already
	// dropped was closed, and its transaction with it, when it was.
	if cerr := pool.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("store: rehearsal: roll back: %w", cerr)
	}
	if err == nil && rc.rollbackErr != nil {
		err = fmt.Errorf("store: rehearsal: roll back: %w", rc.rollbackErr)
	}
	return err
}

// errRehearsalLost is a rehearsal's pool asking for a second connection:
// its one connection was dropped (the driver found it broken), and its
// transaction with it.
var errRehearsalLost = errors.New("store: the rehearsal's connection was lost")

// rehearsalConnector hands the rehearsal's pool its one connection, once.
type rehearsalConnector struct {
	conn   *rehearsalConn
	driver driver.Driver
	given  atomic.Bool
}

func (c *rehearsalConnector) Connect(context.Context) (driver.Conn, error) {
	if c.given.Swap(true) {
		return nil, errRehearsalLost
	}
	return c.conn, nil
}

func (c *rehearsalConnector) Driver() driver.Driver { return c.driver }

// rehearsalConn is a connection inside the rehearsal's transaction: its
// transactions are savepoints, and closing it rolls everything back.
// database/sql uses a connection from one goroutine at a time, so its
// fields need no lock.
type rehearsalConn struct {
	*cachedConn
	outer driver.Tx
	// depth counts the savepoints open (transactions of the handle).
	depth int
	// next numbers the savepoints.
	next        int
	rollbackErr error
	closed      bool
}

func (c *rehearsalConn) savepoint(ctx context.Context) (string, error) {
	c.next++
	name := "primeur_rehearsal_" + strconv.Itoa(c.next)
	if _, err := c.inner.ExecContext(ctx, "SAVEPOINT "+name, nil); err != nil {
		return "", err
	}
	return name, nil
}

// undo rolls back to the savepoint name and releases it.
func (c *rehearsalConn) undo(name string) error {
	ctx := context.Background()
	if _, err := c.inner.ExecContext(ctx, "ROLLBACK TO SAVEPOINT "+name, nil); err != nil {
		return err
	}
	_, err := c.inner.ExecContext(ctx, "RELEASE SAVEPOINT "+name, nil)
	return err
}

// release keeps the savepoint name's work in the rehearsal's transaction.
func (c *rehearsalConn) release(name string) error {
	_, err := c.inner.ExecContext(context.Background(), "RELEASE SAVEPOINT "+name, nil)
	return err
}

func (c *rehearsalConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx opens a savepoint.
func (c *rehearsalConn) BeginTx(ctx context.Context, _ driver.TxOptions) (driver.Tx, error) {
	name, err := c.savepoint(ctx)
	if err != nil {
		return nil, err
	}
	c.depth++
	return &savepointTx{c: c, name: name}, nil
}

// ExecContext runs a statement; outside the handle's transactions, on
// PostgreSQL, in a savepoint of its own, undone if it fails.
func (c *rehearsalConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if c.depth > 0 || c.dialect != Postgres {
		return c.cachedConn.ExecContext(ctx, query, args)
	}
	name, err := c.savepoint(ctx)
	if err != nil {
		return nil, err
	}
	res, err := c.cachedConn.ExecContext(ctx, query, args)
	if err != nil {
		return nil, errors.Join(err, c.undo(name))
	}
	return res, c.release(name)
}

// Close rolls the rehearsal's transaction back and closes the connection.
func (c *rehearsalConn) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	c.rollbackErr = c.outer.Rollback()
	return c.cachedConn.Close()
}

// savepointTx is a transaction of the rehearsal's handle.
type savepointTx struct {
	c    *rehearsalConn
	name string
}

func (t *savepointTx) Commit() error {
	t.c.depth--
	return t.c.release(t.name)
}

func (t *savepointTx) Rollback() error {
	t.c.depth--
	return t.c.undo(t.name)
}
