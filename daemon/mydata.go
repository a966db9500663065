package daemon

import (
	"archive/zip"
	"errors"
	"fmt"
	"net/http"
	"time"

	"primeur/core"
	"primeur/core/limit"
	"primeur/core/mydata"
	"primeur/daemon/httpx"
)

// newExportGate is the gate of the personal data exports (Daemon.exporting):
// one at a time, each reads a user's whole history and renders its
// documents; another waits up to 10 seconds, then is answered 503.
func newExportGate() *limit.Gate {
	return limit.NewGate("personal data export", 1, 10*time.Second, limit.MsgBusy)
}

// printMyData serves GET /print/mydata: the user's personal data as a zip
// (RGPD art. 15 and 20): its account, needs with proposals, orders with
// deliveries, activity, payments as JSON, and its invoices and credit notes
// as PDF. The zip is written as it is made, so that memory stays bounded
// whatever the history; one export runs at a time.
func (d *Daemon) printMyData(w http.ResponseWriter, r *http.Request) {
	s, err := d.requestSession(r)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	u := s.User
	out := &httpx.Tracker{ResponseWriter: w}
	err = d.exporting.Do(r.Context(), func() error {
		h := w.Header()
		h.Set("Content-Type", "application/zip")
		h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", mydata.FileName(d.today())))
		h.Set("Cache-Control", "private, no-store")
		z := zip.NewWriter(out)
		if err := d.writeMyData(r.Context(), z, s); err != nil {
			if !out.Wrote {
				// Nothing sent yet (the zip is buffered): the answer is
				// the error's, a fault's 503 among them.
				h.Del("Content-Type")
				h.Del("Content-Disposition")
				return fmt.Errorf("personal data export: %w", err)
			}
			// Headers are gone: the truncated zip tells the client.
			d.log.ErrorContext(r.Context(), "personal data export failed", "user", u.ID, "err", err)
			return nil
		}
		return z.Close()
	})
	switch {
	case errors.Is(err, core.ErrBusy):
		w.Header().Set("Retry-After", httpx.RetryAfter(d.exporting.Wait()))
		writeJSONProblem(w, http.StatusServiceUnavailable, limit.MsgBusy)
	case err != nil && !out.Wrote:
		d.writeError(w, r, err)
	}
}
