package demo

import (
	"testing"

	"primeur/core/store"
)

// seededTrade: the demo world holds every state of a negotiation, a
// pending correction, deliveries done in the past and planned ahead, an
// order for every account, next month's negotiations and the trade events.
func seededTrade(t *testing.T, db *store.DB) {
	count := func(q string, args ...any) int {
		t.Helper()
		var n int
		if err := db.Get(&n, db.Rebind(q), args...); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// Every state of a negotiation is there.
	for _, st := range []struct{ status, origin string }{
		{"accepted", "producer"}, {"proposed", "producer"}, {"proposed", "distributor"}, {"rejected", "producer"}, {"rejected", "distributor"},
	} {
		if count(`SELECT COUNT(*) FROM proposals WHERE status = ? AND origin = ?`, st.status, st.origin) == 0 {
			t.Errorf("no %s proposal from a %s", st.status, st.origin)
		}
	}
	// A pending correction: a commitment and a proposal by one producer on one need.
	if count(`SELECT COUNT(*) FROM proposals a JOIN proposals o ON o.need_id = a.need_id AND o.producer_id = a.producer_id
			WHERE a.status = 'accepted' AND o.status = 'proposed'`) == 0 {
		t.Error("no pending correction")
	}
	// Done deliveries in the past (sent quantities set), planned ones ahead.
	if count(`SELECT COUNT(*) FROM deliveries WHERE status = 'done' AND date >= '2026-11-20'`) != 0 ||
		count(`SELECT COUNT(*) FROM deliveries WHERE status = 'planned' AND date < '2026-11-20'`) != 0 {
		t.Error("deliveries done in the future or planned in the past")
	}
	if count(`SELECT COUNT(*) FROM deliveries d JOIN delivery_lines l ON l.delivery_id = d.id
			WHERE d.status = 'done' AND l.quantity_sent IS NOT NULL`) < 100 ||
		count(`SELECT COUNT(*) FROM delivery_lines l JOIN deliveries d ON d.id = l.delivery_id
			WHERE d.status = 'done' AND l.quantity_sent < l.quantity_expected`) == 0 {
		t.Error("too few done deliveries, or none came short")
	}
	if count(`SELECT COUNT(*) FROM deliveries WHERE status = 'planned' AND date > '2026-12-01'`) == 0 {
		t.Error("no planned delivery ahead")
	}
	// Every account has orders; the main shop has next month's negotiations.
	if count(`SELECT COUNT(DISTINCT distributor_id) FROM orders`) != len(shops) || count(`SELECT COUNT(DISTINCT producer_id) FROM orders`) != len(producers) {
		t.Error("some demo account has no order")
	}
	if count(`SELECT COUNT(*) FROM proposals p JOIN needs n ON n.id = p.need_id JOIN users u ON u.id = n.distributor_id
			WHERE u.email = ? AND n.month = '2026-12-01' AND p.status <> 'accepted'`, shops[0].email) < 4 {
		t.Error("the main shop has too few open negotiations next month")
	}
	// Done + planned equals each commitment (where nothing came short).
	var off []string
	if err := db.Select(&off, `SELECT n.id FROM proposals p JOIN needs n ON n.id = p.need_id
			WHERE p.status = 'accepted' AND p.quantity <> (
				SELECT COALESCE(SUM(COALESCE(l.quantity_sent, l.quantity_expected)), 0) FROM delivery_lines l
				JOIN deliveries d ON d.id = l.delivery_id WHERE l.need_id = n.id AND d.producer_id = p.producer_id AND d.status <> 'cancelled')
			AND n.id NOT IN (SELECT l.need_id FROM delivery_lines l JOIN deliveries d ON d.id = l.delivery_id
				WHERE d.status = 'done' AND l.quantity_sent <> l.quantity_expected)`); err != nil {
		t.Fatal(err)
	}
	if len(off) != 0 {
		t.Errorf("%d commitments differ from their deliveries", len(off))
	}
	// The activity feed has trade events.
	if count(`SELECT COUNT(*) FROM events WHERE type IN ('proposal:request', 'proposal:review', 'fix:request', 'fix:review')`) < 100 {
		t.Error("too few trade events")
	}
}
