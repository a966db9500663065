package scratch_test

import (
	"testing"
	"unsafe"

	"primeur/core/scratch"
)

// array is the address of s's backing array, to tell arrays apart.
func array[T any](s []T) uintptr {
	return uintptr(unsafe.Pointer(unsafe.SliceData(s[:cap(s)])))
}

func TestMake(t *testing.T) {
	tests := []struct {
		name string
		a    *scratch.Arena
	}{
		{"without an arena", nil},
		{"with an arena", new(scratch.Arena)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := scratch.Make[int](tt.a, 10)
			if len(s) != 0 || cap(s) < 10 {
				t.Fatalf("len %d cap %d, want 0 and at least 10", len(s), cap(s))
			}
			for _, v := range s[:cap(s)] {
				if v != 0 {
					t.Fatalf("not zeroed: %v", s[:cap(s)])
				}
			}
			g := scratch.Grow(tt.a, append(s, 1, 2, 3), 100)
			if len(g) != 3 || cap(g)-len(g) < 100 || g[0] != 1 || g[2] != 3 {
				t.Fatalf("grown: len %d cap %d %v", len(g), cap(g), g)
			}
			if same := scratch.Grow(tt.a, g, 1); array(same) != array(g) {
				t.Fatal("Grow replaced an array that had room")
			}
		})
	}
}

// TestReset checks that the arrays lent come back cleared — nothing they
// held is kept alive, nothing leaks into the next request's views — and
// are lent again: the smallest large enough to Make, the largest to Grow.
func TestReset(t *testing.T) {
	a := new(scratch.Arena)
	small := append(scratch.Make[*string](a, 10), new(string))
	large := append(scratch.Make[*string](a, 1000), new(string), new(string))
	a.Reset()
	for _, s := range [][]*string{small, large} {
		for _, p := range s[:cap(s)] {
			if p != nil {
				t.Fatal("an array came back with a pointer in it")
			}
		}
	}
	if got := scratch.Make[*string](a, 5); array(got) != array(small) {
		t.Error("Make(5) did not lend the smallest array large enough")
	}
	if got := scratch.Grow(a, []*string{nil}, 2); array(got) != array(large) {
		t.Error("Grow did not lend the largest array")
	}
	if got := scratch.Make[*string](a, 5); array(got) == array(small) || array(got) == array(large) {
		t.Error("an array was lent twice before a Reset")
	}
	// Another element type has arrays of its own.
	if got := scratch.Make[string](a, 5); cap(got) < 5 {
		t.Errorf("cap %d", cap(got))
	}
}

// TestBounds checks what an arena keeps: 8 MB of arrays at most, at most
// 64 arrays of one type, the largest.
func TestBounds(t *testing.T) {
	a := new(scratch.Arena)
	huge := scratch.Make[byte](a, 8<<20+1)
	a.Reset()
	if got := scratch.Make[byte](a, 1); array(got) == array(huge) {
		t.Error("an array over 8 MB was kept")
	}
	a.Reset()

	c := new(scratch.Arena)
	first, second := scratch.Make[byte](c, 5<<20), scratch.Make[byte](c, 5<<20)
	c.Reset()
	kept := 0
	for range 2 {
		if s := scratch.Make[byte](c, 1); array(s) == array(first) || array(s) == array(second) {
			kept++
		}
	}
	if kept != 1 {
		t.Errorf("%d arrays of 5 MB kept, want 1", kept)
	}

	b := new(scratch.Arena)
	made := map[uintptr]int{}
	for n := 1; n <= 70; n++ {
		s := scratch.Make[int](b, n)
		made[array(s)] = n
	}
	b.Reset()
	lent := map[uintptr]bool{}
	for range 70 {
		s := scratch.Make[int](b, 1)
		lent[array(s)] = true
	}
	again := 0
	for p, n := range made {
		if lent[p] {
			again++
			if n <= 6 {
				t.Errorf("the array of %d was kept, one of the six smallest", n)
			}
		}
	}
	if again != 64 {
		t.Errorf("%d arrays lent again, want 64", again)
	}
}

func TestPool(t *testing.T) {
	p := scratch.NewPool(1)
	a, b := p.Get(), p.Get()
	if a == b {
		t.Fatal("one arena given twice")
	}
	s := append(scratch.Make[int](a, 4), 7)
	p.Put(a)
	if s[0] != 0 {
		t.Error("Put did not reset the arena")
	}
	p.Put(b) // the pool is full: b is dropped
	if p.Get() != a {
		t.Error("the arena put back was not given again")
	}
	if got := p.Get(); got == a || got == b {
		t.Error("the pool kept more arenas than its size")
	}
}
