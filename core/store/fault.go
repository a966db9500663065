package store

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/lib/pq"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Fault is a failure of what Primeur runs on rather than of the work asked:
// the disk is full, or the database cannot be reached. The same work
// succeeds once the fault is over, so a request meeting one is answered
// 503 with Retry-After (daemon/errors.go), never 500, and a job meeting one
// stops and leaves the rest to its next run. FaultOf is the one place that
// tells a fault from any other error.
type Fault string

// The faults. Their names are the label values of the daemon's
// primeur_faults_total metric.
const (
	// NoFault: the error is not a fault (or there is no error).
	NoFault Fault = ""
	// DiskFull: a write found no space: SQLite's SQLITE_FULL, an I/O
	// error of SQLite's writes on a file system almost full (Space.Low),
	// ENOSPC or EDQUOT from a file the process writes (the outbox, an
	// export), PostgreSQL's disk_full (53100).
	DiskFull Fault = "disk_full"
	// DatabaseUnavailable: the database server cannot be reached or is
	// not taking work: connection refused or reset, a network error on
	// its address, a
	// session the server ended or refused (any FATAL error: admin
	// shutdown 57P01, cannot connect now 57P03, a database not accepting
	// connections), too many connections (53300), a connection
	// database/sql gave up (driver.ErrBadConn, sql.ErrConnDone).
	DatabaseUnavailable Fault = "database_unavailable"
)

// Faults lists every fault, for the metrics to show each at 0.
var Faults = []Fault{DiskFull, DatabaseUnavailable}

// MsgFault is what a user reads when a fault refuses a request.
const MsgFault = "Le service est momentanément indisponible : réessayez dans quelques instants."

// FaultRetryAfter is the delay a refusal for a fault gives the client
// (Retry-After): a database restart takes seconds; freeing a disk may take
// longer, and the client is told again then.
const FaultRetryAfter = 5 * time.Second

// FaultOf says which fault err is, NoFault when it is none. A network
// error is the database's when it names the port or host of a PostgreSQL
// database open in this process (servers).
func FaultOf(err error) Fault {
	switch {
	case err == nil:
		return NoFault
	case diskFull(err):
		return DiskFull
	case databaseUnavailable(err):
		return DatabaseUnavailable
	}
	return NoFault
}

// FirstFault is FaultOf with the part of err that carries the fault: the
// first part of a joined error that is one (a job's failures are joined,
// one per document), else err itself. NoFault and nil when err is none.
func FirstFault(err error) (Fault, error) {
	f := FaultOf(err)
	if f == NoFault {
		return NoFault, nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if g, cause := FirstFault(e); g != NoFault {
				return g, cause
			}
		}
	}
	return f, err
}

func diskFull(err error) bool {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return true
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		return sqliteDiskFull(se.Code(), anySQLiteDirLow)
	}
	var pe *pq.Error
	return errors.As(err, &pe) && pe.Code == "53100"
}

// sqliteDiskFull says whether a SQLite result code (extended) says the
// disk is full: SQLITE_FULL always; an I/O error of a write, a sync, a
// truncation or the growth of the shared-memory file when low() says a
// data directory is almost full (SQLite reports ENOSPC as SQLITE_FULL
// where it sees it, but a failed sync or mapping only as an I/O error).
func sqliteDiskFull(code int, low func() bool) bool {
	if code&0xff == sqlite3.SQLITE_FULL {
		return true
	}
	switch code {
	case sqlite3.SQLITE_IOERR_WRITE, sqlite3.SQLITE_IOERR_FSYNC, sqlite3.SQLITE_IOERR_DIR_FSYNC,
		sqlite3.SQLITE_IOERR_TRUNCATE, sqlite3.SQLITE_IOERR_SHMSIZE, sqlite3.SQLITE_IOERR_SHMMAP:
		return low()
	}
	return false
}

func databaseUnavailable(err error) bool {
	var u *unreachable
	if errors.As(err, &u) || errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) {
		return true
	}
	var pe *pq.Error
	if errors.As(err, &pe) {
		switch {
		case pe.Severity == "FATAL" || pe.Severity == "PANIC":
			return true // the server ended or refused the session
		case strings.HasPrefix(string(pe.Code), "08"): // connection exception
			return true
		}
		switch pe.Code {
		case "57P01", "57P02", "57P03", "53300":
			return true
		}
		return false
	}
	var de *net.DNSError
	if errors.As(err, &de) {
		return servers.has("", de.Name)
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		return oe.Addr == nil && servers.any() || oe.Addr != nil && servers.has(portOf(oe.Addr.String()), "")
	}
	return false
}

