package schema

import (
	"context"
	"database/sql"
	"fmt"
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
