// Package shopmap answers the map of shops by viewport (PRODUCT §2 "Map",
// issue 20): the shops of the visible area when they are few, else their
// counts per cell of a grid whose size follows the zoom. Both are one
// indexed query on the position columns of users (lat_e6, lon_e6,
// migration 00026) through the index users_map, searched band by band of
// latitude (BandE6, migration 00029), one SQL text for SQLite and
// PostgreSQL, so that a map costs what it shows, not what the platform
// holds.
package shopmap

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/store"
)

// The map's limits.
const (
	// MaxShops is the most shops an answer lists; a box holding more is
	// answered with clusters.
	MaxShops = 300
	// MinZoom and MaxZoom bound the zoom (PRODUCT §4 "Map zoom").
	MinZoom = 0.5
	MaxZoom = 4.0
	// Scale is the UI's projection: pixels per radian at zoom 1 (PRODUCT
	// §9 "Map", azimuthal equal-area at scale 20 000 × zoom).
	Scale = 20000.0
	// CellPixels is a cluster cell's height on the screen; its width is
	// CellPixels too at 46° N, the middle of metropolitan France, where a
	// degree of longitude is LonStretch times shorter than one of
	// latitude. The grid is fixed on the globe (cells do not move when the
	// map pans), so its cells are LonStretch times wider in degrees.
	CellPixels = 64.0
	LonStretch = 1.44
	// MaxPixels bounds the box: what a screen of MaxPixels × MaxPixels
	// shows at the zoom asked (a phone shows 390 × 440, a large screen
	// 2,560 × 440). Beyond, the box is refused: its clusters would be
	// many and its shops not drawable.
	MaxPixels = 8192.0
)

// The French messages of a refused box (422).
const (
	MsgNotANumber = "Les limites de la carte et le zoom doivent être des nombres."
	MsgLatitude   = "La latitude doit être comprise entre -90 et 90."
	MsgLongitude  = "La longitude doit être comprise entre -180 et 180."
	MsgZoom       = "Le zoom doit être compris entre 0,5 et 4."
	MsgSouthNorth = "Le sud de la zone doit être au sud de son nord."
	MsgWestEast   = "L'ouest de la zone doit être à l'ouest de son est."
	MsgTooLarge   = "La zone demandée est trop grande pour ce zoom : elle ne tiendrait pas sur un écran."
)

// Box is the visible area of the map, in degrees (WGS 84), and its zoom.
type Box struct {
	South, West, North, East float64
	Zoom                     float64
}

// Check refuses a box that is not one a map can show: a bound or a zoom
// that is not a finite number, a latitude beyond ±90, a longitude beyond
// ±180, a zoom outside 0.5–4, a south not south of the north or a west not
// west of the east (the map never crosses the antimeridian), or a box
// larger than MaxPixels on each side at its zoom. Messages are French,
// each on its field.
func (b Box) Check() error {
	var v core.ValidationError
	finite := true
	for _, f := range []struct {
		name  string
		value float64
		limit float64
		msg   string
	}{
		{"south", b.South, 90, MsgLatitude}, {"west", b.West, 180, MsgLongitude},
		{"north", b.North, 90, MsgLatitude}, {"east", b.East, 180, MsgLongitude},
	} {
		switch {
		case math.IsNaN(f.value) || math.IsInf(f.value, 0):
			v.Add(f.name, MsgNotANumber)
			finite = false
		case math.Abs(f.value) > f.limit:
			v.Add(f.name, f.msg)
			finite = false
		}
	}
	switch {
	case math.IsNaN(b.Zoom) || math.IsInf(b.Zoom, 0):
		v.Add("zoom", MsgNotANumber)
		finite = false
	case b.Zoom < MinZoom || b.Zoom > MaxZoom:
		v.Add("zoom", MsgZoom)
		finite = false
	}
	if !finite {
		return v.Err()
	}
	if b.South >= b.North {
		v.Add("south", MsgSouthNorth)
	}
	if b.West >= b.East {
		v.Add("west", MsgWestEast)
	}
	if err := v.Err(); err != nil {
		return err
	}
	perDegree := math.Pi / 180 * Scale * b.Zoom
	if (b.North-b.South)*perDegree > MaxPixels || (b.East-b.West)*perDegree/LonStretch > MaxPixels {
		return core.Invalid("zoom", MsgTooLarge)
	}
	return nil
}

