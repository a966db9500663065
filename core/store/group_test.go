package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
)

// groupDB opens a SQLite file with a table of rows (w, i) for the group
// commit's tests.
func groupDB(t *testing.T) *DB {
	t.Helper()
	ctx := context.Background()
	db, err := openSQLiteWith(ctx, filepath.Join(t.TempDir(), "g.db"), true, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if _, err := db.ExecContext(ctx, `CREATE TABLE r (w INTEGER NOT NULL, i INTEGER NOT NULL, PRIMARY KEY (w, i))`); err != nil {
		t.Fatal(err)
	}
	return db
}

// rowThere reports whether row (w, i) is committed, read on a reading
// connection of the pool (which does not see a transaction still open
// on the write connection).
func rowThere(t *testing.T, db *DB, w, i int) bool {
	t.Helper()
	var n int
	if err := db.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM r WHERE w = ? AND i = ?`, w, i); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// TestGroupedWritersKeepTheirOwn: 16 concurrent writers on SQLite share
// commits (fewer commits than transactions), yet each sees what a
// transaction of its own gives: its writes committed when Tx returns nil
// (read at once on another connection), its own error or panic back with
// its writes undone and the others' kept. The rows left are exactly the
// writes whose Tx succeeded.
func TestGroupedWritersKeepTheirOwn(t *testing.T) {
	db := groupDB(t)
	ctx := context.Background()
	const writers, each = 16, 20
	before := db.WriterTime()
	var (
		mu       sync.Mutex
		wg       sync.WaitGroup
		problems []string
		kept     = map[[2]int]bool{}
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		problems = append(problems, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				refused := errors.New("refused")
				var panicked any
				err := func() (err error) {
					defer func() { panicked = recover() }()
					return db.Tx(ctx, func(tx *sqlx.Tx) error {
						if _, err := tx.ExecContext(ctx, `INSERT INTO r (w, i) VALUES (?, ?)`, w, i); err != nil {
							return err
						}
						time.Sleep(100 * time.Microsecond) // work while the lock is held
						switch {
						case (w+i)%5 == 0:
							return refused
						case (w+i)%7 == 0:
							panic("boom")
						}
						return nil
					})
				}()
				switch {
				case (w+i)%5 == 0:
					if !errors.Is(err, refused) {
						fail("writer %d, write %d: %v, want its own error", w, i, err)
					}
				case (w+i)%7 == 0:
					if panicked != "boom" {
						fail("writer %d, write %d: panic %v, want its own", w, i, panicked)
					}
				case err != nil || panicked != nil:
					fail("writer %d, write %d: %v %v", w, i, err, panicked)
				default:
					if !rowThere(t, db, w, i) {
						fail("writer %d, write %d: Tx returned before its commit", w, i)
					}
					mu.Lock()
					kept[[2]int{w, i}] = true
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	for _, p := range problems {
		t.Error(p)
	}
	var got []struct{ W, I int }
	if err := db.SelectContext(ctx, &got, `SELECT w, i FROM r`); err != nil {
		t.Fatal(err)
	}
	var rows [][2]int
	for _, r := range got {
		rows = append(rows, [2]int{r.W, r.I})
	}
	if len(rows) != len(kept) {
		t.Errorf("%d rows, %d writes succeeded", len(rows), len(kept))
	}
	for _, r := range rows {
		if !kept[r] {
			t.Errorf("row %v kept from a write that failed", r)
		}
	}
	wt := db.WriterTime().Sub(before)
	if wt.Commits == 0 || wt.Commits >= wt.Turns {
		t.Errorf("%d commits for %d transactions: no commit was shared", wt.Commits, wt.Turns)
	}
	t.Logf("%d transactions, %d commits", wt.Turns, wt.Commits)
}

// TestGroupLostTellsEveryMember: when the group's transaction is lost
// (here a member ends it with ROLLBACK, as SQLite does itself on a full
// disk), the member before it in the same group, whose own work had
// succeeded, is told with an error IsBusy reports — so Tx runs its write
// again, and it succeeds — while the culprit gets its own error.
func TestGroupLostTellsEveryMember(t *testing.T) {
	db := groupDB(t)
	ctx := context.Background()
	if !IsBusy(fmt.Errorf("%w: %w", errGroupLost, errors.New("cause"))) {
		t.Fatal("a lost group's member is not told busy")
	}
	hold, err := db.takeWriter(ctx) // both wait in line, the good one first
	if err != nil {
		t.Fatal(err)
	}
	waitQueued := func(n int32) {
		for db.queued.Load() < n {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond) // into the channel's line, not only counted
	}
	good := make(chan error, 1)
	runs := 0
	go func() {
		good <- db.Tx(ctx, func(tx *sqlx.Tx) error {
			runs++
			_, err := tx.ExecContext(ctx, `INSERT INTO r (w, i) VALUES (1, 1)`)
			return err
		})
	}()
	waitQueued(1)
	culprit := errors.New("culprit")
	bad := make(chan error, 1)
	go func() {
		bad <- db.Tx(ctx, func(tx *sqlx.Tx) error {
			if _, err := tx.ExecContext(ctx, `ROLLBACK`); err != nil {
				return err
			}
			return culprit
		})
	}()
	waitQueued(2)
	hold()
	if err := <-bad; !errors.Is(err, culprit) {
		t.Errorf("the culprit: %v, want its own error", err)
	}
	if err := <-good; err != nil {
		t.Fatalf("the member before it: %v, want its write run again", err)
	}
	if runs != 2 {
		t.Fatalf("the member before it ran %d times, want 2: its group was not lost, the test proves nothing", runs)
	}
	if !rowThere(t, db, 1, 1) {
		t.Error("the member's row, written again, is not there")
	}
}

// TestRefusalStandsOnlyIfCommitted: a member refuses because of a row
// written by the member before it in the same group ("this exists
// already"); the group's commit then fails (a third member's deferred
// foreign key, as a full disk would). Every member gets the commit's
// error — the refusal too, which rested on a row never committed — and
// the write connection is usable after (SQLite ended the transaction).
func TestRefusalStandsOnlyIfCommitted(t *testing.T) {
	db := groupDB(t)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE TABLE p (id INTEGER PRIMARY KEY);
		CREATE TABLE c (p INTEGER NOT NULL REFERENCES p (id) DEFERRABLE INITIALLY DEFERRED)`); err != nil {
		t.Fatal(err)
	}
	hold, err := db.takeWriter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	exists := errors.New("exists already")
	insert := func(tx *sqlx.Tx) error {
		var n int
		if err := tx.GetContext(ctx, &n, `SELECT COUNT(*) FROM r WHERE w = 1 AND i = 1`); err != nil {
			return err
		}
		if n > 0 {
			return exists
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO r (w, i) VALUES (1, 1)`)
		return err
	}
	orphan := func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO c (p) VALUES (42)`)
		return err
	}
	var results [3]chan error
	for k, fn := range []func(*sqlx.Tx) error{insert, insert, orphan} {
		results[k] = make(chan error, 1)
		go func() { results[k] <- db.Tx(ctx, fn) }()
		for db.queued.Load() < int32(k+1) {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond) // into the channel's line, in this order
	}
	before := db.WriterTime()
	hold()
	for k, what := range []string{"the first insert", "the refused insert", "the orphan"} {
		err := <-results[k]
		if err == nil || errors.Is(err, exists) {
			t.Errorf("%s: %v, want the commit's error", what, err)
		}
	}
	if got := db.WriterTime().Sub(before); got.Commits != 1 {
		t.Fatalf("%d commits for the three, want one: the test proves nothing", got.Commits)
	}
	if rowThere(t, db, 1, 1) {
		t.Fatal("a row of the failed commit is there")
	}
	if err := db.Tx(ctx, insert); err != nil || !rowThere(t, db, 1, 1) {
		t.Fatalf("a write after the failed commit: %v", err)
	}
}

