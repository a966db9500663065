package fees

// WithinAngle is the great-circle angle, in radians, of RoadKm's km: a
// point b is within km of a by road when the haversine of their angle,
// sin²(dLat/2) + cos(latA)·cos(latB)·sin²(dLon/2) (RoadKm's h), is at
// most sin²(WithinAngle(km)/2). It lets a query compare RoadKm's
// distance in SQL, before the arcsine (core/shopmap's map filter).
func WithinAngle(km float64) float64 {
	return km / RoadFactor / earthRadiusKm
}
