package daemon

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"primeur/core/jobs"
	"primeur/core/store"
	"primeur/daemon/httpx"
)

// metrics are the daemon's Prometheus metrics, in a registry of the daemon's
// own (no package global: tests build many daemons in one process). Every
// label takes its values from a bounded set: a route is the pattern the mux
// matched, never the raw path.
type metrics struct {
	registry      *prometheus.Registry
	handler       http.Handler           // the registry in Prometheus' text format
	http          httpx.RequestMetrics   // requests by route (instrument)
	jobRuns       *prometheus.CounterVec // job
	jobFailures   *prometheus.CounterVec // job
	emailsSent    *prometheus.CounterVec // kind
	emailsFailed  *prometheus.CounterVec // kind
	emailsDropped *prometheus.CounterVec // kind
	paDeposits    *prometheus.CounterVec // outcome (the pa job)
	panics        *prometheus.CounterVec // where
	faults        *prometheus.CounterVec // fault (store.Faults)

	mu     sync.Mutex
	wheres map[string]bool // the where labels seen, at most maxWheres
}

// maxWheres bounds the distinct places a recovered panic is counted at;
// past it, panics are counted at "other". The places are routes, jobs and
// job steps, far fewer.
const maxWheres = 64

// newMetrics registers every metric, the Go runtime's and the process's
// collectors, and the statistics of db's connection pool when db is set;
// errors gathering them are logged to log.
func newMetrics(db *store.DB, log *slog.Logger) *metrics {
	counter := func(name, help string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "primeur", Name: name, Help: help}, labels)
	}
	m := &metrics{
		registry:     prometheus.NewRegistry(),
		http:         httpx.NewRequestMetrics("primeur"),
		jobRuns:      counter("job_runs_total", "Scheduled job runs started, by job.", "job"),
		jobFailures:  counter("job_failures_total", "Scheduled job runs that failed or panicked, by job.", "job"),
		emailsSent:   counter("emails_sent_total", "Emails sent, by kind of document (note, invoice).", "kind"),
		emailsFailed: counter("emails_failed_total", "Emails that could not be sent, by kind of document.", "kind"),
		emailsDropped: counter("emails_dropped_total",
			"Emails dropped unsent, with nothing left to say (a digest of an account closed since it was made), by kind of document.", "kind"),
		paDeposits: counter("pa_deposits_total",
			"Deposits on producers' approved platforms (the pa job), by outcome: deposited, failed (an attempt), left (for an administrator).", "outcome"),
		panics: counter("panics_recovered_total", "Panics recovered, by place (route, job or job step).", "where"),
		faults: counter("faults_total",
			"Requests answered 503 and job runs stopped for a fault, by fault: disk_full, database_unavailable (store.FaultOf).", "fault"),
		wheres: map[string]bool{},
	}
	m.registry.MustRegister(m.http.Requests, m.http.Latency, m.jobRuns, m.jobFailures, m.emailsSent, m.emailsFailed, m.emailsDropped, m.paDeposits, m.panics, m.faults,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if db != nil {
		m.registry.MustRegister(collectors.NewDBStatsCollector(db.DB.DB, "primeur"))
	}
	m.handler = promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	})
	for _, f := range store.Faults {
		m.faults.WithLabelValues(string(f))
	}
	for _, o := range []string{"deposited", "failed", "left"} {
		m.paDeposits.WithLabelValues(o)
	}
	for _, j := range jobs.All { // every job shows, at 0 until it runs
		m.jobRuns.WithLabelValues(j.Name)
		m.jobFailures.WithLabelValues(j.Name)
	}
	return m
}

// observer is the jobs' Observer counting into these metrics; the daemon
// hears its own recovered panics through it too (recover.go).
func (m *metrics) observer() jobs.Observer {
	return jobs.Observer{
		EmailSent:      func(kind string) { m.emailsSent.WithLabelValues(kind).Inc() },
		EmailFailed:    func(kind string) { m.emailsFailed.WithLabelValues(kind).Inc() },
		EmailDropped:   func(kind string) { m.emailsDropped.WithLabelValues(kind).Inc() },
		PanicRecovered: m.panicRecovered,
		Deposited:      func() { m.paDeposits.WithLabelValues("deposited").Inc() },
		DepositFailed:  func() { m.paDeposits.WithLabelValues("failed").Inc() },
		DepositLeft:    func() { m.paDeposits.WithLabelValues("left").Inc() },
	}
}

// fault counts a request or a job run that met f.
func (m *metrics) fault(f store.Fault) {
	m.faults.WithLabelValues(string(f)).Inc()
}

// panicRecovered counts a recovered panic at where, or at "other" once
// maxWheres places have been seen.
func (m *metrics) panicRecovered(where string) {
	m.mu.Lock()
	if !m.wheres[where] {
		if len(m.wheres) >= maxWheres {
			where = "other"
		} else {
			m.wheres[where] = true
		}
	}
	m.mu.Unlock()
	m.panics.WithLabelValues(where).Inc()
}

// instrument counts and times every request by route
// (httpx.RequestMetrics.Instrument), and notes the route for the access
// log.
func (d *Daemon) instrument(mux *http.ServeMux, next http.Handler) http.Handler {
	return d.metrics.http.Instrument(mux, next, func(ctx context.Context, route string) {
		if info := requestOf(ctx); info != nil {
			info.route = route
		}
	})
}

// serveMetrics answers GET /metrics in Prometheus' text format, to a client
// on this machine (a loopback peer whose request no proxy forwarded) or one
// sending the configured metrics.token as a bearer token. Anyone else gets
// 401 when a token is configured, 403 otherwise.
func (d *Daemon) serveMetrics(w http.ResponseWriter, r *http.Request) {
	if !d.mayReadMetrics(r) {
		w.Header().Set("Cache-Control", "no-store")
		if d.cfg.Metrics.Token != "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="primeur-metrics"`)
			writeJSONProblem(w, http.StatusUnauthorized, "Les métriques demandent le jeton metrics.token.")
			return
		}
		writeJSONProblem(w, http.StatusForbidden, "Les métriques ne sont lisibles que depuis le serveur lui-même.")
		return
	}
	d.metrics.handler.ServeHTTP(w, r)
}

// mayReadMetrics is the rule of who reads /metrics: the bearer token when
// one is configured, else a client on this machine (httpx.ClientOf): a loopback
// peer without forwarding headers — a reverse proxy on the same machine
// connects from loopback too, and marks the requests it forwards with one
// of them — or a loopback client that a trusted proxy names
// (docs/SECURITY.md).
func (d *Daemon) mayReadMetrics(r *http.Request) bool {
	if want := d.cfg.Metrics.Token; want != "" {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if ok && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1 {
			return true
		}
	}
	c := httpx.ClientOf(r)
	if c.Forwarded && !c.Believed {
		return false
	}
	ip, err := netip.ParseAddr(c.Addr)
	return err == nil && ip.IsLoopback()
}
