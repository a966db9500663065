package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"modernc.org/sqlite"
)

// Released is what ReleaseMemory gave back.
type Released struct {
	// Conns is how many connections were asked.
	Conns int
	// Bytes is how much their page caches held before, less after.
	Bytes int64
}

// ReleaseMemory asks SQLite to give back the memory its connections keep
// and are not using: their page caches (up to 16 MB each, see
// openSQLiteWith). A daemon that had answered a burst of reads on a year
// of trade kept about 110 MB more at rest than once they were given back
// (issue 42: at rest ≤ 150 MB). It runs `PRAGMA shrink_memory` on the
// write connection, if no writer holds it nor a group of writers keeps
// its transaction open, and on the connections of the
// pool idle at that moment; a connection in use is left alone, so that it
// never waits for anyone. The next statements read their pages again from
// the system's file cache. On PostgreSQL it does nothing: the memory is
// the server's.
func (db *DB) ReleaseMemory(ctx context.Context) (Released, error) {
	if db.Dialect != SQLite {
		return Released{}, nil
	}
	var conns []*sql.Conn
	select {
	case db.writer <- struct{}{}:
		defer func() { <-db.writer }()
		// A group of writers left open for the next in line (group.go)
		// has its connection in use too.
		if db.writeConn != nil && db.open == nil {
			conns = append(conns, db.writeConn.Conn)
		}
	default: // a writer is at work: its connection is in use
	}
	// Only the connections idle now: taking more would open new ones, or
	// wait for a reader to finish. Each is held until all are asked, so
	// that the pool hands out each one once.
	for range db.Stats().Idle {
		c, err := db.Conn(ctx)
		if err != nil {
			return Released{}, fmt.Errorf("store: release a connection's memory: %w", err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	return shrink(ctx, conns)
}

// shrink runs shrinkMemory on each of conns and says what their page
// caches gave back. The caches are summed before and after all of them:
// SQLite's page caches may share one pool of pages in the process (as
// modernc.org/sqlite builds it, a connection's shrink_memory frees the
// unused pages of every connection).
func shrink(ctx context.Context, conns []*sql.Conn) (Released, error) {
	used := func() (int64, error) {
		var sum int64
		for _, c := range conns {
			n, err := cacheUsed(c)
			if err != nil {
				return 0, err
			}
			sum += int64(n)
		}
		return sum, nil
	}
	before, err := used()
	if err != nil {
		return Released{}, err
	}
	for _, c := range conns {
		if _, err := c.ExecContext(ctx, shrinkMemory); err != nil {
			return Released{}, fmt.Errorf("store: release a connection's memory: %w", err)
		}
	}
	after, err := used()
	if err != nil {
		return Released{}, err
	}
	return Released{Conns: len(conns), Bytes: before - after}, nil
}

// shrinkMemory frees the memory of the connection it runs on that SQLite
// can free (sqlite3_db_release_memory).
const shrinkMemory = "PRAGMA shrink_memory"

// cacheUsed is how many bytes c's page cache holds
// (SQLITE_DBSTATUS_CACHE_USED).
func cacheUsed(c *sql.Conn) (int, error) {
	var used int
	err := c.Raw(func(dc any) error {
		s, ok := dc.(sqlite.DBStatus)
		if !ok {
			return errors.New("not a SQLite connection")
		}
		var err error
		used, _, err = s.Status(sqlite.DBStatusCacheUsed, false)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: a connection's page cache: %w", err)
	}
	return used, nil
}

// Status is the SQLite connection's sqlite3_db_status (sqlite.DBStatus),
// which the statement cache would otherwise hide.
func (c *cachedConn) Status(op sqlite.DBStatusOp, reset bool) (current, high int, err error) {
	s, ok := c.inner.(sqlite.DBStatus)
	if !ok {
		return 0, 0, errors.New("not a SQLite connection")
	}
	return s.Status(op, reset)
}
