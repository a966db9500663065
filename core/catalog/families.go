package catalog

import (
	"context"
	"fmt"

	"primeur/core/store"
)

// Family is a family of product types (fruits, légumes, fromages…), as
// the planner and the proposal form group them (DFC: a top concept of the
// product types' taxonomy, DFCType).
type Family struct {
	ID       string `db:"id" json:"_id" example:"fromages"`
	Name     string `db:"name" json:"name" example:"Fromages"`
	Position int    `db:"position" json:"-"`
	DFCType  string `db:"dfc_type" json:"-"`
}

// Families returns the families, in the order the interface lists them.
func Families(ctx context.Context, q store.Q) ([]Family, error) {
	var fs []Family
	if err := store.Select(ctx, q, &fs, `SELECT id, name, position, dfc_type FROM families ORDER BY position`); err != nil {
		return nil, fmt.Errorf("catalog: families: %w", err)
	}
	return fs, nil
}
