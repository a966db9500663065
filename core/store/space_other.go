//go:build !(linux || darwin || freebsd)

package store

// spaceOf does not know the free space on this system.
func spaceOf(string) (Space, bool) { return Space{}, false }
