package trade_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"primeur/core/accounts"
	"primeur/core/decimal"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
)

// priceRows is the price sums as text, rows that count nothing left out
// (a commitment ended, an entity whose purchases all ended, stay at zero).
func priceRows(t testing.TB, db *store.DB) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`SELECT shop_id, month, product_id, producer_id, area, buyer, seller, amount, quantity FROM price_commitments
			WHERE quantity <> 0 ORDER BY shop_id, month, product_id, producer_id`,
		`SELECT product_id, month, area, side, entity, purchases, quantity FROM price_entities WHERE purchases <> 0
			ORDER BY product_id, month, area, side, entity`,
		`SELECT product_id, month, area, amount, quantity, purchases, buyers, sellers, largest_buyer, largest_seller FROM price_cells
			WHERE amount <> 0 OR quantity <> 0 OR purchases <> 0 OR buyers <> 0 OR sellers <> 0 ORDER BY product_id, month, area`,
	} {
		rows, err := db.QueryContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				if s, ok := v.([]byte); ok {
					vals[i] = string(s)
				}
			}
			fmt.Fprintln(&b, vals...)
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		b.WriteString("--\n")
	}
	return b.String()
}

// keptEqualsRebuilt fails unless the price sums kept by trade equal those
// RebuildPrices computes from the commitments in force.
func keptEqualsRebuilt(t testing.TB, db *store.DB, step string) {
	t.Helper()
	kept := priceRows(t, db)
	if err := trade.RebuildPrices(ctx, db); err != nil {
		t.Fatal(err)
	}
	if rebuilt := priceRows(t, db); rebuilt != kept {
		t.Fatalf("%s: price sums kept\n%s\nrebuilt\n%s", step, kept, rebuilt)
	}
}

// located creates an account whose address is in postcode's town.
func located(t testing.TB, db *store.DB, email, typ, postcode string) accounts.User {
	t.Helper()
	u := newUser(t, db, email, typ, "1111100")
	exec(t, db, `UPDATE users SET address_line1 = 'Route du marché', address_line2 = ?, address_line3 = '' WHERE id = ?`, postcode+" Ville", u.ID)
	return u
}

