package shopmap_test

import (
	"math"
	"strconv"
	"testing"

	"primeur/core/accounts"
	"primeur/core/shopmap"
)

// FuzzBoxCheck: whatever the numbers, Check answers without failing, and
// an area it accepts is one the map can show — finite, in range, ordered,
// its grid of a bounded number of cells.
func FuzzBoxCheck(f *testing.F) {
	f.Add(45.68, 5.8, 46.41, 7.05, 1.0)
	f.Add(41.3, -5.2, 51.1, 9.6, 0.5)
	f.Add(math.NaN(), 0.0, math.Inf(1), -180.0, 4.0)
	f.Fuzz(func(t *testing.T, south, west, north, east, zoom float64) {
		b := shopmap.Box{South: south, West: west, North: north, East: east, Zoom: zoom}
		if b.Check() != nil {
			return
		}
		for _, x := range []float64{south, west, north, east, zoom} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("accepted %+v", b)
			}
		}
		if south >= north || west >= east || math.Abs(south) > 90 || math.Abs(north) > 90 ||
			math.Abs(west) > 180 || math.Abs(east) > 180 || zoom < shopmap.MinZoom || zoom > shopmap.MaxZoom {
			t.Fatalf("accepted %+v", b)
		}
		lat, lon := shopmap.Cell(zoom)
		cells := math.Ceil((north-south)*1e6/float64(lat)+1) * math.Ceil((east-west)*1e6/float64(lon)+1)
		if lat <= 0 || lon <= 0 || cells > 20_000 {
			t.Fatalf("%+v: cells of %d × %d µ°, %.0f of them", b, lat, lon, cells)
		}
	})
}

// FuzzPosition: whatever the profile's texts, an account is placed within
// range and never at 0/0, and a position written back as text reads the
// same.
func FuzzPosition(f *testing.F) {
	f.Add("45.9016", "6.1213")
	f.Add(" -21.1151", "55.5364 ")
	f.Add("0", "0")
	f.Add("4-5", "1e1")
	f.Fuzz(func(t *testing.T, latitude, longitude string) {
		lat, lon := accounts.Position(latitude, longitude)
		if (lat == nil) != (lon == nil) {
			t.Fatalf("%q, %q: half placed", latitude, longitude)
		}
		if lat == nil {
			return
		}
		if *lat < -90_000_000 || *lat > 90_000_000 || *lon < -180_000_000 || *lon > 180_000_000 || (*lat == 0 && *lon == 0) {
			t.Fatalf("%q, %q: placed at %d, %d", latitude, longitude, *lat, *lon)
		}
		text := func(e6 int64) string { return strconv.FormatFloat(float64(e6)/1e6, 'f', 6, 64) }
		la, lo := accounts.Position(text(*lat), text(*lon))
		if la == nil || *la != *lat || *lo != *lon {
			t.Fatalf("%q, %q: %d, %d does not read back", latitude, longitude, *lat, *lon)
		}
	})
}
