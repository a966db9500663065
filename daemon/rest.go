package daemon

import (
	"context"
	"net/http"
	"runtime"
	"runtime/debug"
	runtimemetrics "runtime/metrics"
	"sync/atomic"
	"time"
)

// rest gives back to the system the memory the daemon no longer uses,
// once it is quiet (issue 42: at rest ≤ 150 MB). The Go runtime keeps the
// heap a burst of requests or the jobs at start grew, and returns it only
// slowly: a daemon that had answered 16 clients held 216 MB at rest after
// its start on a year of trade. Every restEvery, when no request started
// since the last look and none is in flight, and the heap keeps more than
// restKept bytes it does not use, the runtime collects and returns them
// (releaseAll: two collections, tens of milliseconds of one core;
// what it returned is not retained any more, so a quiet daemon is not
// collected again until its jobs grow the heap). Under load it does
// nothing: the collector already runs as the heap grows.
type rest struct {
	inFlight atomic.Int64
	started  atomic.Int64
	// seen is the count of started requests at the last look.
	seen int64
	// retained is how many bytes the heap keeps without using them;
	// release gives them back. Tests replace both.
	retained func() uint64
	release  func()
}

// How often rest looks, and how much unused heap it lets the runtime keep.
const (
	restEvery = 2 * time.Second
	restKept  = 16 << 20
)

func newRest() *rest {
	return &rest{retained: unusedHeap, release: releaseAll}
}

// releaseAll collects twice, then gives the free heap back to the system.
// What a sync.Pool keeps survives one collection, in the pool's victim
// cache: the compressors of the last burst (httpx's pools: a brotli
// encoder holds megabytes, one per answer compressed at once) stayed
// resident after a single collection, and a quiet daemon runs no other —
// 89 MB of heap in use at rest after 16 clients on a year of trade.
func releaseAll() {
	runtime.GC()
	debug.FreeOSMemory()
}

// wrap counts h's requests, started and in flight.
func (r *rest) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.started.Add(1)
		r.inFlight.Add(1)
		defer r.inFlight.Add(-1)
		h.ServeHTTP(w, req)
	})
}

// look is one look at the daemon: it releases the unused heap when the
// daemon is quiet and keeps more than restKept, and says whether it did.
func (r *rest) look() bool {
	started := r.started.Load()
	quiet := started == r.seen && r.inFlight.Load() == 0
	r.seen = started
	if !quiet || r.retained() <= restKept {
		return false
	}
	r.release()
	return true
}

// run looks every tick of ticks until ctx ends.
func (r *rest) run(ctx context.Context, ticks <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticks:
			r.look()
		}
	}
}

// unusedHeap is the heap memory the runtime holds without using it and
// has not returned to the system yet.
func unusedHeap() uint64 {
	s := []runtimemetrics.Sample{{Name: "/memory/classes/heap/free:bytes"}}
	runtimemetrics.Read(s)
	if s[0].Value.Kind() != runtimemetrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// startRest starts the daemon's rest (see rest) until ctx ends, in a
// goroutine that recovers.
func (d *Daemon) startRest(ctx context.Context, r *rest) {
	t := time.NewTicker(restEvery)
	d.goSafe("rest", func() {
		defer t.Stop()
		r.run(ctx, t.C)
	})
}
