package daemon_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/teams"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

var invitationLink = regexp.MustCompile(`/landing/invitation#([A-Za-z0-9_-]{40,})`)

// invitationToken is the token of the invitation last emailed to email.
func invitationToken(t *testing.T, s *daemontest.Server, email string) string {
	t.Helper()
	m := invitationLink.FindStringSubmatch(emailed(t, s.Config.DataDir, "invitation-*.eml", email))
	if m == nil {
		t.Fatalf("no invitation link to %s", email)
	}
	return m[1]
}

type teamUser struct {
	User struct {
		ID     string `json:"_id"`
		Type   string `json:"type"`
		Role   string `json:"role"`
		Person struct {
			ID   string `json:"_id"`
			Name string `json:"name"`
		} `json:"person"`
		Organisations []struct {
			ID, Name, Role string
		} `json:"organisations"`
	} `json:"user"`
}

// TestTeamsThroughTheAPI: an owner invites a buyer and an accountant by
// email; they accept (a new login each); each acts within their role
// (403 and the French message otherwise); the owner changes a role and
// removes a member, whose sessions end at once; the last owner cannot
// leave; a person of two organisations switches between them.
func TestTeamsThroughTheAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		owner, shopID := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		farm, farmID := s.Producer("ferme@aravis.fr", "Ferme des Aravis")

		var inv struct {
			ID   string `json:"_id"`
			Role string `json:"role"`
		}
		owner.Do("POST", "/api/team/invitations", map[string]any{"email": "marie@lac.fr", "role": "buyer"}).Expect(t, 201).JSON(t, &inv)
		owner.Do("POST", "/api/team/invitations", map[string]any{"email": "compta@cabinet.fr", "role": "accountant"}).Expect(t, 201)
		mail := emailed(t, s.Config.DataDir, "invitation-*.eml", "marie@lac.fr")
		for _, want := range []string{"vous invite =C3=A0 rejoindre l'=C3=A9quipe =C3=89picerie du Lac", "Acheteur", "sept jours"} {
			if !regexp.MustCompile(regexp.QuoteMeta(want)).MatchString(mail) {
				t.Errorf("the invitation's email lacks %q:\n%s", want, mail)
			}
		}
		var pending struct {
			Organisation, Role string
			HasLogin           bool
		}
		s.Client().Do("POST", "/auth/invitation", map[string]any{"token": invitationToken(t, s, "marie@lac.fr")}).Expect(t, 200).JSON(t, &pending)
		if pending.Organisation != "Épicerie du Lac" || pending.Role != "buyer" || pending.HasLogin {
			t.Fatalf("the invitation %+v", pending)
		}
		accept := func(email, name string) (*daemontest.Client, teamUser) {
			c := s.Client()
			var u teamUser
			c.Do("POST", "/auth/invitation/accept", map[string]any{"token": invitationToken(t, s, email), "name": name, "password": daemontest.Password}).
				Expect(t, 200).JSON(t, &u)
			return c, u
		}
		marie, mu := accept("marie@lac.fr", "Marie")
		compta, _ := accept("compta@cabinet.fr", "Cabinet Compta")
		if mu.User.ID != shopID || mu.User.Role != "buyer" || mu.User.Person.Name != "Marie" || len(mu.User.Organisations) != 1 {
			t.Fatalf("Marie's user %+v", mu.User)
		}

		// Each within their role; the feed names who did it, beside the
		// organisation (not its founder).
		marie.Do("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-12", "quantity": 10}).Expect(t, 201)
		owner.Do("POST", "/api/needs", map[string]any{"product": "poire", "date": "2026-12", "quantity": 10}).Expect(t, 201)
		var feed []struct {
			Type   string `json:"type"`
			Person string `json:"person"`
			Origin struct {
				Name string `json:"name"`
			} `json:"origin"`
		}
		owner.Do("GET", "/api/events", nil).Expect(t, 200).JSON(t, &feed)
		if len(feed) != 2 || feed[0].Person != "" || feed[1].Person != "Marie" || feed[1].Origin.Name != "Épicerie du Lac" {
			t.Fatalf("the feed %+v", feed)
		}
		compta.Do("GET", "/api/needs?distributor="+shopID, nil).Expect(t, 200)
		compta.Do("GET", "/api/payments", nil).Expect(t, 200)
		forbidden := func(role string) string { return fmt.Sprintf(daemon.MsgRoleForbidden, accounts.RoleLabel(role)) }
		s.Refuses(t, []daemontest.Refused{
			{Name: "the accountant changes a need", Client: compta, Method: "POST", Path: "/api/needs",
				Body: map[string]any{"product": "poire", "date": "2026-12", "quantity": 5}, Status: 403, Detail: forbidden("accountant")},
			{Name: "the buyer reads the team", Client: marie, Method: "GET", Path: "/api/team", Status: 403, Detail: forbidden("buyer")},
			{Name: "the buyer invites", Client: marie, Method: "POST", Path: "/api/team/invitations",
				Body: map[string]any{"email": "x@lac.fr", "role": "owner"}, Status: 403, Detail: forbidden("buyer")},
			{Name: "the buyer records a payment", Client: marie, Method: "POST", Path: "/api/payments/declare",
				Body: map[string]any{"partnerId": farmID, "amount": 1, "paidOn": "2026-11-19", "method": "cheque"}, Status: 403, Detail: forbidden("buyer")},
			{Name: "the accountant's invoice export of a month", Client: marie, Method: "GET", Path: "/print/purchases/2026-11", Status: 403, Detail: forbidden("buyer")},
			{Name: "a farm's role", Client: owner, Method: "POST", Path: "/api/team/invitations",
				Body: map[string]any{"email": "x@lac.fr", "role": "sales"}, Status: 422, Detail: accounts.MsgRoleUnknown, Location: "body.role"},
			{Name: "a member already", Client: owner, Method: "POST", Path: "/api/team/invitations",
				Body: map[string]any{"email": "Marie@lac.fr", "role": "buyer"}, Status: 422, Detail: teams.MsgAlreadyMember, Location: "body.email"},
			{Name: "the last owner leaves", Client: owner, Method: "DELETE", Path: "/api/team/members/" + shopID, Status: 409, Detail: teams.MsgLastOwner},
			{Name: "another organisation's member", Client: farm, Method: "DELETE", Path: "/api/team/members/" + mu.User.Person.ID, Status: 404, Detail: teams.MsgNotMember},
			{Name: "another organisation's invitation", Client: farm, Method: "DELETE", Path: "/api/team/invitations/" + inv.ID, Status: 404, Detail: teams.MsgInvitationUnknown},
			{Name: "switch to another's organisation", Client: marie, Method: "PUT", Path: "/api/user/organisation",
				Body: map[string]any{"organisation": farmID}, Status: 404, Detail: accounts.MsgNotMember},
			{Name: "a used invitation", Client: s.Client(), Method: "POST", Path: "/auth/invitation/accept",
				Body:   map[string]any{"token": invitationToken(t, s, "marie@lac.fr"), "name": "Marie", "password": daemontest.Password},
				Status: 422, Detail: teams.MsgInvitationInvalid, Location: "body.token"},
		})

		// The team as the owner sees it.
		var team teams.Team
		owner.Do("GET", "/api/team", nil).Expect(t, 200).JSON(t, &team)
		if len(team.Members) != 3 || len(team.Invitations) != 0 {
			t.Fatalf("the team %+v", team)
		}

		// A new role ends Marie's session; her new login sees the new role.
		owner.Do("PUT", "/api/team/members/"+mu.User.Person.ID, map[string]any{"role": "receiver"}).Expect(t, 200)
		marie.Do("GET", "/api/user", nil).Expect(t, 401)
		marie.Do("POST", "/auth/login", map[string]any{"email": "marie@lac.fr", "password": daemontest.Password}).Expect(t, 200).JSON(t, &mu)
		if mu.User.Role != "receiver" {
			t.Fatalf("Marie's role after the change: %q", mu.User.Role)
		}
		// Removed, she is out at once, and her login opens nothing.
		owner.Do("DELETE", "/api/team/members/"+mu.User.Person.ID, nil).Expect(t, 200)
		marie.Do("GET", "/api/user", nil).Expect(t, 401)
		p := marie.Do("POST", "/auth/login", map[string]any{"email": "marie@lac.fr", "password": daemontest.Password}).Expect(t, 403).Problem(t)
		if p.Detail != accounts.MsgNoOrganisation {
			t.Fatalf("Marie's login after her removal: %q", p.Detail)
		}

		// The farm invites the shop's owner as its accountant: an existing
		// login, joined with its password; the owner then switches.
		farm.Do("POST", "/api/team/invitations", map[string]any{"email": "epicerie@lac.fr", "role": "accountant"}).Expect(t, 201)
		token := invitationToken(t, s, "epicerie@lac.fr")
		s.Client().Do("POST", "/auth/invitation", map[string]any{"token": token}).Expect(t, 200).JSON(t, &pending)
		if !pending.HasLogin {
			t.Fatal("the owner's login is not seen")
		}
		s.Client().Do("POST", "/auth/invitation/accept", map[string]any{"token": token, "password": daemontest.Password}).Expect(t, 200)
		var u teamUser
		owner.Do("GET", "/api/user", nil).Expect(t, 200).JSON(t, &u)
		if u.User.ID != shopID || u.User.Role != "owner" || len(u.User.Organisations) != 2 {
			t.Fatalf("the owner's user %+v", u.User)
		}
		owner.Do("PUT", "/api/user/organisation", map[string]any{"organisation": farmID}).Expect(t, 200).JSON(t, &u)
		if u.User.ID != farmID || u.User.Type != "producer" || u.User.Role != "accountant" {
			t.Fatalf("switched: %+v", u.User)
		}
		owner.Do("PUT", "/api/user/delivery-terms", map[string]any{"minimum": 80}).Expect(t, 403)
		owner.Do("GET", "/api/payments", nil).Expect(t, 200)

		// The accountant leaves: out at once; the last owner cannot.
		compta.Do("POST", "/api/team/leave", nil).Expect(t, 204)
		compta.Do("GET", "/api/user", nil).Expect(t, 401)
		owner.Do("PUT", "/api/user/organisation", map[string]any{"organisation": shopID}).Expect(t, 200)
		owner.Do("POST", "/api/team/leave", nil).Expect(t, 409)

		// An invitation expires.
		owner.Do("POST", "/api/team/invitations", map[string]any{"email": "tard@lac.fr", "role": "receiver"}).Expect(t, 201)
		s.Clock.Advance(teams.InvitationValid + time.Minute)
		s.Client().Do("POST", "/auth/invitation", map[string]any{"token": invitationToken(t, s, "tard@lac.fr")}).Expect(t, 422)
	})
}

