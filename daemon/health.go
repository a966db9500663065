package daemon

import (
	"encoding/json"
	"net/http"

	"primeur/core/schema"
)

// health answers GET /healthz: 200 {"status":"ok"} when the database
// answers a real query — the schema version, read from its table, which
// also proves the database is Primeur's — and 503 {"status":"unavailable"}
// otherwise (database closed, unreachable, or without Primeur's schema),
// so a load balancer stops sending requests to this replica.
func (d *Daemon) health(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	h := Health{Status: "ok"}
	if _, err := schema.Version(r.Context(), d.db, d.db.Name); err != nil {
		d.log.ErrorContext(r.Context(), "health check failed", "err", err)
		h.Status = "unavailable"
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	b, _ := json.Marshal(h) // a struct of one string: never fails
	_, _ = w.Write(b)
}