// Cell is the grid's cell at zoom: its height and width in millionths of
// a degree.
func Cell(zoom float64) (lat, lon int64) {
	lat = int64(math.Round(CellPixels / (Scale * zoom) * 180 / math.Pi * 1e6))
	return lat, int64(math.Round(float64(lat) * LonStretch))
}

// Shop is a shop of the box as its viewer sees it: the email as
// accounts.ShopEmail gives it, the position in millionths of a degree.
type Shop struct {
	ID    string `db:"id"`
	Name  string `db:"name"`
	Email string `db:"email"`
	LatE6 int64  `db:"lat_e6"`
	LonE6 int64  `db:"lon_e6"`
}

// Cluster is the shops of one grid cell: how many, the mean of their
// positions (where the map draws it) and the box that holds them all (what
// the map zooms to), in millionths of a degree.
type Cluster struct {
	Count                    int
	LatE6, LonE6             int64
	South, West, North, East int64
}

// View is the answer for a box: Total shops in it, listed in Shops when
// they are MaxShops or fewer (by name), else counted per cell in Clusters
// (their counts add up to Total), the other list empty.
type View struct {
	Total    int
	Shops    []Shop
	Clusters []Cluster
}

// BandE6 is the height of the latitude bands of the index users_map, in
// millionths of a degree (a quarter of a degree, 28 km): the index is
// (type, closed_at, lat_e6 / BandE6, lon_e6, lat_e6), migration 00029.
// A box is searched band by band on its longitudes, so that it reads the
// shops of its bands' part of the box, not every shop of its latitudes
// across the country (issue 20: a département of the national platform
// walked the 1,500 shops between Lyon, Clermont-Ferrand and Geneva to
// find its 19). The SQL writes the division as the index does, a literal.
const BandE6 = 250_000

// maxBands is the most bands a box's query lists; a taller box (at the
// smallest zooms) ranges over its bands and filters the longitudes on the
// index.
const maxBands = 16

// inBox is the condition of the shops of the box — not closed, placed,
// within the bounds (inclusive) — and its arguments. Its text depends only
// on whether the box spans more than maxBands bands (the list is padded
// with its last band), so that the statement caches keep two texts.
func inBox(south, north, west, east int64) (string, []any) {
	args := []any{accounts.Distributor}
	from, to := south/BandE6, north/BandE6 // truncated toward zero, as SQL's division
	var bands string
	if to-from < maxBands {
		bands = `u.lat_e6 / ` + band + ` IN (?` + strings.Repeat(`, ?`, maxBands-1) + `)`
		for i := range int64(maxBands) {
			args = append(args, min(from+i, to))
		}
	} else {
		bands = `u.lat_e6 / ` + band + ` BETWEEN ? AND ?`
		args = append(args, from, to)
	}
	return `FROM users u WHERE u.type = ? AND u.closed_at IS NULL AND ` + bands + `
	AND u.lon_e6 BETWEEN ? AND ? AND u.lat_e6 BETWEEN ? AND ?`, append(args, west, east, south, north)
}

// band is BandE6 as the SQL writes it.
var band = strconv.Itoa(BandE6)

// Find answers box b for viewer (whose id decides the emails). It first
// counts the shops of the box up to MaxShops + 1, on the index alone (band
// by band: BandE6); when
// they are MaxShops or fewer it reads them, else it counts them per cell,
// on the index alone again (docs/BENCHMARKS.md "The map by viewport").
// Longitudes and latitudes are offset to be positive before the integer
// division that gives a shop's cell, so that cells are the same on both
// engines and on both sides of the Greenwich meridian.
func Find(ctx context.Context, q store.Q, viewerID string, b Box) (View, error) {
	return Filtered(ctx, q, viewerID, b, Filter{}, time.Time{})
}

