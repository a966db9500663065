package daemon_test

import (
	"bytes"
	"context"
	"testing"

	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon/daemontest"
)

// TestPrintWithHostileNames (issue 13): a producer registered as "Ferme du
// Lac 🥕" and a shop whose name holds an escape sequence and a line break
// get their delivery note and invoice from /print, as anyone else: before,
// fpdf panicked and the request died without an answer. (The API refuses
// control characters since, but a name may come from elsewhere — an
// admin's command, an older database — so the shop's is written directly.)
func TestPrintWithHostileNames(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, shopID := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		if _, err := store.Exec(context.Background(), db, `UPDATE users SET name = ? WHERE id = ?`, "Épicerie\x1b[2J du Lac\r\n湖", shopID); err != nil {
			t.Fatal(err)
		}
		farm, farmID := s.Producer("ferme@lac.fr", "Ferme du Lac 🥕 𝔘")
		w := tradetest.Between(t, db, farmID, shopID)
		order := w.Order(w.Farm, w.Shop, "2026-11-01")
		done := w.Delivery(order, "2026-11-19", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		invoices(t, s, tradetest.At(2026, 12, 1, 6, 0))
		for _, c := range []*daemontest.Client{shop, farm} {
			for _, path := range []string{"/print/delivery/" + order + "/" + done, "/print/invoice/" + order} {
				res := c.Do("GET", path, nil).Expect(t, 200)
				if res.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(res.Body, []byte("%PDF-")) ||
					!bytes.Contains(res.Body, []byte("%%EOF")) {
					t.Fatalf("%s: %v", path, res.Header)
				}
			}
		}
		s.Client().Do("GET", "/healthz", nil).Expect(t, 200)
	})
}
