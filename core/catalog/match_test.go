package catalog_test

import (
	"strings"
	"testing"

	"primeur/core/catalog"
)

func TestMatchAndClosest(t *testing.T) {
	ps, err := catalog.Catalogue()
	if err != nil {
		t.Fatal(err)
	}
	ix := catalog.NewIndex(ps)
	matches := []struct{ name, id string }{
		{"Tomate", "tomate"},
		{"Tomates", "tomate"},
		{"  TOMATES ", "tomate"},
		{"Poireaux", "poireau"},
		{"Pêches", "peche"},
		{"peches", "peche"},
		{"Pommes", "pomme"},
		{"Pommes de terre", "pomme-de-terre"},
		{"pomme  de-terre", "pomme-de-terre"},
		{"CHOU FLEUR", "chou-fleur"},
		{"Choux-fleurs", "chou-fleur"},
		{"Choux de Bruxelles", "chou-de-bruxelles"},
		{"Radis", "radis"},
		{"Radis (botte)", "radis"},
		{"Noix", "noix"},
		{"Petits pois", "petit-pois"},
		{"Épinards", "epinard"},
		{"Champignons de Paris", "champignon"},
		{"Tomates cerises", "tomate-cerise"},
		{"Oeufs de poule plein air", "oeufs-de-poule-plein-air"},
		{"Œuf de poule", "oeuf-de-poule"},
		{"Tommes de Savoie", "tomme-de-savoie"},
	}
	for _, tt := range matches {
		p, ok := ix.Match(tt.name)
		if !ok || p.ID != tt.id {
			t.Errorf("Match(%q) = %s %v, want %s", tt.name, p.ID, ok, tt.id)
		}
	}
	for _, name := range []string{"Kiwano", "Courgete", "Framboises sauvages", "", "Framboises des bois"} {
		if p, ok := ix.Match(name); ok {
			t.Errorf("Match(%q) = %s", name, p.ID)
		}
	}
	closest := []struct{ name, id string }{
		{"Courgete", "courgette"},
		{"Courgettes vertes", "courgette"},
		{"Framboises sauvages", "framboise"},
		{"Tomates cerise grappe", "tomate-cerise"},
		{"Poirreau", "poireau"},
		{"Kiwano", ""},
		{"Durian", ""},
		{"", ""},
	}
	for _, tt := range closest {
		p, ok := ix.Closest(tt.name)
		if ok != (tt.id != "") || p.ID != tt.id {
			t.Errorf("Closest(%q) = %s %v, want %q", tt.name, p.ID, ok, tt.id)
		}
	}
}

// TestLooseKeysAreUnique: no two products of the catalogue are the same
// once plurals are set aside, so Match never has to choose.
func TestLooseKeysAreUnique(t *testing.T) {
	ps, err := catalog.Catalogue()
	if err != nil {
		t.Fatal(err)
	}
	ix := catalog.NewIndex(ps)
	for _, p := range ps {
		words := strings.Fields(p.Name)
		for i, w := range words {
			if len(w) > 3 && !strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "x") && !strings.HasSuffix(w, ")") &&
				!strings.Contains(w, "'") {
				words[i] = w + "s"
			}
		}
		plural := strings.Join(words, " ")
		if got, ok := ix.Match(plural); !ok || got.ID != p.ID {
			t.Errorf("%s: its plural %q matches %s %v", p.Name, plural, got.ID, ok)
		}
	}
}
