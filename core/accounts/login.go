package accounts

import (
	"context"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/store"
)

// Login checks the credentials of a client (its network address), subject
// to throttling (throttle.go), and opens a new session. It returns the user
// and the session token. Wrong credentials are a core.Refusal of kind
// core.ErrUnauthenticated; a throttled attempt one of kind
// core.ErrThrottled inside a *limit.Later saying when to try again; a
// hashing gate full past its wait one of kind core.ErrBusy. The attempt is
// counted before the password is hashed, and no transaction is open while
// it is.
func Login(ctx context.Context, db *store.DB, email, password, client string, now time.Time) (User, string, error) {
	a := loginAttempt(email, client)
	if err := a.begin(ctx, db, now); err != nil {
		return User{}, "", err
	}
	// The login is a person's (people.go); the session opens in their
	// latest organisation (loginOrganisation).
	p, err := PersonByEmail(ctx, db, email)
	hash := p.PasswordHash
	if errors.Is(err, core.ErrNotFound) {
		hash = dummyHash
	} else if err != nil {
		return User{}, "", errors.Join(err, a.giveBack(ctx, db))
	}
	ok, err := CheckPassword(ctx, hash, password)
	if err != nil {
		return User{}, "", errors.Join(err, a.giveBack(ctx, db))
	}
	if !ok || p.ID == "" {
		return User{}, "", core.Refuse(core.ErrUnauthenticated, MsgBadCredentials)
	}
	var token string
	var u User
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		if err := a.succeeded(ctx, tx, now); err != nil {
			return err
		}
		org, err := loginOrganisation(ctx, tx, p.ID)
		if err != nil {
			return err
		}
		if u, err = ByID(ctx, tx, org); err != nil {
			return err
		}
		token, err = NewPersonSession(ctx, tx, p.ID, org, now)
		return err
	})
	if errors.Is(err, core.ErrBusy) {
		return User{}, "", errors.Join(err, a.giveBack(ctx, db))
	}
	if err != nil {
		return User{}, "", err
	}
	return u, token, nil
}
