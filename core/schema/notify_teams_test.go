package schema_test

import (
	"context"
	"reflect"
	"testing"

	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestNotificationsAndAccountantsMigration: on a database of the code
// before teams, migrations 71 and 72 (issue 41) make the organisation's
// notifications its founder's — its choices, its pending lines, its
// digests, the time of its last digest — and a shop's confirmed
// accounting address an accountant member: a new login without password
// (one for an address several shops share), or the login that has the
// address; its expired invitation goes and so does the address. An
// address not confirmed keeps its invitation and stays, until migration
// 74 retires the accounting email: every address emptied, its links gone,
// one left without an invitation (set since migration 61) invited as
// migration 61 did, none for an address that is the login, a member or
// invited already.
func TestNotificationsAndAccountantsMigration(t *testing.T) {
	storetest.EachEmpty(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := schema.MigrateTo(ctx, db, 60); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			`INSERT INTO users (id, type, email, email_key, name, password_hash, email_accounting, accounting_confirmed, email_confirmed, digest_at, created_at, updated_at) VALUES
				('shop', 'distributor', 'epicerie@lac.fr', 'epicerie@lac.fr', 'Épicerie du Lac', 'h', ' Compta@Cabinet.fr ', 'compta@cabinet.fr', 'epicerie@lac.fr', 500, 10, 11),
				('shop2', 'distributor', 'cave@lac.fr', 'cave@lac.fr', 'Cave', 'h', 'compta@cabinet.fr', 'compta@cabinet.fr', 'cave@lac.fr', NULL, 20, 21),
				('shop3', 'distributor', 'bio@lac.fr', 'bio@lac.fr', 'Bio', 'h', 'autre@cabinet.fr', '', 'bio@lac.fr', NULL, 30, 31),
				('shop4', 'distributor', 'halle@lac.fr', 'halle@lac.fr', 'Halle', 'h', 'ferme@aravis.fr', 'ferme@aravis.fr', 'halle@lac.fr', NULL, 40, 41),
				('farm', 'producer', 'ferme@aravis.fr', 'ferme@aravis.fr', 'Ferme des Aravis', 'h', '', '', 'ferme@aravis.fr', NULL, 50, 51)`,
			`INSERT INTO notification_prefs (user_id, kind, mode) VALUES ('shop', 'proposal', 'none'), ('farm', 'answer', 'daily')`,
			`INSERT INTO digests (id, user_id, daily, created_at) VALUES ('d1', 'shop', FALSE, 400)`,
			`INSERT INTO notifications (id, user_id, kind, line, link, created_at, digest_id) VALUES
				('n1', 'shop', 'claim', 'Une réclamation.', '/x', 300, 'd1'), ('n2', 'farm', 'answer', 'Une réponse.', '/x', 600, NULL)`,
		} {
			if _, err := store.Exec(ctx, db, q); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := schema.MigrateTo(ctx, db, 72); err != nil {
			t.Fatal(err)
		}
		check := func(checks []struct {
			query string
			want  [][]string
		}) {
			t.Helper()
			for _, tt := range checks {
				if got := selectRows(t, db, tt.query, len(tt.want[0])); !reflect.DeepEqual(got, tt.want) {
					t.Errorf("%s:\n%v, want %v", tt.query, got, tt.want)
				}
			}
		}
		check([]struct {
			query string
			want  [][]string
		}{
			{`SELECT person_id, org_id, kind, mode FROM member_prefs ORDER BY org_id`,
				[][]string{{"farm", "farm", "answer", "daily"}, {"shop", "shop", "proposal", "none"}}},
			{`SELECT id, person_id FROM notifications ORDER BY id`, [][]string{{"n1", "shop"}, {"n2", "farm"}}},
			{`SELECT id, person_id FROM digests`, [][]string{{"d1", "shop"}}},
			{`SELECT person_id, org_id, role, COALESCE(digest_at, 0) FROM members ORDER BY org_id, person_id`, [][]string{
				{"farm", "farm", "owner", "0"},
				{"compta-shop", "shop", "accountant", "0"}, {"shop", "shop", "owner", "500"},
				{"compta-shop", "shop2", "accountant", "0"}, {"shop2", "shop2", "owner", "0"},
				{"shop3", "shop3", "owner", "0"},
				{"farm", "shop4", "accountant", "0"}, {"shop4", "shop4", "owner", "0"},
			}},
			{`SELECT id, email, email_key, email_confirmed, name, password_hash FROM people WHERE id = 'compta-shop'`,
				[][]string{{"compta-shop", "Compta@Cabinet.fr", "compta@cabinet.fr", "compta@cabinet.fr", "Comptabilité", ""}}},
			{`SELECT org_id, email, role FROM invitations ORDER BY org_id`, [][]string{{"shop3", "autre@cabinet.fr", "accountant"}}},
			{`SELECT id, email_accounting, accounting_confirmed FROM users WHERE type = 'distributor' ORDER BY id`, [][]string{
				{"shop", "", ""}, {"shop2", "", ""}, {"shop3", "autre@cabinet.fr", ""}, {"shop4", "", ""},
			}},
		})

		// Migration 74: addresses set since 61, one with its link pending,
		// one the login's, one a member's already.
		for _, q := range []string{
			`INSERT INTO users (id, type, email, email_key, name, password_hash, email_accounting, accounting_confirmed, email_confirmed, created_at, updated_at) VALUES
				('shop5', 'distributor', 'marche@lac.fr', 'marche@lac.fr', 'Marché', 'h', ' Compta@Marche.fr', '', 'marche@lac.fr', 60, 61),
				('shop6', 'distributor', 'seul@lac.fr', 'seul@lac.fr', 'Seul', 'h', 'Seul@lac.fr', 'seul@lac.fr', 'seul@lac.fr', 70, 71)`,
			`INSERT INTO people (id, email, email_key, email_confirmed, name, password_hash, created_at, updated_at) VALUES
				('shop5', 'marche@lac.fr', 'marche@lac.fr', 'marche@lac.fr', 'Marché', 'h', 60, 61),
				('shop6', 'seul@lac.fr', 'seul@lac.fr', 'seul@lac.fr', 'Seul', 'h', 70, 71)`,
			`INSERT INTO members (person_id, org_id, role, created_at, updated_at) VALUES ('shop5', 'shop5', 'owner', 60, 60), ('shop6', 'shop6', 'owner', 70, 70)`,
			`UPDATE users SET email_accounting = 'ferme@aravis.fr' WHERE id = 'shop4'`,
			`INSERT INTO email_confirmations (token_hash, user_id, purpose, email, email_key, created_at, expires_at) VALUES
				('lien-compta', 'shop5', 'accounting', 'Compta@Marche.fr', 'compta@marche.fr', 61, 999999999999999),
				('lien-compte', 'shop5', 'account', 'marche@lac.fr', 'marche@lac.fr', 61, 999999999999999)`,
		} {
			if _, err := store.Exec(ctx, db, q); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := schema.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
		check([]struct {
			query string
			want  [][]string
		}{
			{`SELECT id, org_id, email, email_key, role, COALESCE(invited_by, ''), expires_at FROM invitations ORDER BY org_id`, [][]string{
				{"migrated-shop3", "shop3", "autre@cabinet.fr", "autre@cabinet.fr", "accountant", "shop3", "0"},
				{"accounting-shop5", "shop5", "Compta@Marche.fr", "compta@marche.fr", "accountant", "shop5", "0"},
			}},
			{`SELECT id, email_accounting, accounting_confirmed FROM users WHERE type = 'distributor' ORDER BY id`, [][]string{
				{"shop", "", ""}, {"shop2", "", ""}, {"shop3", "", ""}, {"shop4", "", ""}, {"shop5", "", ""}, {"shop6", "", ""},
			}},
			{`SELECT token_hash, purpose FROM email_confirmations ORDER BY token_hash`, [][]string{{"lien-compte", "account"}}},
		})
	})
}
