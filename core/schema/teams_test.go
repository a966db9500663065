package schema_test

import (
	"context"
	"database/sql"
	"reflect"
	"testing"

	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestTeamsMigration: migration 61 turns a database of the code before
// teams into organisations (issue 41) without losing a row: every account
// becomes a person of the same id, email and password hash, owner of its
// organisation (a closed account's person is closed, without
// membership); its sessions become its person's there; a shop's
// accounting email other than its own address becomes an accountant's
// invitation already expired.
func TestTeamsMigration(t *testing.T) {
	storetest.EachEmpty(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := schema.MigrateTo(ctx, db, 60); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			`INSERT INTO users (id, type, email, email_key, name, password_hash, email_accounting, email_confirmed, created_at, updated_at, closed_at) VALUES
				('shop', 'distributor', 'Epicerie@Lac.fr', 'epicerie@lac.fr', 'Épicerie du Lac', 'hash-shop', ' Compta@Cabinet.fr ', 'epicerie@lac.fr', 10, 11, NULL),
				('same', 'distributor', 'cave@lac.fr', 'cave@lac.fr', 'Cave', 'hash-same', 'CAVE@lac.fr', '', 20, 21, NULL),
				('farm', 'producer', 'ferme@aravis.fr', 'ferme@aravis.fr', 'Ferme des Aravis', 'hash-farm', 'compta@aravis.fr', 'ferme@aravis.fr', 30, 31, NULL),
				('gone', 'distributor', 'supprime-gone@primeur.invalid', 'supprime-gone@primeur.invalid', 'Compte supprimé', 'hash-gone', '', '', 40, 41, 42)`,
			`INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, expires_at) VALUES
				('t1', 'shop', 1, 2, 3), ('t2', 'farm', 4, 5, 6)`,
			`INSERT INTO events (id, created_at, type, data, origin_id, target_id) VALUES ('e1', 7, 'need', '{}', 'shop', 'farm')`,
		} {
			if _, err := store.Exec(ctx, db, q); err != nil {
				t.Fatal(err)
			}
		}
		before := map[string]int{}
		for _, table := range storetest.Tables(t, db) {
			before[table] = count(t, db, table)
		}
		if _, err := schema.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
		for table, n := range before {
			if table == "notification_prefs" {
				table = "member_prefs" // migration 71: the founder's choices
			}
			if got := count(t, db, table); got < n {
				t.Errorf("%s: %d rows after the migration, %d before", table, got, n)
			}
		}

		type person struct {
			ID, Email, Key, Confirmed, Name, Hash string
			Closed                                bool
		}
		var people []person
		for _, r := range selectRows(t, db, `SELECT id, email, email_key, email_confirmed, name, password_hash,
			CASE WHEN closed_at IS NULL THEN 'open' ELSE 'closed' END FROM people ORDER BY id`, 7) {
			people = append(people, person{r[0], r[1], r[2], r[3], r[4], r[5], r[6] == "closed"})
		}
		wantPeople := []person{
			{"farm", "ferme@aravis.fr", "ferme@aravis.fr", "ferme@aravis.fr", "Ferme des Aravis", "hash-farm", false},
			{"gone", "supprime-gone@primeur.invalid", "supprime-gone@primeur.invalid", "", "Compte supprimé", "hash-gone", true},
			{"same", "cave@lac.fr", "cave@lac.fr", "", "Cave", "hash-same", false},
			{"shop", "Epicerie@Lac.fr", "epicerie@lac.fr", "epicerie@lac.fr", "Épicerie du Lac", "hash-shop", false},
		}
		if !reflect.DeepEqual(people, wantPeople) {
			t.Errorf("people %+v,\nwant %+v", people, wantPeople)
		}
		for _, tt := range []struct {
			query string
			want  [][]string
		}{
			{`SELECT person_id, org_id, role FROM members ORDER BY org_id`,
				[][]string{{"farm", "farm", "owner"}, {"same", "same", "owner"}, {"shop", "shop", "owner"}}},
			{`SELECT token_hash, user_id, person_id FROM sessions ORDER BY token_hash`,
				[][]string{{"t1", "shop", "shop"}, {"t2", "farm", "farm"}}},
			// Only the shop's accounting address that is not its own: the
			// producer's field is no accountant of a shop.
			{`SELECT org_id, email, email_key, role, invited_by FROM invitations WHERE expires_at = 0 AND used_at IS NULL ORDER BY org_id`,
				[][]string{{"shop", "Compta@Cabinet.fr", "compta@cabinet.fr", "accountant", "shop"}}},
		} {
			got := selectRows(t, db, tt.query, len(tt.want[0]))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s:\n%v, want %v", tt.query, got, tt.want)
			}
		}
		if n := count(t, db, "invitations"); n != 1 {
			t.Errorf("%d invitations, want 1", n)
		}
	})
}

func count(t *testing.T, db *store.DB, table string) int {
	t.Helper()
	var n int
	if err := store.Get(context.Background(), db, &n, `SELECT COUNT(*) FROM `+table); err != nil {
		t.Fatal(err)
	}
	return n
}

// selectRows reads a query's rows of n columns as text (NULL as "<nil>").
func selectRows(t *testing.T, db *store.DB, query string, n int) [][]string {
	t.Helper()
	vals := make([]sql.NullString, n)
	dest := make([]any, n)
	for i := range vals {
		dest[i] = &vals[i]
	}
	var out [][]string
	if err := store.Each(context.Background(), db, query, nil, dest, func() {
		line := make([]string, n)
		for i, v := range vals {
			line[i] = "<nil>"
			if v.Valid {
				line[i] = v.String
			}
		}
		out = append(out, line)
	}); err != nil {
		t.Fatal(err)
	}
	return out
}