// unreachable is the failure to open a PostgreSQL database for a fault:
// it stays one once the server is forgotten.
type unreachable struct{ err error }

func (e *unreachable) Error() string { return e.err.Error() }
func (e *unreachable) Unwrap() error { return e.err }

// The PostgreSQL servers of the databases open in this process: a network
// error is the database's when it names one of their ports (a connection
// refused, reset or timed out) or host names (a failed resolution) — the
// mail server is reached over the network too.
var servers = registry{}

// registry counts the handles open on each key.
type registry struct {
	mu   sync.Mutex
	keys map[string]int
}

// add records the keys and returns what removes them, once.
func (r *registry) add(keys ...string) func() {
	r.mu.Lock()
	if r.keys == nil {
		r.keys = map[string]int{}
	}
	for _, k := range keys {
		r.keys[k]++
	}
	r.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			for _, k := range keys {
				if r.keys[k]--; r.keys[k] <= 0 {
					delete(r.keys, k)
				}
			}
			r.mu.Unlock()
		})
	}
}

// has says whether the port (as "port:5432") or the host (as
// "host:db.example") is recorded; an empty one is not looked for.
func (r *registry) has(port, host string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return port != "" && r.keys["port:"+port] > 0 || host != "" && r.keys["host:"+host] > 0
}

// any says whether anything is recorded.
func (r *registry) any() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.keys) > 0
}

// list returns the keys recorded.
func (r *registry) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.keys))
	for k := range r.keys {
		out = append(out, k)
	}
	return out
}

// portOf is the port of a network address ("10.0.0.5:5432"), or of a
// PostgreSQL Unix socket ("/run/postgresql/.s.PGSQL.5432").
func portOf(addr string) string {
	if _, port, err := net.SplitHostPort(addr); err == nil {
		return port
	}
	if i := strings.LastIndex(addr, ".s.PGSQL."); i >= 0 {
		return addr[i+len(".s.PGSQL."):]
	}
	return ""
}

// serverKeys are the registry keys of a PostgreSQL connection string
// (a URL or key=value words): its host and port, 5432 (or PGPORT) when it
// names none.
func serverKeys(dsn string) []string {
	host, port := "", ""
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		host, port = u.Hostname(), u.Port()
		if p := u.Query().Get("port"); p != "" {
			port = p
		}
		if h := u.Query().Get("host"); h != "" {
			host = h
		}
	} else {
		for _, w := range strings.Fields(dsn) {
			k, v, _ := strings.Cut(w, "=")
			switch k {
			case "host":
				host = strings.Trim(v, "'")
			case "port":
				port = strings.Trim(v, "'")
			}
		}
	}
	if port == "" {
		port = os.Getenv("PGPORT")
	}
	if port == "" {
		port = "5432"
	}
	keys := []string{"port:" + port}
	if host != "" && !strings.HasPrefix(host, "/") {
		keys = append(keys, "host:"+host)
	}
	return keys
}

// Free space. A file system is almost full when what is left to the
// process is under MinFree of it: 1 % of its size, at most 100 MB.

// MaxMinFree caps the free space under which a file system is almost full.
const MaxMinFree = 100 << 20

// MinFree is the free space under which a file system of total bytes is
// almost full.
func MinFree(total uint64) uint64 {
	return min(MaxMinFree, total/100)
}

// Space is the state of the file system holding a directory.
type Space struct {
	// Free is what an unprivileged process may still write, Total the
	// file system's size, in bytes.
	Free, Total uint64
}

// Low says whether the file system is almost full (MinFree).
func (s Space) Low() bool { return s.Free < MinFree(s.Total) }

// SpaceOf is the state of the file system holding dir; ok is false where
// the system does not tell.
func SpaceOf(dir string) (s Space, ok bool) {
	return spaceOf(dir)
}

// The data directories of the SQLite databases open in this process: an
// I/O error of SQLite is a full disk when one of them is almost full
// (sqliteDiskFull).
var sqliteDirs = registry{}

// anySQLiteDirLow says whether the file system of a SQLite database open
// in this process is almost full.
func anySQLiteDirLow() bool {
	for _, d := range sqliteDirs.list() {
		if s, ok := SpaceOf(d); ok && s.Low() {
			return true
		}
	}
	return false
}
