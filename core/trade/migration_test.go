package trade_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
)

// TestPriceMigrationMatchesRebuild: migration 38, which counts the
// commitments already in force under the privacy rules in SQL (its own
// copy of accounts.ValidSIRET, EntityOf and Counts), gives the same price
// sums as RebuildPrices on a database filled at version 18 (migration 19
// then fills the pairs' areas it reads; logins are unconfirmed after 24,
// which confirmed every account of its time) holding commitments of shops — with
// addresses in several départements, in Corsica, overseas, without
// postcode — and producers whose SIRETs are valid, shared by two accounts,
// La Poste's (valid or not), of bad keys, letters, spaces or lengths, with
// logins confirmed or not, of quantities and amounts around the floors,
// with commitments of zero and proposals still open or rejected among
// them. Each account's entity as the migration counts it is also
// accounts' own verdict on its SIRET.
func TestPriceMigrationMatchesRebuild(t *testing.T) {
	t.Parallel()
	storetest.EachEmpty(t, func(t *testing.T, db *store.DB) {
		if _, err := schema.MigrateTo(ctx, db, 18); err != nil {
			t.Fatal(err)
		}
		addresses := [][3]string{
			{"1 rue du Lac", "74000 Annecy", ""},
			{"20167 Ajaccio", "", ""},
			{"Quai du port", "20200 Bastia", "Haute-Corse"},
			{"97400 Saint-Denis", "", ""},
			{"Lieu-dit Le Bois", "Haute-Savoie", ""},
			{"75001 Paris", "Bâtiment B", "69002 Lyon"},
			{"7400 Annecy", "", ""},
		}
		sirets := []string{
			siretOf(1), siretOf(2), siretOf(3), siretOf(4), siretOf(5), siretOf(6),
			accounts.LuhnComplete(siretOf(1)[:9] + "0009"), // another establishment of the first company
			"35600000000048", "35600000000001", "35600000000002", // La Poste: head office, another, a bad one
			siretOf(7)[:13] + string('0'+(siretOf(7)[13]-'0'+1)%10), // a bad key
			siretOf(8)[:3] + " " + siretOf(8)[3:],                   // spaces, as typed
			"1234567890123A", "123456789", "", "123456789012345",
		}
		r := rand.New(rand.NewPCG(38, 38))
		var unconfirmed []string // confirmed by migration 24 as every account then, unconfirmed before 38
		err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			var shops, producers []string
			add := func(id, typ string, address [3]string, siret string, confirmed bool) error {
				if !confirmed {
					unconfirmed = append(unconfirmed, id)
				}
				_, err := store.Exec(ctx, tx, `INSERT INTO users (id, type, email, email_key, name, password_hash, siret,
					address_line1, address_line2, address_line3, created_at, updated_at)
					VALUES (?, ?, ?, ?, ?, '-', ?, ?, ?, ?, 0, 0)`, id, typ, id+"@x.fr", id+"@x.fr", id, siret,
					address[0], address[1], address[2])
				return err
			}
			for i, a := range addresses {
				id := fmt.Sprintf("s%d", i)
				shops = append(shops, id)
				if err := add(id, "distributor", a, sirets[i%len(sirets)], i != 4); err != nil {
					return err
				}
			}
			for i := range len(sirets) + 2 {
				id := fmt.Sprintf("p%d", i)
				producers = append(producers, id)
				if err := add(id, "producer", [3]string{}, sirets[(i+3)%len(sirets)], i != 5); err != nil {
					return err
				}
			}
			n := 0
			for _, shop := range shops {
				for _, product := range []string{"tomate", "melon"} {
					for _, month := range []string{"2026-10-01", "2027-01-01"} {
						need := fmt.Sprintf("n%d", n)
						n++
						if _, err := store.Exec(ctx, tx, `INSERT INTO needs (id, distributor_id, product_id, month, quantity, created_at, updated_at)
							VALUES (?, ?, ?, ?, 10000000, 0, 0)`, need, shop, product, month); err != nil {
							return err
						}
						for _, producer := range producers {
							status := []string{"accepted", "accepted", "accepted", "accepted", "proposed", "rejected"}[r.IntN(6)]
							quantity, price := 100+r.Int64N(50000), 1+r.Int64N(2000)
							switch r.IntN(8) {
							case 0:
								quantity = 0
							case 1:
								quantity = 99 + r.Int64N(2) // around 1 kg
							case 2:
								quantity, price = 1000, 99+r.Int64N(2) // around 10 €
							}
							if _, err := store.Exec(ctx, tx, `INSERT INTO proposals (id, need_id, producer_id, status, origin, quantity, price, created_at, updated_at)
								VALUES (?, ?, ?, ?, 'producer', ?, ?, 0, 0)`,
								need+producer, need, producer, status, quantity, price); err != nil {
								return err
							}
						}
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := schema.MigrateTo(ctx, db, 37); err != nil {
			t.Fatal(err)
		}
		if _, err := store.ExecIn(ctx, db, `UPDATE users SET email_confirmed = '' WHERE id IN (?)`, unconfirmed); err != nil {
			t.Fatal(err)
		}
		if _, err := schema.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
		migrated := priceRows(t, db)
		for _, area := range []string{"FR", "74", "2A", "2B", "974", "69"} {
			if !strings.Contains(migrated, " "+area+" ") {
				t.Fatalf("no sums of area %s: the data misses what it should cover\n%s", area, migrated)
			}
		}
		if err := trade.RebuildPrices(ctx, db); err != nil {
			t.Fatal(err)
		}
		if rebuilt := priceRows(t, db); rebuilt != migrated {
			t.Fatalf("migration 38 wrote\n%s\nRebuildPrices\n%s", migrated, rebuilt)
		}

		// Each account counted as its SIRET's SIREN exactly when accounts
		// finds the SIRET valid and the login confirmed.
		var entities []struct {
			ID        string `db:"id"`
			SIRET     string `db:"siret"`
			Key       string `db:"email_key"`
			Confirmed string `db:"email_confirmed"`
			Counted   string `db:"counted"`
		}
		if err := store.Select(ctx, db, &entities, `SELECT u.id, u.siret, u.email_key, u.email_confirmed,
				COALESCE(MAX(CASE WHEN c.shop_id = u.id THEN c.buyer ELSE c.seller END), '') AS counted
			FROM users u LEFT JOIN price_commitments c ON c.shop_id = u.id OR c.producer_id = u.id
			GROUP BY u.id, u.siret, u.email_key, u.email_confirmed ORDER BY u.id`); err != nil {
			t.Fatal(err)
		}
		valid := 0
		for _, e := range entities {
			want := trade.EntityOf(accounts.User{SIRET: e.SIRET, EmailKey: e.Key, EmailConfirmedKey: e.Confirmed})
			if e.Counted != "" && e.Counted != want {
				t.Errorf("%s (SIRET %q, confirmed %q): counted as %q, want %q", e.ID, e.SIRET, e.Confirmed, e.Counted, want)
			}
			if want != "" && e.Counted == "" {
				t.Errorf("%s (SIRET %q): a valid entity never counted: the data misses it", e.ID, e.SIRET)
			}
			if want != "" {
				valid++
			}
		}
		if valid < 10 {
			t.Fatalf("only %d valid entities", valid)
		}
	})
}