// TestComparison: the price comparison of a need shows the average price of
// its product and month on the platform and in the shop's département only
// when 3 distinct shops and 3 distinct producers back it, none holding more
// than half its quantity (exactly half is shown), rounded to 10 cents; a
// producer selling to two shops counts once; the local figure is withheld
// whenever the national one is; a commitment ended leaves the
// département it was counted in even after the shop moved; the sums kept
// equal those rebuilt.
func TestComparison(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var shops, farms []accounts.User
		for i, pc := range []string{"74230", "74000", "74150", "69002"} {
			shops = append(shops, located(t, db, fmt.Sprintf("shop%d@x.fr", i), accounts.Distributor, pc))
		}
		for i := range 3 {
			farms = append(farms, located(t, db, fmt.Sprintf("farm%d@x.fr", i), accounts.Producer, "73000"))
		}
		needs := make([]string, len(shops))
		for i, s := range shops {
			id, err := planningCreate(db, s.ID, "tomate", "2026-12", 1000)
			if err != nil {
				t.Fatal(err)
			}
			needs[i] = id
		}
		commit := func(shop, farm int, qty, price float64) {
			t.Helper()
			ok(t)(propose(db, farms[farm], needs[shop], farms[farm].ID, qty, price, now))
			ok(t)(review(db, shops[shop], needs[shop], farms[farm].ID, true, now))
		}
		type fig struct {
			average   decimal.Dec
			purchases int64
		}
		check := func(step string, area string, national, local *fig) {
			t.Helper()
			keptEqualsRebuilt(t, db, step)
			c, err := trade.Compare(ctx, db, "tomate", "2026-12-01", area)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range []struct {
				name string
				got  *trade.Figure
				want *fig
			}{{"national", c.National, national}, {"local", c.Local, local}} {
				switch {
				case x.want == nil && x.got != nil:
					t.Fatalf("%s: %s figure %+v shown, want it hidden", step, x.name, *x.got)
				case x.want != nil && x.got == nil:
					t.Fatalf("%s: %s figure hidden, want %+v", step, x.name, *x.want)
				case x.want != nil && (x.got.Average != x.want.average || x.got.Purchases != x.want.purchases):
					t.Fatalf("%s: %s figure %+v, want %+v", step, x.name, *x.got, *x.want)
				}
			}
		}

		commit(0, 0, 100, 2)
		commit(1, 1, 50, 3)
		check("two shops", "74", nil, nil)
		commit(2, 1, 50, 2.5)
		check("three shops, two producers", "74", nil, nil)
		commit(2, 2, 50, 2.5) // a second commitment for shop 2
		// (100×2 + 50×3 + 50×2.5 + 50×2.5) / 250 = 2.40; farm 1 sells to
		// two shops: 100 of 250.
		check("three shops, three producers", "74", &fig{240, 4}, &fig{240, 4})

		// Farm 0 now sells 200 of 350: more than half, the national
		// figure is withheld; Haute-Savoie's would pass alone, but a need
		// shows its average in full or not at all (issue 37).
		commit(3, 0, 100, 4)
		check("a dominant producer", "74", nil, nil)
		commit(3, 2, 100, 3)
		// (200 + 150 + 250 + 400 + 300) / 450 = 2.888… → 2.90
		check("the Rhône shop buys elsewhere too", "74", &fig{290, 6}, &fig{240, 4})
		check("seen from the Rhône", "69", &fig{290, 6}, nil)
		check("seen from nowhere known", "", &fig{290, 6}, nil)

		// Shop 2 moves to Lyon, then ends both commitments: they leave
		// Haute-Savoie, where they were counted.
		exec(t, db, `UPDATE users SET address_line2 = '69003 Lyon' WHERE id = ?`, shops[2].ID)
		for _, farm := range []int{1, 2} {
			ok(t)(propose(db, shops[2], needs[2], farms[farm].ID, 0, 2.5, now))
			ok(t)(review(db, farms[farm], needs[2], farms[farm].ID, true, now))
		}
		// Left: farm 0 with shops 0 and 3 (200 of 350), farm 1 with shop
		// 1, farm 2 with shop 3.
		check("commitments ended", "74", nil, nil)
		// Shop 2 buys again, now from Lyon: counted in the Rhône. Farm 2
		// sells 250 of 500: exactly half, shown.
		commit(2, 2, 150, 2)
		// (200 + 150 + 400 + 300 + 300) / 500 = 2.70
		check("back from Lyon", "69", &fig{270, 5}, nil)
	})
}

// TestComparisonConcurrent: acceptances of one product and month by many
// shops and producers at once keep the distinct counts exact (each member
// joins its area once) on both engines.
func TestComparisonConcurrent(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		const n = 6
		var shops, farms []accounts.User
		needs := make([]string, n)
		for i := range n {
			shops = append(shops, located(t, db, fmt.Sprintf("shop%d@x.fr", i), accounts.Distributor, "74230"))
			farms = append(farms, located(t, db, fmt.Sprintf("farm%d@x.fr", i), accounts.Producer, "73000"))
			id, err := planningCreate(db, shops[i].ID, "tomate", "2026-12", 1000)
			if err != nil {
				t.Fatal(err)
			}
			needs[i] = id
		}
		for s := range n {
			for f := range n {
				ok(t)(propose(db, farms[f], needs[s], farms[f].ID, 10, 2, now))
			}
		}
		var wg sync.WaitGroup
		errs := make(chan error, n*n)
		for s := range n {
			for f := range n {
				wg.Go(func() {
					for {
						_, err := review(db, shops[s], needs[s], farms[f].ID, true, now)
						if err != nil && store.IsBusy(err) {
							continue
						}
						errs <- err
						return
					}
				})
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		keptEqualsRebuilt(t, db, "concurrent acceptances")
		c, err := trade.Compare(ctx, db, "tomate", "2026-12-01", "74")
		if err != nil || c.National == nil || c.Local == nil || c.National.Purchases != n*n || c.National.Average != 200 {
			t.Fatalf("comparison %+v (%v)", c, err)
		}
		var buyers, sellers int64
		if err := db.QueryRowContext(ctx, `SELECT buyers, sellers FROM price_cells WHERE area = 'FR'`).Scan(&buyers, &sellers); err != nil || buyers != n || sellers != n {
			t.Fatalf("%d buyers, %d sellers (%v), want %d each", buyers, sellers, err, n)
		}
	})
}
