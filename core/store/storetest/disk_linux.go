package storetest

import "syscall"

func mountTmpfs(dir, size string) error {
	return syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, "size="+size+",mode=0700")
}

// unmount detaches the file system even if a file on it is still open.
func unmount(dir string) error {
	return syscall.Unmount(dir, syscall.MNT_DETACH)
}
