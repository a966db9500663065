package accounts

import (
	"math"
	"strconv"
	"strings"
)

// Position is where an account stands on the map, from its profile's
// texts: latitude and longitude in millionths of a degree (about 0.1 m),
// both nil when it is not placed — a text that is not a coordinate (the
// profile's rule: digits, one dot at most, a leading minus; spaces around
// it ignored), a latitude beyond ±90 or a longitude beyond ±180, either
// one missing, or 0/0 (unset coordinates stored so). Migration 00026
// applies the same rule in SQL to the accounts that existed before it.
func Position(latitude, longitude string) (lat, lon *int64) {
	la, okLat := microDegrees(latitude, 90)
	lo, okLon := microDegrees(longitude, 180)
	if !okLat || !okLon || (la == 0 && lo == 0) {
		return nil, nil
	}
	return &la, &lo
}

// microDegrees reads a coordinate within ±limit degrees, rounded to the
// millionth (half away from zero).
func microDegrees(text string, limit float64) (int64, bool) {
	s := strings.Trim(text, " ")
	for i, r := range s {
		if (r < '0' || r > '9') && r != '.' && (r != '-' || i > 0) {
			return 0, false // only digits and dots, a minus first
		}
	}
	if strings.Count(s, ".") > 1 || strings.Trim(s, "-.") == "" {
		return 0, false // one dot at most, a digit at least (empty: no digit)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.Abs(f) > limit {
		return 0, false
	}
	return int64(math.Round(f * 1e6)), true
}

// Degrees is a position column as degrees.
func Degrees(e6 int64) float64 { return float64(e6) / 1e6 }
