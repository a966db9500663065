package httpx

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// UnmatchedRoute labels a request no route of the mux matched.
const UnmatchedRoute = "unmatched"

// RequestMetrics count and time the requests answered, by route: the
// pattern the mux matched (such as "GET /api/needs/{id}"), never the raw
// path, so that every label takes its values from a bounded set. The
// caller registers them in its registry.
type RequestMetrics struct {
	Requests *prometheus.CounterVec   // route, code
	Latency  *prometheus.HistogramVec // route
}

// NewRequestMetrics makes the request metrics of namespace:
// http_requests_total and http_request_duration_seconds.
func NewRequestMetrics(namespace string) RequestMetrics {
	return RequestMetrics{
		Requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "http_requests_total",
			Help: "HTTP requests answered, by route (the mux pattern) and status code.",
		}, []string{"route", "code"}),
		Latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Name: "http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route (the mux pattern).",
			Buckets: prometheus.DefBuckets,
		}, []string{"route"}),
	}
}

// Instrument is the middleware counting and timing every request by the
// route mux gives it (UnmatchedRoute when none), whatever the handlers in
// between do; wrapping the whole chain, it counts the requests refused
// before routing too. routed, when set, is told the route before next runs
// (the daemon's access log names it).
func (m RequestMetrics) Instrument(mux *http.ServeMux, next http.Handler, routed func(ctx context.Context, route string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		route := UnmatchedRoute
		if _, pattern := mux.Handler(r); pattern != "" {
			route = pattern
		}
		if routed != nil {
			routed(r.Context(), route)
		}
		rec := NewRecorder(w)
		next.ServeHTTP(rec, r)
		m.Requests.WithLabelValues(route, strconv.Itoa(rec.Status)).Inc()
		m.Latency.WithLabelValues(route).Observe(time.Since(start).Seconds())
	})
}
