package schema

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/pressly/goose/v3"

	"primeur/core/store"
)

// goMigrations are the migrations written in Go, by version. Their numbers
// interleave with the SQL files'. Like those, they are frozen: each is
// written here against the schema of its version and calls no code of the
// domain packages, so that a later change of that code never changes what
// an old migration does (migration 3, the catalogue, was one of them: it is
// now 00003_catalogue.sql, its rows written out).
func goMigrations(d store.Dialect) []*goose.Migration {
	return []*goose.Migration{
		goose.NewGoMigration(10, &goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
			return sumPrices(ctx, tx, d)
		}}, nil),
		goose.NewGoMigration(19, &goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
			return sumComparison(ctx, tx, d)
		}}, nil),
		goose.NewGoMigration(30, &goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
			return mailKeys(ctx, tx, d)
		}}, nil),
		goose.NewGoMigration(32, &goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
			return regimesAndDiscounts(ctx, tx, d)
		}}, nil),
		goose.NewGoMigration(46, &goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
			return familiesAndUnits(ctx, tx, d)
		}}, nil),
	}
}

// sumPrices is migration 10: the price sums of 00009 (price_months) from
// the commitments already accepted, as trade.RebuildPrices computed them
// when this migration was written — copied, not called. A commitment in
// force is an accepted proposal of more than zero; it counts in the month
// (YYYY-MM-01) of its acceptance, its updated_at in Europe/Paris, the
// default business time zone (a configured one differs, if ever, by a few
// hours at a month's edge): amount Σ quantity × price, quantity Σ
// quantity, per product and month.
func sumPrices(ctx context.Context, tx *sql.Tx, d store.Dialect) error {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		return fmt.Errorf("schema: migration 10: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT n.product_id, p.quantity, p.price, p.updated_at
		FROM proposals p JOIN needs n ON n.id = p.need_id WHERE p.status = 'accepted' AND p.quantity > 0`)
	if err != nil {
		return fmt.Errorf("schema: migration 10: %w", err)
	}
	defer rows.Close()
	type key struct{ product, month string }
	type sum struct{ amount, quantity int64 }
	sums := map[key]*sum{}
	var keys []key
	for rows.Next() {
		var (
			product                string
			quantity, price, stamp int64
		)
		if err := rows.Scan(&product, &quantity, &price, &stamp); err != nil {
			return fmt.Errorf("schema: migration 10: %w", err)
		}
		k := key{product, time.UnixMilli(stamp).In(paris).Format("2006-01") + "-01"}
		s := sums[k]
		if s == nil {
			s = &sum{}
			sums[k] = s
			keys = append(keys, k)
		}
		s.amount += quantity * price
		s.quantity += quantity
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("schema: migration 10: %w", err)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("schema: migration 10: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM price_months`); err != nil {
		return fmt.Errorf("schema: migration 10: %w", err)
	}
	insert := store.Rebind(d, `INSERT INTO price_months (product_id, month, amount, quantity) VALUES (?, ?, ?, ?)`)
	for _, k := range keys {
		s := sums[k]
		if _, err := tx.ExecContext(ctx, insert, k.product, k.month, s.amount, s.quantity); err != nil {
			return fmt.Errorf("schema: migration 10: %w", err)
		}
	}
	return nil
}

