package store

import (
	"context"
	"fmt"
)

// Next advances the named counter inside the caller's transaction and
// returns its new value (1 for a new counter). The upsert takes the row's
// lock until the transaction ends, so concurrent transactions get
// consecutive values and a rolled-back one gives its value back: sequences
// have no gap and no duplicate.
func Next(ctx context.Context, q Q, key string) (int64, error) {
	var v int64
	err := Get(ctx, q, &v, `INSERT INTO counters (key, value) VALUES (?, 1)
		ON CONFLICT (key) DO UPDATE SET value = counters.value + 1
		RETURNING value`, key)
	if err != nil {
		return 0, fmt.Errorf("store: counter %s: %w", key, err)
	}
	return v, nil
}
