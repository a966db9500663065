package daemon

import (
	"context"

	"primeur/core/accounts"
	"primeur/core/store"
)

// UserLoadOn builds the user load of the account with this email as GET
// /api/user does, every read of the load on q: for the user load's
// benchmark, which records the reads (their SQL texts and arguments) to
// run them again as its limit, and encodes the value with encoding/json.
func (d *Daemon) UserLoadOn(ctx context.Context, q store.Q, email string) (UserLoad, error) {
	u, err := accounts.ByEmail(ctx, d.db, email)
	if err != nil {
		return UserLoad{}, err
	}
	// As its founder's session reads it (teams: the person, the role).
	p, err := accounts.PersonByID(ctx, d.db, u.ID)
	if err != nil {
		return UserLoad{}, err
	}
	ctx = context.WithValue(ctx, sessionKey, accounts.Session{User: u, Person: p, Role: accounts.RoleOwner})
	return d.userLoad(ctx, q, u)
}
