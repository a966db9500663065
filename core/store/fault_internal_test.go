package store

import (
	"slices"
	"testing"

	sqlite3 "modernc.org/sqlite/lib"
)

// TestSQLiteDiskFull: SQLITE_FULL is a full disk; an I/O error of a write,
// a sync, a truncation or the shared memory's growth is one only when a
// data directory is almost full; other I/O errors never are.
func TestSQLiteDiskFull(t *testing.T) {
	low := func() bool { return true }
	roomy := func() bool { return false }
	for _, c := range []struct {
		name       string
		code       int
		low, roomy bool
	}{
		{"full", sqlite3.SQLITE_FULL, true, true},
		{"write", sqlite3.SQLITE_IOERR_WRITE, true, false},
		{"fsync", sqlite3.SQLITE_IOERR_FSYNC, true, false},
		{"directory fsync", sqlite3.SQLITE_IOERR_DIR_FSYNC, true, false},
		{"truncate", sqlite3.SQLITE_IOERR_TRUNCATE, true, false},
		{"shared memory size", sqlite3.SQLITE_IOERR_SHMSIZE, true, false},
		{"shared memory map", sqlite3.SQLITE_IOERR_SHMMAP, true, false},
		{"read", sqlite3.SQLITE_IOERR_READ, false, false},
		{"plain I/O error", sqlite3.SQLITE_IOERR, false, false},
		{"busy", sqlite3.SQLITE_BUSY, false, false},
		{"constraint", sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := sqliteDiskFull(c.code, low); got != c.low {
				t.Errorf("on a disk almost full: %v, want %v", got, c.low)
			}
			if got := sqliteDiskFull(c.code, roomy); got != c.roomy {
				t.Errorf("with room: %v, want %v", got, c.roomy)
			}
		})
	}
}

// TestMinFree: 1 % of the file system, at most 100 MB.
func TestMinFree(t *testing.T) {
	for _, c := range []struct{ total, want uint64 }{
		{4 << 20, 41943},
		{1 << 30, 10737418},
		{10 << 30, 100 << 20},
		{2 << 40, 100 << 20},
		{0, 0},
	} {
		if got := MinFree(c.total); got != c.want {
			t.Errorf("MinFree(%d) = %d, want %d", c.total, got, c.want)
		}
	}
	if !(Space{Free: 99 << 20, Total: 1 << 40}).Low() || (Space{Free: 101 << 20, Total: 1 << 40}).Low() {
		t.Error("100 MB is the limit of a large disk")
	}
}

// TestServerKeys: the port (5432 by default) and host of a connection
// string, as a URL or as key=value words; a Unix socket's directory is no
// host.
func TestServerKeys(t *testing.T) {
	t.Setenv("PGPORT", "")
	for _, c := range []struct {
		dsn  string
		want []string
	}{
		{"postgres://u:p@db.example:6543/primeur?sslmode=disable", []string{"port:6543", "host:db.example"}},
		{"postgresql://127.0.0.1/primeur", []string{"port:5432", "host:127.0.0.1"}},
		{"postgres:///primeur?host=/run/postgresql", []string{"port:5432"}},
		{"postgres://db/primeur?port=7000", []string{"port:7000", "host:db"}},
		{"host=db.example port=5433 dbname=primeur", []string{"port:5433", "host:db.example"}},
		{"dbname=primeur", []string{"port:5432"}},
	} {
		if got := serverKeys(c.dsn); !slices.Equal(got, c.want) {
			t.Errorf("serverKeys(%q) = %v, want %v", c.dsn, got, c.want)
		}
	}
	for addr, want := range map[string]string{
		"10.0.0.5:5432":                 "5432",
		"[::1]:6543":                    "6543",
		"/run/postgresql/.s.PGSQL.5432": "5432",
		"somewhere":                     "",
	} {
		if got := portOf(addr); got != want {
			t.Errorf("portOf(%q) = %q, want %q", addr, got, want)
		}
	}
}
