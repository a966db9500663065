package teams_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/teams"
)

var start = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

const password = "motdepasse1"

// world is a shop and a farm, each with its founder.
type world struct {
	db         *store.DB
	shop, farm accounts.User
	owner      accounts.Person
}

func newWorld(t *testing.T, db *store.DB) *world {
	t.Helper()
	ctx := context.Background()
	shop, err := accounts.Register(ctx, db, accounts.Registration{Email: "epicerie@lac.fr", Password: password, Name: "Épicerie du Lac", Distributor: true}, start)
	if err != nil {
		t.Fatal(err)
	}
	farm, err := accounts.Register(ctx, db, accounts.Registration{Email: "ferme@aravis.fr", Password: password, Name: "Ferme des Aravis"}, start)
	if err != nil {
		t.Fatal(err)
	}
	owner, err := accounts.PersonByID(ctx, db, shop.ID)
	if err != nil {
		t.Fatal(err)
	}
	return &world{db: db, shop: shop, farm: farm, owner: owner}
}

func (w *world) invite(t *testing.T, org accounts.User, email, role string, now time.Time) teams.Sent {
	t.Helper()
	var s teams.Sent
	if err := w.db.Tx(context.Background(), func(tx *sqlx.Tx) error {
		var err error
		s, err = teams.Invite(context.Background(), tx, org, w.owner, email, role, now)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return s
}

func (w *world) tx(fn func(tx *sqlx.Tx) error) error { return w.db.Tx(context.Background(), fn) }

// refusal is the French message of a refusal or of its one field.
func refusal(err error) string {
	var v *core.ValidationError
	if errors.As(err, &v) && len(v.Fields) > 0 {
		return v.Fields[0].Message
	}
	var r *core.Refusal
	if errors.As(err, &r) {
		return r.Message
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// TestInvitationRules: what an invitation refuses, each refusal changing
// nothing.
func TestInvitationRules(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := newWorld(t, db)
		ctx := context.Background()
		before := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...)
		for _, tt := range []struct {
			name, email, role string
			org               accounts.User
			want              string
		}{
			{"no address", " ", accounts.RoleBuyer, w.shop, accounts.MsgEmailRequired},
			{"not an address", "marie", accounts.RoleBuyer, w.shop, accounts.MsgEmailInvalid},
			{"a farm's role in a shop", "marie@lac.fr", accounts.RoleSales, w.shop, accounts.MsgRoleUnknown},
			{"a shop's role in a farm", "paul@aravis.fr", accounts.RoleBuyer, w.farm, accounts.MsgRoleUnknown},
			{"no role", "marie@lac.fr", "", w.shop, accounts.MsgRoleUnknown},
			{"a member already", " EPICERIE@lac.fr", accounts.RoleBuyer, w.shop, teams.MsgAlreadyMember},
		} {
			t.Run(tt.name, func(t *testing.T) {
				err := w.tx(func(tx *sqlx.Tx) error {
					_, err := teams.Invite(ctx, tx, tt.org, w.owner, tt.email, tt.role, start)
					return err
				})
				if got := refusal(err); got != tt.want {
					t.Fatalf("%q, want %q", got, tt.want)
				}
			})
		}
		if after := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...); after != before {
			t.Fatalf("refused invitations changed the database:\n%s", storetest.Changes(before, after))
		}
	})
}

