package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"primeur/core/accounts"
	"primeur/core/store"
)

// TestUserCheckIdentifiers: the demo world's identifiers are valid (exit
// 0); an account holding issue 32's SIRET and a VAT number of another
// company is listed with the notice its owner reads (exit 2), in a table
// and in JSON.
func TestUserCheckIdentifiers(t *testing.T) {
	dir := withDemo(t)
	code, out, errOut := run(t, "", "user", "check-identifiers")
	var accountsN int
	if code != 0 || !strings.Contains(out, "les identifiants de chaque compte sont valides") {
		t.Fatalf("the demo world: %d %q %q", code, out, errOut)
	}
	if _, err := fmt.Sscanf(out[strings.LastIndex(out, "(")+1:], "%d comptes)", &accountsN); err != nil || accountsN < 8 {
		t.Fatalf("the demo world's accounts: %q (%v)", out, err)
	}

	ctx := context.Background()
	db, err := store.Open(ctx, "", filepath.Join(dir, "primeur.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`UPDATE users SET siret = '11111111111111' WHERE email = 'ferme-des-glieres@demo.primeur.fr'`,
		`UPDATE users SET tvaintracom = 'FR44732829320' WHERE email = 'epicerie-du-lac@demo.primeur.fr'`,
	} {
		if _, err := store.Exec(ctx, db, q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	code, out, errOut = run(t, "", "user", "check-identifiers")
	if code != exitInvalidIdentifiers || !strings.Contains(out, fmt.Sprintf("2 compte(s) sur %d ont des identifiants à corriger", accountsN)) {
		t.Fatalf("table: %d %q %q", code, out, errOut)
	}
	for _, want := range []string{"ferme-des-glieres@demo.primeur.fr", "11111111111111", accounts.MsgStoredSIRET,
		"epicerie-du-lac@demo.primeur.fr", "FR44732829320", accounts.MsgStoredMismatch} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = run(t, "", "user", "check-identifiers", "--json")
	var found []identifiersJSON
	if code != exitInvalidIdentifiers || json.Unmarshal([]byte(out), &found) != nil || len(found) != 2 {
		t.Fatalf("json: %d %q", code, out)
	}
	for _, f := range found {
		if f.ID == "" || len(f.Issues) != 1 {
			t.Fatalf("json account %+v", f)
		}
	}
}
