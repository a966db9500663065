package shopmap

import (
	"context"
	"fmt"
	"math"
	"time"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/fees"
	"primeur/core/store"
	"primeur/core/supplied"
)

// Filter narrows the map's shops (issue 39, PRODUCT §2 "Map", "Filters"):
// "" and 0 keep every shop.
type Filter struct {
	// Family keeps the shops with a need, of this month or later, of a
	// product type of that family (a family that does not exist keeps
	// none, as the planner's filter).
	Family string
	// MaxKm keeps the shops within that road distance of the viewer's
	// own place (its farm, its shop): fees.RoadKm's, the great-circle
	// distance × 1.3, the one rule of the producers' search (core/supplied)
	// and of the delivery fees. 0 to supplied.MaxSearchKm.
	MaxKm float64
}

// MsgNoPlace refuses a distance asked by a viewer the map cannot place.
const MsgNoPlace = "Indiquez l'adresse ou la position de votre exploitation ou de votre magasin dans votre profil pour filtrer les magasins par distance."

// check refuses a distance out of its bounds, with the producers'
// search's message.
func (f Filter) check() error {
	if math.IsNaN(f.MaxKm) || f.MaxKm < 0 || f.MaxKm > supplied.MaxSearchKm {
		return core.Invalid("km", supplied.MsgSearchKm)
	}
	return nil
}

// dbl is a parameter as a double on both engines (a float parameter
// beside a BIGINT column would be read as a BIGINT by PostgreSQL).
const dbl = `CAST(? AS DOUBLE PRECISION)`

// narrow applies f to the box's bounds in millionths of a degree: the
// distance shrinks them to the circle's bounding box (so that the
// indexed search reads the circle's shops, not the box's) and both add
// their conditions, with their arguments, to the shops' query. empty is
// true when nothing of the box can match.
type narrowed struct {
	south, north, west, east int64
	cond                     string
	args                     []any
	empty                    bool
}

func narrow(ctx context.Context, q store.Q, viewerID string, f Filter, south, north, west, east int64, now time.Time) (narrowed, error) {
	n := narrowed{south: south, north: north, west: west, east: east}
	if f.Family != "" {
		n.cond += ` AND EXISTS (SELECT 1 FROM needs n JOIN products p ON p.id = n.product_id
		WHERE n.distributor_id = u.id AND n.month >= ? AND n.quantity > 0 AND p.family_id = ?)`
		n.args = append(n.args, calendar.MonthOf(now).String(), f.Family)
	}
	if f.MaxKm == 0 {
		return n, nil
	}
	var at []struct {
		LatE6 *int64 `db:"lat_e6"`
		LonE6 *int64 `db:"lon_e6"`
	}
	if err := store.Select(ctx, q, &at, `SELECT lat_e6, lon_e6 FROM users WHERE id = ?`, viewerID); err != nil {
		return n, fmt.Errorf("shopmap: viewer: %w", err)
	}
	if len(at) != 1 || at[0].LatE6 == nil || at[0].LonE6 == nil {
		return n, core.Invalid("km", MsgNoPlace)
	}
	const rad = math.Pi / 180
	lat0, lon0 := float64(*at[0].LatE6)/1e6, float64(*at[0].LonE6)/1e6
	// The great-circle angle the distance allows, and the haversine of
	// it: a shop is within MaxKm when its haversine from the viewer is at
	// most that (fees.RoadKm's formula, compared before its arcsine).
	angle := fees.WithinAngle(f.MaxKm)
	limit := math.Sin(angle/2) * math.Sin(angle/2)
	// The circle's bounding box, a thousandth of a degree wider than it.
	const margin = 1000
	span := int64(angle/rad*1e6) + margin
	n.south, n.north = max(south, *at[0].LatE6-span), min(north, *at[0].LatE6+span)
	if far := math.Abs(lat0) + angle/rad; far < 89 && math.Sin(angle) < math.Cos(lat0*rad) {
		lonSpan := int64(math.Asin(math.Sin(angle)/math.Cos(lat0*rad))/rad*1e6) + margin
		n.west, n.east = max(west, *at[0].LonE6-lonSpan), min(east, *at[0].LonE6+lonSpan)
	}
	n.empty = n.south > n.north || n.west > n.east
	dLat := `sin((u.lat_e6 * ` + dbl + ` - ` + dbl + `) / 2)`
	dLon := `sin((u.lon_e6 * ` + dbl + ` - ` + dbl + `) / 2)`
	r := rad / 1e6
	n.cond += ` AND ` + dLat + ` * ` + dLat + ` + ` + dbl + ` * cos(u.lat_e6 * ` + dbl + `) * ` + dLon + ` * ` + dLon + ` <= ` + dbl
	n.args = append(n.args, r, lat0*rad, r, lat0*rad, math.Cos(lat0*rad), r, r, lon0*rad, r, lon0*rad, limit)
	return n, nil
}
