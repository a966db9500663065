package shopmap

import (
	"context"
	"strings"
	"testing"

	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestBoxIsSearchedBandByBand: SQLite's plan of a box searches the index
// users_map on its bands, then on the longitudes (a box of 16 bands or
// fewer), or ranges over its bands (taller), and never reads the table to
// count — whichever the box. Without the bands (migration 00029), the
// count read every shop of the box's latitudes.
func TestBoxIsSearchedBandByBand(t *testing.T) {
	db := storetest.SQLite(t)
	for _, c := range []struct {
		name                     string
		south, north, west, east int64
		want                     string
	}{
		{"a département", 45_680_000, 46_410_000, 5_800_000, 7_050_000,
			"USING COVERING INDEX users_map (type=? AND closed_at=? AND <expr>=? AND lon_e6>? AND lon_e6<?)"},
		{"France at the smallest zoom", 41_300_000, 51_100_000, -5_200_000, 9_600_000,
			"USING COVERING INDEX users_map (type=? AND closed_at=? AND <expr>>? AND <expr><?)"},
	} {
		where, args := inBox(c.south, c.north, c.west, c.east)
		var plan []struct {
			ID      int    `db:"id"`
			Parent  int    `db:"parent"`
			NotUsed int    `db:"notused"`
			Detail  string `db:"detail"`
		}
		if err := store.Select(context.Background(), db, &plan, `EXPLAIN QUERY PLAN SELECT COUNT(*) FROM (SELECT 1 `+where+` LIMIT 301) c`,
			args...); err != nil {
			t.Fatal(err)
		}
		var details []string
		for _, p := range plan {
			details = append(details, p.Detail)
		}
		if got := strings.Join(details, "; "); !strings.Contains(got, c.want) {
			t.Errorf("%s: plan %q, want %q", c.name, got, c.want)
		}
	}
}
