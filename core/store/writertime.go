package store

import (
	"sync/atomic"
	"time"
)

// WriterTime is where the time of this process's writes on SQLite went
// (issue 42: "lock wait vs work"): how many turns the writers took, how
// long in all they waited in line for the write lock (DB.writer) and how
// long they held it — their transactions' work, SQLite's commit included —
// and how many commits their transactions shared (Commits ≤ Turns: a
// group of writers commits once, group.go). Zero on PostgreSQL, whose
// writers do not queue in the process.
type WriterTime struct {
	Turns   int64
	Waited  time.Duration
	Held    time.Duration
	Commits int64
}

// Sub is the time between an earlier reading and w.
func (w WriterTime) Sub(before WriterTime) WriterTime {
	return WriterTime{Turns: w.Turns - before.Turns, Waited: w.Waited - before.Waited, Held: w.Held - before.Held,
		Commits: w.Commits - before.Commits}
}

// writerClock sums WriterTime as the writers take and release their turns.
type writerClock struct {
	turns, waited, held, commits atomic.Int64
}

// WriterTime reads the sums since the database was opened.
func (db *DB) WriterTime() WriterTime {
	if db.writerClock == nil {
		return WriterTime{}
	}
	c := db.writerClock
	return WriterTime{Turns: c.turns.Load(), Waited: time.Duration(c.waited.Load()), Held: time.Duration(c.held.Load()),
		Commits: c.commits.Load()}
}

// timed counts a turn taken after waiting since asked, and returns its
// release, which counts the time it was held.
func (c *writerClock) timed(asked time.Time, release func()) func() {
	if c == nil {
		return release
	}
	got := time.Now()
	c.turns.Add(1)
	c.waited.Add(int64(got.Sub(asked)))
	return func() {
		c.held.Add(int64(time.Since(got)))
		release()
	}
}
