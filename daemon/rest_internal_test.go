package daemon

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestRestReleasesMemoryWhenQuiet: the daemon gives memory back only when
// no request started since its last look and none is in flight (issue 42,
// at rest ≤ 150 MB); under load it never does. Its unused heap goes back
// when the heap keeps more than restKept unused; the database's caches
// when requests came since the last time, or with the heap (the jobs read
// too).
func TestRestReleasesMemoryWhenQuiet(t *testing.T) {
	type step struct {
		requests int    // requests answered before the look
		start    bool   // a request starts before the look, and stays in flight
		finish   bool   // the request in flight ends before the look
		retained uint64 // unused heap at the look
		release  bool   // the look releases the heap
		shrink   bool   // the look asks the database
	}
	const much = 64 << 20
	for _, c := range []struct {
		name  string
		steps []step
	}{
		{"quiet since its start, much kept: both", []step{{retained: restKept + 1, release: true, shrink: true}}},
		{"quiet, little kept: nothing", []step{{retained: restKept}}},
		{"requests since the last look: not yet, then both", []step{
			{requests: 3, retained: much},
			{retained: much, release: true, shrink: true},
		}},
		{"requests, little kept: the database once", []step{
			{requests: 2}, {shrink: true}, {}, {},
		}},
		{"a request in flight: nothing until it ends", []step{
			{start: true, retained: much}, {retained: much}, {retained: much},
			{finish: true, retained: much, release: true, shrink: true},
		}},
		{"under load: never", []step{
			{requests: 1, retained: much}, {requests: 5, retained: much}, {requests: 2, retained: much},
		}},
		{"released, then quiet with nothing kept: once", []step{
			{retained: much, release: true, shrink: true}, {retained: 0}, {retained: 0},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var retained uint64
			released, shrunk := 0, 0
			r := &rest{retained: func() uint64 { return retained }, release: func() { released++ }, shrink: func() { shrunk++ }}
			held, hold, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
			h := r.wrap(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				if req.URL.Path == "/hold" {
					close(held)
					<-hold
				}
			}))
			for i, s := range c.steps {
				for range s.requests {
					h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
				}
				if s.start {
					go func() {
						defer close(done)
						h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/hold", nil))
					}()
					<-held
				}
				if s.finish {
					close(hold)
					<-done
				}
				retained = s.retained
				released0, shrunk0 := released, shrunk
				did := r.look()
				if (released > released0) != s.release || (shrunk > shrunk0) != s.shrink || did != (s.release || s.shrink) {
					t.Fatalf("look %d: said %v, released the heap %d times, asked the database %d times; want %v, %v", i+1,
						did, released-released0, shrunk-shrunk0, s.release, s.shrink)
				}
			}
		})
	}
}

// TestRestRunEndsWithItsContext: the rest's loop looks at each tick and
// ends with the daemon's context.
func TestRestRunEndsWithItsContext(t *testing.T) {
	released := make(chan struct{}, 1)
	r := &rest{retained: func() uint64 { return restKept + 1 }, release: func() { released <- struct{}{} }, shrink: func() {}}
	ctx, cancel := context.WithCancel(context.Background())
	ticks := make(chan time.Time)
	ended := make(chan struct{})
	go func() { r.run(ctx, ticks); close(ended) }()
	ticks <- time.Time{}
	<-released
	cancel()
	<-ended
}

// TestRestReleasesWhatPoolsKeep: the rest's release frees what a sync.Pool
// keeps (the compressors of the last burst), which survives one collection
// in the pool's victim cache. Not parallel: another test's collections
// would free it anyway.
func TestRestReleasesWhatPoolsKeep(t *testing.T) {
	var pool sync.Pool
	freed := make(chan struct{})
	func() {
		big := new([8 << 20]byte)
		runtime.AddCleanup(big, func(ch chan struct{}) { close(ch) }, freed)
		pool.Put(big)
	}()
	// As at the end of a burst: the pool's item put back, no collection
	// since.
	newRest(func() {}).release()
	select {
	case <-freed:
	case <-time.After(5 * time.Second):
		t.Fatal("the pool's item is still held after the release")
	}
}
