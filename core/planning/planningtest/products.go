package planningtest

import (
	"context"
	"fmt"
	"strings"

	"primeur/core/catalog"
	"primeur/core/store"
)

// SyntheticID is the id of the i-th synthetic product.
func SyntheticID(i int) string { return fmt.Sprintf("synth-%05d", i) }

// AddSynthetic adds n synthetic products (kg, no share of the standard
// import) to the catalogue of q, named Synthetic(1…n), for the large-file
// tests and benchmarks.
func AddSynthetic(ctx context.Context, q store.Q, n int) error {
	const batch = 500
	coefs := strings.TrimSuffix(strings.Repeat("1,", 12), ",")
	for start := 1; start <= n; start += batch {
		var b strings.Builder
		b.WriteString(`INSERT INTO products (id, name, name_key, unit, share, ref_price, coefs) VALUES `)
		var args []any
		for i := start; i < start+batch && i <= n; i++ {
			if i > start {
				b.WriteString(", ")
			}
			b.WriteString("(?, ?, ?, 'kg', 0, 100, ?)")
			args = append(args, SyntheticID(i), Synthetic(i), catalog.NameKey(Synthetic(i)), coefs)
		}
		if _, err := store.Exec(ctx, q, b.String(), args...); err != nil {
			return fmt.Errorf("planningtest: add products: %w", err)
		}
	}
	return nil
}
