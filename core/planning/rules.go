// Package planning holds the shops' needs: one quantity per distributor,
// product and month, and every way to write them. New needs and every
// import (a cell of the planner, a bulk add, a file or standard import) go
// through one write path, Write/WriteAll; a need's change or deletion
// (Update, Delete) locks it and applies the same rules, the past month
// (isPast) and the commitment rule (Reserved): a need never goes below
// what producers have committed and proposed on it.
package planning

import (
	"math"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
)

// French messages of PRODUCT §5 (need cell, proposal form) and of the rules
// PRODUCT leaves to the server.
const (
	MsgNegative      = "La valeur saisie doit être supérieure à zéro."
	MsgBelowReserved = "La valeur saisie ne peut être inférieure à la somme des engagements et des propositions non traitées."
	MsgBadWeight     = "Veuillez saisir un poids correct"
	MsgBadPieces     = "Veuillez saisir un nombre de pièces correct"
	MsgTooLarge      = "La valeur saisie est trop grande."
	MsgBadMonth      = "Veuillez saisir un mois valide (AAAA-MM)."
	MsgPastMonth     = "Ce mois est passé : ses besoins ne peuvent plus être modifiés."
	// MsgRetired refuses a new need of a product type an administrator
	// retired (primeur catalogue retire); its existing needs stay.
	MsgRetired       = "Ce produit est retiré du catalogue : il ne prend plus de nouveaux besoins."
	MsgUnknownProd   = "Produit inconnu."
	MsgNeedExists    = "Un besoin existe déjà pour ce produit et ce mois."
	MsgBulkShape     = "Indiquez autant de quantités que de mois (36 au plus)."
	MsgImmutable     = "Le produit et le mois d'un besoin ne peuvent pas être modifiés."
	MsgHasDeliveries = "Des livraisons ont déjà eu lieu pour ce besoin : il ne peut plus être supprimé."
)

// MaxQuantity bounds a monthly need: a million kg or pieces.
const MaxQuantity = decimal.Dec(1_000_000_00)

// MaxBulkMonths bounds a bulk add.
const MaxBulkMonths = 36

// ParseQuantity checks a quantity sent to the API for a product's unit: a
// finite number, at least zero, at most two decimals for kg and whole for
// pieces, by core/decimal's exact rule (12345.675 is refused, never
// rounded). The field name is the one errors report.
func ParseQuantity(field, unit string, f float64) (decimal.Dec, error) {
	bad := MsgBadWeight
	if catalog.Whole(unit) {
		bad = MsgBadPieces
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, core.Invalid(field, bad)
	}
	if f < 0 {
		return 0, core.Invalid(field, MsgNegative)
	}
	if f > MaxQuantity.Float() {
		return 0, core.Invalid(field, MsgTooLarge)
	}
	d, ok := decimal.FromFloat(f)
	if !ok {
		return 0, core.Invalid(field, bad)
	}
	if !catalog.Fits(d, unit) {
		return 0, core.Invalid(field, bad)
	}
	if d > MaxQuantity {
		return 0, core.Invalid(field, MsgTooLarge)
	}
	return d, nil
}

// ParseMonth reads a month as "2026-12", "2026-12-01" or any date of the
// month, and returns its first day, "2026-12-01".
func ParseMonth(field, s string) (string, error) {
	m, ok := calendar.ParseMonth(strings.TrimSpace(s))
	if !ok {
		return "", core.Invalid(field, MsgBadMonth)
	}
	return m.String(), nil
}

// isPast reports whether month is before the month of now (in the business
// time zone now carries, see calendar.Clock).
func isPast(month string, now time.Time) bool {
	return month < calendar.MonthOf(now).String()
}
