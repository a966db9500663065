// Package httpx is the daemon's HTTP plumbing, apart from its handlers:
// the compression of answers (compress.go), the files of the UI's build
// served in the coding a client prefers (static.go), the client of a
// request behind trusted proxies (client.go). It knows nothing of
// Primeur's operations nor of core's rules; the daemon composes it.
package httpx
