package teams_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/teams"
)

// TestSetName: a person's own name, distinct from the organisation's,
// trimmed; an empty or too long one is refused with the French text and
// changes nothing.
func TestSetName(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := newWorld(t, db)
		before := storetest.Snapshot(t, db)
		for _, c := range []struct{ name, input, msg string }{
			{"empty", "   ", teams.MsgNameRequired},
			{"too long", strings.Repeat("é", 101), teams.MsgNameTooLong},
		} {
			t.Run(c.name, func(t *testing.T) {
				var v *core.ValidationError
				if err := teams.SetName(ctx, db, w.owner.ID, c.input, start); !errors.As(err, &v) || v.Fields[0].Message != c.msg {
					t.Fatalf("%q: %v, want %q", c.input, err, c.msg)
				}
				if after := storetest.Snapshot(t, db); after != before {
					t.Fatalf("a refused name changed:\n%s", storetest.Changes(before, after))
				}
			})
		}
		if err := teams.SetName(ctx, db, w.owner.ID, "  Claire Martin ", start); err != nil {
			t.Fatal(err)
		}
		p, err := accounts.PersonByID(ctx, db, w.owner.ID)
		if err != nil || p.Name != "Claire Martin" {
			t.Fatalf("person %+v (%v)", p, err)
		}
		org, err := accounts.ByID(ctx, db, w.shop.ID)
		if err != nil || org.Name != "Épicerie du Lac" {
			t.Fatalf("the organisation's name changed: %+v (%v)", org.Name, err)
		}
		if err := teams.SetName(ctx, db, "nobody", "Claire", start); !errors.Is(err, core.ErrNotFound) {
			t.Fatalf("an unknown person: %v", err)
		}
	})
}
