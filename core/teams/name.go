package teams

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"primeur/core"
	"primeur/core/store"
)

// SetName gives a person their own name (issue 41, PRODUCT §13 "Teams"),
// which the Team screen, the header and the activity feed show ("Marie
// (Épicerie du Lac) a accepté…"): distinct from the organisation's, which
// its profile names. The name is trimmed, needed, and 100 characters at
// most (the rule of an invitation's acceptance).
func SetName(ctx context.Context, q store.Q, personID, name string, now time.Time) error {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return core.Invalid("name", MsgNameRequired)
	case utf8.RuneCountInString(name) > maxNameLength:
		return core.Invalid("name", MsgNameTooLong)
	}
	n, err := store.Exec(ctx, q, `UPDATE people SET name = ?, updated_at = ? WHERE id = ? AND closed_at IS NULL`, name, now.UnixMilli(), personID)
	if err != nil {
		return fmt.Errorf("teams: set name: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("teams: set name of %s: %w", personID, core.ErrNotFound)
	}
	return nil
}