// TestInvitationsAreThrottled: past accounts.MaxInvitationsPerOrg a day,
// an organisation's invitations are refused (429) and change nothing.
func TestInvitationsAreThrottled(t *testing.T) {
	t.Parallel()
	db := storetest.SQLite(t)
	s := daemontest.New(t, db)
	owner, _ := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
	for i := range accounts.MaxInvitationsPerOrg {
		owner.Do("POST", "/api/team/invitations", map[string]any{"email": fmt.Sprintf("p%d@lac.fr", i), "role": "buyer"}).Expect(t, 201)
	}
	s.Refuses(t, []daemontest.Refused{{Name: "one too many", Client: owner, Method: "POST", Path: "/api/team/invitations",
		Body: map[string]any{"email": "encore@lac.fr", "role": "buyer"}, Status: http.StatusTooManyRequests, Detail: accounts.MsgInvitationsThrottled}})
}

// The authorization matrix's rows of the teams' operations
// (TestAuthorizationMatrix, authz_test.go), every actor an owner: each
// acts on its own organisation's team only; another's member or
// invitation is not found.
func init() {
	shopFounder := func(p string) func(*world, actor) string {
		return func(w *world, _ actor) string { return p + w.ids["shop"] }
	}
	for key, r := range map[string]row{
		"GET /api/team": {path: fixed("/api/team"), expect: everyone(200)},
		"POST /api/team/invitations": {
			path: fixed("/api/team/invitations"), body: body(map[string]any{"email": "invite@example.fr", "role": "accountant"}),
			expect: everyone(201),
		},
		"DELETE /api/team/invitations/{invitationId}": {
			path:   fixed("/api/team/invitations/0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a"),
			expect: map[actor]int{anon: 401, shop: 404, otherShop: 404, producer: 404, otherProducer: 404},
		},
		// The shop's founder: the same role again for the shop, not a
		// member for the others.
		"PUT /api/team/members/{personId}": {
			path: shopFounder("/api/team/members/"), body: body(map[string]any{"role": "owner"}),
			expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 404, otherProducer: 404},
		},
		// The shop's last owner stays.
		"DELETE /api/team/members/{personId}": {
			path:   shopFounder("/api/team/members/"),
			expect: map[actor]int{anon: 401, shop: 409, otherShop: 404, producer: 404, otherProducer: 404},
		},
		"PUT /api/user/organisation": {
			path:   fixed("/api/user/organisation"),
			body:   func(w *world, _ actor) any { return map[string]any{"organisation": w.ids["shop"]} },
			expect: map[actor]int{anon: 401, shop: 200, otherShop: 404, producer: 404, otherProducer: 404},
		},
		// Every actor is its organisation's last owner; a member leaves.
		"POST /api/team/leave": {
			path:   fixed("/api/team/leave"),
			expect: map[actor]int{anon: 401, shop: 409, otherShop: 409, producer: 409, otherProducer: 409},
			member: 204,
		},
		"POST /auth/invitation": {
			path: fixed("/auth/invitation"), body: body(map[string]any{"token": "pas-un-jeton"}),
			expect: map[actor]int{anon: 422, shop: 422, otherShop: 422, producer: 422, otherProducer: 422},
		},
		"POST /auth/invitation/accept": {
			path: fixed("/auth/invitation/accept"), body: body(map[string]any{"token": "pas-un-jeton", "name": "X", "password": "motdepasse1"}),
			expect: map[actor]int{anon: 422, shop: 422, otherShop: 422, producer: 422, otherProducer: 422},
		},
	} {
		matrix[key] = r
	}
}

