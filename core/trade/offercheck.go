package trade

import (
	"primeur/core"
	"primeur/core/decimal"
)

// CheckPrice applies a proposal's price rules (PRODUCT §5 "Proposal
// form") to a price another operation turns into proposals (an offer,
// core/offers): the same messages, on field.
func CheckPrice(field string, f float64) (decimal.Dec, error) {
	d, msg := parsePrice(f)
	if msg != "" {
		return 0, core.Invalid(field, msg)
	}
	return d, nil
}
