package places

import (
	"math/bits"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Bounds of a search.
const (
	// DefaultLimit is the number of answers when the caller gives none.
	DefaultLimit = 10
	// MaxLimit is the most answers a search gives.
	MaxLimit = 50
	// MaxQuery is the longest query, in characters, the API accepts.
	MaxQuery = 100
	// maxKey bounds the normalised name compared (the longest commune name
	// has 45 letters), so that a long query costs no more than a short one.
	maxKey = 64
)

// Normalize is a text as the search compares it (the rule of
// ui/src/map/cities.ts normalizeText): lower case, accents removed, œ and æ
// spelled out, every run of other characters (hyphens, apostrophes, spaces)
// one space, and the words "st" and "ste" read as "saint" and "sainte".
func Normalize(s string) string {
	var b strings.Builder
	space := false
	for _, r := range norm.NFD.String(s) {
		switch {
		case r >= 0x300 && r <= 0x36f: // combining accents
			continue
		case r == 'œ' || r == 'Œ':
			space = writeWord(&b, space, "oe")
			continue
		case r == 'æ' || r == 'Æ':
			space = writeWord(&b, space, "ae")
			continue
		}
		r = unicode.ToLower(r)
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			space = writeWord(&b, space, string(r))
		} else {
			space = b.Len() > 0
		}
	}
	words := strings.Fields(b.String())
	for i, w := range words {
		switch w {
		case "st":
			words[i] = "saint"
		case "ste":
			words[i] = "sainte"
		}
	}
	return strings.Join(words, " ")
}

// writeWord appends s, after a space when one is pending; it returns false
// (no space pending any more).
func writeWord(b *strings.Builder, space bool, s string) bool {
	if space {
		b.WriteByte(' ')
	}
	b.WriteString(s)
	return false
}

// Match is one answer of a search.
type Match struct {
	Place *Place
	// PostalCode is the postal code shown with the place: the one that
	// matched a postal code search, else the place's first.
	PostalCode string
	// Approximate is true when the postal code typed belongs to no place
	// (a CEDEX code, a special code): the answer has the nearest postal
	// code that does, a neighbour rather than the place itself.
	Approximate bool
}

// Search finds places for what a user types (PRODUCT §2 "Map" and "Profile
// form"): a postal code or its start ("74", "7423", "74230"), a name with or
// without accents, hyphens or "St", with a typo or two ("anecy", "st etienne"),
// or both ("74230 Thones"). Answers rank by how exactly the name matches
// (equal, start, start of a word, inside, with typos), then by population;
// a postal code search ranks by postal code, then population, a municipal
// arrondissement before its city. A 5-digit code of no place gives the
// places of the nearest code that has some, marked Approximate. At most
// limit answers (DefaultLimit when limit ≤ 0, never more than MaxLimit);
// none for an empty query.
func (r *Reference) Search(query string, limit int) []Match {
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	digits, rest := splitCode(strings.TrimSpace(query))
	name := Normalize(rest)
	if len(name) > maxKey {
		name = name[:maxKey]
	}
	if digits == "" {
		if name == "" {
			return []Match{}
		}
		return r.byName(name, limit)
	}
	found := r.byCode(digits, false)
	if len(found) == 0 && len(digits) == 5 {
		for n := 4; n >= 3 && len(found) == 0; n-- {
			found = r.byCode(digits[:n], true)
		}
	}
	if name != "" {
		named := rankNamed(found, name)
		if len(named) > 0 {
			found = named
		}
	}
	if len(found) > limit {
		found = found[:limit]
	}
	return found
}

// splitCode separates a leading postal code (2 to 5 digits followed by the
// end or a character other than a letter, digit or underscore) from the
// rest; digits is "" when the text does not start with one.
func splitCode(text string) (digits, rest string) {
	n := 0
	for n < len(text) && text[n] >= '0' && text[n] <= '9' {
		n++
	}
	if n < 2 || n > 5 {
		return "", text
	}
	if n < len(text) {
		c := text[n]
		if c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
			return "", text
		}
	}
	return text[:n], text[n:]
}