// Filtered is Find of the shops f keeps (filter.go), now deciding the
// months of the needs the family filter counts.
func Filtered(ctx context.Context, q store.Q, viewerID string, b Box, f Filter, now time.Time) (View, error) {
	if err := b.Check(); err != nil {
		return View{}, err
	}
	if err := f.check(); err != nil {
		return View{}, err
	}
	south, north := int64(math.Floor(b.South*1e6)), int64(math.Ceil(b.North*1e6))
	west, east := int64(math.Floor(b.West*1e6)), int64(math.Ceil(b.East*1e6))
	nw, err := narrow(ctx, q, viewerID, f, south, north, west, east, now)
	if err != nil {
		return View{}, err
	}
	v := View{Shops: []Shop{}, Clusters: []Cluster{}}
	if nw.empty {
		return v, nil
	}
	where, bounds := inBox(nw.south, nw.north, nw.west, nw.east)
	where += nw.cond
	bounds = append(bounds, nw.args...)
	var n int
	if err := store.Get(ctx, q, &n, `SELECT COUNT(*) FROM (SELECT 1 `+where+` LIMIT ?) c`,
		append(bounds, MaxShops+1)...); err != nil {
		return View{}, fmt.Errorf("shopmap: count: %w", err)
	}
	if n <= MaxShops {
		args := append(accounts.ShopEmailArgs(viewerID), bounds...)
		if err := store.Select(ctx, q, &v.Shops, `SELECT u.id, u.name, u.lat_e6, u.lon_e6, `+accounts.ShopEmail+` AS email
			`+where, args...); err != nil {
			return View{}, fmt.Errorf("shopmap: shops: %w", err)
		}
		sort.Slice(v.Shops, func(i, j int) bool {
			a, c := v.Shops[i], v.Shops[j]
			return a.Name < c.Name || (a.Name == c.Name && a.ID < c.ID)
		})
		v.Total = len(v.Shops)
		return v, nil
	}
	cellLat, cellLon := Cell(b.Zoom)
	var rows []struct {
		Count  int   `db:"n"`
		SumLat int64 `db:"sum_lat"`
		SumLon int64 `db:"sum_lon"`
		MinLat int64 `db:"min_lat"`
		MaxLat int64 `db:"max_lat"`
		MinLon int64 `db:"min_lon"`
		MaxLon int64 `db:"max_lon"`
		Row    int64 `db:"gy"`
		Column int64 `db:"gx"`
	}
	args := append([]any{cellLat, cellLon}, bounds...)
	if err := store.Select(ctx, q, &rows, `SELECT c.gy, c.gx, COUNT(*) AS n, SUM(c.lat) AS sum_lat, SUM(c.lon) AS sum_lon,
		MIN(c.lat) AS min_lat, MAX(c.lat) AS max_lat, MIN(c.lon) AS min_lon, MAX(c.lon) AS max_lon
		FROM (SELECT (u.lat_e6 + 90000000) / ? AS gy, (u.lon_e6 + 180000000) / ? AS gx, u.lat_e6 AS lat, u.lon_e6 AS lon
			`+where+`) c
		GROUP BY c.gy, c.gx ORDER BY c.gy, c.gx`, args...); err != nil {
		return View{}, fmt.Errorf("shopmap: clusters: %w", err)
	}
	for _, r := range rows {
		v.Total += r.Count
		v.Clusters = append(v.Clusters, Cluster{
			Count: r.Count, LatE6: mean(r.SumLat, r.Count), LonE6: mean(r.SumLon, r.Count),
			South: r.MinLat, North: r.MaxLat, West: r.MinLon, East: r.MaxLon,
		})
	}
	return v, nil
}

// mean is sum / n rounded to the nearest (half away from zero).
func mean(sum int64, n int) int64 {
	return int64(math.Round(float64(sum) / float64(n)))
}
