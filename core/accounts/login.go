package accounts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/store"
)

// Login throttling: failures are counted per email and per client address in
// the database (so every replica sees them) over a sliding window; past the
// limit, logins for that key are refused until the block ends.
const (
	throttleWindow       = 15 * time.Minute
	throttleBlock        = 15 * time.Minute
	maxFailuresPerEmail  = 5
	maxFailuresPerClient = 20
)

// Login checks the credentials, subject to throttling, and opens a new
// session. It returns the user and the session token. Wrong credentials are
// a core.Refusal of kind core.ErrUnauthenticated; a throttled attempt is one
// of kind core.ErrThrottled.
func Login(ctx context.Context, db *store.DB, email, password, client string, now time.Time) (User, string, error) {
	keys := []throttleKey{
		{"email:" + EmailKey(email), maxFailuresPerEmail},
		{"client:" + client, maxFailuresPerClient},
	}
	if blocked, err := isBlocked(ctx, db, keys, now); err != nil {
		return User{}, "", err
	} else if blocked {
		return User{}, "", core.Refuse(core.ErrThrottled, MsgThrottled)
	}

	u, err := ByEmail(ctx, db, email)
	hash := u.PasswordHash
	if errors.Is(err, core.ErrNotFound) {
		hash = dummyHash
	} else if err != nil {
		return User{}, "", err
	}
	if !CheckPassword(hash, password) || u.ID == "" {
		if err := recordFailure(ctx, db, keys, now); err != nil {
			return User{}, "", err
		}
		return User{}, "", core.Refuse(core.ErrUnauthenticated, MsgBadCredentials)
	}

	var token string
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := store.Exec(ctx, tx, `DELETE FROM login_throttle WHERE key = ?`, keys[0].key); err != nil {
			return fmt.Errorf("accounts: reset throttle: %w", err)
		}
		token, err = NewSession(ctx, tx, u.ID, now)
		return err
	})
	if err != nil {
		return User{}, "", err
	}
	return u, token, nil
}

type throttleKey struct {
	key   string
	limit int
}

func isBlocked(ctx context.Context, q store.Q, keys []throttleKey, now time.Time) (bool, error) {
	for _, k := range keys {
		var until int64
		err := store.Get(ctx, q, &until, `SELECT blocked_until FROM login_throttle WHERE key = ?`, k.key)
		if store.IsNotFound(err) {
			continue
		}
		if err != nil {
			return false, fmt.Errorf("accounts: throttle: %w", err)
		}
		if until > now.UnixMilli() {
			return true, nil
		}
	}
	return false, nil
}

func recordFailure(ctx context.Context, db *store.DB, keys []throttleKey, now time.Time) error {
	ms := now.UnixMilli()
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		for _, k := range keys {
			var row struct {
				Failures    int   `db:"failures"`
				WindowStart int64 `db:"window_start"`
			}
			err := store.Get(ctx, tx, &row, `SELECT failures, window_start FROM login_throttle WHERE key = ?`+store.ForUpdate(tx), k.key)
			switch {
			case store.IsNotFound(err), err == nil && ms-row.WindowStart > throttleWindow.Milliseconds():
				row.Failures, row.WindowStart = 0, ms
			case err != nil:
				return fmt.Errorf("accounts: throttle: %w", err)
			}
			row.Failures++
			var until int64
			if row.Failures >= k.limit {
				until = now.Add(throttleBlock).UnixMilli()
			}
			_, err = store.Exec(ctx, tx, `INSERT INTO login_throttle (key, failures, window_start, blocked_until)
				VALUES (?, ?, ?, ?)
				ON CONFLICT (key) DO UPDATE SET failures = excluded.failures,
					window_start = excluded.window_start, blocked_until = excluded.blocked_until`,
				k.key, row.Failures, row.WindowStart, until)
			if err != nil {
				return fmt.Errorf("accounts: throttle: %w", err)
			}
		}
		return nil
	})
}