// byCode lists the places with a postal code starting with prefix, by postal
// code then population; a commune is left out for a code one of its
// arrondissements has.
func (r *Reference) byCode(prefix string, approximate bool) []Match {
	i := sort.Search(len(r.byPostal), func(i int) bool { return r.byPostal[i].code >= prefix })
	var out []Match
	for ; i < len(r.byPostal) && strings.HasPrefix(r.byPostal[i].code, prefix); i++ {
		e := r.byPostal[i]
		out = append(out, Match{Place: &r.places[e.place], PostalCode: e.code, Approximate: approximate})
	}
	withArrondissement := map[string]bool{}
	for _, m := range out {
		if m.Place.Kind == Arrondissement {
			withArrondissement[m.Place.Parent.Code+m.PostalCode] = true
		}
	}
	kept := out[:0]
	for _, m := range out {
		if m.Place.Kind == Commune && withArrondissement[m.Place.Code+m.PostalCode] {
			continue
		}
		kept = append(kept, m)
	}
	sort.SliceStable(kept, func(i, j int) bool {
		a, b := kept[i], kept[j]
		if a.PostalCode != b.PostalCode {
			return a.PostalCode < b.PostalCode
		}
		return before(a.Place, b.Place)
	})
	return kept
}

// before orders places of equal match: most populous first, a commune before
// an arrondissement before a former commune, then by code.
func before(a, b *Place) bool {
	if a.Population != b.Population {
		return a.Population > b.Population
	}
	if a.Kind != b.Kind {
		return a.Kind < b.Kind
	}
	return a.Code < b.Code
}

// rankNamed keeps the matches whose name matches name, best name first.
func rankNamed(found []Match, name string) []Match {
	type scored struct {
		m     Match
		score int
	}
	var s []scored
	for _, m := range found {
		if sc := nameScore(name, m.Place.key, true); sc >= 0 {
			s = append(s, scored{m, sc})
		}
	}
	sort.SliceStable(s, func(i, j int) bool {
		if s[i].score != s[j].score {
			return s[i].score < s[j].score
		}
		return before(s[i].m.Place, s[j].m.Place)
	})
	out := make([]Match, len(s))
	for i := range s {
		out[i] = s[i].m
	}
	return out
}

// Scores of nameScore, doubled so that half a typo is a whole number.
const (
	scoreEqual    = 0
	scorePrefix   = 2
	scoreWord     = 4
	scoreInside   = 6
	scoreMaxExact = scoreInside
)

// nameScore is how well a normalised query matches a normalised name, lower
// is better, -1 when it does not (ui/src/map/cities.ts nameScore, doubled):
// 0 equal, 2 the name starts with it, 4 a word of the name does, 6 it is
// inside the name, 6 + 2×typos against the whole name or 7 + 2×typos against
// the name's start of the query's length. Typos are counted only when
// typos is true.
func nameScore(query, name string, typos bool) int {
	if query == "" {
		return -1
	}
	if i := strings.Index(name, query); i >= 0 {
		switch {
		case i == 0 && len(name) == len(query):
			return scoreEqual
		case i == 0:
			return scorePrefix
		case wordPrefix(name[i-1:], query):
			return scoreWord
		}
		return scoreInside
	}
	if !typos {
		return -1
	}
	return typoScore(query, letterSet(query), name, make([]int, 3*(maxKey+1)))
}

// wordPrefix says whether a word of s after its first letter starts with
// query (s starts one letter before the first place query is found).
func wordPrefix(s, query string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' && strings.HasPrefix(s[i+1:], query) {
			return true
		}
	}
	return false
}

// typosAllowed is the typos forgiven for a query of n letters: none under 4,
// 1 up to 6, then 2.
func typosAllowed(n int) int {
	switch {
	case n < 4:
		return 0
	case n <= 6:
		return 1
	}
	return 2
}

