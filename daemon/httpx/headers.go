package httpx

import (
	"net/http"
)

// The response headers of every answer (docs/SECURITY.md "Response
// headers"), set in one place (SetSecurityHeaders): the daemon's front,
// the outermost handler, sets them
// before any other handler runs, so that every answer the daemon writes
// carries them — the refusals of a path or a query made before routing
// (secure), the mux's own 404, 405 and redirects, huma's and the text
// checks' refusals, the throttled and busy answers, the 500 of a recovered
// panic (which sets them again: ResetHeaders), the UI's files.
//
// What the daemon never sees is answered by Go's http.Server itself, on the
// connection, before any handler: a request it cannot parse (400 Bad
// Request: a malformed request line, header or Host; a missing Host), one
// whose header is too large (431), an HTTP version it does not serve (505),
// an unsupported Transfer-Encoding (501), an Expect other than
// 100-continue (417). Those answers are text/plain, Connection: close,
// with a fixed reason that echoes nothing of the request: no page, no
// script, no data to protect; no handler can add headers to them. OPTIONS *
// would be the server's own 200 too: ConfigureServer hands it to the
// daemon instead.

// contentSecurityPolicy allows only this origin. Styles may be inline: the
// component library and the charts set style attributes.
const contentSecurityPolicy = "default-src 'self'; img-src 'self' data: blob:; " +
	"style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'self'; " +
	"form-action 'self'; frame-ancestors 'none'"

// NoStore is the Cache-Control of every answer that does not say
// otherwise: the API's, the authentication's, the documents', the
// refusals'. Only what anyone may read says otherwise: the UI's files
// (Files: hashed assets for a year, the rest revalidated) and the public
// files (the daemon's public.go, revalidated) [ASVS 4.0.3 8.2.1].
const NoStore = "no-store"

// SetSecurityHeaders sets the headers every answer carries, HSTS when
// hsts (over https: as the client reached the daemon, or always with
// secure-cookies).
func SetSecurityHeaders(h http.Header, hsts bool) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Permissions-Policy", "geolocation=(self), camera=(), microphone=()")
	h.Set("Cache-Control", NoStore)
	if hsts {
		h.Set("Strict-Transport-Security", "max-age=31536000")
	}
}

// ResetHeaders makes h fit for a problem replacing an answer a handler
// had begun to describe and never wrote (a panic): none of that answer's
// representation headers, every header of SetSecurityHeaders.
func ResetHeaders(h http.Header, hsts bool) {
	for _, k := range []string{"Content-Disposition", "Content-Encoding", "Content-Length", "Content-Range",
		"ETag", "Last-Modified", "Accept-Ranges", "Location", "Set-Cookie"} {
		h.Del(k)
	}
	SetSecurityHeaders(h, hsts)
}

// ConfigureServer sets what of Go's http.Server shapes the answers: OPTIONS
// * reaches the daemon's handler (and its headers) instead of the server's
// own empty 200. The daemon's Run uses it; so do the tests that start the
// handler on a server of their own.
func ConfigureServer(srv *http.Server) {
	srv.DisableGeneralOptionsHandler = true
}
