package images

import (
	"context"
	"sync"
	"testing"
)

// HoldForTest takes every place of the process's decoding gate until the
// returned function is called, for a daemon test whose photos must wait
// their turn as they would behind other shops' decodings. It panics
// outside a test binary.
func HoldForTest() (release func()) {
	if !testing.Testing() {
		panic("images: HoldForTest outside a test binary")
	}
	var held sync.WaitGroup
	done := make(chan struct{})
	for range gate.Size() {
		held.Add(1)
		go func() {
			_ = gate.Do(context.Background(), func() error {
				held.Done()
				<-done
				return nil
			})
		}()
	}
	held.Wait()
	return sync.OnceFunc(func() { close(done) })
}