// distance is the optimal string alignment distance of a and b (insertions,
// deletions, substitutions, swaps of neighbours), or a number above bound as
// soon as it is sure to exceed it. a and b are normalised, so bytes are
// letters. rows is scratch space of at least 3×(maxKey+1).
func distance(a, b string, bound int, rows []int) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b)-len(a) > bound {
		return bound + 1
	}
	if len(b) > maxKey {
		b = b[:maxKey]
	}
	w := len(b) + 1
	prev2, prev, cur := rows[0:w], rows[w:2*w], rows[2*w:3*w]
	for j := range prev {
		prev[j] = j
	}
	prevMin := 0
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		ai := a[i-1]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if ai == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ai == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > bound && prevMin > bound {
			return bound + 1
		}
		prevMin = rowMin
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// letterSet is the set of letters, digits and spaces of a normalised text, a
// bit each.
func letterSet(s string) uint64 {
	var m uint64
	for i := 0; i < len(s); i++ {
		m |= 1 << letterIndex(s[i])
	}
	return m
}

func letterIndex(b byte) uint {
	switch {
	case b >= 'a' && b <= 'z':
		return uint(b - 'a')
	case b >= '0' && b <= '9':
		return 26 + uint(b-'0')
	}
	return 36
}

// tooFar says whether s is sure to be more than bound edits from the text
// whose letter set is q: an edit brings at most one letter that s lacks and
// takes away at most one that the text lacks.
func tooFar(q uint64, s string, bound int) bool {
	m := letterSet(s)
	return bits.OnesCount64(q&^m) > bound || bits.OnesCount64(m&^q) > bound
}

// typoScore is nameScore's rank for a name that does not contain the query,
// or -1: 6 + 2×typos against the whole name, 7 + 2×typos against its start.
func typoScore(query string, q uint64, name string, rows []int) int {
	allowed := typosAllowed(len(query))
	if allowed == 0 {
		return -1
	}
	best := -1
	if d := len(name) - len(query); d >= -allowed && d <= allowed && !tooFar(q, name, allowed) {
		if w := distance(query, name, allowed, rows); w <= allowed {
			best = scoreInside + 2*w
		}
	}
	if best == scoreInside+2 || len(name) < len(query)-allowed {
		return best // the start can do no better than one typo on the whole
	}
	start := name
	if len(start) > len(query) {
		start = start[:len(query)]
	}
	if tooFar(q, start, allowed) {
		return best
	}
	if s := distance(query, start, allowed, rows); s <= allowed && (best < 0 || scoreInside+2*s+1 < best) {
		best = scoreInside + 2*s + 1
	}
	return best
}

// byName ranks every place by nameScore, then population. Typos are tried
// only when the exact kinds of match leave room under limit: a typo ranks
// after every exact match.
func (r *Reference) byName(name string, limit int) []Match {
	top := make([]ranked, 0, limit+1)
	misses := make([]int32, 0, len(r.places))
	for i := range r.places {
		p := &r.places[i]
		if s := nameScore(name, p.key, false); s >= 0 {
			top = insertRanked(top, ranked{p, s}, limit)
		} else {
			misses = append(misses, int32(i))
		}
	}
	if len(top) < limit && typosAllowed(len(name)) > 0 {
		q := letterSet(name)
		rows := make([]int, 3*(maxKey+1))
		for _, i := range misses {
			p := &r.places[i]
			if s := typoScore(name, q, p.key, rows); s >= 0 {
				top = insertRanked(top, ranked{p, s}, limit)
			}
		}
	}
	out := make([]Match, len(top))
	for i, t := range top {
		out[i] = Match{Place: t.place, PostalCode: t.place.PostalCodes[0]}
	}
	return out
}

type ranked struct {
	place *Place
	score int
}

func (a ranked) less(b ranked) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	return before(a.place, b.place)
}

// insertRanked inserts x in the sorted top, keeping at most limit.
func insertRanked(top []ranked, x ranked, limit int) []ranked {
	if len(top) == limit && !x.less(top[len(top)-1]) {
		return top
	}
	i := sort.Search(len(top), func(i int) bool { return x.less(top[i]) })
	top = append(top, ranked{})
	copy(top[i+1:], top[i:])
	top[i] = x
	if len(top) > limit {
		top = top[:limit]
	}
	return top
}
