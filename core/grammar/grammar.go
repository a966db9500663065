// Package grammar puts names into French sentences: the preposition "de"
// or "à" before a shop's, a farm's or a product's name contracts with its
// article ("du Panier des Aravis", "aux Jardins d'Alby") or elides before a
// vowel ("d'Épicerie du Lac"), and a verb after a plural name agrees with
// it ("Les Jardins d'Alby vous ont proposé"). The interface applies the same
// rules (ui/src/feed.ts); testdata/contractions.json holds the cases both
// test.
package grammar

import (
	"primeur/core/catalog"
	"primeur/core/decimal"

	"strings"
	"unicode"
	"unicode/utf8"
)

// elides are the first letters before which "de", "le", "la" and "que"
// lose their vowel ("d'Annecy", "l'abricot", "qu'Orléans").
const elides = "aeiouyhàâäéèêëîïôöûüœæ"

// aspirated are the beginnings of words whose "h" is aspirated: nothing
// elides before them ("de haricots", "le hameau", "de Haute-Savoie"). The
// spelling cannot tell them from a mute "h" ("d'Hyères", "l'huile"), so
// they are listed: the catalogue's products and the words common in shop,
// farm and place names.
var aspirated = []string{
	"hachis", "haie", "halle", "hameau", "hamburger", "hangar", "hareng", "haricot", "harpe", "hâte",
	"haut", "havre", "hérisson", "héron", "hêtre", "hibou", "hollande", "homard", "hongrie", "houblon",
	"houx", "huit", "hutte",
}

// Elides reports whether a word ending in a mute "e" before text loses its
// vowel: text starts with a vowel, or with a mute "h".
func Elides(text string) bool {
	r, _ := utf8.DecodeRuneInString(text)
	r = unicode.ToLower(r)
	if !strings.ContainsRune(elides, r) {
		return false
	}
	if r != 'h' {
		return true
	}
	lower := strings.ToLower(text)
	for _, w := range aspirated {
		if strings.HasPrefix(lower, w) {
			return false
		}
	}
	return true
}

// Elide is word ("de", "le", "la", "que", "jusque", capitalised or not)
// followed by text, elided where French elides it: Elide("que", "Annecy")
// is "qu'Annecy", Elide("la", "épicerie") "l'épicerie", Elide("le",
// "haricot") "le haricot". De also contracts "de" with an article.
func Elide(word, text string) string {
	if Elides(text) {
		switch strings.ToLower(word) {
		case "de", "le", "la", "que", "jusque", "ne", "je", "me", "te", "se", "ce":
			return word[:len(word)-1] + "'" + text
		}
	}
	return word + " " + text
}

// De is name after "de": "de Tomate", "d'Abricot", "d'Annecy", "du Panier
// des Aravis", "des Jardins d'Alby", "du Havre".
func De(name string) string {
	switch {
	case strings.HasPrefix(name, "Le "):
		return "du " + name[len("Le "):]
	case strings.HasPrefix(name, "Les "):
		return "des " + name[len("Les "):]
	}
	return Elide("de", name)
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

// Plural reports whether a name takes a plural verb: one starting with the
// article "Les " or "Des " ("Les Jardins d'Alby ont proposé").
func Plural(name string) bool {
	return strings.HasPrefix(name, "Les ") || strings.HasPrefix(name, "Des ")
}

// Avoir is the auxiliary "avoir" after name: "a", or "ont" after a plural
// name ("Épicerie du Lac a accepté", "Les Jardins d'Alby ont accepté").
func Avoir(name string) string {
	return Agree(name, "a", "ont")
}

// Agree is the singular or the plural form of a verb, as name takes it:
// Agree("Les Jardins d'Alby", "propose", "proposent") is "proposent".
func Agree(name, singular, plural string) string {
	if Plural(name) {
		return plural
	}
	return singular
}

// Quantity is a quantity of a unit of need in a sentence: "200 kg",
// "12,50 kg", "1 pièce", "3 pièces", "2 douzaines" (catalog.QuantityText).
func Quantity(d decimal.Dec, unit string) string { return catalog.QuantityText(d, unit) }
