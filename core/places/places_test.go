package places

import (
	"math"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

func reference(t testing.TB) *Reference {
	t.Helper()
	r, err := Default()
	if err != nil {
		t.Fatalf("Default: %v", err)
	}
	return r
}

// label is a match as the tests read it: "Thônes 74230", with "~" when approximate.
func label(m Match) string {
	s := m.Place.Name + " " + m.PostalCode
	if m.Approximate {
		s += " ~"
	}
	return s
}

func labels(ms []Match) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = label(m)
	}
	return out
}

func TestEmbeddedReference(t *testing.T) {
	r := reference(t)
	communes, arrondissements, formers := 0, 0, 0
	departments := map[string]bool{}
	for i := range r.places {
		p := &r.places[i]
		switch p.Kind {
		case Commune:
			communes++
			departments[p.Department] = true
		case Arrondissement:
			arrondissements++
		case Former:
			formers++
		}
	}
	// Every current commune of metropolitan France, Corsica and the overseas departments.
	if communes < 34800 || communes > 35000 {
		t.Errorf("communes = %d, want about 34,900", communes)
	}
	if arrondissements != 20+9+16 {
		t.Errorf("arrondissements = %d, want 45 (Paris 20, Lyon 9, Marseille 16)", arrondissements)
	}
	if formers < 2000 {
		t.Errorf("former communes = %d, want more than 2,000", formers)
	}
	// 96 metropolitan departments (2A and 2B, no 20) and 5 overseas.
	if len(departments) != 101 || departments["20"] || !departments["2A"] || !departments["2B"] || !departments["976"] {
		t.Errorf("departments = %d %v", len(departments), departments)
	}
	for i := range r.places {
		p := &r.places[i]
		if p.Lat == 0 && p.Lon == 0 {
			t.Errorf("%s %s has no position", p.Code, p.Name)
		}
	}
}

func TestSearch(t *testing.T) {
	r := reference(t)
	for _, c := range []struct {
		name, query string
		limit       int
		want        []string // the first answers, in order
		not         []string // answers that must not come
	}{
		{"a village by name", "Serraval", 3, []string{"Serraval 74230"}, nil},
		{"a village without accent or hyphen", "les villards sur thones", 3, []string{"Les Villards-sur-Thônes 74230"}, nil},
		{"a village with a typo", "Seraval", 3, []string{"Serraval 74230"}, nil},
		{"a swap of two letters", "Srreaval", 3, nil, nil},
		{"accents and case", "THONES", 2, []string{"Thônes 74230", "Les Villards-sur-Thônes 74230"}, nil},
		{"St for Saint", "st etienne", 1, []string{"Saint-Étienne 42000"}, nil},
		{"Ste for Sainte", "ste maxime", 1, []string{"Sainte-Maxime 83120"}, nil},
		{"an apostrophe", "l'abergement clemenciat", 1, []string{"L'Abergement-Clémenciat 01400"}, nil},
		{"œ spelled out", "oeuilly", 5, nil, nil},
		{
			"a postal code shared by several communes, most populous first", "74230", 4,
			[]string{"Thônes 74230", "Dingy-Saint-Clair 74230", "Les Villards-sur-Thônes 74230", "Manigod 74230"}, nil,
		},
		{"a postal code and a name", "74230 serraval", 3, []string{"Serraval 74230"}, []string{"Thônes 74230"}},
		{"a postal code and a name with a typo", "74230 manigot", 1, []string{"Manigod 74230"}, nil},
		{"a postal code and a name of another code", "74230 Annecy", 1, []string{"Thônes 74230"}, nil},
		{"a postal code start", "7423", 1, []string{"Thônes 74230"}, nil},
		{"Paris by postal code: the arrondissement, not the city", "75015", 3, []string{"Paris 15e Arrondissement 75015"}, []string{"Paris 75015"}},
		{"Lyon by postal code", "69003", 2, []string{"Lyon 3e Arrondissement 69003"}, []string{"Lyon 69003"}},
		{"Marseille by postal code", "13001", 2, []string{"Marseille 1er Arrondissement 13001"}, []string{"Marseille 13001"}},
		{"Marseille by name: the city first", "marseille", 1, []string{"Marseille 13001"}, nil},
		{"Corse-du-Sud", "ajaccio", 1, []string{"Ajaccio 20000"}, nil},
		{"Corse-du-Sud with a typo", "ajacio", 1, []string{"Ajaccio 20000"}, nil},
		{"Haute-Corse", "20200", 1, []string{"Bastia 20200"}, nil},
		{"a Corsican village", "Aghione", 1, []string{"Aghione 20270"}, nil},
		{"a former commune under its old name", "annecy le vieux", 1, []string{"Annecy-le-Vieux 74000"}, nil},
		{"a CEDEX code: the nearest code, approximate", "74011", 1, []string{"Annecy 74000 ~"}, nil},
		{"overseas", "97411", 5, nil, nil},
		{"a code of no place at all", "99999", 1, []string{}, nil},
		{"a postal code of six digits is no code", "740000", 1, []string{}, nil},
		{"empty", "", 5, []string{}, nil},
		{"blank", "   \t ", 5, []string{}, nil},
		{"punctuation only", "--''--", 5, []string{}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := labels(r.Search(c.query, c.limit))
			if c.limit > 0 && len(got) > c.limit {
				t.Errorf("Search(%q, %d) gave %d answers", c.query, c.limit, len(got))
			}
			if c.want != nil {
				if len(c.want) == 0 && len(got) != 0 {
					t.Errorf("Search(%q) = %q, want none", c.query, got)
				}
				for i, w := range c.want {
					if i >= len(got) || got[i] != w {
						t.Errorf("Search(%q) = %q, want %q first", c.query, got, c.want)
						break
					}
				}
			} else if len(got) == 0 {
				t.Errorf("Search(%q) found nothing", c.query)
			}
			for _, n := range c.not {
				for _, g := range got {
					if g == n {
						t.Errorf("Search(%q) = %q, must not give %q", c.query, got, n)
					}
				}
			}
		})
	}
}

