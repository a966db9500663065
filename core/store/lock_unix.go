//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// A SQLite data directory is locked with flock(2) on the directory itself
// (no extra file): every process that opens its database holds a shared
// lock until it closes it, and a restore takes the exclusive lock, which it
// gets only when no daemon or command has the database open. The kernel
// releases a dead process's lock. SQLite's own locks are fcntl(2) locks on
// the database's files, which flock(2) does not touch on a local file system.

// shareDir takes the shared lock of dir and returns its release. A file
// system without flock(2) gives no lock and no error: the database works,
// only a restore's check is lost there.
func shareDir(dir string) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("store: open data directory: %w", err)
	}
	switch err := flock(f, syscall.LOCK_SH|syscall.LOCK_NB); {
	case err == nil:
		return func() { f.Close() }, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		f.Close()
		return nil, fmt.Errorf("store: %w", ErrRestoring)
	default:
		f.Close()
		return func() {}, nil
	}
}

// lockDir takes the exclusive lock of dir, or fails with ErrInUse when a
// process holds the database open.
func lockDir(dir string) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("store: open data directory: %w", err)
	}
	if err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrInUse
		}
		return nil, fmt.Errorf("store: lock data directory: %w", err)
	}
	return func() { f.Close() }, nil
}

func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
