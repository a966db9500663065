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
	return d.userLoad(ctx, q, u)
}
