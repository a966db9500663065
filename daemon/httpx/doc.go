// Package httpx is the daemon's HTTP plumbing, apart from its handlers:
//
//   - compress.go: the compression of answers (Compress);
//   - static.go: the files of the UI's build, sent in the coding a client
//     prefers (Files);
//   - client.go: the client of a request behind trusted proxies
//     (ResolveClient, ClientOf);
//   - request.go: the request's id (RequestID, LogRequestID) and the
//     recovery of a handler's panic (Recover);
//   - accesslog.go: the access log (AccessLog, Recorder);
//   - metrics.go: the requests counted and timed by route
//     (RequestMetrics.Instrument);
//   - headers.go: the security headers of every answer
//     (SetSecurityHeaders);
//   - problem.go: the problems (RFC 9457) the daemon writes, with their
//     French texts (Problem, WriteProblem, StatusDetails);
//   - textcheck.go, secure.go: the text rule on paths, queries and JSON
//     bodies before any handler (TextCheck), and the refusal of cross-site
//     writes (Secure);
//   - retry.go: the Retry-After of every 503 (RetryLater);
//   - bodytime.go: the whole request time for every operation, instead of
//     huma's 5 s once the handler starts (WholeRequestTime).
//
// It knows nothing of Primeur's operations nor of core's rules: of core
// it reads only the text rule (core/text), and what it must know of the
// API's fields (TextCheck) the daemon gives it. The daemon composes it
// (daemon.go's middlewares), and maps core's errors to its problems
// (errors.go).
package httpx
