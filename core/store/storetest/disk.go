package storetest

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Disk is a small file system of the test's own (a tmpfs), for the tests
// of a full disk: a data directory on it fills up at once.
type Disk struct {
	// Dir is where it is mounted.
	Dir string
}

// SmallDisk mounts a tmpfs of size bytes on a new directory, unmounted at
// the end of the test, or skips the test, saying why, where this process
// may not mount one (it needs root, or CAP_SYS_ADMIN, on Linux).
func SmallDisk(t testing.TB, size string) *Disk {
	t.Helper()
	dir := t.TempDir()
	if err := mountTmpfs(dir, size); err != nil {
		t.Skipf("a full disk needs a small file system of its own, and this process may not mount one "+
			"(mount -t tmpfs -o size=%s tmpfs %s: %v): run the test as root, or with CAP_SYS_ADMIN", size, dir, err)
	}
	t.Cleanup(func() {
		if err := unmount(dir); err != nil {
			t.Errorf("storetest: unmount %s: %v", dir, err)
		}
	})
	return &Disk{Dir: dir}
}

// fillerName is the file Fill writes.
const fillerName = "filler"

// Fill writes a file on the disk until no byte more fits, and returns how
// many it wrote.
func (d *Disk) Fill(t testing.TB) int64 {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(d.Dir, fillerName), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatalf("storetest: fill: %v", err)
	}
	defer f.Close()
	var n int64
	for _, size := range []int{1 << 20, 64 << 10, 4 << 10, 512, 1} {
		buf := make([]byte, size)
		for {
			w, err := f.Write(buf)
			n += int64(w)
			if errors.Is(err, syscall.ENOSPC) {
				break
			}
			if err != nil {
				t.Fatalf("storetest: fill: %v", err)
			}
		}
	}
	return n
}

// Free removes what Fill wrote.
func (d *Disk) Free(t testing.TB) {
	t.Helper()
	if err := os.Remove(filepath.Join(d.Dir, fillerName)); err != nil {
		t.Fatalf("storetest: free: %v", err)
	}
}
