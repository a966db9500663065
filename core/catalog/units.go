package catalog

import (
	"strings"

	"primeur/core/decimal"
)

// Units of need. A product type's unit is the one a shop plans its needs,
// a producer proposes and delivers, and an invoice bills in (DFC: the
// quantity unit of a product type's needs; PRODUCT §3 "Units").
const (
	Kg        = "kg"
	Litre     = "l"
	Piece     = "un"
	Dozen     = "douzaine"
	Bunch     = "botte"
	Tray      = "barquette"
	Bottle    = "bouteille"
	Jar       = "pot"
	unitCount = 8
)

// Unit describes a unit of need.
type Unit struct {
	// ID is the unit as stored (products.unit) and as the API sends it.
	ID string `json:"_id" example:"kg"`
	// Symbol follows a quantity in a sentence and on a document: "12,50
	// kg", "3 L"; empty for the counted units, which say their name.
	Symbol string `json:"symbol"`
	// Singular and Plural name the unit: "pièce", "pièces".
	Singular string `json:"singular"`
	Plural   string `json:"plural"`
	// Whole is true for a unit counted in whole units (pieces, dozens,
	// bunches…): its quantities have no decimals. A measured unit (kg,
	// litre) takes two.
	Whole bool `json:"whole"`
	// Short names it in a document's narrow unit column: "kg", "pièce",
	// "bout." (at most 8 characters).
	Short string `json:"-"`
	// Code is its UN/ECE Recommendation 20 code (with Recommendation 21's
	// packages as X codes), BT-130 of an invoice line.
	Code string `json:"-"`
}

// Units are the units of need, in the order forms offer them. A new unit
// is one line here (its Code in EN 16931's code list), the same in
// ui/src/units.ts, and a migration adding it to products.unit's CHECK.
var Units = [unitCount]Unit{
	{ID: Kg, Symbol: "kg", Singular: "kilogramme", Plural: "kilogrammes", Code: "KGM", Short: "kg"},
	{ID: Litre, Symbol: "L", Singular: "litre", Plural: "litres", Code: "LTR", Short: "L"},
	{ID: Piece, Singular: "pièce", Plural: "pièces", Whole: true, Code: "H87", Short: "pièce"},
	{ID: Dozen, Singular: "douzaine", Plural: "douzaines", Whole: true, Code: "DZN", Short: "douz."},
	{ID: Bunch, Singular: "botte", Plural: "bottes", Whole: true, Code: "XBH", Short: "botte"},
	{ID: Tray, Singular: "barquette", Plural: "barquettes", Whole: true, Code: "XPU", Short: "barq."},
	{ID: Bottle, Singular: "bouteille", Plural: "bouteilles", Whole: true, Code: "XBO", Short: "bout."},
	{ID: Jar, Singular: "pot", Plural: "pots", Whole: true, Code: "XPT", Short: "pot"},
}

// UnitIDs lists the units' ids, as the API's enum and the CHECK of
// products.unit name them.
const UnitIDs = "kg,l,un,douzaine,botte,barquette,bouteille,pot"

// UnitOf returns the unit with that id.
func UnitOf(id string) (Unit, bool) {
	for _, u := range Units {
		if u.ID == id {
			return u, true
		}
	}
	return Unit{}, false
}

// Whole is THE rule of quantities: a unit counted in whole units (pieces,
// dozens, bunches, trays, bottles, jars) takes whole quantities only; a
// measured one (kg, litre) takes two decimals. An unknown unit counts as
// measured, the more lenient reading, which no stored product has (the
// CHECK of products.unit).
func Whole(unit string) bool {
	u, ok := UnitOf(unit)
	return ok && u.Whole
}

// Fits reports whether a quantity fits its unit: whole for a counted unit.
func Fits(d decimal.Dec, unit string) bool { return !Whole(unit) || d.IsWhole() }

// UnitLabel names a unit after a price ("€ / kg", "€ / pièce") and in a
// document's unit column: its symbol, else its singular.
func UnitLabel(unit string) string {
	u, ok := UnitOf(unit)
	switch {
	case !ok:
		return unit
	case u.Symbol != "":
		return u.Symbol
	}
	return u.Singular
}

// ShortLabel names a unit in a document's narrow unit column: "kg",
// "pièce", "douz.", "bout.".
func ShortLabel(unit string) string {
	if u, ok := UnitOf(unit); ok {
		return u.Short
	}
	return unit
}

// UnitCode is the UN/ECE code of a unit on an invoice line (BT-130); a
// unit this list does not know is billed as pieces (H87).
func UnitCode(unit string) string {
	if u, ok := UnitOf(unit); ok {
		return u.Code
	}
	return "H87"
}

// QuantityText writes a quantity with its unit in a sentence: "12,50 kg",
// "3 L", "1 pièce", "2 douzaines"; a whole quantity without ",00".
func QuantityText(d decimal.Dec, unit string) string {
	q := strings.TrimSuffix(d.French(), ",00")
	u, ok := UnitOf(unit)
	switch {
	case !ok:
		return q + " " + unit
	case u.Symbol != "":
		return q + " " + u.Symbol
	case d == decimal.Hundred || d == -decimal.Hundred:
		return q + " " + u.Singular
	}
	return q + " " + u.Plural
}

// UnitName names a unit after "en" in a sentence — a refusal, the CLI's
// line of a type —: its plural, followed for a measured unit by the
// symbol a file or a form may write ("kilogrammes (kg)", "litres (L)");
// a counted unit by its plural alone ("pièces", "douzaines", "pots"),
// which a file may write as it is. Its id ("un", "douzaine") is no French
// word a user reads (issue 39).
func UnitName(unit string) string {
	u, ok := UnitOf(unit)
	switch {
	case !ok:
		return unit
	case u.Symbol != "":
		return u.Plural + " (" + u.Symbol + ")"
	}
	return u.Plural
}
