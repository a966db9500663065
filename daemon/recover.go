package daemon

import (
	"context"
	"fmt"
	"runtime/debug"
)

// recovered logs a panic recovered in the daemon — in a handler, a job or
// any goroutine the daemon starts — with its stack and attrs, and counts it
// under where, a short fixed name ("http", "job invoices"): it labels a
// metric, so it never holds a path or an id. Call it
// from a deferred function with the value of recover():
//
//	defer func() {
//		if v := recover(); v != nil {
//			d.recovered(ctx, "job invoices", v)
//		}
//	}()
func (d *Daemon) recovered(ctx context.Context, where string, v any, attrs ...any) {
	attrs = append([]any{"where", where, "panic", fmt.Sprint(v), "stack", string(debug.Stack())}, attrs...)
	d.log.ErrorContext(ctx, "panic recovered", attrs...)
	if f := d.observe.PanicRecovered; f != nil {
		f(where)
	}
}

// goSafe runs fn in a new goroutine that recovers a panic (logged and
// counted as recovered at where): nothing the daemon starts can end the
// process.
func (d *Daemon) goSafe(where string, fn func()) {
	d.background.Add(1)
	go func() {
		defer d.background.Done()
		defer func() {
			if v := recover(); v != nil {
				d.recovered(context.Background(), where, v)
			}
		}()
		fn()
	}()
}

// Wait returns once every goroutine the daemon started in the background
// (goSafe: the emails sent after an answer) has ended. Run calls it when
// it stops; a test calls it before removing the daemon's data directory,
// which those emails may still be writing to.
func (d *Daemon) Wait() {
	d.background.Wait()
}
