// Package grammar puts names into French sentences: the preposition "de"
// or "à" before a shop's, a farm's or a product's name contracts with its
// article ("du Panier des Aravis", "aux Jardins d'Alby") or elides before a
// vowel ("d'Épicerie du Lac"). The interface applies the same rule
// (ui/src/feed.ts); testdata/contractions.json holds the cases both test.
package grammar

import (
	"primeur/core/decimal"

	"strings"
	"unicode"
	"unicode/utf8"
)

// elides are the first letters before which "de" becomes "d'".
const elides = "aeiouyhàâäéèêëîïôöûüœ"

// De is name after "de": "de Tomate", "d'Abricot", "du Panier des
// Aravis", "des Jardins d'Alby".
func De(name string) string {
	switch {
	case strings.HasPrefix(name, "Le "):
		return "du " + name[len("Le "):]
	case strings.HasPrefix(name, "Les "):
		return "des " + name[len("Les "):]
	}
	if r, _ := utf8.DecodeRuneInString(name); strings.ContainsRune(elides, unicode.ToLower(r)) {
		return "d'" + name
	}
	return "de " + name
}

// A is name after "à": "à Épicerie du Lac", "au Panier des Aravis", "aux
// Jardins d'Alby".
func A(name string) string {
	switch {
	case strings.HasPrefix(name, "Le "):
		return "au " + name[len("Le "):]
	case strings.HasPrefix(name, "Les "):
		return "aux " + name[len("Les "):]
	}
	return "à " + name
}

// Quantity is a quantity of a unit ("kg" or "un") in a sentence: "200 kg",
// "12,50 kg", "1 pièce", "3 pièces".
func Quantity(d decimal.Dec, unit string) string {
	q := strings.TrimSuffix(d.French(), ",00")
	switch {
	case unit != "un":
		return q + " kg"
	case d == decimal.Dec(100):
		return q + " pièce"
	}
	return q + " pièces"
}
