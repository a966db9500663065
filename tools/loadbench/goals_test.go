package main

import (
	"strings"
	"testing"
)

// TestGoalsSection: each of issue 42's server goals is written beside its
// figure and its limit, and called met or missed by its own threshold.
func TestGoalsSection(t *testing.T) {
	const pair, limit = "proposal round-trip", "limit: constants"
	run := func(p50, p99, rps, limitRPS float64, peakMB, restMB int64) results {
		return results{Platforms: []platformRun{{
			Platform: &platform{Engine: "sqlite", Regions: 1, Shops: 20},
			Measurements: []measurement{
				{Name: pair, P50: p50, P99: p99, RPS: rps},
				{Name: limit, LimitOf: pair, RPS: limitRPS},
			},
			PeakRSS: peakMB * 1024, IdleRSS: restMB * 1024, RestRSS: restMB * 1024,
		}}}
	}
	invoices := func(x float64) []goBench {
		return []goBench{{Name: "InvoiceRun/sqlite", Metrics: map[string]float64{"cpu-x-issue": x, "cpu-ms/order": 3 * x, "issue-cpu-ms/order": 3}}}
	}
	standing := func(section, goal string) string {
		for line := range strings.SplitSeq(section, "\n") {
			if strings.Contains(line, goal) {
				return line[strings.LastIndex(strings.TrimSuffix(line, " |"), "| ")+2 : len(line)-2]
			}
		}
		t.Fatalf("no row for %q in:\n%s", goal, section)
		return ""
	}
	for _, c := range []struct {
		name                            string
		section                         string
		tail, rate, peak, rest, invoice string
	}{
		{"all met", goalsSection(run(10, 50, 100, 1000, 400, 150), invoices(3)), "met", "met", "met", "met", "met"},
		{"all missed", goalsSection(run(10, 51, 99, 1000, 401, 151), invoices(3.01)), "**missed**", "**missed**", "**missed**", "**missed**", "**missed**"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for goal, want := range map[string]string{"p99 ≤ 5×": c.tail, "≥ 1/10": c.rate, "peak memory": c.peak, "at rest": c.rest, "invoice run": c.invoice} {
				if got := standing(c.section, goal); got != want {
					t.Errorf("%s: %q, want %q", goal, got, want)
				}
			}
		})
	}
}
