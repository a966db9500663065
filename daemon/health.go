package daemon

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"primeur/core/schema"
	"primeur/core/store"
	"primeur/daemon/httpx"
)

// healthWait bounds the health check's query: a database that does not
// answer within it is unavailable (a load balancer's probe gives up soon
// after).
const healthWait = 3 * time.Second

// The reasons /healthz gives, in French: whoever reads them runs the
// platform.
const (
	MsgHealthDatabase = "La base de données ne répond pas."
	MsgHealthDisk     = "Le disque du répertoire de données est presque plein : les écritures vont être refusées."
)

// health answers GET /healthz, the state of this replica:
//
//   - 200 {"status":"ok","reasons":[]} when the database answers a real
//     query — the schema version, read from its table, which also proves
//     the database is Primeur's — and the data directory's file system
//     has room (store.Space.Low: 1 % of it free, at most 100 MB needed);
//   - 503 "unavailable" with the reason "database" when the database does
//     not answer within healthWait (closed, unreachable, restarting, or
//     without Primeur's schema);
//   - 503 "degraded" with the reason "disk" when it answers but the data
//     directory (the SQLite database, the outbox) is almost full: reads
//     still work, writes are about to be refused.
//
// A 503 carries Retry-After, so that a load balancer stops sending
// requests to this replica for that long and a monitor says why.
func (d *Daemon) health(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	h := Health{Status: HealthOK, Reasons: []HealthReason{}}
	ctx, cancel := context.WithTimeout(r.Context(), healthWait)
	defer cancel()
	if _, err := schema.Version(ctx, d.db, d.db.Name); err != nil {
		d.log.ErrorContext(r.Context(), "health check failed", "reason", "database", "err", err)
		h.Status = HealthUnavailable
		h.Reasons = append(h.Reasons, HealthReason{Kind: "database", Message: MsgHealthDatabase})
	}
	if s, ok := store.SpaceOf(d.cfg.DataDir); ok && s.Low() {
		d.log.WarnContext(r.Context(), "health check: the data directory is almost full", "reason", "disk",
			"dir", d.cfg.DataDir, "free", s.Free, "needed", store.MinFree(s.Total))
		if h.Status == HealthOK {
			h.Status = HealthDegraded
		}
		h.Reasons = append(h.Reasons, HealthReason{Kind: "disk", Message: MsgHealthDisk})
	}
	if h.Status != HealthOK {
		w.Header().Set("Retry-After", httpx.RetryAfter(store.FaultRetryAfter))
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	b, _ := json.Marshal(h) // strings only: never fails
	_, _ = w.Write(b)
}

// The states /healthz answers.
const (
	HealthOK          = "ok"
	HealthDegraded    = "degraded"
	HealthUnavailable = "unavailable"
)
