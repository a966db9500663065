//go:build unix

package daemon_test

import (
	"bytes"
	stdgzip "compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"primeur/core/demo"
	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

// demoLoads are the demo world's users whose load the benchmarks send:
// its largest shop and a producer.
var demoLoads = []string{"epicerie-du-lac@demo.primeur.fr", "ferme-des-glieres@demo.primeur.fr"}

// BenchmarkCompressUserLoad measures what compression costs per request
// (docs/BENCHMARKS.md, "Fast on a slow line"): GET /api/user of the demo
// world through the daemon's handler, in process, as it is (identity) and
// in each coding the daemon negotiates at its on-the-fly level. cpu-ns/op
// is the process's CPU time per request (user + system), resp-bytes what
// goes on the wire; the difference with identity is the compression's.
func BenchmarkCompressUserLoad(b *testing.B) {
	db := storetest.SQLite(b)
	s := daemontest.New(b, db)
	if _, err := demo.Seed(context.Background(), db, s.Clock.Now()); err != nil {
		b.Fatal(err)
	}
	h := s.Daemon.Handler()
	for _, email := range demoLoads {
		cookie := loginAs(b, h, email, demo.Password)
		for _, accept := range []string{"identity", "zstd", "gzip", "br"} {
			b.Run(fmt.Sprintf("%s/%s", email, accept), func(b *testing.B) {
				b.ReportAllocs()
				var size int
				cpu := cpuTime(b)
				for b.Loop() {
					req := httptest.NewRequest(http.MethodGet, "/api/user", nil)
					req.AddCookie(cookie)
					req.Header.Set("Accept-Encoding", accept)
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					if rec.Code != http.StatusOK {
						b.Fatalf("%d %s", rec.Code, rec.Body)
					}
					if got := rec.Header().Get("Content-Encoding"); accept != "identity" && got != accept {
						b.Fatalf("Content-Encoding %q, want %q", got, accept)
					}
					size = rec.Body.Len()
				}
				b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(size), "resp-bytes")
			})
		}
	}
}

// BenchmarkCompressLevels compresses the demo shop's user load alone at
// the levels worth weighing, for the choice of the daemon's (brotliLevel,
// gzipLevel, zstdLevel and the order byCost in daemon/httpx/compress.go):
// time and CPU per body, bytes out. zstd with the daemon's window and one
// goroutine per stream.
func BenchmarkCompressLevels(b *testing.B) {
	db := storetest.SQLite(b)
	s := daemontest.New(b, db)
	if _, err := demo.Seed(context.Background(), db, s.Clock.Now()); err != nil {
		b.Fatal(err)
	}
	h := s.Daemon.Handler()
	body := serve(b, h, "/api/user", loginAs(b, h, demoLoads[0], demo.Password))
	run := func(name string, w interface {
		Write([]byte) (int, error)
		Close() error
	}, reset func(*bytes.Buffer)) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			var out bytes.Buffer
			cpu := cpuTime(b)
			for b.Loop() {
				out.Reset()
				reset(&out)
				if _, err := w.Write(body); err != nil {
					b.Fatal(err)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(out.Len()), "resp-bytes")
		})
	}
	for _, level := range []int{1, 2, 3, 4, 5, 6} {
		w := brotli.NewWriterLevel(nil, level)
		run(fmt.Sprintf("br-%d", level), w, func(out *bytes.Buffer) { w.Reset(out) })
	}
	for _, level := range []int{1, 5, 6} {
		w, _ := gzip.NewWriterLevel(nil, level)
		run(fmt.Sprintf("gzip-%d", level), w, func(out *bytes.Buffer) { w.Reset(out) })
	}
	for _, level := range []zstd.EncoderLevel{zstd.SpeedFastest, zstd.SpeedDefault} {
		w, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(level), zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(1<<20))
		if err != nil {
			b.Fatal(err)
		}
		run(fmt.Sprintf("zstd-%s", level), w, func(out *bytes.Buffer) { w.Reset(out) })
	}
	// The standard library's, for comparison.
	std, _ := stdgzip.NewWriterLevel(nil, stdgzip.BestSpeed)
	run("stdlib-gzip-1", std, func(out *bytes.Buffer) { std.Reset(out) })
}
