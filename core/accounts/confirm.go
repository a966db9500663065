package accounts

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/store"
)

// Email confirmation (PRODUCT §13 "Confirming an email"). An address
// receives documents and notifications once a link sent to it was opened:
// the login email given at registration, a new login email (which replaces
// the old one only then). (A shop's accounting email was confirmed alike
// until migrations 72 and 74 made it an accountant member: its links
// died with it.) Accounts made by an
// administrator, the demo or tests count as confirmed; a visitor's
// registration (SignUp) does not.
const (
	// ConfirmValid is how long a confirmation link works.
	ConfirmValid = 7 * 24 * time.Hour
	// MaxConfirmationsPerAccount bounds the links one account asks for
	// (sent again, or a new email) in ConfirmWindow.
	MaxConfirmationsPerAccount = 5
	ConfirmWindow              = time.Hour
)

// Purposes of a confirmation link.
const (
	// ConfirmAccount confirms the login email of a new account.
	ConfirmAccount = "account"
	// ConfirmChange confirms a new login email, which then replaces the
	// old one.
	ConfirmChange = "change"
	// ConfirmRevert is the way back of a confirmed change, sent to the
	// login email it replaced (credentials.go): opened with RevertEmail,
	// never with Confirm.
	ConfirmRevert = "revert"
)

// The confirmation's French texts.
const (
	MsgConfirmInvalid   = "Ce lien de confirmation n'est plus valable : il a déjà servi, a expiré ou l'adresse a changé depuis. Demandez-en un nouveau depuis Primeur."
	MsgConfirmThrottled = "Trop de liens de confirmation demandés. Veuillez réessayer dans une heure."
	MsgAlreadyConfirmed = "Cette adresse est déjà confirmée."
	MsgEmailUnchanged   = "C'est déjà votre adresse email."
	MsgConfirmedAccount = "Votre adresse email est confirmée. Merci !"
	MsgConfirmedChange  = "Votre nouvelle adresse email est confirmée : utilisez-la désormais pour vous connecter."
)

var confirmPerAccount = rule{prefix: "confirm:account:", limit: MaxConfirmationsPerAccount, window: ConfirmWindow}

// Confirmation is a link to email: whom, what for, to which address, and
// the token only the email carries. Taken marks a change of the login
// email to an address another account has or holds (RequestEmailChange):
// its link is recorded but never sent — the address is told instead.
type Confirmation struct {
	User    User
	Purpose string
	Email   string
	Token   string
	Taken   bool
}

// EmailConfirmed reports whether u's login email is confirmed.
func (u User) EmailConfirmed() bool {
	return u.EmailConfirmedKey != "" && u.EmailConfirmedKey == u.EmailKey
}

// newConfirmation records a link for u of purpose to email, valid
// ConfirmValid; earlier links of the same purpose stop working.
func newConfirmation(ctx context.Context, q store.Q, u User, purpose, email string, now time.Time) (Confirmation, error) {
	if _, err := store.Exec(ctx, q, `UPDATE email_confirmations SET used_at = ? WHERE user_id = ? AND purpose = ? AND used_at IS NULL`,
		now.UnixMilli(), u.ID, purpose); err != nil {
		return Confirmation{}, fmt.Errorf("accounts: confirmation: %w", err)
	}
	return insertLink(ctx, q, u, purpose, email, ConfirmValid, now)
}

