package daemon

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestGCPercent: the daemon sets its GOGC, unless the environment gives one.
func TestGCPercent(t *testing.T) {
	prev := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
	t.Setenv("GOGC", "50") // restored after the test
	setGCPercent()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("with GOGC set, the percentage became %d", got)
	}
	if err := os.Unsetenv("GOGC"); err != nil {
		t.Fatal(err)
	}
	setGCPercent()
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Fatalf("without GOGC, the percentage is %d, want %d", got, gcPercent)
	}
}
