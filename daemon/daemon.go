// Package daemon is Primeur's HTTP server: the API (huma v2 on the standard
// library's ServeMux), sessions, security headers, the embedded UI with its
// SPA fallback, documents and public files, and the lifecycle of the
// process (listen, scheduled jobs, graceful shutdown).
package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"path"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
	"golang.org/x/sync/semaphore"

	"primeur/core/calendar"
	"primeur/core/config"
	"primeur/core/decimal"
	"primeur/core/jobs"
	"primeur/core/limit"
	"primeur/core/places"
	"primeur/core/store"
	"primeur/daemon/httpx"
)

// Version is the product version of PRODUCT §1.
const Version = "v1.0.4"

// Options are what a Daemon is built from.
type Options struct {
	// Config is the validated configuration.
	Config *config.Config
	// DB is the migrated database; nil is allowed only to describe the API
	// (the openapi command).
	DB *store.DB
	// Log receives the daemon's structured logs.
	Log *slog.Logger
	// UI is the built front end (ui/dist); nil or without index.html serves a
	// placeholder page.
	UI fs.FS
	// Now is the clock; nil means time.Now. Tests move it.
	Now func() time.Time
}

// Daemon serves Primeur over HTTP.
type Daemon struct {
	cfg     *config.Config
	db      *store.DB
	log     *slog.Logger
	ui      fs.FS
	clock   calendar.Clock // the one clock (Options.Now in the business time zone)
	api     huma.API
	handler http.Handler
	boards  boards // the rewards board shared for a minute (rewards.go)
	// observe hears what the jobs and the daemon do, for the metrics; its
	// zero value hears nothing.
	observe jobs.Observer
	metrics *metrics // served at /metrics (metrics.go)
	// held bounds the throttled answers held at once (limits.go).
	held *semaphore.Weighted
	// exporting bounds the personal data exports running at once
	// (mydata.go): each daemon has its own, as two in one process (tests)
	// must not share theirs.
	exporting *limit.Gate
	// paChecks bounds the PA connection checks, which call out (pa.go).
	paChecks paChecks
	// background counts the goroutines goSafe started (the emails sent
	// after an answer): a stop waits for them (Wait).
	background sync.WaitGroup
}

// New builds the daemon and registers every route.
func New(o Options) *Daemon {
	d := &Daemon{cfg: o.Config, db: o.DB, ui: o.UI, clock: calendar.NewClock(o.Now, o.Config.Location), held: semaphore.NewWeighted(heldAtOnce),
		exporting: newExportGate(), paChecks: newPAChecks()}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	d.log = slog.New(httpx.LogRequestID{Handler: o.Log.Handler()})
	d.metrics = newMetrics(d.db, d.log)
	d.observe = d.metrics.observer()
	mux := http.NewServeMux()
	d.api = humago.New(mux, apiConfig())
	d.api.UseMiddleware(textCheck.CheckJSONBody, httpx.WholeRequestTime(requestReadTimeout))
	d.routes(mux)
	d.finishDocument()
	d.handler = d.middlewares(mux)
	return d
}

// middlewares are what every answer goes through, around mux. front sets
// the security headers before anything else may answer (headers.go); the
// outer recoverPanics catches what the middlewares themselves might raise,
// the inner one the handlers. Revalidate tags the API's answers inside
// Compress, so that a 304 has nothing to compress.
func (d *Daemon) middlewares(mux *http.ServeMux) http.Handler {
	return d.front(d.identify(d.recoverPanics(d.instrument(mux, d.logRequests(httpx.Compress(httpx.Revalidate(d.recoverPanics(d.secure(mux)))))))))
}

// apiConfig is the configuration of the API and of its OpenAPI document
// (openapi.go finishes the document once every route is registered).
//
// Fields are required unless their JSON tag says omitempty: an answer always
// carries every other field, so a generated client can rely on them. Request
// fields that core checks, with the French message PRODUCT gives, say
// required:"false", so that a missing one reaches core rather than huma's
// own English message (TestRequestFieldsRequiredOnlyWhenTagged).
func apiConfig() huma.Config {
	c := huma.DefaultConfig("Primeur API", Version)
	c.Info.Description = "API of Primeur, the platform linking local food producers with retail shops " +
		"around monthly purchasing needs. Authentication is a session cookie set by /auth/login or " +
		"/auth/register. Quantities and prices are decimal numbers with at most two decimals; " +
		"error responses are RFC 9457 problems whose `detail` is a French message for the user."
	c.Servers = []*huma.Server{{URL: "/", Description: "The daemon that serves this document: the API is on the same host as the page"}}
	c.OpenAPIPath = "/openapi"
	c.DocsPath = "" // served by docsPage: no CDN scripts under our CSP
	c.SchemasPath = ""
	c.CreateHooks = nil // no $schema links in responses
	c.FieldsOptionalByDefault = false
	c.Components.Schemas = huma.NewMapRegistry("#/components/schemas/", schemaName)
	c.Components.Schemas.RegisterTypeAlias(reflect.TypeFor[decimal.Dec](), reflect.TypeFor[float64]())
	c.Components.SecuritySchemes = securitySchemes()
	c.Tags = tags
	return c
}

