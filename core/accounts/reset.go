package accounts

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/store"
)

// Password reset (PRODUCT §13 "Password reset"): whoever gives an email
// reads the same answer, whether an account has it or not; an account that
// has it gets a link valid ResetValid, used once, that sets a new password
// and ends every session of the account.
const (
	// ResetValid is how long a reset link works.
	ResetValid = time.Hour
	// MaxResetsPerEmail bounds the links asked for one email in
	// ResetWindow, whoever asks; MaxResetsPerAddress those asked from one
	// client address.
	MaxResetsPerEmail   = 3
	MaxResetsPerAddress = 10
	ResetWindow         = time.Hour
)

// The reset's French texts.
const (
	// MsgResetSent is the one answer to a request, whatever the email.
	MsgResetSent = "Si un compte existe avec cette adresse, un email vient de lui être envoyé avec un lien pour choisir un nouveau mot de passe. Ce lien est valable une heure."
	// MsgResetThrottled refuses a request past a limit.
	MsgResetThrottled = "Trop de demandes de réinitialisation. Veuillez réessayer dans une heure."
	// MsgResetInvalid refuses a link unknown, used or expired.
	MsgResetInvalid = "Ce lien n'est plus valable : il a déjà servi ou a expiré. Demandez-en un nouveau."
)

var (
	resetPerEmail  = rule{prefix: "reset:account:", limit: MaxResetsPerEmail, window: ResetWindow}
	resetPerClient = rule{prefix: "reset:address:", limit: MaxResetsPerAddress, window: ResetWindow}
)

// Reset is a reset link to send: the account and the token of its link,
// which only the email carries.
type Reset struct {
	User  User
	Token string
}

// AskReset counts a request for email from client: what "Mot de passe
// oublié" does before it answers. It reads nothing of the account — the
// counts are keyed by the email's digest, whoever has it — so that the
// answer, MsgResetSent either way, and its time tell nothing of whether an
// account has that email (docs/SECURITY.md "Password reset"). The caller
// then calls IssueReset after answering. Past MaxResetsPerEmail for the
// email or MaxResetsPerAddress for the client, it refuses with
// core.ErrThrottled (a *limit.Later), counted for any email too.
func AskReset(ctx context.Context, db *store.DB, email, client string, now time.Time) error {
	if EmailKey(email) == "" {
		return core.Invalid("email", MsgEmailRequired)
	}
	a := &attempt{
		checks: []check{
			{resetPerClient, resetPerClient.prefix + clientKey(client)},
			{resetPerEmail, resetPerEmail.prefix + accountKey(email)},
		},
		refused: MsgResetThrottled,
	}
	return a.begin(ctx, db, now)
}

// IssueReset is the work of a request AskReset let through that depends on
// the account, done after the answer: when an account has email, it
// records a reset link valid ResetValid and returns it to be emailed; ok is
// false otherwise.
func IssueReset(ctx context.Context, db *store.DB, email string, now time.Time) (r Reset, ok bool, err error) {
	u, err := ByEmail(ctx, db, email)
	if errors.Is(err, core.ErrNotFound) {
		return issuePersonReset(ctx, db, email, now) // a member's own login (people.go)
	}
	if err != nil {
		return Reset{}, false, err
	}
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		r, err = newReset(ctx, tx, u, now)
		return err
	})
	return r, err == nil, err
}

