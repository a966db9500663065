package demo

import (
	"math"
	"math/rand/v2"
)

// FranceCities are urban areas of metropolitan France, each [latitude,
// longitude, population in thousands]: where a platform of France's
// scale places its accounts (FrancePlace).
var FranceCities = [][3]float64{
	{48.857, 2.352, 13000}, {45.764, 4.836, 2300}, {43.297, 5.381, 1900}, {43.605, 1.444, 1500},
	{50.629, 3.057, 1500}, {44.838, -0.579, 1400}, {47.218, -1.554, 1000}, {43.710, 7.262, 1000},
	{48.573, 7.752, 850}, {43.611, 3.877, 800}, {48.117, -1.678, 750}, {45.188, 5.724, 700},
	{49.443, 1.099, 650}, {43.125, 5.930, 600}, {47.394, 0.685, 500}, {45.778, 3.087, 500},
	{45.440, 4.387, 520}, {49.258, 4.032, 350}, {47.322, 5.041, 400}, {43.296, -0.370, 250},
	{47.478, -0.563, 420}, {46.580, 0.340, 250}, {48.692, 6.184, 430}, {49.119, 6.176, 390},
	{45.899, 6.129, 250}, {45.565, 5.918, 230}, {46.196, 6.236, 200}, {50.951, 1.858, 160},
	{43.949, 4.806, 320}, {42.698, 2.895, 330},
}

// FrancePlace draws a position as people live in metropolitan France: a
// fifth anywhere in its bounding box (the countryside), the rest around
// one of FranceCities picked by population, spread wider around larger
// cities. The same r gives the same positions (the benchmarks' platforms
// of France's scale: core/shopmap's BenchmarkFind, tools/loadbench).
func FrancePlace(r *rand.Rand) (lat, lon float64) {
	if r.Float64() < 0.2 {
		return 42.5 + r.Float64()*8.5, -4.5 + r.Float64()*12.5
	}
	total := 0.0
	for _, c := range FranceCities {
		total += c[2]
	}
	pick := r.Float64() * total
	for _, c := range FranceCities {
		if pick -= c[2]; pick <= 0 {
			spread := 0.04 + 0.12*math.Sqrt(c[2]/13000)
			return c[0] + r.NormFloat64()*spread, c[1] + r.NormFloat64()*spread*1.4
		}
	}
	return FranceCities[0][0], FranceCities[0][1]
}
