package trade_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
)

// TestFrozenPriceMigrationMatchesRebuildPrices: migration 10, frozen in
// core/schema (a copy of what RebuildPrices did when it was written, not a
// call), gives the same price_months as RebuildPrices on a database of
// version 9 holding commitments of several products, producers and months
// — accepted on both sides of Paris's month edges and clock changes — with
// commitments of zero and proposals still open or rejected among them.
func TestFrozenPriceMigrationMatchesRebuildPrices(t *testing.T) {
	storetest.EachEmpty(t, func(t *testing.T, db *store.DB) {
		if _, err := schema.MigrateTo(ctx, db, 9); err != nil {
			t.Fatal(err)
		}
		edges := []time.Time{
			time.Date(2026, 11, 1, 0, 30, 0, 0, paris), // still October in UTC
			time.Date(2026, 10, 31, 23, 30, 0, 0, paris),
			time.Date(2026, 3, 29, 1, 30, 0, 0, paris),  // the night clocks go forward
			time.Date(2026, 10, 25, 2, 30, 0, 0, paris), // the night clocks go back
			time.Date(2027, 1, 1, 0, 0, 0, 0, paris),
			time.Date(2026, 12, 31, 23, 59, 59, 0, paris),
		}
		from := time.Date(2025, 12, 1, 0, 0, 0, 0, paris).UnixMilli()
		to := time.Date(2027, 2, 1, 0, 0, 0, 0, paris).UnixMilli()
		r := rand.New(rand.NewPCG(14, 10))
		err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			var users []string
			for i, typ := range []string{"distributor", "distributor", "distributor", "producer", "producer", "producer", "producer"} {
				id := fmt.Sprintf("u%d", i)
				users = append(users, id)
				if _, err := store.Exec(ctx, tx, `INSERT INTO users (id, type, email, email_key, name, password_hash, created_at, updated_at)
					VALUES (?, ?, ?, ?, ?, '-', 0, 0)`, id, typ, id+"@x.fr", id+"@x.fr", id); err != nil {
					return err
				}
			}
			shops, producers := users[:3], users[3:]
			n := 0
			for _, shop := range shops {
				for _, product := range []string{"tomate", "melon", "carotte", "laitue"} {
					for _, month := range []string{"2026-03-01", "2026-10-01", "2026-11-01", "2027-01-01"} {
						need := fmt.Sprintf("n%d", n)
						n++
						if _, err := store.Exec(ctx, tx, `INSERT INTO needs (id, distributor_id, product_id, month, quantity, created_at, updated_at)
							VALUES (?, ?, ?, ?, 100000, 0, 0)`, need, shop, product, month); err != nil {
							return err
						}
						for _, producer := range producers {
							status := []string{"accepted", "accepted", "accepted", "proposed", "rejected"}[r.IntN(5)]
							quantity := r.Int64N(50000)
							if r.IntN(8) == 0 {
								quantity = 0 // a commitment ended, or a correction to zero asked
							}
							stamp := from + r.Int64N(to-from)
							if r.IntN(3) == 0 {
								stamp = edges[r.IntN(len(edges))].UnixMilli()
							}
							if _, err := store.Exec(ctx, tx, `INSERT INTO proposals (id, need_id, producer_id, status, origin, quantity, price, created_at, updated_at)
								VALUES (?, ?, ?, ?, 'producer', ?, ?, 0, ?)`,
								need+producer, need, producer, status, quantity, 1+r.Int64N(99999), stamp); err != nil {
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
		sums := func() string {
			t.Helper()
			var rows []struct {
				Product  string `db:"product_id"`
				Month    string `db:"month"`
				Amount   int64  `db:"amount"`
				Quantity int64  `db:"quantity"`
			}
			if err := store.Select(ctx, db, &rows, `SELECT product_id, month, amount, quantity FROM price_months ORDER BY product_id, month`); err != nil {
				t.Fatal(err)
			}
			if len(rows) < 20 {
				t.Fatalf("only %d price sums: the data misses what it should cover", len(rows))
			}
			return fmt.Sprint(rows)
		}

		if _, err := schema.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
		migrated := sums()
		if err := trade.RebuildPrices(ctx, db, paris); err != nil {
			t.Fatal(err)
		}
		if rebuilt := sums(); rebuilt != migrated {
			t.Fatalf("migration 10 wrote\n%s\nRebuildPrices\n%s", migrated, rebuilt)
		}
	})
}

// TestFrozenComparisonMigrationMatchesRebuild: migration 19, frozen in
// core/schema, gives the same comparison sums as RebuildPrices on a
// database of version 18 holding commitments of several shops — with
// addresses in several départements, in Corsica, overseas, without
// postcode — producers, products and months, with commitments of zero and
// proposals still open or rejected among them.
func TestFrozenComparisonMigrationMatchesRebuild(t *testing.T) {
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
		r := rand.New(rand.NewPCG(18, 19))
		err := db.Tx(ctx, func(tx *sqlx.Tx) error {
			var shops, producers []string
			for i, a := range addresses {
				id := fmt.Sprintf("s%d", i)
				shops = append(shops, id)
				if _, err := store.Exec(ctx, tx, `INSERT INTO users (id, type, email, email_key, name, password_hash,
					address_line1, address_line2, address_line3, created_at, updated_at)
					VALUES (?, 'distributor', ?, ?, ?, '-', ?, ?, ?, 0, 0)`, id, id+"@x.fr", id+"@x.fr", id, a[0], a[1], a[2]); err != nil {
					return err
				}
			}
			for i := range 4 {
				id := fmt.Sprintf("p%d", i)
				producers = append(producers, id)
				if _, err := store.Exec(ctx, tx, `INSERT INTO users (id, type, email, email_key, name, password_hash, created_at, updated_at)
					VALUES (?, 'producer', ?, ?, ?, '-', 0, 0)`, id, id+"@x.fr", id+"@x.fr", id); err != nil {
					return err
				}
			}
			n := 0
			for _, shop := range shops {
				for _, product := range []string{"tomate", "melon", "carotte"} {
					for _, month := range []string{"2026-10-01", "2026-11-01", "2027-01-01"} {
						need := fmt.Sprintf("n%d", n)
						n++
						if _, err := store.Exec(ctx, tx, `INSERT INTO needs (id, distributor_id, product_id, month, quantity, created_at, updated_at)
							VALUES (?, ?, ?, ?, 100000, 0, 0)`, need, shop, product, month); err != nil {
							return err
						}
						for _, producer := range producers {
							status := []string{"accepted", "accepted", "accepted", "proposed", "rejected"}[r.IntN(5)]
							quantity := r.Int64N(50000)
							if r.IntN(8) == 0 {
								quantity = 0
							}
							if _, err := store.Exec(ctx, tx, `INSERT INTO proposals (id, need_id, producer_id, status, origin, quantity, price, created_at, updated_at)
								VALUES (?, ?, ?, ?, 'producer', ?, ?, 0, 0)`,
								need+producer, need, producer, status, quantity, 1+r.Int64N(99999)); err != nil {
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
		if _, err := schema.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
		migrated := comparisonRows(t, db)
		for _, area := range []string{"FR", "74", "2A", "2B", "974", "69"} {
			if !strings.Contains(migrated, " "+area+" ") {
				t.Fatalf("no sums of area %s: the data misses what it should cover\n%s", area, migrated)
			}
		}
		if err := trade.RebuildPrices(ctx, db, paris); err != nil {
			t.Fatal(err)
		}
		if rebuilt := comparisonRows(t, db); rebuilt != migrated {
			t.Fatalf("migration 19 wrote\n%s\nRebuildPrices\n%s", migrated, rebuilt)
		}
	})
}
