//go:build linux || darwin || freebsd

package store

import "syscall"

// spaceOf reads the file system holding dir with statfs(2): the blocks
// left to an unprivileged process, and its size.
func spaceOf(dir string) (Space, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return Space{}, false
	}
	bsize := uint64(st.Bsize)
	return Space{Free: uint64(st.Bavail) * bsize, Total: uint64(st.Blocks) * bsize}, true
}
