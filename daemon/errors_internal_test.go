package daemon

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/limit"
	"primeur/daemon/httpx"
)

// TestProblemOf: the one mapping of a handler's error (core's, returned as
// it is, maybe wrapped) to the problem and headers the client reads; the
// daemon's tests check the same through every operation.
func TestProblemOf(t *testing.T) {
	t.Parallel()
	later := &limit.Later{Err: core.Refuse(core.ErrThrottled, "Trop de tentatives."), After: 1500 * time.Millisecond}
	for _, tt := range []struct {
		name     string
		err      error
		status   int
		detail   string
		location string // of the first field error
		retry    string // Retry-After
	}{
		{"invalid", fmt.Errorf("planning: %w", core.Invalid("quantity", "Quantité invalide.")), 422, "Quantité invalide.", "body.quantity", ""},
		{"invalid in the query", inQuery(core.Invalid("start", "Date invalide.")), 422, "Date invalide.", "query.start", ""},
		{"refusal", fmt.Errorf("trade: %w", core.Refuse(core.ErrConflict, "Déjà acceptée.")), 409, "Déjà acceptée.", "", ""},
		{"role", core.Refuse(core.ErrForbidden, MsgShopsOnly), 403, MsgShopsOnly, "", ""},
		{"not found", fmt.Errorf("x: %w", core.ErrNotFound), 404, httpx.StatusDetails[404], "", ""},
		{"unauthenticated", core.ErrUnauthenticated, 401, MsgNoToken, "", ""},
		{"throttled, later", fmt.Errorf("accounts: %w", later), 429, "Trop de tentatives.", "", "2"},
		{"busy", core.Refuse(core.ErrBusy, limit.MsgBusy), 503, limit.MsgBusy, "", ""},
		{"cut short", context.Canceled, 503, "Requête interrompue.", "", ""},
		{"a problem already", httpx.Problem(http.StatusTeapot, "Théière."), 418, "Théière.", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, h := problemOf(context.Background(), slog.New(slog.DiscardHandler), tt.err)
			if p.Status != tt.status || p.Detail != tt.detail || h.Get("Retry-After") != tt.retry {
				t.Fatalf("%d %q %v, want %d %q Retry-After %q", p.Status, p.Detail, h, tt.status, tt.detail, tt.retry)
			}
			if tt.location != "" && (len(p.Errors) != 1 || p.Errors[0].Location != tt.location || p.Errors[0].Message != tt.detail) {
				t.Fatalf("errors %+v, want one at %s", p.Errors, tt.location)
			}
		})
	}
	t.Run("unexpected", func(t *testing.T) {
		var logs bytes.Buffer
		p, h := problemOf(context.Background(), slog.New(slog.NewTextHandler(&logs, nil)),
			fmt.Errorf("store: %w", errors.New("password authentication failed for user primeur")))
		if p.Status != 500 || strings.Contains(p.Detail, "password") || len(h) != 0 ||
			!strings.Contains(logs.String(), "request failed") || !strings.Contains(logs.String(), "password authentication failed") {
			t.Fatalf("%+v %v; log %s", p, h, logs.String())
		}
	})
}
