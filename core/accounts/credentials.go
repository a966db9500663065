package accounts

import (
	"context"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/store"
)

// Credentials and their side doors (PRODUCT §13, docs/SECURITY.md
// "Credentials and their side doors"). Whoever learnt the password must
// not keep the account once its owner sets a new one, nor move it to an
// address of theirs for good:
//
//   - a new password (reset link, profile, administrator) ends every
//     session (but the one changing it from the profile), every reset link
//     and every confirmation link of the account — a pending change of the
//     login email among them (endCredentials);
//   - a confirmed change of the login email sends the address it replaced
//     a way back (ConfirmRevert), valid RevertValid, that restores it, ends
//     every session and link, voids the password and sends a reset link
//     there (RevertEmail). While it lives, the old address is held for the
//     account: no other account registers it or changes to it
//     (emailTaken), so that whoever took the account cannot block the way
//     back. Ways back survive new passwords: whoever took the account
//     could otherwise end the owner's by resetting the password.
const (
	// RevertValid is how long the way back of a login email change works:
	// as long as the change's own confirmation link, long enough for an
	// owner who reads their mail weekly.
	RevertValid = 7 * 24 * time.Hour
)

// The way back's French texts.
const (
	// MsgRevertInvalid refuses a way back unknown, used, expired or
	// undone by an earlier one.
	MsgRevertInvalid = "Ce lien n'est plus valable : il a déjà servi, a expiré ou l'adresse a été rétablie depuis. Si votre compte vous échappe, répondez à l'email qui le contenait."
	// MsgReverted answers a way back; %s is the address restored.
	MsgReverted = "Votre adresse de connexion est de nouveau %s. Toutes les sessions du compte sont fermées et, par précaution, son mot de passe ne fonctionne plus : un email vient d'être envoyé à cette adresse avec un lien pour en choisir un nouveau."
)

// endCredentials ends in tx what a new password voids on the account
// userID: every session but keepToken's (every one when it is empty),
// every reset link, and every confirmation link but the ways back — a
// pending change of the login email, a registration or accounting link
// alike (a new one is asked from the profile).
func endCredentials(ctx context.Context, tx store.Q, userID, keepToken string, now time.Time) error {
	ms := now.UnixMilli()
	// The login is the founder's (people.go): their sessions end, in
	// every organisation, the other members' stay.
	if err := SyncFounder(ctx, tx, userID); err != nil {
		return err
	}
	if keepToken == "" {
		if _, err := store.Exec(ctx, tx, `DELETE FROM sessions WHERE person_id = ?`, userID); err != nil {
			return fmt.Errorf("accounts: end sessions: %w", err)
		}
	} else if _, err := store.Exec(ctx, tx, `DELETE FROM sessions WHERE person_id = ? AND token_hash <> ?`, userID, hashToken(keepToken)); err != nil {
		return fmt.Errorf("accounts: end sessions: %w", err)
	}
	if _, err := store.Exec(ctx, tx, `UPDATE password_resets SET used_at = ? WHERE user_id = ? AND used_at IS NULL`, ms, userID); err != nil {
		return fmt.Errorf("accounts: end reset links: %w", err)
	}
	if _, err := store.Exec(ctx, tx, `UPDATE email_confirmations SET used_at = ? WHERE user_id = ? AND purpose <> ? AND used_at IS NULL`,
		ms, userID, ConfirmRevert); err != nil {
		return fmt.Errorf("accounts: end confirmation links: %w", err)
	}
	return nil
}

// emailTaken reports whether email is another account's than userID's:
// its login email, or held by a live way back of it (an address it had
// until a change of less than RevertValid ago).
func emailTaken(ctx context.Context, q store.Q, email, userID string, now time.Time) (bool, error) {
	var n int
	if err := store.Get(ctx, q, &n, `SELECT
		(SELECT COUNT(*) FROM users WHERE email_key = ? AND id <> ?) +
		(SELECT COUNT(*) FROM people WHERE email_key = ? AND id <> ?) +
		(SELECT COUNT(*) FROM email_confirmations WHERE email_key = ? AND purpose = ? AND used_at IS NULL AND expires_at > ? AND user_id <> ?)`,
		EmailKey(email), userID, EmailKey(email), userID, EmailKey(email), ConfirmRevert, now.UnixMilli(), userID); err != nil {
		return false, fmt.Errorf("accounts: email taken: %w", err)
	}
	return n > 0, nil
}

