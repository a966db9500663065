package accounts

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
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
// The session is the founder's (people.go), the person of the user's id.
func NewSession(ctx context.Context, q store.Q, userID string, now time.Time) (string, error) {
	return NewPersonSession(ctx, q, userID, userID, now)
}

// newToken is a new session token.
func newToken() (string, error) {
	raw := make([]byte, sessionTokenBytes)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("accounts: session token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(raw), nil
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
	s, err := SessionOf(ctx, q, token, now)
	return s.User, err
}

// SessionOf returns the live session of a token: its organisation, its
// person and the person's role there, read again on every request, and
// extends the session's idle expiry, within its maximum lifetime. An
// unknown or expired token, or one whose person is no longer a member of
// the organisation, is core.ErrUnauthenticated.
func SessionOf(ctx context.Context, q store.Q, token string, now time.Time) (Session, error) {
	if token == "" {
		return Session{}, core.ErrUnauthenticated
	}
	var created, lastSeen, expires int64
	var p Person
	var role string
	h := hashToken(token)
	// One statement for the session, its organisation, its person and the
	// membership: every request runs it.
	u, err := getUser(ctx, q, sessionUserQuery, h, &created, &lastSeen, &expires, &p.ID, &p.Email, &p.EmailKey, &p.Name, &role)
	if store.IsNotFound(err) || (err == nil && expires <= now.UnixMilli()) {
		return Session{}, core.ErrUnauthenticated
	}
	if err != nil {
		return Session{}, fmt.Errorf("accounts: session: %w", err)
	}
	if now.UnixMilli()-lastSeen >= sessionTouchEvery.Milliseconds() {
		// A database too busy to take this write, or on a full disk
		// (store.FaultOf), does not fail the request: the session is
		// valid, reads go on, and a later request extends it.
		if _, err := store.Exec(ctx, q, `UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE token_hash = ?`,
			now.UnixMilli(), sessionExpiry(created, now), h); err != nil && !store.IsBusy(err) && store.FaultOf(err) == store.NoFault {
			return Session{}, fmt.Errorf("accounts: touch session: %w", err)
		}
	}
	return Session{User: u, Person: p, Role: role}, nil
}

// sessionUserQuery reads a session's user and the session's times by the
// token's hash.
var sessionUserQuery = `SELECT ` + userColumnsOf("u") + `, s.created_at, s.last_seen_at, s.expires_at,
	p.id, p.email, p.email_key, p.name, m.role
	FROM sessions s JOIN users u ON u.id = s.user_id
	JOIN people p ON p.id = s.person_id AND p.closed_at IS NULL
	JOIN members m ON m.person_id = s.person_id AND m.org_id = s.user_id
	WHERE s.token_hash = ?`

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
	if _, err := store.Exec(ctx, q, `DELETE FROM person_resets WHERE expires_at <= ?`, now.UnixMilli()); err != nil {
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
