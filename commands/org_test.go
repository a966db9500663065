package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"primeur/core/store/storetest"
)

// TestOrgCommands: `org invite` emails an invitation (the outbox without
// SMTP) and refuses a role the organisation has not; `org members` lists
// the owner and the invitation, as a table or JSON; `user set-password`
// knows a member's own login too (refused here: nobody has it yet).
func TestOrgCommands(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PRIMEUR_DATA_DIR", dir)
	storetest.SQLiteFile(t, filepath.Join(dir, "primeur.db"))
	if code, _, errOut := run(t, "", "migrate"); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := run(t, "motdepasse1\n", "user", "create", "--email", "epicerie@example.fr", "--name", "Épicerie du Lac"); code != 0 {
		t.Fatal(errOut)
	}
	for _, tt := range []struct {
		args []string
		code int
		out  string // in the standard output (code 0) or error
	}{
		{[]string{"org", "invite", "epicerie@example.fr", "marie@example.fr", "--role", "sales"}, 1, "Choisissez un rôle parmi ceux de votre organisation."},
		{[]string{"org", "invite", "personne@example.fr", "marie@example.fr", "--role", "buyer"}, 1, "aucun compte n'a l'email personne@example.fr"},
		{[]string{"org", "invite", "epicerie@example.fr", "marie@example.fr", "--role", "buyer"}, 0, "invitation envoyée à marie@example.fr (Acheteur) pour Épicerie du Lac"},
		{[]string{"org", "members", "epicerie@example.fr"}, 0, "marie@example.fr     Acheteur      expire le"},
	} {
		code, out, errOut := run(t, "", tt.args...)
		if code != tt.code || !strings.Contains(out+errOut, tt.out) {
			t.Errorf("%v: %d %q %q, want %d and %q", tt.args, code, out, errOut, tt.code, tt.out)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "outbox", "invitation-*.eml"))
	if len(files) != 1 {
		t.Fatalf("%d invitation emails", len(files))
	}
	raw, err := os.ReadFile(files[0])
	if err != nil || !regexp.MustCompile(`/landing/invitation#[A-Za-z0-9_-]{40,}`).Match([]byte(strings.ReplaceAll(string(raw), "=\r\n", ""))) {
		t.Fatalf("the invitation's email: %s %v", raw, err)
	}
	code, out, errOut := run(t, "", "org", "members", "epicerie@example.fr", "--json")
	var team struct {
		Members []struct {
			Email, Role string
		}
		Invitations []struct {
			Email, Role string
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &team) != nil || len(team.Members) != 1 || team.Members[0].Role != "owner" ||
		len(team.Invitations) != 1 || team.Invitations[0].Email != "marie@example.fr" {
		t.Fatalf("members --json: %d %q %q", code, out, errOut)
	}
}
