package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"modernc.org/sqlite"
)

var (
	// ErrNotSQLite: the operation copies a SQLite file; PostgreSQL is
	// backed up and restored with its own tools (pg_dump, pg_restore).
	ErrNotSQLite = errors.New("store: not a SQLite database")
	// ErrInUse: a process (a daemon, a command) holds the database open.
	ErrInUse = errors.New("store: the database is in use")
	// ErrRestoring: a restore is replacing the database right now.
	ErrRestoring = errors.New("the database is being restored")
)

// Backup writes a consistent snapshot of the SQLite database to the new file
// dst while other connections and processes go on reading and writing: the
// online backup API copies every page under one read transaction, which in
// WAL mode blocks no writer. The copy is written beside dst under a
// temporary name, switched to a rollback journal (one self-contained file),
// checked (PRAGMA integrity_check), then linked to dst: dst is never a half
// copy. An existing dst is an error wrapping fs.ErrExist unless replace is
// set.
func (db *DB) Backup(ctx context.Context, dst string, replace bool) error {
	if db.Dialect != SQLite {
		return ErrNotSQLite
	}
	if !replace {
		if _, err := os.Lstat(dst); err == nil {
			return fmt.Errorf("store: backup: %s: %w", dst, fs.ErrExist)
		}
	}
	dir := filepath.Dir(dst)
	tmp, err := tempFile(dir, ".primeur-backup-*.db")
	if err != nil {
		return err
	}
	defer removeCopy(tmp)
	if err := copySQLite(ctx, db, tmp); err != nil {
		return err
	}
	if replace {
		err = os.Rename(tmp, dst)
	} else {
		err = os.Link(tmp, dst) // fails if dst appeared meanwhile
	}
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	return syncDir(dir)
}

// Install replaces the SQLite database at sqlitePath with a copy of the
// SQLite file src (a backup), for a restore. It holds the data directory's
// exclusive lock throughout, so it fails with ErrInUse while any process
// has the database open, and no process opens it before the copy is in
// place. The copy is written under a temporary name and checked first. An
// existing database, with its -wal and -shm files, is kept aside under the
// returned name (empty when there was none); the caller checks src's schema
// before.
func Install(ctx context.Context, src, sqlitePath string, now time.Time) (aside string, err error) {
	dir := filepath.Dir(sqlitePath)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", fmt.Errorf("store: create data directory: %w", err)
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return "", err
	}
	defer unlock()
	from, err := OpenReadOnly(ctx, src)
	if err != nil {
		return "", err
	}
	defer from.Close()
	tmp, err := tempFile(dir, ".primeur-restore-*.db")
	if err != nil {
		return "", err
	}
	defer removeCopy(tmp)
	if err := copySQLite(ctx, from, tmp); err != nil {
		return "", err
	}
	if _, err := os.Lstat(sqlitePath); err == nil {
		aside = strings.TrimSuffix(sqlitePath, ".db") + "-avant-restauration-" + now.Format("20060102-150405") + ".db"
		for _, suffix := range []string{"", "-wal", "-shm"} {
			err := os.Rename(sqlitePath+suffix, aside+suffix)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "", fmt.Errorf("store: keep the current database aside: %w", err)
			}
		}
	}
	if err := os.Rename(tmp, sqlitePath); err != nil {
		return aside, fmt.Errorf("store: restore: %w", err)
	}
	return aside, syncDir(dir)
}

// IntegrityCheck runs SQLite's PRAGMA integrity_check and returns an error
// quoting its first findings unless the answer is "ok".
func (db *DB) IntegrityCheck(ctx context.Context) error {
	if db.Dialect != SQLite {
		return ErrNotSQLite
	}
	var lines []string
	if err := db.SelectContext(ctx, &lines, `PRAGMA integrity_check`); err != nil {
		return fmt.Errorf("store: integrity check: %w", err)
	}
	if len(lines) == 1 && lines[0] == "ok" {
		return nil
	}
	return fmt.Errorf("store: integrity check of %s failed: %s", db.Name, strings.Join(lines[:min(len(lines), 5)], "; "))
}

// copySQLite copies the database src into the empty file dst with SQLite's
// online backup API, in one step (one read transaction on src), then makes
// dst a self-contained file in rollback-journal mode and checks it.
func copySQLite(ctx context.Context, src *DB, dst string) error {
	conn, err := src.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		b, ok := dc.(interface {
			NewBackup(dstURI string) (*sqlite.Backup, error)
		})
		if !ok {
			return fmt.Errorf("driver %T has no backup API", dc)
		}
		bk, err := b.NewBackup("file:" + dst)
		if err != nil {
			return err
		}
		if _, err := bk.Step(-1); err != nil {
			_ = bk.Finish()
			return err
		}
		return bk.Finish()
	})
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	out, err := sqlx.Open("sqlite", "file:"+dst+"?mode=rw")
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	copied := &DB{DB: out, Dialect: SQLite, Name: dst}
	defer copied.Close()
	if _, err := copied.ExecContext(ctx, `PRAGMA journal_mode = DELETE`); err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	return copied.IntegrityCheck(ctx)
}

// tempFile creates an empty file in dir and returns its name.
func tempFile(dir, pattern string) (string, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", fmt.Errorf("store: %w", err)
	}
	name := f.Name()
	if err := f.Close(); err != nil {
		os.Remove(name)
		return "", fmt.Errorf("store: %w", err)
	}
	return name, nil
}

// removeCopy removes a temporary copy and its journal, once linked or on
// failure.
func removeCopy(name string) {
	for _, suffix := range []string{"", "-journal", "-wal", "-shm"} {
		_ = os.Remove(name + suffix)
	}
}

// syncDir flushes a directory's entries, so a renamed or linked file
// survives a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("store: sync %s: %w", dir, err)
	}
	return nil
}