// requestReadTimeout is how long a request may take to arrive, its body
// with it (http.Server's ReadTimeout). It is also how long every operation
// may run once its body is read (httpx.WholeRequestTime): huma would give
// it 5 s, a deadline it sets on the connection as the handler starts,
// which — the body already read by the text check — ended requests still
// being served (waiting their turn at the hashing, parsing or decoding
// gate, or at a busy database) with 503 "Requête interrompue."
// (TestARequestMayWaitItsTurn, TestWholeRequestTime).
const requestReadTimeout = 2 * time.Minute

func init() {
	// A list in an answer is never null: every reader of core returns an
	// empty list rather than nil, and the daemon's tests check each answer
	// against the document (daemontest).
	huma.DefaultArrayNullable = false
}

// now is the current instant in the business time zone, where months and
// delivery days are counted: every handler reads the time here.
func (d *Daemon) now() time.Time { return d.clock.Now() }

// schemaName names a type's schema after its package and type ("PlanningView",
// "ActivityView"), since each core package has its own View; the daemon's
// own input and output types keep their bare names.
func schemaName(t reflect.Type, hint string) string {
	name := huma.DefaultSchemaNamer(t, hint)
	base := t
	for base.Kind() == reflect.Pointer || base.Kind() == reflect.Slice || base.Kind() == reflect.Array {
		base = base.Elem()
	}
	pkg := path.Base(base.PkgPath())
	if base.Name() == "" || pkg == "daemon" || pkg == "." || !strings.HasPrefix(base.PkgPath(), "primeur/") {
		return name
	}
	return strings.ToUpper(pkg[:1]) + pkg[1:] + name
}

// Handler returns the daemon's HTTP handler, for tests and for Run.
func (d *Daemon) Handler() http.Handler { return d.handler }

// OpenAPI returns the API description.
func (d *Daemon) OpenAPI() *huma.OpenAPI { return d.api.OpenAPI() }

// DrainTimeout bounds a graceful stop: how long requests in flight, and the
// jobs running, have to finish once the daemon is asked to stop.
const DrainTimeout = 15 * time.Second

// Run listens on the configured address and runs the scheduled jobs
// (jobs.go) until ctx ends. Then, at once, it closes the listener (new
// connections are refused) and cancels the jobs; requests in flight finish
// with their normal answer, for up to DrainTimeout, and so do the jobs'
// current steps. A job still running after that is abandoned with the
// process: like a crash, it leaves no half-written work (every job's unit
// of work is one transaction, and emails are claimed before they are sent,
// see core/jobs). ready, if not nil, receives the bound address once the
// listener is open.
func (d *Daemon) Run(ctx context.Context, ready func(addr string)) error {
	// The place reference is parsed once, before the first search needs it.
	if _, err := places.Default(); err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	ln, err := net.Listen("tcp", d.cfg.Addr)
	if err != nil {
		return fmt.Errorf("daemon: listen: %w", err)
	}
	resting := newRest(func() { d.releaseDatabaseMemory(ctx) })
	srv := &http.Server{
		Handler:           resting.wrap(d.handler),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       requestReadTimeout,
		WriteTimeout:      5 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(d.log.Handler(), slog.LevelWarn),
		// Requests are not cancelled by the stop: they drain.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	ConfigureServer(srv)
	closed := make(chan struct{})
	srv.RegisterOnShutdown(func() { close(closed) }) // once the listener is closed
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	d.log.Info("listening", "addr", ln.Addr().String())
	jobsCtx, stopJobs := context.WithCancel(ctx)
	defer stopJobs()
	stopScheduler, err := d.startJobs(jobsCtx)
	if err != nil {
		_ = srv.Close()
		return err
	}
	d.startRest(jobsCtx, resting)
	if ready != nil {
		ready(ln.Addr().String())
	}

	select {
	case err := <-errc:
		stopJobs()
		stopScheduler()
		return fmt.Errorf("daemon: serve: %w", err)
	case <-ctx.Done():
	}
	d.log.Info("shutting down")
	// The listener closes first, so no new request starts while the jobs
	// stop (a job may take long to: an SMTP exchange only ends at its own
	// timeout); requests in flight and jobs then finish together within
	// the drain window.
	shutdownCtx, cancel := context.WithTimeout(context.Background(), DrainTimeout)
	defer cancel()
	drained := make(chan error, 1)
	go func() { drained <- srv.Shutdown(shutdownCtx) }()
	<-closed
	d.log.Info("listener closed, draining requests in flight", "timeout", DrainTimeout)
	stopJobs()
	stopScheduler()
	if err := <-drained; err != nil {
		return fmt.Errorf("daemon: shutdown: %w", err)
	}
	// The emails the last answers started (a confirmation link, a reset)
	// are sent before the process ends; each has its own timeout.
	d.Wait()
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("daemon: serve: %w", err)
	}
	d.log.Info("stopped")
	return nil
}
