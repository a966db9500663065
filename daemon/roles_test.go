package daemon_test

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

// member is a person of one role in the shop or the farm of the roles'
// matrix, signed in.
type member struct {
	org, role string
	client    *daemontest.Client
}

// TestRolesMatrix: the authorization matrix by role (issue 41). Every
// operation the document gives roles (x-roles), called by a member of
// each role but the owner's — of the shop (buyer, receiver, accountant)
// and of the farm (sales, delivery, accountant) —, is refused (403, the
// French message naming the role, nothing changed) exactly when its
// roles leave that one out; the others pass the roles' check (whatever
// the operation then answers). The owners, who may call everything, and
// the other organisation's objects are TestAuthorizationMatrix's (the
// role's check comes first, then each handler's ownership check, the
// same for every role), so is every status past the check.
func TestRolesMatrix(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		farm, _ := s.Producer("ferme@aravis.fr", "Ferme des Aravis")
		var members []member
		for _, m := range []struct {
			org    string
			owner  *daemontest.Client
			roles  []string
			domain string
		}{{"shop", shop, accounts.ShopRoles, "lac.fr"}, {"farm", farm, accounts.FarmRoles, "aravis.fr"}} {
			for _, role := range m.roles[1:] {
				email := role + "@" + m.domain
				m.owner.Do("POST", "/api/team/invitations", map[string]any{"email": email, "role": role}).Expect(t, 201)
				c := s.Client()
				c.Do("POST", "/auth/invitation/accept", map[string]any{"token": invitationToken(t, s, email), "name": role, "password": daemontest.Password}).Expect(t, 200)
				members = append(members, member{m.org, role, c})
			}
		}

		type call struct {
			key, method, path string
			roles             []string
		}
		var calls []call
		for path, item := range s.Daemon.OpenAPI().Paths {
			for method, op := range map[string]*huma.Operation{"GET": item.Get, "POST": item.Post, "PUT": item.Put, "DELETE": item.Delete, "PATCH": item.Patch} {
				if op == nil {
					continue
				}
				roles, ok := op.Extensions["x-roles"].([]string)
				if !ok {
					continue
				}
				calls = append(calls, call{method + " " + path, method, placeholders(path), roles})
			}
		}
		sort.Slice(calls, func(i, j int) bool { return calls[i].key < calls[j].key })
		if len(calls) < 50 {
			t.Fatalf("only %d operations state their roles", len(calls))
		}

		var refused []daemontest.Refused
		type allowed struct {
			call
			m member
		}
		var passes []allowed
		for _, c := range calls {
			for _, m := range members {
				if slices.Contains(c.roles, m.role) {
					passes = append(passes, allowed{c, m})
					continue
				}
				refused = append(refused, daemontest.Refused{
					Name: c.key + " as the " + m.org + "'s " + m.role, Client: m.client, Method: c.method, Path: c.path,
					Body: bodyFor(c.method), Status: http.StatusForbidden,
					Detail: fmt.Sprintf(daemon.MsgRoleForbidden, accounts.RoleLabel(m.role)),
				})
			}
		}
		s.Refuses(t, refused)
		for _, a := range passes {
			res := a.m.client.Do(a.method, a.path, bodyFor(a.method))
			if res.Status == http.StatusForbidden && strings.Contains(string(res.Body), "Votre rôle") {
				t.Errorf("%s as the %s's %s: refused by its role, which the operation states: %s", a.key, a.m.org, a.m.role, res.Body)
			}
		}
	})
}

var pathParam = regexp.MustCompile(`\{([^}]+)\}`)

// placeholders fills a path's parameters with values of the right shape
// naming nothing of the world.
func placeholders(path string) string {
	return pathParam.ReplaceAllStringFunc(path, func(p string) string {
		switch p {
		case "{date}":
			return "2026-12-03"
		case "{month}":
			return "2026-11"
		case "{year}":
			return "2026"
		}
		return "0193a6b2-6f7e-7c4d-9a1b-2f3e4d5c6b7a"
	})
}

// bodyFor is an empty JSON object for the methods that carry one.
func bodyFor(method string) any {
	if method == "POST" || method == "PUT" || method == "PATCH" {
		return map[string]any{}
	}
	return nil
}
