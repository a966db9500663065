//go:build !linux

package storetest

import "errors"

func mountTmpfs(string, string) error {
	return errors.New("tmpfs is mounted on Linux only")
}

func unmount(string) error { return nil }
