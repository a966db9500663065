package daemon

import (
	"os"
	"runtime/debug"
)

// gcPercent is the daemon's GOGC when the environment does not set one:
// the garbage collector runs when the heap has grown by twice what was
// live after the last collection, not once. Measured on the user load
// (docs/BENCHMARKS.md, "The user load against its limits (issue 20)"):
// 6-11 % less CPU per load, one collection every 6 loads instead of 3,
// for about 15 % more peak memory under 16 concurrent loads (248 -> 284
// MB); 400 saved nothing more.
const gcPercent = 200

// setGCPercent applies gcPercent unless GOGC is set.
func setGCPercent() {
	if _, ok := os.LookupEnv("GOGC"); !ok {
		debug.SetGCPercent(gcPercent)
	}
}