// TestAMembersOwnPassword: a member who founded no organisation changes
// their own password from the profile (the current one checked; their
// other sessions end, the owner's login stays as it was) and resets it
// with an emailed link, once.
func TestAMembersOwnPassword(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		owner, _ := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		owner.Do("POST", "/api/team/invitations", map[string]any{"email": "paul@lac.fr", "role": "receiver"}).Expect(t, 201)
		paul := s.Client()
		paul.Do("POST", "/auth/invitation/accept", map[string]any{"token": invitationToken(t, s, "paul@lac.fr"), "name": "Paul", "password": daemontest.Password}).
			Expect(t, 200)
		other := s.Client()
		other.Do("POST", "/auth/login", map[string]any{"email": "paul@lac.fr", "password": daemontest.Password}).Expect(t, 200)

		s.Refuses(t, []daemontest.Refused{{Name: "a wrong current password", Client: paul, Method: "PUT", Path: "/api/user/password",
			Body: map[string]any{"current": "pas-le-bon1", "password": "nouveau123"}, Status: 422, Detail: accounts.MsgCurrentWrong, Location: "body.current"}})
		paul.Do("PUT", "/api/user/password", map[string]any{"current": daemontest.Password, "password": "nouveau123"}).Expect(t, 200)
		paul.Do("GET", "/api/user", nil).Expect(t, 200)
		other.Do("GET", "/api/user", nil).Expect(t, 401)
		owner.Do("GET", "/api/user", nil).Expect(t, 200)
		s.Client().Do("POST", "/auth/login", map[string]any{"email": "epicerie@lac.fr", "password": daemontest.Password}).Expect(t, 200)
		s.Client().Do("POST", "/auth/login", map[string]any{"email": "paul@lac.fr", "password": "nouveau123"}).Expect(t, 200)

		s.Client().Do("POST", "/auth/password/forgot", map[string]any{"email": "Paul@lac.fr"}).Expect(t, 200)
		_, token := resetLink(t, s.Config.DataDir, "paul@lac.fr")
		s.Client().Do("POST", "/auth/password/reset", map[string]any{"token": token, "password": "encore1234"}).Expect(t, 200)
		paul.Do("GET", "/api/user", nil).Expect(t, 401)
		s.Client().Do("POST", "/auth/password/reset", map[string]any{"token": token, "password": "encore5678"}).Expect(t, 422)
		s.Client().Do("POST", "/auth/login", map[string]any{"email": "paul@lac.fr", "password": "encore1234"}).Expect(t, 200)
	})
}

