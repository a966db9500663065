package dayplan

import (
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"
)

func TestGreatCircleKm(t *testing.T) {
	tests := []struct {
		name string
		a, b Point
		want float64 // km
		tol  float64
	}{
		{"same point", Point{45.9, 6.12}, Point{45.9, 6.12}, 0, 1e-9},
		{"one degree of latitude", Point{45, 6}, Point{46, 6}, 111.19, 0.01},
		{"Paris to Lyon", Point{48.8566, 2.3522}, Point{45.764, 4.8357}, 391.5, 1},
		{"Annecy to La Clusaz", Point{45.8992, 6.1294}, Point{45.9044, 6.4233}, 22.8, 0.2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := GreatCircleKm(tt.a, tt.b); math.Abs(got-tt.want) > tt.tol {
				t.Fatalf("GreatCircleKm = %.3f, want %.3f ± %g", got, tt.want, tt.tol)
			}
			if got, want := RoadKm(tt.a, tt.b), GreatCircleKm(tt.a, tt.b)*1.3; math.Abs(got-want) > 1e-9 {
				t.Fatalf("RoadKm = %f, want 1.3 × great circle = %f", got, want)
			}
		})
	}
}

// square: the farm at one corner of a square of side 0.1°, three stops at
// the others.
var (
	farm   = Point{45, 6}
	square = []Point{{45, 6.1}, {45.1, 6.1}, {45.1, 6}} // east, north-east, north
)

func TestTwoOptUncrossesATour(t *testing.T) {
	tests := []struct {
		name  string
		order []int
		want  []int // the perimeter, in either direction
	}{
		// farm → east → north → north-east → farm crosses itself.
		{"crossed", []int{0, 2, 1}, []int{0, 1, 2}},
		{"crossed the other way", []int{2, 0, 1}, []int{0, 1, 2}},
		{"already the perimeter", []int{0, 1, 2}, []int{0, 1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			order := append([]int(nil), tt.order...)
			before := TourKm(farm, square, order)
			TwoOpt(farm, square, order)
			after := TourKm(farm, square, order)
			if !reflect.DeepEqual(order, tt.want) && !reflect.DeepEqual(order, reversed(tt.want)) {
				t.Fatalf("order = %v, want %v or its reverse", order, tt.want)
			}
			if after > before+1e-9 {
				t.Fatalf("2-opt lengthened the tour: %.3f → %.3f km", before, after)
			}
			if !reflect.DeepEqual(tt.order, tt.want) && after >= before {
				t.Fatalf("2-opt did not shorten the crossed tour: %.3f → %.3f km", before, after)
			}
		})
	}
}

func reversed(o []int) []int {
	r := make([]int, len(o))
	for i, v := range o {
		r[len(o)-1-i] = v
	}
	return r
}

// twoOptStable reports whether no reversal of a stretch shortens the tour.
func twoOptStable(start Point, stops []Point, order []int) bool {
	base := TourKm(start, stops, order)
	for i := 0; i < len(order); i++ {
		for j := i + 1; j < len(order); j++ {
			o := append([]int(nil), order...)
			for l, r := i, j; l < r; l, r = l+1, r-1 {
				o[l], o[r] = o[r], o[l]
			}
			if TourKm(start, stops, o) < base-1e-6 {
				return false
			}
		}
	}
	return true
}

func TestRouteNeverWorseThanNearestNeighbour(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 1))
	for n := 0; n <= 12; n++ {
		for trial := 0; trial < 20; trial++ {
			stops := make([]Point, n)
			for i := range stops {
				stops[i] = Point{45.5 + rng.Float64(), 5.8 + rng.Float64()}
			}
			nn := nearestNeighbour(farm, stops)
			got := Route(farm, stops)
			if len(got) != n {
				t.Fatalf("n=%d: Route gave %d stops", n, len(got))
			}
			seen := map[int]bool{}
			for _, i := range got {
				if seen[i] || i < 0 || i >= n {
					t.Fatalf("n=%d: Route %v is not a permutation", n, got)
				}
				seen[i] = true
			}
			if TourKm(farm, stops, got) > TourKm(farm, stops, nn)+1e-9 {
				t.Fatalf("n=%d: Route %v longer than nearest neighbour %v", n, got, nn)
			}
			if !twoOptStable(farm, stops, got) {
				t.Fatalf("n=%d: a reversal still shortens %v", n, got)
			}
		}
	}
}

func TestRouteAlongALine(t *testing.T) {
	// Stops on a road going east from the farm, given out of order: out
	// and back is the only good round.
	stops := []Point{{45, 6.3}, {45, 6.1}, {45, 6.2}}
	got := Route(farm, stops)
	if want := []int{1, 2, 0}; !reflect.DeepEqual(got, want) && !reflect.DeepEqual(got, []int{0, 2, 1}) {
		t.Fatalf("Route = %v, want %v or its reverse", got, want)
	}
}

func TestApplyChosenKeepsTheGivenOrder(t *testing.T) {
	ids := []string{"a", "b", "c", "d"}
	tests := []struct {
		name     string
		computed []int
		chosen   map[string]int
		want     []int
	}{
		{"every stop placed", []int{0, 1, 2, 3}, map[string]int{"d": 0, "b": 1, "a": 2, "c": 3}, []int{3, 1, 0, 2}},
		{"a new stop goes at the end", []int{2, 0, 1, 3}, map[string]int{"d": 0, "a": 1, "b": 2}, []int{3, 0, 1, 2}},
		{"two new stops keep the computed order", []int{2, 0, 3, 1}, map[string]int{"b": 0, "a": 1}, []int{1, 0, 2, 3}},
		{"a stop gone from the day is skipped", []int{0, 1}, map[string]int{"z": 0, "b": 1, "a": 2}, []int{1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := applyChosen(tt.computed, ids, tt.chosen); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("applyChosen = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestGeoURI(t *testing.T) {
	at := &Point{45.899247, 6.129384}
	tests := []struct {
		name  string
		at    *Point
		lines []string
		want  string
	}{
		{"address and position", at, []string{"3 quai de la Tournette", "74000 Annecy"},
			"geo:45.899247,6.129384?q=3+quai+de+la+Tournette%2C+74000+Annecy"},
		{"address only", nil, []string{"Place de l'Église", "74230 Thônes"},
			"geo:0,0?q=Place+de+l%27%C3%89glise%2C+74230+Th%C3%B4nes"},
		{"position only", at, nil, "geo:45.899247,6.129384?q=45.899247%2C6.129384%28Caf%C3%A9+%26+Cie%29"},
		{"neither", nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := geoURI(tt.at, tt.lines, "Café & Cie"); got != tt.want {
				t.Fatalf("geoURI = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestByNameIsFrench(t *testing.T) {
	names := []string{"Fraise", "Échalote", "carotte", "Ail", "Épinard"}
	sort.SliceStable(names, func(i, j int) bool { return byName(names[i], names[j]) })
	if want := []string{"Ail", "carotte", "Échalote", "Épinard", "Fraise"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("sorted %q, want %q", names, want)
	}
}