// insertLink records a link for u of purpose to email, valid for valid,
// leaving the account's other links as they are.
func insertLink(ctx context.Context, q store.Q, u User, purpose, email string, valid time.Duration, now time.Time) (Confirmation, error) {
	raw := make([]byte, sessionTokenBytes)
	if _, err := rand.Read(raw); err != nil {
		return Confirmation{}, fmt.Errorf("accounts: confirmation token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	email = strings.TrimSpace(email)
	if _, err := store.Exec(ctx, q, `INSERT INTO email_confirmations (token_hash, user_id, purpose, email, email_key, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, hashToken(token), u.ID, purpose, email, EmailKey(email), now.UnixMilli(), now.Add(valid).UnixMilli()); err != nil {
		return Confirmation{}, fmt.Errorf("accounts: confirmation: %w", err)
	}
	return Confirmation{User: u, Purpose: purpose, Email: email, Token: token}, nil
}

// ResendConfirmation records a new link for u's login email (which is
// ConfirmAccount), when that address is not confirmed yet; at most MaxConfirmationsPerAccount an hour
// (core.ErrThrottled in a *limit.Later past it).
func ResendConfirmation(ctx context.Context, db *store.DB, u User, which string, now time.Time) (Confirmation, error) {
	v := &core.ValidationError{}
	switch which {
	case ConfirmAccount:
		if u.EmailConfirmed() {
			v.Add("which", MsgAlreadyConfirmed)
		}
	default:
		v.Add("which", "Choisissez l'adresse à confirmer.")
	}
	if err := v.Err(); err != nil {
		return Confirmation{}, err
	}
	if err := confirmAttempt(u).begin(ctx, db, now); err != nil {
		return Confirmation{}, err
	}
	return newConfirmation(ctx, db, u, which, u.Email, now)
}

func confirmAttempt(u User) *attempt {
	return &attempt{
		checks:  []check{{confirmPerAccount, confirmPerAccount.prefix + u.ID}},
		refused: MsgConfirmThrottled,
	}
}

// RequestEmailChange records a link confirming email as u's new login
// email: the current password must be right (checked and throttled as a
// login attempt from client), the address valid and another than u's.
// Each request the password lets through counts against the account's
// links (MaxConfirmationsPerAccount an hour, whatever the address). An
// address another account has, or a way back holds (emailTaken), is answered
// alike — the same link recorded, so the same pending address —, marked
// Taken: the caller tells that address instead of sending the link, so
// that neither the answer nor the profile tells whether the address is
// registered (PRODUCT §13 "Changing the login email"). The login email
// changes only when the link is opened (Confirm).
func RequestEmailChange(ctx context.Context, db *store.DB, u User, current, email, client string, now time.Time) (Confirmation, error) {
	v := &core.ValidationError{}
	if current == "" {
		v.Add("current", MsgCurrentRequired)
	}
	email = strings.TrimSpace(email)
	switch {
	case email == "":
		v.Add("email", MsgEmailRequired)
	case !ValidEmail(email):
		v.Add("email", MsgEmailInvalid)
	case EmailKey(email) == u.EmailKey:
		v.Add("email", MsgEmailUnchanged)
	}
	if err := v.Err(); err != nil {
		return Confirmation{}, err
	}
	a, err := checkCurrent(ctx, db, u, current, client, now)
	if err != nil {
		return Confirmation{}, err
	}
	if err := db.Tx(ctx, func(tx *sqlx.Tx) error { return a.succeeded(ctx, tx, now) }); err != nil {
		return Confirmation{}, err
	}
	if err := confirmAttempt(u).begin(ctx, db, now); err != nil {
		return Confirmation{}, err
	}
	var c Confirmation
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		taken, err := emailTaken(ctx, tx, email, u.ID, now)
		if err != nil {
			return err
		}
		c, err = newConfirmation(ctx, tx, u, ConfirmChange, email, now)
		c.Taken = taken
		return err
	})
	return c, err
}

// PendingEmail is the new login email u asked for and has not confirmed
// yet (a live ConfirmChange link), or "".
func PendingEmail(ctx context.Context, q store.Q, userID string, now time.Time) (string, error) {
	var emails []string
	if err := store.Select(ctx, q, &emails, `SELECT email FROM email_confirmations
		WHERE user_id = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?
		ORDER BY created_at DESC LIMIT 1`, userID, ConfirmChange, now.UnixMilli()); err != nil {
		return "", fmt.Errorf("accounts: pending email: %w", err)
	}
	if len(emails) == 0 {
		return "", nil
	}
	return emails[0], nil
}

// Confirmed is what a confirmation link did: the account as it is now,
// the purpose, and for a ConfirmChange the login email it replaced and
// the token of the way back to it (ConfirmRevert), to email there.
type Confirmed struct {
	User     User
	Purpose  string
	OldEmail string
	Revert   string
}

// Message is the sentence that answers the link.
func (c Confirmed) Message() string {
	switch c.Purpose {
	case ConfirmChange:
		return MsgConfirmedChange
	}
	return MsgConfirmedAccount
}

// Confirm opens a confirmation link, once: an unused, unexpired token
// whose address is still the one to confirm (an account's login email that
// changed since makes the link dead: MsgConfirmInvalid, as does a link
// of a purpose no more, a shop's accounting email's). A ConfirmChange link replaces the login
// email — refused with MsgEmailTaken when another account took or holds the
// address meanwhile — ends the account's other links but its ways back,
// and its reset links, and records the way back to
// the old address, valid RevertValid (credentials.go).
func Confirm(ctx context.Context, db *store.DB, token string, now time.Time) (Confirmed, error) {
	var out Confirmed
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var link struct {
			UserID  string `db:"user_id"`
			Purpose string `db:"purpose"`
			Email   string `db:"email"`
		}
		err := store.Get(ctx, tx, &link, `SELECT user_id, purpose, email FROM email_confirmations
			WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?`+store.ForUpdate(tx), hashToken(token), now.UnixMilli())
		if store.IsNotFound(err) || token == "" {
			return core.Invalid("token", MsgConfirmInvalid)
		}
		if err != nil {
			return fmt.Errorf("accounts: confirm: %w", err)
		}
		u, err := ByID(ctx, tx, link.UserID)
		if err != nil {
			return err
		}
		ms, key := now.UnixMilli(), EmailKey(link.Email)
		var update string
		var args []any
		switch link.Purpose {
		case ConfirmAccount:
			if key != u.EmailKey {
				return core.Invalid("token", MsgConfirmInvalid)
			}
			update, args = `UPDATE users SET email_confirmed = ?, updated_at = ? WHERE id = ?`, []any{key, ms, u.ID}
		case ConfirmChange:
			if taken, err := emailTaken(ctx, tx, link.Email, u.ID, now); err != nil {
				return err
			} else if taken {
				return core.Invalid("token", MsgEmailTaken)
			}
			update = `UPDATE users SET email = ?, email_key = ?, email_confirmed = ?, updated_at = ? WHERE id = ?`
			args = []any{link.Email, key, key, ms, u.ID}
			out.OldEmail = u.Email
		default:
			return core.Invalid("token", MsgConfirmInvalid)
		}
		if _, err := store.Exec(ctx, tx, update, args...); err != nil {
			if store.IsUniqueViolation(err) {
				return core.Invalid("token", MsgEmailTaken)
			}
			return fmt.Errorf("accounts: confirm: %w", err)
		}
		if err := SyncFounder(ctx, tx, u.ID); err != nil {
			return err
		}
		if _, err := store.Exec(ctx, tx, `UPDATE email_confirmations SET used_at = ? WHERE token_hash = ?`, ms, hashToken(token)); err != nil {
			return fmt.Errorf("accounts: confirm: %w", err)
		}
		if link.Purpose == ConfirmChange {
			// Links sent to the old address, or to confirm it, die with it;
			// the ways back of earlier changes stay (a chain of changes is
			// undone from its start).
			if _, err := store.Exec(ctx, tx, `UPDATE email_confirmations SET used_at = ?
				WHERE user_id = ? AND purpose <> ? AND used_at IS NULL`, ms, u.ID, ConfirmRevert); err != nil {
				return fmt.Errorf("accounts: confirm: %w", err)
			}
			if _, err := store.Exec(ctx, tx, `UPDATE password_resets SET used_at = ? WHERE user_id = ? AND used_at IS NULL`, ms, u.ID); err != nil {
				return fmt.Errorf("accounts: confirm: %w", err)
			}
			back, err := insertLink(ctx, tx, u, ConfirmRevert, u.Email, RevertValid, now)
			if err != nil {
				return err
			}
			out.Revert = back.Token
		}
		out.Purpose = link.Purpose
		out.User, err = ByID(ctx, tx, u.ID)
		return err
	})
	return out, err
}

// ConfirmedAddresses returns, of addrs, those some account confirmed as
// its login email or some person as their login
// (a member of a team, issue 41), in the order given: the
// addresses documents and notifications may go to.
func ConfirmedAddresses(ctx context.Context, q store.Q, addrs []string) ([]string, error) {
	keys := make([]string, 0, len(addrs))
	for _, a := range addrs {
		if k := EmailKey(a); k != "" {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil, nil
	}
	var found []string
	if err := store.SelectIn(ctx, q, &found, `SELECT email_confirmed FROM users WHERE email_confirmed IN (?)
		UNION SELECT email_confirmed FROM people WHERE email_confirmed IN (?)`, keys, keys); err != nil {
		return nil, fmt.Errorf("accounts: confirmed addresses: %w", err)
	}
	ok := make(map[string]bool, len(found))
	for _, f := range found {
		ok[f] = true
	}
	var out []string
	for _, a := range addrs {
		if ok[EmailKey(a)] {
			out = append(out, a)
		}
	}
	return out, nil
}
