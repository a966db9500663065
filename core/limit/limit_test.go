package limit_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/limit"
)

const msgBusy = "Occupé, réessayez."

// fill occupies every place of g until the returned function is called.
func fill(t *testing.T, g *limit.Gate) (release func()) {
	t.Helper()
	started := make(chan struct{})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range g.Size() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = g.Do(context.Background(), func() error {
				started <- struct{}{}
				<-stop
				return nil
			})
		}()
	}
	for range g.Size() {
		<-started
	}
	return func() { close(stop); wg.Wait() }
}

func TestGateRefusesWhenFull(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name     string
		ctx      context.Context
		wantBusy bool
		wantCtx  bool
	}{
		{"waits past the gate's wait", context.Background(), true, false},
		{"caller gone", cancelled, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := limit.NewGate("test", 2, 10*time.Millisecond, msgBusy)
			release := fill(t, g)
			ran := false
			err := g.Do(tt.ctx, func() error { ran = true; return nil })
			release()
			if ran {
				t.Fatal("fn ran although the gate was full")
			}
			var r *core.Refusal
			after, later := limit.RetryAfter(err)
			switch {
			case tt.wantBusy && (!errors.Is(err, core.ErrBusy) || !errors.As(err, &r) || r.Message != msgBusy || !later || after != g.Wait()):
				t.Fatalf("err = %v (retry after %v, %v), want a busy refusal after %v", err, after, later, g.Wait())
			case tt.wantCtx && !errors.Is(err, context.Canceled):
				t.Fatalf("err = %v, want the context's error", err)
			}
			if st := g.Stats(); st.Running != 0 || st.Done != 2 {
				t.Fatalf("stats after release = %+v", st)
			}
			if err := g.Do(context.Background(), func() error { return nil }); err != nil {
				t.Fatalf("a free gate refused: %v", err)
			}
		})
	}
}

func TestGateBoundsConcurrency(t *testing.T) {
	for _, size := range []int{1, 2, 5} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			g := limit.NewGate("test", size, time.Minute, msgBusy)
			var now, most atomic.Int64
			var wg sync.WaitGroup
			for range 64 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					err := g.Do(context.Background(), func() error {
						n := now.Add(1)
						for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
						}
						time.Sleep(time.Millisecond) // hold the place so that callers pile up
						now.Add(-1)
						return nil
					})
					if err != nil {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			st := g.Stats()
			if most.Load() > int64(size) || st.MostRunning > int64(size) || st.MostRunning < 1 {
				t.Fatalf("at most %d at once, seen %d (gate says %d)", size, most.Load(), st.MostRunning)
			}
			if st.Done != 64 || st.Refused != 0 || st.Running != 0 {
				t.Fatalf("stats = %+v", st)
			}
		})
	}
}

func TestFnErrorComesBack(t *testing.T) {
	g := limit.NewGate("test", 1, time.Second, msgBusy)
	want := errors.New("boom")
	if err := g.Do(context.Background(), func() error { return want }); !errors.Is(err, want) {
		t.Fatalf("err = %v", err)
	}
	if _, ok := limit.RetryAfter(want); ok {
		t.Fatal("a plain error carries no delay")
	}
}
