package trade

import (
	"context"
	"fmt"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/store"
)

// UpdateProfile stores a user's profile form (accounts.UpdateProfile) and,
// when a producer's delivery days changed, re-plans its open orders onto
// the new days (ReplanProducer, PRODUCT §15), in the caller's transaction.
// The user's row is locked and read again first: whether the days changed
// is decided against the stored ones, and the change serialises with an
// acceptance of a commitment, which locks the producer's row too and
// re-plans the same orders. It returns the updated user.
func UpdateProfile(ctx context.Context, q store.Q, userID string, p accounts.ProfileUpdate, now time.Time) (accounts.User, error) {
	var locked string
	if err := store.Get(ctx, q, &locked, `SELECT id FROM users WHERE id = ?`+store.ForUpdate(q), userID); err != nil {
		if store.IsNotFound(err) {
			return accounts.User{}, fmt.Errorf("trade: user %s: %w", userID, core.ErrNotFound)
		}
		return accounts.User{}, fmt.Errorf("trade: lock user %s: %w", userID, err)
	}
	stored, err := accounts.ByID(ctx, q, userID)
	if err != nil {
		return accounts.User{}, err
	}
	u, daysChanged, err := accounts.UpdateProfile(ctx, q, stored, p, now)
	if err != nil {
		return accounts.User{}, err
	}
	if daysChanged && u.IsProducer() {
		if _, err := ReplanProducer(ctx, q, u.ID, now); err != nil {
			return accounts.User{}, err
		}
	}
	return u, nil
}
