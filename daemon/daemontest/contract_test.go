package daemontest

import (
	"net/http"
	"strings"
	"testing"

	"primeur/core/config"
	"primeur/daemon"
)

// TestContractCheck feeds the check answers the document allows and answers
// it does not, on the daemon's real document.
func TestContractCheck(t *testing.T) {
	contract := NewContract(daemon.New(daemon.Options{Config: config.Defaults()}).OpenAPI())
	const (
		problemJSON = "application/problem+json"
		appJSON     = "application/json"
		standing    = `"level":"militant","purchases":{"lastMonth":{"month":"2026-10-01","value":0},` +
			`"currentMonth":{"month":"2026-11-01","value":12.5},"monthly":12.5},"monthsOfCommitment":1,"rank":1,"shops":2,"score":112`
	)
	tests := []struct {
		name        string
		method      string
		path        string
		status      int
		contentType string
		body        string
		want        string // "" when the answer is allowed, else a part of the report
	}{
		{"no contribution", "GET", "/api/rewards", 200, appJSON, `{` + standing + `,"contribution":null}`, ""},
		{"a contribution", "GET", "/api/rewards", 200, appJSON,
			`{` + standing + `,"contribution":{"amount":25,"since":"2026-11-01","updatedAt":"2026-11-20T10:00:00Z"}}`, ""},
		{"contribution left out", "GET", "/api/rewards", 200, appJSON, `{` + standing + `}`, "contribution"},
		{"unknown level", "GET", "/api/rewards", 200, appJSON,
			`{` + strings.Replace(standing, "militant", "roi", 1) + `,"contribution":null}`, "level"},
		{"undocumented field", "GET", "/api/rewards", 200, appJSON, `{` + standing + `,"contribution":null,"bonus":1}`, "bonus"},
		{"a list null", "GET", "/api/events", 200, appJSON, `null`, "breaks its schema"},
		{"an empty list", "GET", "/api/events", 200, appJSON, `[]`, ""},
		{"HTML for JSON", "GET", "/api/events", 200, "text/html; charset=utf-8", `<p>`, "text/html"},
		{"not JSON", "GET", "/api/events", 200, appJSON, `[`, "not JSON"},
		{"a listed refusal", "POST", "/api/needs", 422, problemJSON, `{"status":422,"title":"Unprocessable Entity","detail":"Produit inconnu"}`, ""},
		{"any other error", "POST", "/api/needs", 418, problemJSON, `{"status":418,"title":"I'm a teapot","detail":"Théière"}`, ""},
		{"a problem without detail", "POST", "/api/needs", 422, problemJSON, `{"status":422,"title":"Unprocessable Entity"}`, "detail"},
		{"an error in plain JSON", "POST", "/api/needs", 409, appJSON, `{"status":409}`, "application/json"},
		{"no content", "GET", "/auth/logout", 204, "", ``, ""},
		{"healthy", "GET", "/healthz", 200, appJSON, `{"status":"ok","reasons":[]}`, ""},
		{"unavailable", "GET", "/healthz", 503, appJSON, `{"status":"unavailable","reasons":[{"kind":"database","message":"La base de données ne répond pas."}]}`, ""},
		{"degraded", "GET", "/healthz", 503, appJSON, `{"status":"degraded","reasons":[{"kind":"disk","message":"Le disque est presque plein."}]}`, ""},
		{"unknown health", "GET", "/healthz", 200, appJSON, `{"status":"maybe","reasons":[]}`, "status"},
		{"health without reasons", "GET", "/healthz", 200, appJSON, `{"status":"ok"}`, "reasons"},
		{"a note", "GET", "/print/delivery/o/d", 200, "application/pdf", "%PDF-1.3", ""},
		{"a note as HTML", "GET", "/print/delivery/o/d", 200, "text/html", "<p>", "text/html"},
		{"the catalogue", "GET", "/public/other/products.csv", 200, "text/csv; charset=utf-8", "\uFEFFproduit;unite\r\n", ""},
		{"metrics", "GET", "/metrics", 200, "text/plain; version=0.0.4; charset=utf-8", "# HELP", ""},
		{"the interface", "GET", "/livraisons", 200, "text/html", "<!doctype html>", ""},
		{"a method the document lacks", "PATCH", "/api/needs/x", 405, "text/plain", "no", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, "http://127.0.0.1"+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			header := http.Header{}
			if tt.contentType != "" {
				header.Set("Content-Type", tt.contentType)
			}
			got := strings.Join(contract.Check(req, tt.status, header, []byte(tt.body)), "\n")
			switch {
			case tt.want == "" && got != "":
				t.Fatalf("allowed answer reported: %s", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Fatalf("report %q, want one naming %q", got, tt.want)
			}
		})
	}
}
