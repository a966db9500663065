package catalog

import (
	"strings"

	"github.com/hbollon/go-edlib"
)

// looseKey is the form under which a name a shop writes matches a
// catalogue name when NameKey does not: NameKey's (case, accents,
// punctuation and spaces ignored) without what stands in parentheses and
// with each word of more than three letters taken without a final s or x,
// so that plurals match ("Poireaux" → "poireau", "Pommes de terre" →
// "pomme de terre", "Radis (botte)" → "radi").
func looseKey(name string) string {
	var b strings.Builder
	depth := 0
	for _, r := range name {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	words := strings.Fields(NameKey(b.String()))
	for i, w := range words {
		if len(w) > 3 && (strings.HasSuffix(w, "s") || strings.HasSuffix(w, "x")) {
			words[i] = w[:len(w)-1]
		}
	}
	return strings.Join(words, " ")
}

// indexLoose fills the index's loose keys; a key two products share
// matches neither (the exact name still does).
func (ix *Index) indexLoose(ns []named) {
	ix.byLoose = make(map[string]Product, len(ns))
	ambiguous := map[string]bool{}
	for _, n := range ns {
		p := n.product
		k := looseKey(n.name)
		if other, dup := ix.byLoose[k]; (dup && other.ID != p.ID) || k == "" {
			ambiguous[k] = true
		}
		ix.byLoose[k] = p
		ix.loose = append(ix.loose, looseProduct{key: k, product: p})
	}
	for k := range ambiguous {
		delete(ix.byLoose, k)
	}
}

type looseProduct struct {
	key     string
	product Product
}

// Match returns the product a shop means by name: the one ByName finds,
// else the one whose name matches once plurals and what stands in
// parentheses are set aside ("Tomates", "Choux-fleurs", "radis").
func (ix *Index) Match(name string) (Product, bool) {
	if p, ok := ix.ByName(name); ok {
		return p, true
	}
	p, ok := ix.byLoose[looseKey(name)]
	return p, ok
}

// Closest returns the catalogue product closest to a name that matches
// none, when one is close enough to suggest: a spelling one or two letters
// away (one per five letters of the name, one at least), or else the
// longest catalogue name whose words all stand in the name ("Framboises
// des bois" → Framboise). ok is false when nothing is close.
func (ix *Index) Closest(name string) (Product, bool) {
	key := looseKey(name)
	if key == "" {
		return Product{}, false
	}
	n := len([]rune(key))
	best, bestDist := Product{}, max(1, n/5)+1
	for _, c := range ix.loose {
		// The distance is at least the difference of the lengths: most
		// names are too long or too short to be compared at all.
		if abs(len([]rune(c.key))-n) >= bestDist {
			continue
		}
		if d := edlib.DamerauLevenshteinDistance(key, c.key); d < bestDist {
			best, bestDist = c.product, d
		}
	}
	if bestDist <= max(1, n/5) {
		return best, true
	}
	words := map[string]bool{}
	for _, w := range strings.Fields(key) {
		words[w] = true
	}
	found, longest := Product{}, 0
	for _, c := range ix.loose {
		all := c.key != ""
		for _, w := range strings.Fields(c.key) {
			all = all && words[w]
		}
		if all && len(c.key) > longest {
			found, longest = c.product, len(c.key)
		}
	}
	return found, longest > 0
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
