// Package httpx is the daemon's HTTP plumbing, apart from its handlers:
// the compression of answers (compress.go), the files of the UI's build
// served in the coding a client prefers (static.go), the client of a
// request behind trusted proxies (client.go), the request's id and the
// recovery of a handler's panic (request.go), the access log
// (accesslog.go), the security headers of
// every answer (headers.go), the problems (RFC 9457)
// the daemon writes with their French texts (problem.go), and the text
// rule checked on paths, queries and JSON bodies before any handler
// (textcheck.go). It knows nothing of Primeur's operations nor of core's
// rules: of core it reads only the text rule (core/text), and what it
// must know of the API's fields (TextCheck) the daemon gives it. The
// daemon composes it.
package httpx
