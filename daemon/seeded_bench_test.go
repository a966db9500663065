//go:build unix

package daemon_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"primeur/core/store"
	"primeur/daemon/daemontest"
)

// BenchmarkSeededUserLoad runs GET /api/user through the daemon's handler,
// in process, on a platform seeded by tools/loadbench, for profiling what
// `make bench` measures over loopback. It is skipped unless
// PRIMEUR_BENCH_PLATFORM names the platform: a SQLite data directory or a
// PostgreSQL URL. PRIMEUR_BENCH_USERS lists the emails (comma-separated;
// default the loadbench shop, largest shop and producer) and the clock is
// the loadbench's (2026-11-18 09:00, Paris).
//
//	go run ./tools/loadbench seed --regions 10 --data-dir /tmp/platform
//	PRIMEUR_BENCH_PLATFORM=/tmp/platform go test ./daemon -run '^$' -bench SeededUserLoad -cpuprofile cpu.out
func BenchmarkSeededUserLoad(b *testing.B) {
	where := os.Getenv("PRIMEUR_BENCH_PLATFORM")
	if where == "" {
		b.Skip("PRIMEUR_BENCH_PLATFORM is not set")
	}
	users := "magasin-00-01@bench.primeur.fr,magasin-00-00@bench.primeur.fr,ferme-00-000@bench.primeur.fr"
	if u := os.Getenv("PRIMEUR_BENCH_USERS"); u != "" {
		users = u
	}
	var (
		db  *store.DB
		err error
	)
	if strings.HasPrefix(where, "postgres://") {
		db, err = store.Open(context.Background(), where, "")
	} else {
		db, err = store.Open(context.Background(), "", filepath.Join(where, "primeur.db"))
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	s := daemontest.New(b, db)
	s.Clock.Set(time.Date(2026, 11, 18, 9, 0, 0, 0, s.Config.Location))
	h := s.Daemon.Handler()
	for _, email := range strings.Split(users, ",") {
		cookie := loginAs(b, h, email, "loadbench2026")
		b.Run(email, func(b *testing.B) {
			b.ReportAllocs()
			var size int
			cpu := cpuTime(b)
			for b.Loop() {
				size = len(serve(b, h, "/api/user", cookie))
			}
			b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(size), "resp-bytes")
		})
	}
}
