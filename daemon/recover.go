package daemon

import (
	"fmt"
	"runtime/debug"
)

// recovered logs a panic recovered in the daemon — in a handler, a job or
// any goroutine the daemon starts — with its stack, and counts it. Call it
// from a deferred function with the value of recover():
//
//	defer func() {
//		if v := recover(); v != nil {
//			d.recovered("job invoices", v)
//		}
//	}()
func (d *Daemon) recovered(where string, v any) {
	d.log.Error("panic recovered", "where", where, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
	if f := d.observe.PanicRecovered; f != nil {
		f(where)
	}
}

// goSafe runs fn in a new goroutine that recovers a panic (logged and
// counted as recovered at where): nothing the daemon starts can end the
// process.
func (d *Daemon) goSafe(where string, fn func()) {
	go func() {
		defer func() {
			if v := recover(); v != nil {
				d.recovered(where, v)
			}
		}()
		fn()
	}()
}
