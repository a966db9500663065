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
// once it is quiet (issue 42: at rest ≤ 150 MB). Every restEvery, when no
// request started since the last look and none is in flight:
//   - if requests came since the last time, or the heap grew, it asks the
//     database for what its connections keep (store.DB.ReleaseMemory:
//     SQLite's page caches; after a burst of reads on a year of trade the
//     daemon held 190 MB at rest with them, 82 MB without). The next
//     request reads its pages again from the system's file cache, a cost
//     not seen beside the request's own work (docs/BENCHMARKS.md);
//   - if the heap keeps more than restKept bytes it does not use, the
//     runtime collects and returns them (releaseAll: two collections,
//     tens of milliseconds of one core). The Go runtime keeps the heap a
//     burst of requests or the jobs at start grew and returns it only
//     slowly: a daemon that had answered 16 clients held 216 MB at rest
//     after its start on a year of trade. What it returned is not retained
//     any more, so a quiet daemon is not collected again until its jobs
//     grow the heap.
//
// Under load it does nothing: the collector already runs as the heap
// grows, and the page caches serve the requests.
type rest struct {
	inFlight atomic.Int64
	started  atomic.Int64
	// seen is the count of started requests at the last look.
	seen int64
	// shrunk is the count of started requests at the last shrink.
	shrunk int64
	// retained is how many bytes the heap keeps without using them;
	// release gives them back; shrink asks the database for the memory
	// its connections keep (store.DB.ReleaseMemory). Tests replace them.
	retained func() uint64
	release  func()
	shrink   func()
}

// How often rest looks, and how much unused heap it lets the runtime keep.
const (
	restEvery = 2 * time.Second
	restKept  = 16 << 20
	// restWait bounds how long the release waits for a connection.
	restWait = time.Second
)

func newRest(shrink func()) *rest {
	return &rest{retained: unusedHeap, release: releaseAll, shrink: shrink}
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

// look is one look at the daemon. When it is quiet, it asks the database
// for the memory its connections keep if requests came since the last time
// or the heap grew (the jobs read too), and releases the unused heap if it
// keeps more than restKept; it says whether it did either.
func (r *rest) look() bool {
	started := r.started.Load()
	quiet := started == r.seen && r.inFlight.Load() == 0
	r.seen = started
	if !quiet {
		return false
	}
	heap := r.retained() > restKept
	if !heap && started == r.shrunk {
		return false
	}
	r.shrunk = started
	r.shrink()
	if heap {
		r.release()
	}
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

// releaseDatabaseMemory is rest's shrink: it asks the database for the
// memory its idle connections keep, waiting at most restWait for a
// connection a request took in the meantime.
func (d *Daemon) releaseDatabaseMemory(ctx context.Context) {
	if d.db == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, restWait)
	defer cancel()
	r, err := d.db.ReleaseMemory(ctx)
	if err != nil {
		d.log.Warn("rest: the database's memory", "err", err)
		return
	}
	d.log.Debug("rest: the database's memory given back", "bytes", r.Bytes, "connections", r.Conns)
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
