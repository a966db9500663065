package httpx

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/danielgtaylor/huma/v2"
)

// MsgNoToken is the exact text PRODUCT §8 expects when a request has no
// valid session.
const MsgNoToken = "User did not provide any token"

// StatusDetails are the French summaries of the statuses the daemon and
// huma answer by themselves (malformed JSON, schema violations, oversized
// bodies, a sentinel error of core without its own message); the
// technical reason, if any, stays in the problem's `errors`. Read only.
var StatusDetails = map[int]string{
	http.StatusBadRequest:            "Requête invalide.",
	http.StatusUnauthorized:          MsgNoToken,
	http.StatusForbidden:             "Accès refusé.",
	http.StatusNotFound:              "Ressource introuvable.",
	http.StatusMethodNotAllowed:      "Méthode non autorisée.",
	http.StatusConflict:              "Opération impossible dans l'état actuel.",
	http.StatusRequestEntityTooLarge: "Requête trop volumineuse.",
	http.StatusUnsupportedMediaType:  "Type de contenu non pris en charge.",
	http.StatusUnprocessableEntity:   "Données invalides.",
	http.StatusTooManyRequests:       "Trop de requêtes, veuillez réessayer plus tard.",
	http.StatusInternalServerError:   "Erreur interne du serveur.",
}

// Problem is the RFC 9457 problem of status: its French detail for the
// user and, for a refused input, one error per field.
func Problem(status int, detail string, details ...*huma.ErrorDetail) *huma.ErrorModel {
	return &huma.ErrorModel{
		Status: status,
		Title:  http.StatusText(status),
		Detail: detail,
		Errors: details,
	}
}

// WriteProblem writes p as the answer, outside huma (plain handlers and
// middlewares), as application/problem+json.
func WriteProblem(w http.ResponseWriter, p *huma.ErrorModel) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(p.Status)
	_ = json.NewEncoder(w).Encode(p)
}

// RetryAfter is a delay as Retry-After's whole seconds, at least 1.
func RetryAfter(after time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(after.Seconds()))))
}
