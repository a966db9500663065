// Package scratch lends the large arrays a response's views are built in
// and takes them back once the response is written: a busy daemon then
// builds its largest answers (a shop's user load, its needs) in memory it
// already holds, instead of asking the collector for megabytes per request
// and zeroing them afresh (issue 20, docs/BENCHMARKS.md).
//
// An Arena belongs to one request at a time. The slices it lends are valid
// until its Reset; whoever resets it must know that nothing reads them any
// more — the daemon resets it once the response is written. A nil *Arena
// lends nothing: Make and Grow then allocate as make and append do, so
// that code built on an Arena also serves callers without one.
package scratch

import (
	"reflect"
)

// What an Arena keeps between requests: its free arrays hold maxHeld
// bytes at most (an array that would go over is left to the collector),
// and at most maxArrays of one element type (the smallest dropped first),
// which bounds the search of Make.
const (
	maxHeld   = 8 << 20
	maxArrays = 64
)

// Arena holds arrays by element type: those ready to lend and those lent
// since the last Reset. The zero Arena is ready to use.
type Arena struct {
	kinds map[reflect.Type]*kind
	held  int // bytes of the free arrays
}

// kind is one element type's arrays, each kept as a slice of length 0.
type kind struct {
	free  []any
	lent  []any
	clear func(any)     // clears an array of this type over its capacity
	cap   func(any) int // an array's capacity
	size  int           // bytes per element
}

func kindOf[T any](a *Arena) *kind {
	t := reflect.TypeFor[T]()
	k := a.kinds[t]
	if k == nil {
		if a.kinds == nil {
			a.kinds = map[reflect.Type]*kind{}
		}
		k = &kind{
			size: int(t.Size()),
			clear: func(s any) {
				arr := s.([]T)
				clear(arr[:cap(arr)])
			},
			cap: func(s any) int { return cap(s.([]T)) },
		}
		a.kinds[t] = k
	}
	return k
}

// Make returns an empty slice of capacity n at least: the smallest free
// array of a of that type large enough, zeroed, or a new one. The array is
// a's until its Reset. A read that makes the same arrays at every request
// so finds them all again.
func Make[T any](a *Arena, n int) []T {
	return take[T](a, n, false)
}

// Grow returns s with room for n more elements: s itself when it has it,
// else a copy of s in a's largest free array of that type when it is large
// enough, in a new one of twice the capacity otherwise: a slice grown row
// by row finds at once the array it ended in at the previous request.
func Grow[T any](a *Arena, s []T, n int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	return append(take[T](a, max(2*cap(s), len(s)+n), true), s...)
}

// take lends the smallest (or the largest) free array of capacity n at
// least, or a new one.
func take[T any](a *Arena, n int, largest bool) []T {
	if a == nil {
		return make([]T, 0, n)
	}
	k := kindOf[T](a)
	best, bestCap := -1, 0
	for i, f := range k.free {
		c := cap(f.([]T))
		if c >= n && (best < 0 || (largest && c > bestCap) || (!largest && c < bestCap)) {
			best, bestCap = i, c
		}
	}
	var s []T
	if best >= 0 {
		s = k.remove(best).([]T)
		a.held -= bestCap * k.size
	} else {
		s = make([]T, 0, n)
	}
	k.lent = append(k.lent, s)
	return s
}

// remove takes the free array at i out of k's free ones and returns it.
func (k *kind) remove(i int) any {
	s := k.free[i]
	last := len(k.free) - 1
	k.free[i] = k.free[last]
	k.free[last] = nil
	k.free = k.free[:last]
	return s
}

// Reset takes back every array lent since the last Reset, cleared so that
// none keeps what it held alive: the slices Make and Grow gave must not be
// used any more. What would hold more than the arena's bound is left to
// the collector.
func (a *Arena) Reset() {
	for _, k := range a.kinds {
		for i, s := range k.lent {
			k.lent[i] = nil
			if n := k.cap(s) * k.size; a.held+n <= maxHeld {
				k.clear(s)
				k.free = append(k.free, s)
				a.held += n
			}
		}
		k.lent = k.lent[:0]
		for len(k.free) > maxArrays {
			a.held -= k.dropSmallest()
		}
	}
}

// dropSmallest drops the smallest free array and returns its size in
// bytes.
func (k *kind) dropSmallest() int {
	small := 0
	for i := range k.free {
		if k.cap(k.free[i]) < k.cap(k.free[small]) {
			small = i
		}
	}
	return k.cap(k.remove(small)) * k.size
}

// Pool keeps a few Arenas between requests, so that the arrays of one
// answer serve the next ones: at most its size, each holding maxHeld bytes
// at most. (A sync.Pool would drop them at every second collection, and
// with them most of the reuse.)
type Pool struct {
	free chan *Arena
}

// NewPool returns a pool that keeps n arenas at most.
func NewPool(n int) *Pool {
	return &Pool{free: make(chan *Arena, n)}
}

// Get returns a kept Arena, or a new one.
func (p *Pool) Get() *Arena {
	select {
	case a := <-p.free:
		return a
	default:
		return new(Arena)
	}
}

// Put resets a and keeps it for a later Get when the pool has room.
func (p *Pool) Put(a *Arena) {
	a.Reset()
	select {
	case p.free <- a:
	default:
	}
}
