package store

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
)

// TestWritersQueueInTheProcess runs concurrent writers (transactions, and
// statements outside one) on a SQLite file
// whose busy timeout is zero: a writer that met another's lock in SQLite
// would fail at once (and after Tx's retries, for good). With the
// process's line (DB.writer) every transaction gets its turn and no
// increment is lost; the control, the same load with the line removed,
// shows that the load does meet the lock.
func TestWritersQueueInTheProcess(t *testing.T) {
	ctx := context.Background()
	const writers, each = 16, 25
	run := func(t *testing.T, line bool) (failed int, total int64) {
		db, err := openSQLiteWith(ctx, filepath.Join(t.TempDir(), "w.db"), true, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if !line {
			wc := db.writeConn
			db.writer, db.writeConn = nil, nil
			defer wc.Close()
		}
		if _, err := db.ExecContext(ctx, `CREATE TABLE n (v INTEGER NOT NULL); INSERT INTO n VALUES (0)`); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range each {
					if w%4 == 0 { // a statement outside a transaction waits in the same line
						if _, err := db.ExecContext(ctx, `UPDATE n SET v = v + 1`); err != nil {
							mu.Lock()
							failed++
							mu.Unlock()
						}
						continue
					}
					err := db.Tx(ctx, func(tx *sqlx.Tx) error {
						if _, err := tx.ExecContext(ctx, `UPDATE n SET v = v + 1`); err != nil {
							return err
						}
						time.Sleep(200 * time.Microsecond) // work done while the lock is held
						return nil
					})
					if err != nil {
						mu.Lock()
						failed++
						mu.Unlock()
					}
				}
			}()
		}
		wg.Wait()
		if err := db.GetContext(ctx, &total, `SELECT v FROM n`); err != nil {
			t.Fatal(err)
		}
		return failed, total
	}
	if failed, total := run(t, true); failed != 0 || total != writers*each {
		t.Fatalf("with the line: %d transactions failed, %d increments for %d", failed, total, writers*each)
	}
	if failed, _ := run(t, false); failed == 0 {
		t.Fatal("without the line no writer met the lock: the test proves nothing")
	}
}

// TestWriterWaitEnds checks the two ends of a wait in line: the caller's
// context, and the busy timeout, after which the wait is busy (IsBusy) as
// SQLITE_BUSY is, so that Tx retries it.
func TestWriterWaitEnds(t *testing.T) {
	db, err := openSQLiteWith(context.Background(), filepath.Join(t.TempDir(), "w.db"), true, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	release, err := db.takeWriter(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := db.takeWriter(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a wait whose context ends: %v", err)
	}
	if !IsBusy(errWriterBusy) {
		t.Fatal("the end of the wait in line is not busy")
	}
	release()
	again, err := db.takeWriter(context.Background())
	if err != nil {
		t.Fatalf("the lock released, no turn: %v", err)
	}
	again()
}

// TestWritesShareOneConnection: on SQLite every write — transactions and
// statements outside one — runs on the same connection (DB.writeConn),
// whose page cache SQLite then keeps from one write to the next: a TEMP
// table, which only its connection sees, made by one write is there for
// the next ones, even while a reader holds the pool's most recently used
// connection (which database/sql would otherwise hand to the next write).
func TestWritesShareOneConnection(t *testing.T) {
	ctx := context.Background()
	db, err := openSQLite(ctx, filepath.Join(t.TempDir(), "c.db"), true)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `CREATE TEMP TABLE mine (v INTEGER)`); err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		reader, err := db.Connx(ctx)
		if err != nil {
			t.Fatal(err)
		}
		err = db.Tx(ctx, func(tx *sqlx.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO mine VALUES (?)`, i)
			return err
		})
		if err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
		if _, err := db.ExecContext(ctx, `UPDATE mine SET v = v + 1`); err != nil {
			t.Fatalf("write %d outside a transaction: %v", i, err)
		}
		_ = reader.Close()
	}
}
