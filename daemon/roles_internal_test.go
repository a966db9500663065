package daemon

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
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
	t.Parallel()
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

// rolesFile is the table of roles the UI reads (ui/src/team/roles.ts):
// operationRoles, and each kind of organisation's roles.
const rolesFile = "testdata/roles.json"

// TestTheUIsRolesAreTheDaemons: testdata/roles.json, which the UI
// imports to show only what a role may do, is operationRoles and the
// organisations' roles; `go test ./daemon -run TestTheUIsRolesAreTheDaemons
// -update-roles` writes it.
func TestTheUIsRolesAreTheDaemons(t *testing.T) {
	t.Parallel()
	want := rolesTable()
	if *updateRoles {
		if err := os.WriteFile(rolesFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(rolesFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not daemon/roles.go's table: run go test ./daemon -run TestTheUIsRolesAreTheDaemons -update-roles", rolesFile)
	}
}

var updateRoles = flag.Bool("update-roles", false, "write "+rolesFile)

func rolesTable() []byte {
	v := struct {
		Shop       []string            `json:"shop"`
		Farm       []string            `json:"farm"`
		Operations map[string][]string `json:"operations"`
	}{accounts.ShopRoles, accounts.FarmRoles, operationRoles}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}