// TestDataExportByRole: an owner's data export holds the organisation's
// and their own (personne.json); a buyer's holds what she did alone — the
// need she created, in her organisation — and nothing of the
// organisation's account.
func TestDataExportByRole(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		owner, _ := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		owner.Do("POST", "/api/team/invitations", map[string]any{"email": "marie@lac.fr", "role": "buyer"}).Expect(t, 201)
		marie := s.Client()
		marie.Do("POST", "/auth/invitation/accept", map[string]any{"token": invitationToken(t, s, "marie@lac.fr"), "name": "Marie", "password": daemontest.Password}).
			Expect(t, 200)
		marie.Do("POST", "/api/needs", map[string]any{"product": "tomate", "date": "2026-12", "quantity": 10}).Expect(t, 201)
		files := func(c *daemontest.Client) map[string]string {
			res := c.Do("GET", "/print/mydata", nil).Expect(t, 200)
			z, err := zip.NewReader(bytes.NewReader(res.Body), int64(len(res.Body)))
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]string{}
			for _, f := range z.File {
				r, err := f.Open()
				if err != nil {
					t.Fatal(err)
				}
				b, err := io.ReadAll(r)
				r.Close()
				if err != nil {
					t.Fatal(err)
				}
				out[f.Name] = string(b)
			}
			return out
		}
		own := files(owner)
		if own["compte.json"] == "" || !strings.Contains(own["personne.json"], `"role": "owner"`) {
			t.Errorf("the owner's export: %v", keys(own))
		}
		hers := files(marie)
		if _, ok := hers["compte.json"]; ok || len(hers) != 2 {
			t.Errorf("the buyer's export holds %v", keys(hers))
		}
		if p := hers["personne.json"]; !strings.Contains(p, `"name": "Marie"`) || !strings.Contains(p, `"type": "need:create"`) ||
			!strings.Contains(p, `"organisation": "Épicerie du Lac"`) {
			t.Errorf("the buyer's personne.json:\n%s", p)
		}
	})
}

func keys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
