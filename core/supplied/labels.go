package supplied

import (
	"regexp"
	"slices"
	"strings"
)

// Label is a quality or origin sign a producer declares on a product (DFC:
// a labelling characteristic of the supplied product).
type Label struct {
	// ID is the label as stored and as the API sends it.
	ID string `json:"_id" example:"aop"`
	// Name is its French name, as forms and filters show it.
	Name string `json:"name" example:"AOP / AOC"`
	// Mention is how a delivery note or an invoice names it beside the
	// product (DocumentText), short.
	Mention string `json:"-"`
	// Organic labels (AB, en conversion) need the certifier's code
	// number, printed with them (regulation (EU) 2018/848, art. 32).
	Organic bool `json:"organic"`
}

// Labels are the labels a product may carry, in the order forms list them.
var Labels = []Label{
	{ID: "ab", Name: "Agriculture biologique (AB)", Mention: "Bio", Organic: true},
	{ID: "conversion", Name: "En conversion vers l'agriculture biologique", Mention: "En conversion vers l'agriculture biologique", Organic: true},
	{ID: "label-rouge", Name: "Label Rouge", Mention: "Label Rouge"},
	{ID: "aop", Name: "AOP / AOC", Mention: "AOP"},
	{ID: "igp", Name: "IGP", Mention: "IGP"},
	{ID: "hve", Name: "Haute Valeur Environnementale (HVE)", Mention: "HVE"},
	{ID: "nature-progres", Name: "Nature & Progrès", Mention: "Nature & Progrès"},
}

// LabelIDs lists the labels' ids, as the API's enum and the CHECK of
// supplied_product_labels.label name them.
const LabelIDs = "ab,conversion,label-rouge,aop,igp,hve,nature-progres"

// LabelOf returns the label with that id.
func LabelOf(id string) (Label, bool) {
	i := slices.IndexFunc(Labels, func(l Label) bool { return l.ID == id })
	if i < 0 {
		return Label{}, false
	}
	return Labels[i], true
}

// certifierCode is the form of a French organic control body's code
// number: FR-BIO- and two digits (the INAO's list of approved bodies).
var certifierCode = regexp.MustCompile(`^FR-BIO-[0-9]{2}$`)

// animalFamilies are the families of products of animal origin, which
// may not say "en conversion": regulation (EU) 2018/848, art. 30(3),
// allows the mention for plant products only.
var animalFamilies = []string{"produits-laitiers", "fromages", "viandes", "volailles", "oeufs", "poissons"}

// DocumentText is what a delivery note and an invoice print after a
// product's name for its labels: each label's mention, an organic one with
// the certifier's code number, which the regulation requires wherever the
// organic terms are used ("Bio FR-BIO-01 · AOP"); "" without labels.
func DocumentText(labels []string, certifier string) string {
	var parts []string
	for _, l := range Labels {
		if !slices.Contains(labels, l.ID) {
			continue
		}
		if l.Organic {
			if certifier == "" {
				continue // never printed without its code number
			}
			parts = append(parts, l.Mention+" "+certifier)
			continue
		}
		parts = append(parts, l.Mention)
	}
	return strings.Join(parts, " · ")
}