// TestAcceptingAnInvitation: a link is used once, before it expires; it
// creates the login, or joins the existing one with its password; a new
// invitation of the same address kills the earlier link.
func TestAcceptingAnInvitation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := newWorld(t, db)
		ctx := context.Background()
		marie := w.invite(t, w.shop, "Marie@Lac.fr", accounts.RoleBuyer, start)
		old := w.invite(t, w.shop, "compta@cabinet.fr", accounts.RoleAccountant, start)
		compta := w.invite(t, w.shop, "compta@cabinet.fr", accounts.RoleAccountant, start)
		late := w.invite(t, w.shop, "tard@lac.fr", accounts.RoleReceiver, start)
		// The shop's owner, invited into the farm: an existing login.
		owner := w.invite(t, w.farm, "epicerie@lac.fr", accounts.RoleAccountant, start)
		if marie.HasLogin || !owner.HasLogin {
			t.Fatalf("has a login: marie %v, the owner %v", marie.HasLogin, owner.HasLogin)
		}
		later := start.Add(time.Hour)
		for _, tt := range []struct {
			name string
			a    teams.Acceptance
			now  time.Time
			want string // the refusal, "" for accepted
			org  accounts.User
			role string
		}{
			{"no name", teams.Acceptance{Token: marie.Token, Password: password}, later, teams.MsgNameRequired, w.shop, ""},
			{"a weak password", teams.Acceptance{Token: marie.Token, Name: "Marie", Password: "court"}, later, accounts.MsgPasswordInvalid, w.shop, ""},
			{"a new login", teams.Acceptance{Token: marie.Token, Name: " Marie ", Password: password}, later, "", w.shop, accounts.RoleBuyer},
			{"used already", teams.Acceptance{Token: marie.Token, Name: "Marie", Password: password}, later, teams.MsgInvitationInvalid, w.shop, ""},
			{"replaced by a new one", teams.Acceptance{Token: old.Token, Name: "Compta", Password: password}, later, teams.MsgInvitationInvalid, w.shop, ""},
			{"the new one", teams.Acceptance{Token: compta.Token, Name: "Cabinet Compta", Password: password}, later, "", w.shop, accounts.RoleAccountant},
			{"expired", teams.Acceptance{Token: late.Token, Name: "Tard", Password: password}, start.Add(teams.InvitationValid), teams.MsgInvitationInvalid, w.shop, ""},
			{"an unknown token", teams.Acceptance{Token: "pas-un-jeton", Name: "X", Password: password}, later, teams.MsgInvitationInvalid, w.shop, ""},
			{"an existing login, a wrong password", teams.Acceptance{Token: owner.Token, Password: "pas-le-bon1"}, later, accounts.MsgBadCredentials, w.farm, ""},
			{"an existing login", teams.Acceptance{Token: owner.Token, Password: password}, later, "", w.farm, accounts.RoleAccountant},
		} {
			t.Run(tt.name, func(t *testing.T) {
				before := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...)
				a, err := teams.Accept(ctx, db, tt.a, tt.now)
				if got := refusal(err); got != tt.want {
					t.Fatalf("%q, want %q", got, tt.want)
				}
				if tt.want != "" {
					if after := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...); after != before {
						t.Fatalf("a refused acceptance changed the database:\n%s", storetest.Changes(before, after))
					}
					return
				}
				s, err := accounts.SessionOf(ctx, db, a.Session, tt.now)
				if err != nil {
					t.Fatal(err)
				}
				if s.User.ID != tt.org.ID || s.Role != tt.role || s.Person.ID != a.Person.ID {
					t.Fatalf("session in %s as %s (%s), want %s as %s", s.User.Name, s.Role, s.Person.Name, tt.org.Name, tt.role)
				}
			})
		}
		// Marie logs in with her own address and password, into the shop; the
		// owner belongs to two organisations, by name (É after F).
		u, _, err := accounts.Login(ctx, db, "marie@lac.fr", password, "192.0.2.1", later)
		if err != nil || u.ID != w.shop.ID {
			t.Fatalf("Marie's login: %s, %v", u.Name, err)
		}
		ms, err := accounts.Memberships(ctx, db, w.owner.ID)
		if err != nil || len(ms) != 2 || ms[0].OrgID != w.farm.ID || ms[0].Role != accounts.RoleAccountant || ms[1].Role != accounts.RoleOwner {
			t.Fatalf("the owner's organisations %+v, %v", ms, err)
		}
	})
}