func TestSearchVillagesOutsideTheOldList(t *testing.T) {
	// Villages of a few hundred people, none of the 286 towns of the map's
	// former reference, each found by name and by postal code.
	r := reference(t)
	for _, v := range []struct{ name, code, department string }{
		{"Serraval", "74230", "74"},
		{"Allèves", "74540", "74"},
		{"Aghione", "20270", "2B"},
		{"Mesples", "03370", "03"},
	} {
		byName := r.Search(v.name, 1)
		if len(byName) != 1 || byName[0].Place.Name != v.name || byName[0].Place.Department != v.department {
			t.Errorf("Search(%q) = %q", v.name, labels(byName))
			continue
		}
		found := false
		for _, m := range r.Search(v.code, MaxLimit) {
			found = found || m.Place == byName[0].Place
		}
		if !found {
			t.Errorf("Search(%q) does not list %s", v.code, v.name)
		}
		if p := byName[0].Place; !inFrance(p) {
			t.Errorf("%s at %v,%v", v.name, p.Lat, p.Lon)
		}
	}
}

func inFrance(p *Place) bool {
	return p.Lat > 41.3 && p.Lat < 51.1 && p.Lon > -5.2 && p.Lon < 9.6
}

func TestPositions(t *testing.T) {
	r := reference(t)
	for _, c := range []struct {
		code     string
		kind     Kind
		lat, lon float64
		within   float64 // km
		prec     Precision
	}{
		{"74010", Commune, 45.9088, 6.1257, 1, Own},         // Annecy
		{"2A004", Commune, 41.9192, 8.7386, 2, Own},         // Ajaccio
		{"2B033", Commune, 42.7028, 9.4503, 2, Own},         // Bastia
		{"69383", Arrondissement, 45.7612, 4.8518, 1, Own},  // Lyon 3e
		{"13201", Arrondissement, 43.2981, 5.3841, 1, Own},  // Marseille 1er
		{"75115", Arrondissement, 48.8534, 2.3488, 1, Area}, // Paris 15e: the city's point
		{"74004", Commune, 45.7500, 6.0400, 10, PostalArea}, // Allèves: its neighbours' mean
		{"97411", Commune, -20.8823, 55.4504, 3, Own},       // Saint-Denis (La Réunion)
		{"75056", Commune, 48.8534, 2.3488, 1, Own},         // Paris
		{"01015", Former, 45.7292, 5.6897, 15, Area},        // Arbignieu, in Arboys en Bugey
		{"74011", Former, 45.9167, 6.1333, 2, Own},          // Annecy-le-Vieux
		{"2B002", Commune, 42.1188, 9.4313, 15, PostalArea}, // Aghione
		{"03172", Commune, 46.4200, 2.3700, 40, Area},       // Mesples: no neighbour with a point
		{"97601", Commune, -12.7239, 45.0582, 1, Own},       // Acoua (Mayotte)
		{"01313", Commune, 46.2550, 6.0800, 30, Area},       // Prévessin-Moëns: no neighbour with a point
		{"74010", Former, 0, 0, 0, Own},                     // no such place: checked below
	} {
		p := r.Lookup(c.code, c.kind)
		if c.lat == 0 {
			if p != nil {
				t.Errorf("Lookup(%s, %v) = %s, want none", c.code, c.kind, p.Name)
			}
			continue
		}
		if p == nil {
			t.Errorf("Lookup(%s, %v) = nil", c.code, c.kind)
			continue
		}
		if d := km(p.Lat, p.Lon, c.lat, c.lon); d > c.within {
			t.Errorf("%s %s at %v,%v: %.1f km from %v,%v", c.code, p.Name, p.Lat, p.Lon, d, c.lat, c.lon)
		}
		if p.Precision != c.prec {
			t.Errorf("%s %s precision %v, want %v", c.code, p.Name, p.Precision, c.prec)
		}
	}
}

