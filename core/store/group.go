package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// Group commit on SQLite (issue 42). The process's writers already run
// one at a time (DB.writer), each on the one write connection; each of
// their transactions then paid a commit of its own: the log frames of
// every page it dirtied, the commit frame, the write-ahead index. When
// writers are queued, a writer's transaction is instead left open for
// the next one: each writer's work runs in a savepoint of the group's
// transaction, and the group commits once, when nobody waits any more,
// when it reached maxGroup writers, or when its flusher's turn comes.
//
// What each writer sees is unchanged:
//   - Tx returns once its writes are committed (or with the error that
//     kept them from being); never before the commit.
//   - Its function runs alone on the database, after every write of the
//     writers before it in line, as in its own transaction: the group's
//     members run one after the other, each in its savepoint.
//   - Its error is its own: a function that fails is rolled back to its
//     savepoint, leaving the other members' writes, and Tx returns its
//     error once the group committed (a refusal may rest on the writes of
//     the members before it: "this need exists already"). A commit that
//     fails fails for every member, refused ones included, with the
//     commit's error, as each one's own commit would have (a full disk). If a
//     member lost the group's transaction (SQLite rolled it back on the
//     member's error, a full disk for instance), the others get
//     errGroupLost wrapped around the cause, which IsBusy reports: DB.Tx
//     then runs their function again, as after SQLITE_BUSY.
//   - Statements run outside a transaction (DB.ExecContext) and Close
//     commit the open group first.

// maxGroup is the most writers one commit carries: as many as the load
// bench's clients.
const maxGroup = 16

// errGroupLost says that a writer's work was lost with the transaction
// of its group, through no fault of its own.
var errGroupLost = errors.New("store: the writes sharing this commit were lost")

// Savepoint statements of a group's members: not shown to Watch, which
// counts the statements of the callers' transactions.
const (
	savepointBegin    = "SAVEPOINT primeur_member"
	savepointRollback = "ROLLBACK TO primeur_member"
	savepointRelease  = "RELEASE primeur_member"
)

// commitGroup is the open transaction of writers committing together.
// Its fields are used by the holder of DB.writer only, except done and
// err, which are read once done is closed.
type commitGroup struct {
	tx       *sqlx.Tx
	members  int
	flushing bool // a flusher is in line for this group
	done     chan struct{}
	err      error // the group's end: nil once committed
}

// groupTx is tx on SQLite's write connection, as a member of a group.
func (db *DB) groupTx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	db.queued.Add(1)
	release, err := db.takeWriter(ctx)
	db.queued.Add(-1)
	if err != nil {
		return err
	}
	g, err := db.joinGroup(ctx)
	if err != nil {
		release()
		return err
	}
	own, panicked, lost := member(g.tx, fn)
	if lost == nil {
		g.members++
	}
	switch {
	case lost != nil:
		db.endGroup(g, lost)
		release()
	case db.queued.Load() > 0 && g.members < maxGroup:
		// Someone is in line: leave the transaction open for them, and
		// make sure it ends even if they give up (a flusher in line
		// behind them).
		if !g.flushing {
			g.flushing = true
			go db.flush(g)
		}
		release()
		<-g.done
	default:
		db.endGroup(g, nil)
		release()
	}
	if panicked != nil {
		panic(panicked)
	}
	// A refusal may rest on the writes of the members before it: it
	// stands only if they were committed. The culprit of a lost group
	// keeps its own error.
	if g.err != nil && lost == nil {
		return g.err
	}
	if own != nil {
		return own
	}
	return g.err
}

// joinGroup returns the open group, or begins one. The caller holds
// the writer.
func (db *DB) joinGroup(ctx context.Context) (*commitGroup, error) {
	if db.open != nil {
		return db.open, nil
	}
	// The transaction lives until the group ends, whatever becomes of
	// ctx (see tx).
	txCtx := context.WithoutCancel(ctx)
	tx, err := db.writeConn.BeginTxx(txCtx, nil)
	if db.lostWriteConn(ctx, err) {
		tx, err = db.writeConn.BeginTxx(txCtx, nil)
	}
	if err != nil {
		return nil, fmt.Errorf("store: begin: %w", err)
	}
	db.open = &commitGroup{tx: tx, done: make(chan struct{})}
	return db.open, nil
}

// member runs fn in a savepoint of the group's transaction: own is fn's
// error (its writes then rolled back to the savepoint), panicked what fn
// panicked with (the same), lost the error that lost the whole group.
func member(tx *sqlx.Tx, fn func(tx *sqlx.Tx) error) (own error, panicked any, lost error) {
	ctx := context.Background() // the savepoints are the group's, not the caller's
	if _, err := tx.ExecContext(ctx, savepointBegin); err != nil {
		return nil, nil, fmt.Errorf("store: savepoint: %w", err)
	}
	func() {
		defer func() { panicked = recover() }()
		own = fn(tx)
	}()
	if own != nil || panicked != nil {
		// Fails when SQLite rolled the transaction back itself (on
		// SQLITE_FULL, IOERR, NOMEM…): the group is lost.
		if _, err := tx.ExecContext(ctx, savepointRollback); err != nil {
			return own, panicked, fmt.Errorf("store: roll back to the savepoint: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, savepointRelease); err != nil {
		return own, panicked, fmt.Errorf("store: release the savepoint: %w", err)
	}
	return own, panicked, nil
}

// endGroup commits the group (or rolls it back if lost is not nil) and
// tells its members: a failed commit is each member's own (as its own
// commit would have failed, a full disk for instance), a group lost by
// one member is errGroupLost to the others. The caller holds the writer.
func (db *DB) endGroup(g *commitGroup, lost error) {
	if lost != nil {
		_ = g.tx.Rollback()
		g.err = fmt.Errorf("%w: %w", errGroupLost, lost)
	} else if err := g.tx.Commit(); err != nil {
		g.err = fmt.Errorf("store: commit: %w", err)
	}
	if db.writerClock != nil {
		db.writerClock.commits.Add(1)
	}
	db.open = nil
	close(g.done)
}

// flush waits in line for the writer, as long as it takes, and ends g if
// it is still open. Its hold counts in WriterTime's Held, not as a turn:
// the turns are the writers'.
func (db *DB) flush(g *commitGroup) {
	db.writer <- struct{}{}
	defer func() { <-db.writer }()
	// A goroutine of its own: a panic here would end the process. The
	// group's members are told, not left waiting.
	defer func() {
		if p := recover(); p != nil && db.open == g {
			db.open = nil
			g.err = fmt.Errorf("store: commit: %v", p)
			close(g.done)
		}
	}()
	got := time.Now()
	if db.open == g {
		db.endGroup(g, nil)
	}
	if db.writerClock != nil {
		db.writerClock.held.Add(int64(time.Since(got)))
	}
}

// commitOpen ends the open group, if any, before a statement of the
// caller's own on the write connection. The caller holds the writer.
func (db *DB) commitOpen() {
	if db.open != nil {
		db.endGroup(db.open, nil)
	}
}

// groupStatement reports whether query is one of a member's savepoint
// statements, which Watch does not show.
func groupStatement(query string) bool {
	return query == savepointBegin || query == savepointRollback || query == savepointRelease
}