// TestOwnStatementsCommitTheOpenGroup: a statement outside a transaction
// (DB.ExecContext) and Close commit a group left open before they run,
// and tell its members.
func TestOwnStatementsCommitTheOpenGroup(t *testing.T) {
	ctx := context.Background()
	insert := func(w int) func(tx *sqlx.Tx) error {
		return func(tx *sqlx.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO r (w, i) VALUES (?, 0)`, w)
			return err
		}
	}
	open := func(t *testing.T, db *DB, w int) *commitGroup {
		t.Helper()
		release, err := db.takeWriter(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		g, err := db.joinGroup(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if own, p, lost := member(g.tx, insert(w)); own != nil || p != nil || lost != nil {
			t.Fatal(own, p, lost)
		}
		g.members++
		if rowThere(t, db, w, 0) {
			t.Fatal("the open group's row is seen before its commit")
		}
		return g
	}
	ended := func(t *testing.T, g *commitGroup) {
		t.Helper()
		select {
		case <-g.done:
			if g.err != nil {
				t.Fatal(g.err)
			}
		default:
			t.Fatal("the group is still open")
		}
	}
	t.Run("exec", func(t *testing.T) {
		db := groupDB(t)
		g := open(t, db, 1)
		if _, err := db.ExecContext(ctx, `INSERT INTO r (w, i) VALUES (2, 0)`); err != nil {
			t.Fatal(err)
		}
		ended(t, g)
		if !rowThere(t, db, 1, 0) || !rowThere(t, db, 2, 0) {
			t.Fatal("rows missing")
		}
	})
	t.Run("close", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "c.db")
		db, err := openSQLiteWith(ctx, path, true, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `CREATE TABLE r (w INTEGER NOT NULL, i INTEGER NOT NULL, PRIMARY KEY (w, i))`); err != nil {
			t.Fatal(err)
		}
		g := open(t, db, 3)
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		ended(t, g)
		again, err := openSQLiteWith(ctx, path, true, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer again.Close()
		if !rowThere(t, again, 3, 0) {
			t.Fatal("the open group's row was lost at Close")
		}
	})
}

// TestFlushRecovers: the flusher runs in a goroutine of its own; should
// the commit panic, the process goes on, the group's members are told
// (an error, not a wait without end) and the writer's turn is given back.
func TestFlushRecovers(t *testing.T) {
	db, err := Open(context.Background(), "", filepath.Join(t.TempDir(), "primeur.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g := &commitGroup{done: make(chan struct{})} // no transaction: its commit panics
	db.writer <- struct{}{}
	db.open = g
	<-db.writer
	go db.flush(g)
	select {
	case <-g.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the group's members are still waiting")
	}
	if g.err == nil {
		t.Fatal("the members are told nothing went wrong")
	}
	select {
	case db.writer <- struct{}{}:
		<-db.writer
	case <-time.After(30 * time.Second):
		t.Fatal("the writer's turn was not given back")
	}
	if db.open != nil {
		t.Fatal("the failed group is still open")
	}
}