func km(lat1, lon1, lat2, lon2 float64) float64 {
	rad := math.Pi / 180
	h := math.Pow(math.Sin((lat2-lat1)*rad/2), 2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Pow(math.Sin((lon2-lon1)*rad/2), 2)
	return 2 * 6371 * math.Asin(math.Min(1, math.Sqrt(h)))
}

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Saint-Étienne", "saint etienne"},
		{"St-Étienne", "saint etienne"},
		{"ste   Maxime", "sainte maxime"},
		{"STE-MAXIME", "sainte maxime"},
		{"Châtel-St-Germain", "chatel saint germain"},
		{"L'Haÿ-les-Roses", "l hay les roses"},
		{"L’Île-d’Yeu", "l ile d yeu"},
		{"Œuilly", "oeuilly"},
		{"Cœuvres-et-Valsery", "coeuvres et valsery"},
		{"Lætitia", "laetitia"},
		{"  --Thônes--  ", "thones"},
		{"stade", "stade"},
		{"74230 Thônes", "74230 thones"},
		{"", ""},
		{"\xff\xfe", ""},
		{"Ústí\u0000nad", "usti nad"},
	} {
		if got := Normalize(c.in); got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestNameScore(t *testing.T) {
	// The ranks of ui/src/map/cities.ts nameScore, doubled.
	for _, c := range []struct {
		query, name string
		want        int
	}{
		{"annecy", "annecy", 0},
		{"anne", "annecy", 2},
		{"vieux", "annecy le vieux", 4},
		{"necy", "annecy", 6},
		{"anecy", "annecy", 8},           // one deletion
		{"anncey", "annecy le vieux", 9}, // a swap against the start, half a point more
		{"ann", "anne", 2},               // short: prefix only
		{"anx", "annecy", -1},            // short: no typo forgiven
		{"abcdefgh", "annecy", -1},
		{"", "annecy", -1},
	} {
		if got := nameScore(c.query, c.name, true); got != c.want {
			t.Errorf("nameScore(%q, %q) = %d, want %d", c.query, c.name, got, c.want)
		}
	}
}

func TestSearchLimit(t *testing.T) {
	r := reference(t)
	for _, c := range []struct{ limit, want int }{{0, DefaultLimit}, {-3, DefaultLimit}, {1, 1}, {25, 25}, {MaxLimit, MaxLimit}, {1000, MaxLimit}} {
		if got := len(r.Search("saint", c.limit)); got != c.want {
			t.Errorf("Search(saint, %d) gave %d answers, want %d", c.limit, got, c.want)
		}
	}
}

func TestSearchHostile(t *testing.T) {
	r := reference(t)
	for _, q := range []string{
		strings.Repeat("a", 10000),
		strings.Repeat("é", 5000),
		strings.Repeat("74000 ", 1000),
		"\x00\x01\x02",
		"\xff\xfe\xfd",
		"<script>alert(1)</script>",
		"' OR 1=1 --",
		"%00%2e%2e/",
		"74000\x00Annecy",
		"7\u0301\u0301\u0301",
		strings.Repeat("\u0301", 3000),
		"🙂🙂🙂",
		"ǅ\u200b\u202e",
		"00000",
		"01",
		"2A004",
		"Saint-" + strings.Repeat("-", 500),
	} {
		ms := r.Search(q, MaxLimit)
		if len(ms) > MaxLimit {
			t.Errorf("Search(%.20q) gave %d answers", q, len(ms))
		}
		for _, m := range ms {
			if m.Place == nil || !utf8.ValidString(m.Place.Name) || m.PostalCode == "" {
				t.Errorf("Search(%.20q) gave %+v", q, m)
			}
		}
	}
}

func TestLoadRejectsBadFiles(t *testing.T) {
	good := "74010\tc\tAnnecy\t74\t74000\t132117\t45.9\t6.1\t0\t\n"
	for _, c := range []struct{ name, text, want string }{
		{"columns", "74010\tc\tAnnecy\n", "columns"},
		{"code", strings.Replace(good, "74010", "7401X", 1), "bad code"},
		{"kind", strings.Replace(good, "\tc\t", "\tz\t", 1), "bad kind"},
		{"postal code", strings.Replace(good, "74000", "7400", 1), "bad postal code"},
		{"population", strings.Replace(good, "132117", "-1", 1), "bad population"},
		{"latitude", strings.Replace(good, "45.9", "95", 1), "bad latitude"},
		{"precision", strings.Replace(good, "\t0\t", "\t7\t", 1), "bad precision"},
		{"unknown parent", good + "74011\td\tAnnecy-le-Vieux\t74\t74000\t0\t45.9\t6.1\t0\t99999\n", "unknown parent"},
		{"commune with a parent", "74010\tc\tAnnecy\t74\t74000\t1\t45.9\t6.1\t0\t74011\n", "parent"},
		{"unsorted", "74011\tc\tB\t74\t74000\t1\t45.9\t6.1\t0\t\n" + good, "not sorted"},
	} {
		if _, err := Load(strings.NewReader(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Load = %v, want an error with %q", c.name, err, c.want)
		}
	}
	r, err := Load(strings.NewReader("# comment\n" + good))
	if err != nil || r.Len() != 1 || r.Search("annecy", 1)[0].Place.Name != "Annecy" {
		t.Fatalf("Load(good) = %v, %v", r, err)
	}
}

func FuzzSearch(f *testing.F) {
	r := reference(f)
	for _, s := range []string{"74000", "annecy", "74230 thônes", "st etienne", "", "\xff", "7", "740000"} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, q string, limit int) {
		ms := r.Search(q, limit)
		if len(ms) > MaxLimit || (limit > 0 && len(ms) > limit) {
			t.Fatalf("Search(%q, %d) gave %d answers", q, limit, len(ms))
		}
		for _, m := range ms {
			if m.Place == nil || m.PostalCode == "" {
				t.Fatalf("Search(%q) gave %+v", q, m)
			}
		}
		if n := Normalize(q); n != Normalize(n) {
			t.Fatalf("Normalize is not idempotent on %q: %q then %q", q, n, Normalize(n))
		}
	})
}

// BenchmarkSearch measures a search of each kind on the embedded reference
// (docs/BENCHMARKS.md, "Place search").
func BenchmarkSearch(b *testing.B) {
	r := reference(b)
	for _, q := range []string{"74230", "74", "thones", "saint", "st etienne", "seraval", "les villards sur thones", "74230 manigot", "xqzwv"} {
		b.Run(strings.ReplaceAll(q, " ", "_"), func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime(b)
			for b.Loop() {
				r.Search(q, DefaultLimit)
			}
			// The process's CPU per search: on a shared machine wall times vary, this less.
			b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the process's CPU time so far (user and system), in ns.
func cpuTime(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkLoad measures parsing the embedded file and reports the heap the
// loaded reference keeps.
func BenchmarkLoad(b *testing.B) {
	var kept uint64
	cpu := cpuTime(b)
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r, err := Load(strings.NewReader(embedded))
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(r)
	}
	b.ReportMetric(float64(kept)/(1<<20), "MiB-kept")
	b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op") // two forced GCs included
}
