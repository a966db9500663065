package daemon

import (
	"net/http"

	"primeur/daemon/httpx"
)

// front is the outermost handler: it resolves the request's client
// (httpx.ResolveClient), then sets the security headers and
// Cache-Control: no-store before anything else may answer.
func (d *Daemon) front(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := httpx.ResolveClient(r, d.cfg.Proxies)
		httpx.SetSecurityHeaders(w.Header(), d.secureScheme(c))
		next.ServeHTTP(w, httpx.WithClient(r, c))
	})
}

// resetHeaders makes h fit for a problem replacing an answer a handler
// had begun to describe and never wrote (a panic): httpx.ResetHeaders,
// HSTS as front sets it.
func (d *Daemon) resetHeaders(h http.Header, c httpx.Client) {
	httpx.ResetHeaders(h, d.secureScheme(c))
}

// secureScheme reports whether the client's answers carry a Secure
// session cookie under the __Host- name, and HSTS: with secure-cookies
// (implied by an https base-url), or when the client reached the daemon
// over https, directly or through a trusted proxy (httpx/client.go).
func (d *Daemon) secureScheme(c httpx.Client) bool {
	return d.cfg.SecureCookies || c.HTTPS
}

// ConfigureServer sets what of Go's http.Server shapes the answers
// (httpx.ConfigureServer): Run uses it; so do the tests that start the
// handler on a server of their own.
func ConfigureServer(srv *http.Server) { httpx.ConfigureServer(srv) }
