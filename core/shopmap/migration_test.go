package shopmap_test

import (
	"context"
	"fmt"
	"testing"

	"primeur/core/accounts"
	"primeur/core/schema"
	"primeur/core/shopmap"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestPositionsMigration: migration 26 fills the position columns of the
// accounts that existed before it with the rule accounts.Position applies
// to every later write — the texts of the profile, valid or not, in every
// shape a database may hold — and the map then finds them.
func TestPositionsMigration(t *testing.T) {
	texts := []struct{ lat, lon string }{
		{"45.9016", "6.1213"},     // Annecy
		{"48.3904", "-4.4861"},    // Brest: west of Greenwich
		{"-21.1151", "55.5364"},   // Saint-Denis de La Réunion: south of the equator
		{" 45.88 ", "6.3256"},     // spaces around
		{"45.", "6"},              // a trailing dot, no decimals
		{".5", "-.25"},            // no integer part
		{"-0.000001", "0.000001"}, // the smallest step
		{"45.12345678", "6.5"},    // more decimals than kept
		{"90", "180"},             // the bounds
		{"-90", "-180"},
		{"90.000001", "6"}, // just beyond
		{"45", "180.5"},
		{"0", "0"}, // unset, stored so
		{"0.0", "-0"},
		{"0", "6.1"}, // on the equator: placed
		{"", ""},
		{"45.9", ""},
		{"", "6.12"},
		{"45,9", "6.12"}, // a decimal comma: not the profile's rule
		{"45.9.1", "6"},
		{"4-5", "6"},
		{"--45", "6"},
		{"-", "6"},
		{".", "6"},
		{"-.", "6"},
		{"+45", "6"},
		{"1e1", "6"},
		{"nord", "est"},
		{"NaN", "Infinity"},
		{"45\t", "6"},
	}
	storetest.EachEmpty(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := schema.MigrateTo(ctx, db, 25); err != nil {
			t.Fatal(err)
		}
		for i, p := range texts {
			id := fmt.Sprintf("u%02d", i)
			kind := accounts.Distributor
			if i == 1 {
				kind = accounts.Producer
			}
			if _, err := store.Exec(ctx, db, `INSERT INTO users (id, type, email, email_key, name, password_hash, latitude, longitude, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, '-', ?, ?, 0, 0)`, id, kind, id+"@x.fr", id+"@x.fr", id, p.lat, p.lon); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := schema.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
		placed := 0
		for i, p := range texts {
			var got struct {
				Lat *int64 `db:"lat_e6"`
				Lon *int64 `db:"lon_e6"`
			}
			if err := store.Get(ctx, db, &got, `SELECT lat_e6, lon_e6 FROM users WHERE id = ?`, fmt.Sprintf("u%02d", i)); err != nil {
				t.Fatal(err)
			}
			lat, lon := accounts.Position(p.lat, p.lon)
			if str(got.Lat) != str(lat) || str(got.Lon) != str(lon) {
				t.Errorf("%q, %q: the migration gives %s, %s; accounts.Position %s, %s", p.lat, p.lon, str(got.Lat), str(got.Lon), str(lat), str(lon))
			}
			if lat != nil {
				placed++
			}
		}
		if placed != 11 {
			t.Fatalf("%d accounts placed, want 11", placed)
		}
		// Spot checks of the rule itself.
		for _, c := range []struct {
			lat, lon string
			want     string
		}{
			{"45.9016", "6.1213", "45901600,6121300"},
			{"48.3904", "-4.4861", "48390400,-4486100"},
			{" 45.88 ", "6.3256", "45880000,6325600"},
			{"45.12345678", "6.5", "45123457,6500000"},
			{"0", "0", "nil,nil"},
			{"45,9", "6.12", "nil,nil"},
		} {
			lat, lon := accounts.Position(c.lat, c.lon)
			if got := str(lat) + "," + str(lon); got != c.want {
				t.Errorf("Position(%q, %q) = %s, want %s", c.lat, c.lon, got, c.want)
			}
		}
		// The map finds the migrated shops: Annecy in Haute-Savoie, the
		// producer of Brest never.
		v, err := shopmap.Find(ctx, db, "", hauteSavoie)
		if err != nil || fmt.Sprint(names(v.Shops)) != "[u00 u03]" {
			t.Fatalf("Haute-Savoie after the migration: %+v (%v)", v.Shops, err)
		}
		v, err = shopmap.Find(ctx, db, "", shopmap.Box{South: 47.5, West: -5.5, North: 49, East: -3, Zoom: 1})
		if err != nil || v.Total != 0 {
			t.Fatalf("Finistère after the migration: %+v (%v)", v.Shops, err)
		}
	})
}

func str(p *int64) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}
