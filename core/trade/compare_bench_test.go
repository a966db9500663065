package trade_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
)

// benchProducts are the products of the comparison benchmark's platform.
var benchProducts = []string{"tomate", "carotte", "pomme", "poire", "courgette", "laitue", "poireau", "oignon", "radis", "fraise"}

// comparisonPlatform seeds shops (in 20 départements), a producer for every
// 4 shops, and for every shop, product and month of 2026 a need with two
// commitments of two producers — shops × 10 × 12 × 2 commitments — then
// builds the price sums (RebuildPrices).
func comparisonPlatform(b *testing.B, db *store.DB, shops int) {
	b.Helper()
	producers := max(shops/4, 3)
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		// Each user a company of its own with a confirmed email: the price
		// figures count only such partners (trade.EntityOf).
		cols := []string{"id", "type", "email", "email_key", "email_confirmed", "siret", "name", "password_hash", "address_line2", "created_at", "updated_at"}
		n := shops + producers
		if err := store.Insert(ctx, tx, "users", cols, n, func(i int, v []any) {
			typ, id, address := "distributor", fmt.Sprintf("s%05d", i), fmt.Sprintf("%02d100 Ville", 1+i%20)
			if i >= shops {
				typ, id, address = "producer", fmt.Sprintf("p%05d", i-shops), "73000 Chambéry"
			}
			v[0], v[1], v[2], v[3], v[4], v[5] = id, typ, id+"@x.fr", id+"@x.fr", id+"@x.fr", siretOf(1000+i)
			v[6], v[7], v[8], v[9], v[10] = id, "-", address, 0, 0
		}); err != nil {
			return err
		}
		per := len(benchProducts) * 12
		if err := store.Insert(ctx, tx, "needs", []string{"id", "distributor_id", "product_id", "month", "quantity", "created_at", "updated_at"},
			shops*per, func(i int, v []any) {
				shop, k := i/per, i%per
				v[0], v[1], v[2], v[3] = fmt.Sprintf("n%07d", i), fmt.Sprintf("s%05d", shop), benchProducts[k%len(benchProducts)], fmt.Sprintf("2026-%02d-01", 1+k/len(benchProducts))
				v[4], v[5], v[6] = 100000, 0, 0
			}); err != nil {
			return err
		}
		return store.Insert(ctx, tx, "proposals", []string{"id", "need_id", "producer_id", "status", "origin", "quantity", "price", "created_at", "updated_at"},
			2*shops*per, func(i int, v []any) {
				need, shop := i/2, i/2/per
				producer := (shop + i%2*7) % producers
				v[0], v[1], v[2], v[3], v[4] = fmt.Sprintf("c%08d", i), fmt.Sprintf("n%07d", need), fmt.Sprintf("p%05d", producer), "accepted", "producer"
				v[5], v[6], v[7], v[8] = 1000+i%5000, 150+i%300, 0, 0
			})
	})
	if err != nil {
		b.Fatal(err)
	}
	// In one transaction: its hundreds of thousands of rows would each be
	// a commit of their own otherwise (8 minutes of make bench).
	if err := db.Tx(ctx, func(tx *sqlx.Tx) error { return trade.RebuildPrices(ctx, tx) }); err != nil {
		b.Fatal(err)
	}
}

// benchPlatforms are the shops of BenchmarkComparison's platforms: 200
// and 2,000, or 200 alone with -short (make test-bench: each benchmark run
// once, to show it still runs).
func benchPlatforms() []int {
	if testing.Short() {
		return []int{200}
	}
	return []int{200, 2000}
}

// BenchmarkComparison: what a need's price comparison costs to read on
// platforms of 200 and 2,000 shops (48,000 and 480,000 commitments), on
// each engine: "sums" is trade.Compare, two rows of price_areas; "scan"
// is the national figure alone computed from the commitments of the
// product and month (what the comparison would cost without its sums),
// for reference. Figures in docs/BENCHMARKS.md "Price comparison".
func BenchmarkComparison(b *testing.B) {
	engines := []string{"sqlite"}
	if os.Getenv(storetest.EnvURL) != "" {
		engines = append(engines, "postgres")
	}
	for _, engine := range engines {
		for _, shops := range benchPlatforms() {
			b.Run(fmt.Sprintf("%s/shops=%d", engine, shops), func(b *testing.B) {
				var db *store.DB
				if engine == "sqlite" {
					db = storetest.SQLite(b)
				} else {
					db = storetest.Postgres(b)
				}
				comparisonPlatform(b, db, shops)
				b.Run("sums", func(b *testing.B) {
					for i := 0; b.Loop(); i++ {
						c, err := trade.Compare(ctx, db, benchProducts[i%len(benchProducts)], fmt.Sprintf("2026-%02d-01", 1+i%12), "07")
						if err != nil || c.National == nil || c.Local == nil {
							b.Fatalf("%+v %v", c, err)
						}
					}
				})
				b.Run("scan", func(b *testing.B) {
					for i := 0; b.Loop(); i++ {
						var r struct {
							Amount    int64 `db:"amount"`
							Quantity  int64 `db:"quantity"`
							Purchases int64 `db:"purchases"`
							Buyers    int64 `db:"buyers"`
							Sellers   int64 `db:"sellers"`
						}
						if err := store.Get(ctx, db, &r, `SELECT CAST(SUM(p.quantity * p.price) AS BIGINT) AS amount,
								CAST(SUM(p.quantity) AS BIGINT) AS quantity, COUNT(*) AS purchases,
								COUNT(DISTINCT n.distributor_id) AS buyers, COUNT(DISTINCT p.producer_id) AS sellers
							FROM needs n JOIN proposals p ON p.need_id = n.id
							WHERE n.product_id = ? AND n.month = ? AND p.status = 'accepted' AND p.quantity > 0`,
							benchProducts[i%len(benchProducts)], fmt.Sprintf("2026-%02d-01", 1+i%12)); err != nil || r.Purchases == 0 {
							b.Fatalf("%+v %v", r, err)
						}
					}
				})
			})
		}
	}
}
