package daemon_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"primeur/core/jobs"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

// scrape reads /metrics from a loopback client and parses it.
func scrape(t *testing.T, s *daemontest.Server) map[string]*dto.MetricFamily {
	t.Helper()
	res := s.Client().Do("GET", "/metrics", nil).Expect(t, http.StatusOK)
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(bytes.NewReader(res.Body))
	if err != nil {
		t.Fatalf("parse /metrics: %v\n%s", err, res.Body)
	}
	return families
}

// sample finds the sample of a family with exactly these labels.
func sample(families map[string]*dto.MetricFamily, name string, labels map[string]string) *dto.Metric {
	f := families[name]
	if f == nil {
		return nil
	}
	for _, m := range f.Metric {
		if len(m.Label) != len(labels) {
			continue
		}
		ok := true
		for _, l := range m.Label {
			if labels[l.GetName()] != l.GetValue() {
				ok = false
			}
		}
		if ok {
			return m
		}
	}
	return nil
}

func TestMetricsCountRequestsJobsEmailsAndPanics(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		ctx := context.Background()
		c := s.Client()
		c.Do("GET", "/healthz", nil).Expect(t, http.StatusOK)
		c.Do("GET", "/healthz", nil).Expect(t, http.StatusOK)
		c.Do("GET", "/api/user", nil).Expect(t, http.StatusUnauthorized)
		c.Do("GET", "/print/invoice/secret-order-42", nil).Expect(t, http.StatusUnauthorized)
		c.Do("GET", "/api/nowhere-7f3a", nil).Expect(t, http.StatusNotFound)
		c.Do("GET", "/a//b", nil).Expect(t, http.StatusBadRequest)

		claims, ok := jobs.Find("claims")
		if !ok {
			t.Fatal("no claims job")
		}
		s.Daemon.RunJob(ctx, claims)
		s.Daemon.RunJob(ctx, jobs.Job{Name: "invoices", Run: func(context.Context, jobs.Env, time.Time) (jobs.Report, error) {
			return jobs.Report{}, errors.New("base indisponible")
		}})
		s.Daemon.RunJob(ctx, jobs.Job{Name: "deliveries", Run: func(context.Context, jobs.Env, time.Time) (jobs.Report, error) {
			panic("boum")
		}})
		// The hooks core/jobs calls for each email.
		s.Daemon.Observe().EmailSent("note")
		s.Daemon.Observe().EmailSent("note")
		s.Daemon.Observe().EmailFailed("invoice")
		s.Daemon.Observe().EmailDropped("digest")

		m := scrape(t, s)
		counters := []struct {
			name   string
			labels map[string]string
			want   float64
		}{
			{"primeur_http_requests_total", map[string]string{"route": "GET /healthz", "code": "200"}, 2},
			{"primeur_http_requests_total", map[string]string{"route": "GET /api/user", "code": "401"}, 1},
			{"primeur_http_requests_total", map[string]string{"route": "GET /print/invoice/{orderId}", "code": "401"}, 1},
			{"primeur_http_requests_total", map[string]string{"route": "/api/", "code": "404"}, 1},
			{"primeur_http_requests_total", map[string]string{"route": "/", "code": "400"}, 1},
			{"primeur_job_runs_total", map[string]string{"job": "claims"}, 1},
			{"primeur_job_failures_total", map[string]string{"job": "claims"}, 0},
			{"primeur_job_runs_total", map[string]string{"job": "invoices"}, 1},
			{"primeur_job_failures_total", map[string]string{"job": "invoices"}, 1},
			{"primeur_job_runs_total", map[string]string{"job": "deliveries"}, 1},
			{"primeur_job_failures_total", map[string]string{"job": "deliveries"}, 1},
			{"primeur_panics_recovered_total", map[string]string{"where": "job deliveries"}, 1},
			{"primeur_emails_sent_total", map[string]string{"kind": "note"}, 2},
			{"primeur_emails_failed_total", map[string]string{"kind": "invoice"}, 1},
			{"primeur_emails_dropped_total", map[string]string{"kind": "digest"}, 1},
		}
		for _, c := range counters {
			got := sample(m, c.name, c.labels)
			if got == nil || got.GetCounter().GetValue() != c.want {
				t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
			}
		}
		if h := sample(m, "primeur_http_request_duration_seconds", map[string]string{"route": "GET /healthz"}); h == nil || h.GetHistogram().GetSampleCount() != 2 {
			t.Errorf("latency of GET /healthz: %v", h)
		}
		// No label carries a raw path.
		for name, f := range m {
			for _, metric := range f.Metric {
				for _, l := range metric.Label {
					if strings.Contains(l.GetValue(), "secret-order-42") || strings.Contains(l.GetValue(), "nowhere-7f3a") || strings.Contains(l.GetValue(), "a//b") {
						t.Errorf("%s has a raw path in its labels: %v", name, metric.Label)
					}
				}
			}
		}
		for _, name := range []string{"go_goroutines", "process_resident_memory_bytes", "go_sql_max_open_connections"} {
			if m[name] == nil {
				t.Errorf("no %s", name)
			}
		}
	})
}

