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
	return Take(ctx, q, key, 1)
}

// Take advances the named counter by n (at least 1) inside the caller's
// transaction and returns the first of the n values it takes, by the same
// upsert as Next: bulk writers number many rows at once with no gap and no
// duplicate.
func Take(ctx context.Context, q Q, key string, n int64) (int64, error) {
	if n < 1 {
		return 0, fmt.Errorf("store: counter %s: take %d", key, n)
	}
	var v int64
	err := Get(ctx, q, &v, `INSERT INTO counters (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = counters.value + excluded.value
		RETURNING value`, key, n)
	if err != nil {
		return 0, fmt.Errorf("store: counter %s: %w", key, err)
	}
	return v - n + 1, nil
}
