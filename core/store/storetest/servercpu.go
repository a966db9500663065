package storetest

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"primeur/core/store"
)

// ServerCPU returns the CPU time, in ns, that the PostgreSQL backends
// serving db's connections have used so far: what a benchmark adds to its
// own process's CPU so that the server's share of a query (planning,
// reading, sending rows) is counted too. The backends are those of db's
// test schema (Postgres names each connection's application after it),
// their time read from /proc/<pid>/schedstat (nanoseconds on the CPU).
// ok is false on SQLite, when the server is on another machine (no
// backend of the list is a postgres process here), or when the
// connections' application is not a test schema's.
//
// A backend that ends between two readings takes its time with it: the
// pool keeps its idle connections, so a benchmark reading twice around
// sequential work loses none.
func ServerCPU(ctx context.Context, db *store.DB) (ns int64, ok bool, err error) {
	if db.Dialect != store.Postgres {
		return 0, false, nil
	}
	var pids []int
	if err := db.SelectContext(ctx, &pids, `SELECT pid FROM pg_stat_activity
		WHERE application_name = current_setting('application_name') AND application_name LIKE 't\_%'`); err != nil {
		return 0, false, fmt.Errorf("storetest: backends: %w", err)
	}
	if len(pids) == 0 {
		return 0, false, nil
	}
	for _, pid := range pids {
		proc := "/proc/" + strconv.Itoa(pid) + "/"
		if comm, err := os.ReadFile(proc + "comm"); err != nil || strings.TrimSpace(string(comm)) != "postgres" {
			continue // ended meanwhile, or the server is on another machine
		}
		b, err := os.ReadFile(proc + "schedstat")
		if err != nil {
			continue
		}
		run, _, _ := strings.Cut(string(b), " ")
		n, err := strconv.ParseInt(run, 10, 64)
		if err != nil {
			return 0, false, fmt.Errorf("storetest: backend %d: schedstat %q: %w", pid, b, err)
		}
		ns += n
		ok = true
	}
	return ns, ok, nil
}