func TestMetricsAreReadOnlyFromThisMachineOrWithTheToken(t *testing.T) {
	t.Parallel()
	const token = "Zq4-_fT8pL0m.Kx9wR2s"
	db := storetest.SQLite(t)
	open := daemontest.New(t, db)
	guarded := daemontest.New(t, db, func(o *daemon.Options) { o.Config.Metrics.Token = token })
	tests := []struct {
		name   string
		server *daemontest.Server
		peer   string
		header map[string]string
		want   int
	}{
		{"loopback", open, "127.0.0.1:40000", nil, http.StatusOK},
		{"loopback IPv6", open, "[::1]:40000", nil, http.StatusOK},
		{"other machine", open, "203.0.113.7:40000", nil, http.StatusForbidden},
		{"private network", open, "10.1.2.3:40000", nil, http.StatusForbidden},
		{"forwarded by a proxy on this machine", open, "127.0.0.1:40000", map[string]string{"X-Forwarded-For": "203.0.113.7"}, http.StatusForbidden},
		{"Forwarded header", open, "127.0.0.1:40000", map[string]string{"Forwarded": "for=203.0.113.7"}, http.StatusForbidden},
		{"a token sent where none is configured", open, "203.0.113.7:40000", map[string]string{"Authorization": "Bearer "}, http.StatusForbidden},
		{"other machine without the token", guarded, "203.0.113.7:40000", nil, http.StatusUnauthorized},
		{"other machine with a wrong token", guarded, "203.0.113.7:40000", map[string]string{"Authorization": "Bearer " + token + "x"}, http.StatusUnauthorized},
		{"other machine with the token as Basic", guarded, "203.0.113.7:40000", map[string]string{"Authorization": "Basic " + token}, http.StatusUnauthorized},
		{"other machine with the token", guarded, "203.0.113.7:40000", map[string]string{"Authorization": "Bearer " + token}, http.StatusOK},
		{"proxied with the token", guarded, "127.0.0.1:40000", map[string]string{"X-Forwarded-For": "203.0.113.7", "Authorization": "Bearer " + token}, http.StatusOK},
		{"loopback without the token", guarded, "127.0.0.1:40000", nil, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/metrics", nil)
			req.RemoteAddr = tt.peer
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			tt.server.Daemon.Handler().ServeHTTP(rec, req)
			body := rec.Body.String()
			if rec.Code != tt.want {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.want, body)
			}
			if tt.want != http.StatusOK {
				if strings.Contains(body, "primeur_") || strings.Contains(body, "go_goroutines") {
					t.Fatalf("a refusal shows metrics: %s", body)
				}
				if (tt.want == http.StatusUnauthorized) != (rec.Header().Get("WWW-Authenticate") != "") {
					t.Fatalf("WWW-Authenticate %q with status %d", rec.Header().Get("WWW-Authenticate"), rec.Code)
				}
			} else if !strings.Contains(body, "primeur_job_runs_total{job=\"invoices\"} 0") {
				t.Fatalf("no metrics: %s", body)
			}
		})
	}
}

func TestHealthzQueriesTheDatabase(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		c := s.Client()
		res := c.Do("GET", "/healthz", nil).Expect(t, http.StatusOK)
		if string(res.Body) != `{"status":"ok","reasons":[]}` {
			t.Fatalf("body %s", res.Body)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		res = c.Do("GET", "/healthz", nil).Expect(t, http.StatusServiceUnavailable)
		if string(res.Body) != `{"status":"unavailable","reasons":[{"kind":"database","message":"`+daemon.MsgHealthDatabase+`"}]}` {
			t.Fatalf("body %s", res.Body)
		}
		if res.Header.Get("Retry-After") == "" {
			t.Fatal("no Retry-After")
		}
	})
	// A database that answers but holds no Primeur schema is not healthy:
	// the check is a query on the schema's table, not a ping.
	storetest.EachEmpty(t, func(t *testing.T, db *store.DB) {
		daemontest.New(t, db).Client().Do("GET", "/healthz", nil).Expect(t, http.StatusServiceUnavailable)
	})
}
