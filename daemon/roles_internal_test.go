package daemon

import (
	"slices"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core/accounts"
	"primeur/core/config"
)

// TestEveryOperationStatesItsRoles: every operation needing a session
// (the /api group and the documents under /print) has its row in
// operationRoles and states it in the document (x-roles); every row names
// an operation; each role named is a role of some organisation.
func TestEveryOperationStatesItsRoles(t *testing.T) {
	d := New(Options{Config: config.Defaults()})
	seen := map[string]bool{}
	for path, item := range d.OpenAPI().Paths {
		for _, op := range []*huma.Operation{item.Get, item.Post, item.Put, item.Delete, item.Patch} {
			if op == nil || !(strings.HasPrefix(path, "/api/") || strings.HasPrefix(path, "/print/")) {
				continue
			}
			seen[op.OperationID] = true
			if _, ok := operationRoles[op.OperationID]; !ok {
				t.Errorf("%s (%s %s) has no row in operationRoles (daemon/roles.go): say which roles may call it", op.OperationID, op.Method, path)
			}
			roles, ok := op.Extensions[rolesExtension].([]string)
			if !ok || !slices.Equal(roles, rolesOf(op.OperationID)) {
				t.Errorf("%s: the document states the roles %v, want %v", op.OperationID, op.Extensions[rolesExtension], rolesOf(op.OperationID))
			}
		}
	}
	all := append(slices.Clone(accounts.ShopRoles), accounts.FarmRoles...)
	for id, roles := range operationRoles {
		if !seen[id] {
			t.Errorf("operationRoles has a row for %s, which is no operation under /api or /print", id)
		}
		if !slices.Contains(roles, accounts.RoleOwner) {
			t.Errorf("%s: owners may do everything, %v", id, roles)
		}
		for _, r := range roles {
			if !slices.Contains(all, r) {
				t.Errorf("%s: unknown role %q", id, r)
			}
		}
	}
}