// sumComparison is migration 19: the price comparison's sums of 00018
// (price_pairs, price_members, price_areas) from the commitments already
// accepted, as trade's rebuildComparison computed them when this migration
// was written — copied, not called. A commitment in force is an accepted
// proposal of more than zero; it counts in its need's product and month,
// for its shop and producer (a pair), in area 'FR' and in the département
// of the shop's address: the last of its three lines that starts with a
// French postcode (2A/2B in Corsica, three digits from 97 on). An area
// sums amount, quantity and purchases (commitments) and counts its
// distinct shops (buyers) and producers (sellers).
func sumComparison(ctx context.Context, tx *sql.Tx, d store.Dialect) error {
	fail := func(err error) error { return fmt.Errorf("schema: migration 19: %w", err) }
	rows, err := tx.QueryContext(ctx, `SELECT n.product_id, n.month, n.distributor_id, p.producer_id, p.quantity, p.price,
			u.address_line1, u.address_line2, u.address_line3
		FROM proposals p JOIN needs n ON n.id = p.need_id JOIN users u ON u.id = n.distributor_id
		WHERE p.status = 'accepted' AND p.quantity > 0`)
	if err != nil {
		return fail(err)
	}
	defer rows.Close()
	type pairKey struct{ product, month, shop, producer string }
	type pair struct {
		area                        string
		amount, quantity, purchases int64
	}
	pairs := map[pairKey]*pair{}
	var order []pairKey
	for rows.Next() {
		var (
			k               pairKey
			quantity, price int64
			lines           [3]string
		)
		if err := rows.Scan(&k.product, &k.month, &k.shop, &k.producer, &quantity, &price, &lines[0], &lines[1], &lines[2]); err != nil {
			return fail(err)
		}
		p := pairs[k]
		if p == nil {
			p = &pair{area: frozenDepartment(lines)}
			pairs[k] = p
			order = append(order, k)
		}
		p.amount, p.quantity, p.purchases = p.amount+quantity*price, p.quantity+quantity, p.purchases+1
	}
	if err := rows.Close(); err != nil {
		return fail(err)
	}
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	type areaKey struct{ product, month, area string }
	type memberKey struct{ product, month, area, side, member string }
	type area struct{ amount, quantity, purchases, buyers, sellers int64 }
	areas := map[areaKey]*area{}
	members := map[memberKey]int64{}
	var areaOrder []areaKey
	var memberOrder []memberKey
	for _, k := range order {
		p := pairs[k]
		in := []string{"FR"}
		if p.area != "" {
			in = append(in, p.area)
		}
		for _, a := range in {
			ak := areaKey{k.product, k.month, a}
			s := areas[ak]
			if s == nil {
				s = &area{}
				areas[ak] = s
				areaOrder = append(areaOrder, ak)
			}
			s.amount, s.quantity, s.purchases = s.amount+p.amount, s.quantity+p.quantity, s.purchases+p.purchases
			for _, m := range []memberKey{{k.product, k.month, a, "buyer", k.shop}, {k.product, k.month, a, "seller", k.producer}} {
				if _, ok := members[m]; !ok {
					memberOrder = append(memberOrder, m)
					if m.side == "buyer" {
						s.buyers++
					} else {
						s.sellers++
					}
				}
				members[m] += p.purchases
			}
		}
	}
	for _, t := range []string{"price_pairs", "price_members", "price_areas"} {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+t); err != nil {
			return fail(err)
		}
	}
	insert := func(query string, args ...any) error {
		if _, err := tx.ExecContext(ctx, store.Rebind(d, query), args...); err != nil {
			return fail(err)
		}
		return nil
	}
	for _, k := range order {
		p := pairs[k]
		if err := insert(`INSERT INTO price_pairs (product_id, month, shop_id, producer_id, area, purchases) VALUES (?, ?, ?, ?, ?, ?)`,
			k.product, k.month, k.shop, k.producer, p.area, p.purchases); err != nil {
			return err
		}
	}
	for _, m := range memberOrder {
		if err := insert(`INSERT INTO price_members (product_id, month, area, side, member_id, purchases) VALUES (?, ?, ?, ?, ?, ?)`,
			m.product, m.month, m.area, m.side, m.member, members[m]); err != nil {
			return err
		}
	}
	for _, k := range areaOrder {
		s := areas[k]
		if err := insert(`INSERT INTO price_areas (product_id, month, area, amount, quantity, purchases, buyers, sellers) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			k.product, k.month, k.area, s.amount, s.quantity, s.purchases, s.buyers, s.sellers); err != nil {
			return err
		}
	}
	return nil
}

// frozenPostcode is migration 19's copy of a line that starts with a
// French postcode.
var frozenPostcode = regexp.MustCompile(`^([0-9]{5})\s+(.+)$`)

// frozenDepartment is migration 19's copy of the département of an
// address: that of the last line that starts with a French postcode.
func frozenDepartment(lines [3]string) string {
	postcode := ""
	for _, l := range lines {
		if m := frozenPostcode.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			postcode = m[1]
		}
	}
	switch {
	case postcode == "", postcode < "01000":
		return ""
	case strings.HasPrefix(postcode, "20") && postcode < "20200":
		return "2A"
	case strings.HasPrefix(postcode, "20"):
		return "2B"
	case strings.HasPrefix(postcode, "97"), strings.HasPrefix(postcode, "98"):
		return postcode[:3]
	}
	return postcode[:2]
}

// mailKeys is migration 30: invoices and credit notes get the keys of the
// addresses they are emailed to, as issued — mail_seller_key (the seller's
// email), mail_buyer_key (the buyer's), mail_accounting_key (the buyer's
// accounting email), lower case and trimmed as accounts.EmailKey makes
// them, empty for none — so that the jobs select only the documents one of
// whose addresses is confirmed (core/jobs) instead of claiming, loading and
// releasing every one that waits on every run. billing writes them when it
// issues a document; this fills those of the documents not emailed yet,
// from the parties stored as JSON (a document emailed is never emailed
// again: its keys stay empty).
func mailKeys(ctx context.Context, tx *sql.Tx, d store.Dialect) error {
	fail := func(err error) error { return fmt.Errorf("schema: migration 30: %w", err) }
	for _, table := range []string{"invoices", "credit_notes"} {
		for _, column := range []string{"mail_seller_key", "mail_buyer_key", "mail_accounting_key"} {
			if _, err := tx.ExecContext(ctx, `ALTER TABLE `+table+` ADD COLUMN `+column+` TEXT NOT NULL DEFAULT ''`); err != nil {
				return fail(err)
			}
		}
		unsent, err := unsentMailKeys(ctx, tx, table)
		if err != nil {
			return fail(err)
		}
		update := store.Rebind(d, `UPDATE `+table+` SET mail_seller_key = ?, mail_buyer_key = ?, mail_accounting_key = ? WHERE id = ?`)
		for _, k := range unsent {
			if _, err := tx.ExecContext(ctx, update, k[1], k[2], k[3], k[0]); err != nil {
				return fail(err)
			}
		}
	}
	return nil
}

// unsentMailKeys reads, for migration 30, the documents of table not
// emailed yet: their id, and the keys of their seller's email, buyer's
// email and buyer's accounting email.
func unsentMailKeys(ctx context.Context, tx *sql.Tx, table string) ([][4]string, error) {
	key := func(email string) string { return strings.ToLower(strings.TrimSpace(email)) }
	var party struct {
		Email           string `json:"email"`
		EmailAccounting string `json:"emailAccounting"`
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, seller, buyer FROM `+table+` WHERE sent_at IS NULL ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][4]string
	for rows.Next() {
		var id, seller, buyer string
		if err := rows.Scan(&id, &seller, &buyer); err != nil {
			return nil, err
		}
		k := [4]string{id}
		if err := json.Unmarshal([]byte(seller), &party); err != nil {
			return nil, fmt.Errorf("%s %s: seller: %w", table, id, err)
		}
		k[1] = key(party.Email)
		party.Email, party.EmailAccounting = "", ""
		if err := json.Unmarshal([]byte(buyer), &party); err != nil {
			return nil, fmt.Errorf("%s %s: buyer: %w", table, id, err)
		}
		k[2], k[3] = key(party.Email), key(party.EmailAccounting)
		out = append(out, k)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	return out, rows.Err()
}
