package supplied

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"primeur/core"
	"primeur/core/store"
)

// ExportOf returns every product of the producer, retired ones included
// (proposals and documents still name them), by name: its data export
// (core/mydata, produits.json).
func ExportOf(ctx context.Context, q store.Q, producerID string) ([]Product, error) {
	var ids []string
	if err := store.Select(ctx, q, &ids, `SELECT id FROM supplied_products WHERE producer_id = ?`, producerID); err != nil {
		return nil, fmt.Errorf("supplied: export %s: %w", producerID, err)
	}
	byID, err := ByIDs(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Product, 0, len(byID))
	for _, p := range byID {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Product) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// MsgClosed answers the page of a producer whose account is closed.
const MsgClosed = "Ce producteur a fermé son compte : ses produits ne sont plus en vente."

// Page is a producer's live products as its page shows them to shops; a
// producer whose account is closed has none to show: core.ErrNotFound
// with MsgClosed (PRODUCT §3 "Producers' products"). An id that is no
// producer's lists nothing.
func Page(ctx context.Context, q store.Q, producerID string) ([]Product, error) {
	var closed int
	if err := store.Get(ctx, q, &closed, `SELECT COUNT(*) FROM users WHERE id = ? AND closed_at IS NOT NULL`,
		producerID); err != nil {
		return nil, fmt.Errorf("supplied: page %s: %w", producerID, err)
	}
	if closed > 0 {
		return nil, core.Refuse(core.ErrNotFound, MsgClosed)
	}
	return List(ctx, q, producerID)
}
