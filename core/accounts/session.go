package accounts

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"primeur/core"
	"primeur/core/store"
)

const (
	// SessionIdle is how long a session lives without being used.
	SessionIdle = 14 * 24 * time.Hour
	// SessionMax is how long a session lives at most, however often it is
	// used: past it the user logs in again (ASVS 4.0.3 3.3.2).
	SessionMax = 30 * 24 * time.Hour
	// sessionTouchEvery bounds how often a used session's expiry is pushed
	// back, so reads do not write on every request.
	sessionTouchEvery = time.Minute
	sessionTokenBytes = 32
)

// NewSession creates a session for the user and returns its token, which
// only the client keeps: the database stores its SHA-256.
func NewSession(ctx context.Context, q store.Q, userID string, now time.Time) (string, error) {
	raw := make([]byte, sessionTokenBytes)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("accounts: session token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	ms := now.UnixMilli()
	_, err := store.Exec(ctx, q, `INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, expires_at)
		VALUES (?, ?, ?, ?, ?)`, hashToken(token), userID, ms, ms, sessionExpiry(ms, now))
	if err != nil {
		return "", fmt.Errorf("accounts: create session: %w", err)
	}
	return token, nil
}

// sessionExpiry is when a session created at createdMs (Unix ms) and used
// at now expires: SessionIdle after its last use, SessionMax after its
// creation at the latest.
func sessionExpiry(createdMs int64, now time.Time) int64 {
	return min(now.Add(SessionIdle).UnixMilli(), time.UnixMilli(createdMs).Add(SessionMax).UnixMilli())
}

// SessionUser returns the user owning a live session token and extends the
// session's idle expiry, within its maximum lifetime. An unknown or expired token is
// core.ErrUnauthenticated.
func SessionUser(ctx context.Context, q store.Q, token string, now time.Time) (User, error) {
	if token == "" {
		return User{}, core.ErrUnauthenticated
	}
	var s struct {
		UserID     string `db:"user_id"`
		CreatedAt  int64  `db:"created_at"`
		LastSeenAt int64  `db:"last_seen_at"`
		ExpiresAt  int64  `db:"expires_at"`
	}
	h := hashToken(token)
	err := store.Get(ctx, q, &s, `SELECT user_id, created_at, last_seen_at, expires_at FROM sessions WHERE token_hash = ?`, h)
	if store.IsNotFound(err) || (err == nil && s.ExpiresAt <= now.UnixMilli()) {
		return User{}, core.ErrUnauthenticated
	}
	if err != nil {
		return User{}, fmt.Errorf("accounts: session: %w", err)
	}
	if now.UnixMilli()-s.LastSeenAt >= sessionTouchEvery.Milliseconds() {
		// A database too busy to take this write does not fail the request:
		// the session is valid, and a later request extends it.
		if _, err := store.Exec(ctx, q, `UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE token_hash = ?`,
			now.UnixMilli(), sessionExpiry(s.CreatedAt, now), h); err != nil && !store.IsBusy(err) {
			return User{}, fmt.Errorf("accounts: touch session: %w", err)
		}
	}
	u, err := ByID(ctx, q, s.UserID)
	if errors.Is(err, core.ErrNotFound) {
		return User{}, core.ErrUnauthenticated
	}
	return u, err
}

// EndSession deletes the session of that token, if any.
func EndSession(ctx context.Context, q store.Q, token string) error {
	if token == "" {
		return nil
	}
	if _, err := store.Exec(ctx, q, `DELETE FROM sessions WHERE token_hash = ?`, hashToken(token)); err != nil {
		return fmt.Errorf("accounts: end session: %w", err)
	}
	return nil
}

// PurgeSessions deletes expired sessions, password reset links expired
// (used or not) and the throttling counts whose window is over, and returns
// how many sessions and counts it deleted. The purge job runs it hourly;
// what it deletes no longer counts for anything.
func PurgeSessions(ctx context.Context, q store.Q, now time.Time) (sessions, counts int64, err error) {
	sessions, err = store.Exec(ctx, q, `DELETE FROM sessions WHERE expires_at <= ?`, now.UnixMilli())
	if err != nil {
		return 0, 0, fmt.Errorf("accounts: purge sessions: %w", err)
	}
	if _, err := store.Exec(ctx, q, `DELETE FROM password_resets WHERE expires_at <= ?`, now.UnixMilli()); err != nil {
		return sessions, 0, fmt.Errorf("accounts: purge reset links: %w", err)
	}
	counts, err = store.Exec(ctx, q, `DELETE FROM throttle WHERE window_end <= ?`, now.UnixMilli())
	if err != nil {
		return sessions, 0, fmt.Errorf("accounts: purge throttle: %w", err)
	}
	return sessions, counts, nil
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
