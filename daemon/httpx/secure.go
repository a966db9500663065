package httpx

import (
	"net/http"
)

// MsgCrossSite is the refusal of a state-changing request sent from
// another site (Secure).
const MsgCrossSite = "Requête refusée : elle provient d'un autre site."

// Secure refuses paths and queries that break the text rule, then
// state-changing requests from other origins (Sec-Fetch-Site, then Origin
// against Host, as net/http's CrossOriginProtection does). The security
// headers are already set (SetSecurityHeaders). baseURL, when set, is an
// origin trusted besides the request's own host (the daemon's base-url).
func Secure(baseURL string, next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	if baseURL != "" {
		_ = cop.AddTrustedOrigin(baseURL)
	}
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		WriteProblem(w, Problem(http.StatusForbidden, MsgCrossSite))
	}))
	protected := cop.Handler(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !CanonicalPath(r.URL.Path) {
			WriteProblem(w, Problem(http.StatusBadRequest, MsgBadPath))
			return
		}
		if !CleanQuery(r.URL.RawQuery) {
			WriteProblem(w, Problem(http.StatusBadRequest, MsgBadQuery))
			return
		}
		protected.ServeHTTP(w, r)
	})
}