// unusableHash is a password hash of the real parameters that no known
// password gives (random salt and key): the account's password no longer
// works, and a login with it costs what any login costs.
func unusableHash() (string, error) {
	salt, key := make([]byte, argonSaltLen), make([]byte, argonKeyLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("accounts: unusable hash: %w", err)
	}
	if _, err := rand.Read(key); err != nil {
		return "", fmt.Errorf("accounts: unusable hash: %w", err)
	}
	return phc(salt, key), nil
}

// Reverted is what a way back did: the account as it is now, with its
// login email restored, and the reset link to email there.
type Reverted struct {
	User  User
	Reset Reset
}

// Message is the sentence that answers the way back.
func (r Reverted) Message() string { return fmt.Sprintf(MsgReverted, r.User.Email) }

// RevertEmail opens a way back (ConfirmRevert), once: an unused,
// unexpired token. In one transaction the login email becomes again the
// address the link was sent to (confirmed: the link reached it), the
// password is voided, every session, reset link and confirmation link of
// the account ends — a pending change with them — and so do the ways back
// of the changes made since the one it undoes (those of earlier changes
// stay: a chain of changes is undone from its start, never from its end);
// then a reset link is recorded, for the caller to email to the restored
// address. An address another account took meanwhile refuses it with
// MsgEmailTaken, nothing changed.
func RevertEmail(ctx context.Context, db *store.DB, token string, now time.Time) (Reverted, error) {
	hash, err := unusableHash()
	if err != nil {
		return Reverted{}, err
	}
	var out Reverted
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		var link struct {
			UserID    string `db:"user_id"`
			Email     string `db:"email"`
			CreatedAt int64  `db:"created_at"`
		}
		err := store.Get(ctx, tx, &link, `SELECT user_id, email, created_at FROM email_confirmations
			WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?`+store.ForUpdate(tx),
			hashToken(token), ConfirmRevert, now.UnixMilli())
		if store.IsNotFound(err) || token == "" {
			return core.Invalid("token", MsgRevertInvalid)
		}
		if err != nil {
			return fmt.Errorf("accounts: revert email: %w", err)
		}
		if taken, err := emailTaken(ctx, tx, link.Email, link.UserID, now); err != nil {
			return err
		} else if taken {
			return core.Invalid("token", MsgEmailTaken)
		}
		ms, key := now.UnixMilli(), EmailKey(link.Email)
		if _, err := store.Exec(ctx, tx, `UPDATE users SET email = ?, email_key = ?, email_confirmed = ?, password_hash = ?, updated_at = ?
			WHERE id = ?`, link.Email, key, key, hash, ms, link.UserID); err != nil {
			if store.IsUniqueViolation(err) {
				return core.Invalid("token", MsgEmailTaken)
			}
			return fmt.Errorf("accounts: revert email: %w", err)
		}
		if err := endCredentials(ctx, tx, link.UserID, "", now); err != nil {
			return err
		}
		if _, err := store.Exec(ctx, tx, `UPDATE email_confirmations SET used_at = ?
			WHERE user_id = ? AND purpose = ? AND used_at IS NULL AND created_at >= ?`,
			ms, link.UserID, ConfirmRevert, link.CreatedAt); err != nil {
			return fmt.Errorf("accounts: revert email: %w", err)
		}
		u, err := ByID(ctx, tx, link.UserID)
		if err != nil {
			return err
		}
		r, err := newReset(ctx, tx, u, now)
		out = Reverted{User: u, Reset: r}
		return err
	})
	if err != nil {
		return Reverted{}, err
	}
	return out, nil
}
