package dayplan

import "math"

// RoadFactor turns a great-circle distance into a road-like one: French
// country roads run about 1.3 times the straight line between two villages
// (the detour index road studies give for rural networks is 1.2 to 1.4).
const RoadFactor = 1.3

// earthRadiusKm is the mean Earth radius (IUGG), in kilometres.
const earthRadiusKm = 6371.0088

// Point is a position in WGS 84 degrees.
type Point struct {
	Lat, Lon float64
}

// GreatCircleKm is the great-circle (haversine) distance between a and b,
// in kilometres.
func GreatCircleKm(a, b Point) float64 {
	const rad = math.Pi / 180
	dLat := (b.Lat - a.Lat) * rad
	dLon := (b.Lon - a.Lon) * rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) +
		math.Cos(a.Lat*rad)*math.Cos(b.Lat*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthRadiusKm * math.Asin(math.Min(1, math.Sqrt(h)))
}

// RoadKm is the distance the round counts between a and b: the
// great-circle distance times RoadFactor.
func RoadKm(a, b Point) float64 { return GreatCircleKm(a, b) * RoadFactor }

// TourKm is the road distance of visiting stops in order from start and
// back to it (a closed round: the van comes home).
func TourKm(start Point, stops []Point, order []int) float64 {
	if len(order) == 0 {
		return 0
	}
	total, at := 0.0, start
	for _, i := range order {
		total += RoadKm(at, stops[i])
		at = stops[i]
	}
	return total + RoadKm(at, start)
}

// Route orders stops for a closed round from start: the nearest
// neighbour first (ties to the lower index, so the result is the same on
// every run), then 2-opt — reversing a stretch of the round whenever that
// shortens it — until no reversal does. It returns the stops' indexes in
// visiting order.
func Route(start Point, stops []Point) []int {
	order := nearestNeighbour(start, stops)
	TwoOpt(start, stops, order)
	return order
}

func nearestNeighbour(start Point, stops []Point) []int {
	order := make([]int, 0, len(stops))
	used := make([]bool, len(stops))
	at := start
	for range stops {
		best, bestKm := -1, 0.0
		for i, p := range stops {
			if used[i] {
				continue
			}
			if km := GreatCircleKm(at, p); best < 0 || km < bestKm {
				best, bestKm = i, km
			}
		}
		used[best] = true
		order = append(order, best)
		at = stops[best]
	}
	return order
}

// improvement is the least shortening (km) 2-opt counts, so rounding
// cannot make it loop.
const improvement = 1e-9

// TwoOpt improves a closed round in place: the round is start, then
// stops in order, then start again; for every pair of its edges (a→b,
// c→d) it reverses the stretch b…c when a→c plus b→d is shorter, and
// repeats until no pair is. The start stays first.
func TwoOpt(start Point, stops []Point, order []int) {
	n := len(order)
	at := func(k int) Point { // position k of the round: 0 and n+1 are the start
		if k == 0 || k == n+1 {
			return start
		}
		return stops[order[k-1]]
	}
	for improved := true; improved; {
		improved = false
		for i := 0; i < n-1; i++ {
			for j := i + 2; j <= n; j++ {
				a, b, c, d := at(i), at(i+1), at(j), at(j+1)
				before := GreatCircleKm(a, b) + GreatCircleKm(c, d)
				after := GreatCircleKm(a, c) + GreatCircleKm(b, d)
				if after < before-improvement {
					// Positions i+1…j of the round are order[i]…order[j-1].
					for l, r := i, j-1; l < r; l, r = l+1, r-1 {
						order[l], order[r] = order[r], order[l]
					}
					improved = true
				}
			}
		}
	}
}
