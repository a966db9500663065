// Package primeur is the root of the module. It owns one thing: the built
// front end, embedded into the binary.
package primeur

import (
	"embed"
	"io/fs"
)

// ui holds ui/dist, the output of the front-end build. The `all:` prefix
// keeps files whose names start with a dot or underscore; ui/dist/.gitkeep is
// committed so the directory exists, and this compiles, before any build.
//
//go:embed all:ui/dist
var ui embed.FS

// UI returns the built front end rooted at its index.html. Without a build
// it holds no index.html, and the daemon serves a placeholder page.
func UI() fs.FS {
	sub, err := fs.Sub(ui, "ui/dist")
	if err != nil {
		panic(err) // the directory is embedded at compile time
	}
	return sub
}
