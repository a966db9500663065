package demo

import (
	"context"
	"testing"
	"time"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/supply"
)

// demoSupply is a demo shop's supply screen at now, as the screen opens it
// on a wide screen: from the Monday of the current week, 8 days.
func demoSupply(t *testing.T, db *store.DB, email string, now time.Time) supply.Projection {
	t.Helper()
	ctx := context.Background()
	u, err := accounts.ByEmail(ctx, db, email)
	if err != nil {
		t.Fatal(err)
	}
	today := calendar.DateOf(now)
	w, err := supply.ParseWindow("", "8", today)
	if err != nil {
		t.Fatal(err)
	}
	p, err := supply.Load(ctx, db, u.ID, w, today)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// moves says whether a product's stock chart rises on a day with a
// delivery and falls on a day without one.
func moves(r supply.ProductProjection) (up, down bool) {
	for i := 1; i < len(r.Days); i++ {
		prev, d := r.Days[i-1], r.Days[i]
		up = up || prev.Delivered > 0 && d.Current > prev.Current
		down = down || prev.Delivered == 0 && d.Current < prev.Current
	}
	return up, down
}

// atRiskShare checks what every demo shop's supply screen shows at now: a
// few products at risk, a clear majority (two thirds at least) fine, and
// returns the products at risk by shop.
func atRiskShare(t *testing.T, db *store.DB, now time.Time) map[string]map[string]supply.ProductProjection {
	t.Helper()
	out := map[string]map[string]supply.ProductProjection{}
	for _, s := range shops {
		p := demoSupply(t, db, s.email, now)
		risky := map[string]supply.ProductProjection{}
		for _, r := range p.Products {
			if r.AtRisk {
				risky[r.Product] = r
			}
		}
		fine := len(p.Products) - len(risky)
		t.Logf("%s, %s: %d products, %d at risk, %d fine", now.Format("2006-01-02 15:04"), s.name, len(p.Products), len(risky), fine)
		if len(p.Products) < 50 || len(risky) == 0 || 3*fine < 2*len(p.Products) {
			t.Errorf("%s on %s: %d of %d products at risk, want a few", s.name, now.Format("2006-01-02"), len(risky), len(p.Products))
		}
		out[s.name] = risky
	}
	return out
}

// seededSupply: the demo's supply screen is not "everything at
// risk" (issue 37): most products are covered and their stock charts move
// (up on delivery days, down with the day's sales), and the few at risk are
// so for a reason the screen shows — no producer for clementines and figs,
// half of the lamb's lettuce committed, the lettuces cut by frost last week.
func seededSupply(t *testing.T, db *store.DB, now time.Time) {
	risky := atRiskShare(t, db, now)
	for _, s := range shops {
		for _, c := range []string{"clementine", "figue"} {
			if r, ok := risky[s.name][c]; !ok || r.DeliveredLast7Days != 0 {
				t.Errorf("%s: %s, which no demo producer grows, is not at risk with nothing delivered: %+v", s.name, c, r)
			}
		}
		for _, c := range []string{shortCrop, partialCrop} {
			if r, ok := risky[s.name][c]; !ok || r.DeliveredLast7Days == 0 {
				t.Errorf("%s: %s is not at risk with something delivered: %+v", s.name, c, r)
			}
		}
	}
	// The main shop's charts move: most rows rise on a delivery and
	// fall with the day's sales.
	p := demoSupply(t, db, shops[0].email, now)
	moving := 0
	for _, r := range p.Products {
		if up, down := moves(r); up && down {
			moving++
		}
	}
	if 2*moving < len(p.Products) {
		t.Errorf("%d of %d stock charts move", moving, len(p.Products))
	}
}

// TestDemoSupplyWhateverTheDay: `primeur serve --demo` seeds at the real
// now; the story holds across a month's turn (deliveries of the month
// agreed before it), on a Monday morning before the lock, on a Sunday, and
// at the start of summer when the needs rise.
func TestDemoSupplyWhateverTheDay(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	for _, now := range []time.Time{
		time.Date(2026, 11, 29, 2, 0, 0, 0, paris),
		time.Date(2026, 12, 1, 7, 0, 0, 0, paris),
		time.Date(2026, 12, 3, 15, 0, 0, 0, paris),
		time.Date(2027, 2, 15, 9, 0, 0, 0, paris),
		time.Date(2027, 6, 1, 10, 0, 0, 0, paris),
	} {
		db := storetest.SQLite(t)
		if _, err := Seed(context.Background(), db, now); err != nil {
			t.Fatalf("%s: %v", now, err)
		}
		atRiskShare(t, db, now)
	}
}
