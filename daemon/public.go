package daemon

import (
	"bytes"
	"fmt"
	"net/http"

	"primeur/core/catalog"
)

// productsCSV serves /public/other/products.csv: every product type in use
// (not retired) with its unit, the list shops write their import files
// from.
func (d *Daemon) productsCSV(w http.ResponseWriter, r *http.Request) {
	ps, err := catalog.All(r.Context(), d.db)
	if err != nil {
		d.writeError(w, r, fmt.Errorf("product list: %w", err))
		return
	}
	var buf bytes.Buffer
	if err := catalog.CSV(&buf, catalog.InUse(ps)); err != nil {
		d.writeError(w, r, fmt.Errorf("product list: %w", err))
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="products.csv"`)
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(buf.Bytes())
}