// TestMembersRolesAndTheLastOwner: changing a role or removing a member
// ends their sessions there at once (not elsewhere); the last owner
// neither leaves nor loses the role; another organisation's member is
// not found.
func TestMembersRolesAndTheLastOwner(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := newWorld(t, db)
		ctx := context.Background()
		join := func(org accounts.User, email, role string) teams.Accepted {
			s := w.invite(t, org, email, role, start)
			a, err := teams.Accept(ctx, db, teams.Acceptance{Token: s.Token, Name: email, Password: password}, start)
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
		marie := join(w.shop, "marie@lac.fr", accounts.RoleBuyer)
		paul := join(w.shop, "paul@lac.fr", accounts.RoleReceiver)
		// Paul works for the farm too: his session there outlives his
		// removal from the shop.
		paulFarm := w.invite(t, w.farm, "paul@lac.fr", accounts.RoleDelivery, start)
		atFarm, err := teams.Accept(ctx, db, teams.Acceptance{Token: paulFarm.Token, Password: password}, start)
		if err != nil {
			t.Fatal(err)
		}
		live := func(token string) bool {
			_, err := accounts.SessionOf(ctx, db, token, start)
			return err == nil
		}
		for _, tt := range []struct {
			name string
			do   func(tx *sqlx.Tx) error
			want string
		}{
			{"the last owner leaves", func(tx *sqlx.Tx) error { return teams.Remove(ctx, tx, w.shop.ID, w.owner.ID) }, teams.MsgLastOwner},
			{"the last owner becomes a buyer", func(tx *sqlx.Tx) error {
				return teams.SetRole(ctx, tx, w.shop, w.owner.ID, accounts.RoleBuyer, start)
			}, teams.MsgLastOwner},
			{"a farm's role", func(tx *sqlx.Tx) error {
				return teams.SetRole(ctx, tx, w.shop, marie.Person.ID, accounts.RoleSales, start)
			}, accounts.MsgRoleUnknown},
			{"not in the team", func(tx *sqlx.Tx) error { return teams.Remove(ctx, tx, w.farm.ID, marie.Person.ID) }, teams.MsgNotMember},
			{"not in the team, a role", func(tx *sqlx.Tx) error {
				return teams.SetRole(ctx, tx, w.farm, marie.Person.ID, accounts.RoleSales, start)
			}, teams.MsgNotMember},
		} {
			t.Run(tt.name, func(t *testing.T) {
				before := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...)
				if got := refusal(w.tx(tt.do)); got != tt.want {
					t.Fatalf("%q, want %q", got, tt.want)
				}
				if after := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...); after != before {
					t.Fatalf("refused, yet changed:\n%s", storetest.Changes(before, after))
				}
			})
		}
		if err := w.tx(func(tx *sqlx.Tx) error {
			return teams.SetRole(ctx, tx, w.shop, marie.Person.ID, accounts.RoleAccountant, start)
		}); err != nil {
			t.Fatal(err)
		}
		if live(marie.Session) {
			t.Error("Marie's session outlived her new role")
		}
		if err := w.tx(func(tx *sqlx.Tx) error { return teams.Remove(ctx, tx, w.shop.ID, paul.Person.ID) }); err != nil {
			t.Fatal(err)
		}
		if live(paul.Session) || !live(atFarm.Session) {
			t.Errorf("Paul's sessions: the shop's live %v, the farm's live %v", live(paul.Session), live(atFarm.Session))
		}
		// A second owner: the first may then leave.
		if err := w.tx(func(tx *sqlx.Tx) error {
			return teams.SetRole(ctx, tx, w.shop, marie.Person.ID, accounts.RoleOwner, start)
		}); err != nil {
			t.Fatal(err)
		}
		if err := w.tx(func(tx *sqlx.Tx) error { return teams.Remove(ctx, tx, w.shop.ID, w.owner.ID) }); err != nil {
			t.Fatal(err)
		}
		team, err := teams.Of(ctx, db, w.shop.ID)
		if err != nil || len(team.Members) != 1 || team.Members[0].PersonID != marie.Person.ID || team.Members[0].Role != accounts.RoleOwner {
			t.Fatalf("the team %+v, %v", team, err)
		}
	})
}