// newReset records a reset link for u, valid ResetValid.
func newReset(ctx context.Context, q store.Q, u User, now time.Time) (Reset, error) {
	raw := make([]byte, sessionTokenBytes)
	if _, err := rand.Read(raw); err != nil {
		return Reset{}, fmt.Errorf("accounts: reset token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	if _, err := store.Exec(ctx, q, `INSERT INTO password_resets (token_hash, user_id, created_at, expires_at)
		VALUES (?, ?, ?, ?)`, hashToken(token), u.ID, now.UnixMilli(), now.Add(ResetValid).UnixMilli()); err != nil {
		return Reset{}, fmt.Errorf("accounts: reset: %w", err)
	}
	return Reset{User: u, Token: token}, nil
}

// ResetPassword sets the password of the account of a reset link's token,
// once: the link must be unused and unexpired, the password follow PRODUCT
// §5's rule (and equal password2 when given). Every session of the account
// ends, and every link of it but its ways back (endCredentials): a pending
// change of the login email with them.
func ResetPassword(ctx context.Context, db *store.DB, token, password string, password2 *string, now time.Time) (User, error) {
	v := &core.ValidationError{}
	if !ValidPassword(password) {
		v.Add("password", MsgPasswordInvalid)
	}
	if password2 != nil && *password2 != password {
		v.Add("password2", MsgPasswordsDiffer)
	}
	if err := v.Err(); err != nil {
		return User{}, err
	}
	// Checked before hashing, so that a dead link costs no hash. A link
	// of a member's own login is people.go's.
	if _, err := liveReset(ctx, db, token, now); err != nil {
		if _, perr := livePersonReset(ctx, db, token, now); perr != nil {
			return User{}, err
		}
		hash, err := HashPassword(ctx, password)
		if err != nil {
			return User{}, err
		}
		return resetPersonPassword(ctx, db, token, hash, now)
	}
	hash, err := HashPassword(ctx, password)
	if err != nil {
		return User{}, err
	}
	var u User
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		userID, err := liveReset(ctx, tx, token, now)
		if err != nil {
			return err
		}
		ms := now.UnixMilli()
		if n, err := store.Exec(ctx, tx, `UPDATE password_resets SET used_at = ? WHERE token_hash = ? AND used_at IS NULL`,
			ms, hashToken(token)); err != nil {
			return fmt.Errorf("accounts: reset: %w", err)
		} else if n != 1 {
			return core.Invalid("token", MsgResetInvalid)
		}
		if _, err := store.Exec(ctx, tx, `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?`, hash, ms, userID); err != nil {
			return fmt.Errorf("accounts: reset: %w", err)
		}
		if err := endCredentials(ctx, tx, userID, "", now); err != nil {
			return err
		}
		u, err = ByID(ctx, tx, userID)
		return err
	})
	return u, err
}

// liveReset is the account of an unused, unexpired reset token, else the
// refusal MsgResetInvalid.
func liveReset(ctx context.Context, q store.Q, token string, now time.Time) (string, error) {
	var userID string
	err := store.Get(ctx, q, &userID, `SELECT user_id FROM password_resets
		WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?`+store.ForUpdate(q), hashToken(token), now.UnixMilli())
	if store.IsNotFound(err) || token == "" {
		return "", core.Invalid("token", MsgResetInvalid)
	}
	if err != nil {
		return "", fmt.Errorf("accounts: reset: %w", err)
	}
	return userID, nil
}

// The password change's French texts.
const (
	// MsgCurrentRequired asks for the current password.
	MsgCurrentRequired = "Saisissez votre mot de passe actuel"
	// MsgCurrentWrong refuses a wrong current password.
	MsgCurrentWrong = "Le mot de passe actuel est incorrect."
)

// ChangePassword sets u's password from the profile: the current password
// must be right — checked as a login attempt from client, throttled alike
// (throttle.go) —, the new one follow PRODUCT §5's rule (and equal
// password2 when given). Every other session of the account ends, and
// every link of it but its ways back (endCredentials): a pending change of
// the login email with them; the session of keepToken stays.
func ChangePassword(ctx context.Context, db *store.DB, u User, current, password string, password2 *string, client, keepToken string, now time.Time) error {
	v := &core.ValidationError{}
	if current == "" {
		v.Add("current", MsgCurrentRequired)
	}
	if !ValidPassword(password) {
		v.Add("password", MsgPasswordInvalid)
	}
	if password2 != nil && *password2 != password {
		v.Add("password2", MsgPasswordsDiffer)
	}
	if err := v.Err(); err != nil {
		return err
	}
	a, err := checkCurrent(ctx, db, u, current, client, now)
	if err != nil {
		return err
	}
	hash, err := HashPassword(ctx, password)
	if err != nil {
		return errors.Join(err, a.giveBack(ctx, db))
	}
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		if err := a.succeeded(ctx, tx, now); err != nil {
			return err
		}
		ms := now.UnixMilli()
		if _, err := store.Exec(ctx, tx, `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?`, hash, ms, u.ID); err != nil {
			return fmt.Errorf("accounts: change password: %w", err)
		}
		return endCredentials(ctx, tx, u.ID, keepToken, now)
	})
}

// checkCurrent checks u's current password as a login attempt from
// client, throttled alike; a wrong one is MsgCurrentWrong on field
// "current". It returns the attempt, for the caller to record its success.
func checkCurrent(ctx context.Context, db *store.DB, u User, current, client string, now time.Time) (*attempt, error) {
	return checkCurrentOn(ctx, db, u, "current", current, client, now)
}

// checkCurrentOn is checkCurrent with the refusal on field.
func checkCurrentOn(ctx context.Context, db *store.DB, u User, field, current, client string, now time.Time) (*attempt, error) {
	a := loginAttempt(u.Email, client)
	if err := a.begin(ctx, db, now); err != nil {
		return nil, err
	}
	fresh, err := ByID(ctx, db, u.ID)
	if err != nil {
		return nil, errors.Join(err, a.giveBack(ctx, db))
	}
	ok, err := CheckPassword(ctx, fresh.PasswordHash, current)
	if err != nil {
		return nil, errors.Join(err, a.giveBack(ctx, db))
	}
	if !ok {
		return nil, core.Invalid(field, MsgCurrentWrong)
	}
	return a, nil
}

// VerifyPassword checks u's current password before an operation that
// needs it (closing the account), as ChangePassword does.
func VerifyPassword(ctx context.Context, db *store.DB, u User, current, client string, now time.Time) error {
	if current == "" {
		return core.Invalid("current", MsgCurrentRequired)
	}
	return verifyPassword(ctx, db, u, "current", current, client, now)
}

// verifyPassword is VerifyPassword for a password given (not empty), its
// refusal on field.
func verifyPassword(ctx context.Context, db *store.DB, u User, field, current, client string, now time.Time) error {
	a, err := checkCurrentOn(ctx, db, u, field, current, client, now)
	if err != nil {
		return err
	}
	return db.Tx(ctx, func(tx *sqlx.Tx) error { return a.succeeded(ctx, tx, now) })
}
