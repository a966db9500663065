package accounts_test

import (
	"context"
	"errors"
	"testing"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestRefusalsCostOneVerification: a login refused for a wrong password,
// an unknown address, or a person without password (migration 72's
// accountants, named « Comptabilité », who choose one with « Mot de passe
// oublié ») costs the same work — one argon2id verification — so that the
// time of the refusal tells nobody which addresses are accountants without
// a password (SECURITY "Login timing"). Counted, not timed.
func TestRefusalsCostOneVerification(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		shop := register(t, db, "epicerie@example.fr", true)
		// A password-less accountant of the shop, as migration 72 makes them.
		if _, err := store.Exec(ctx, db, `INSERT INTO people (id, email, email_key, email_confirmed, name, password_hash, created_at, updated_at)
			VALUES ('compta-1', 'compta@example.fr', 'compta@example.fr', 'compta@example.fr', 'Comptabilité', '', 0, 0)`); err != nil {
			t.Fatal(err)
		}
		if _, err := store.Exec(ctx, db, `INSERT INTO members (person_id, org_id, role, created_at, updated_at)
			VALUES ('compta-1', ?, 'accountant', 0, 0)`, shop.ID); err != nil {
			t.Fatal(err)
		}
		for i, c := range []struct{ name, email, password string }{
			{"wrong password", "epicerie@example.fr", "mauvais12"},
			{"unknown address", "inconnu@example.fr", "mauvais12"},
			{"accountant without password", "compta@example.fr", "mauvais12"},
			{"accountant without password, empty password", "compta@example.fr", ""},
		} {
			t.Run(c.name, func(t *testing.T) {
				client := "10.0.1." + string(rune('1'+i))
				before := accounts.PasswordChecks()
				_, _, err := accounts.Login(ctx, db, c.email, c.password, client, t0)
				if !errors.Is(err, core.ErrUnauthenticated) || err.Error() != accounts.MsgBadCredentials {
					t.Fatalf("login: %v", err)
				}
				if n := accounts.PasswordChecks() - before; n != 1 {
					t.Fatalf("the login's refusal ran %d argon2id verifications, want 1", n)
				}
				before = accounts.PasswordChecks()
				_, err = accounts.CheckPersonPassword(ctx, db, "password", c.email, c.password, client, t0)
				var v *core.ValidationError
				if !errors.As(err, &v) {
					t.Fatalf("invitation's password check: %v", err)
				}
				if n := accounts.PasswordChecks() - before; n != 1 {
					t.Fatalf("the invitation's refusal ran %d argon2id verifications, want 1", n)
				}
			})
		}
	})
}
