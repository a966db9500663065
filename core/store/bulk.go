package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// sqliteParams bounds the parameters of one SQLite statement (at most
// 32,766).
const sqliteParams = 30_000

// Insert writes n rows into table inside the caller's transaction, the way
// bulk writers of many rows need it: COPY on PostgreSQL, multi-row INSERT
// statements of up to 500 rows on SQLite (and on PostgreSQL when q is not
// a transaction). row fills the values of row i, in the order of cols,
// into dst; it must not keep dst. The table and column names are the
// caller's constants, never user input.
func Insert(ctx context.Context, q Q, table string, cols []string, n int, row func(i int, dst []any)) error {
	if n == 0 {
		return nil
	}
	vals := make([]any, len(cols))
	if tx, ok := q.(*sqlx.Tx); ok && q.DriverName() == "postgres" {
		stmt, err := tx.PrepareContext(ctx, copyFrom(table, cols))
		if err != nil {
			return fmt.Errorf("store: copy %s: %w", table, err)
		}
		defer stmt.Close()
		for i := range n {
			row(i, vals)
			if _, err := stmt.ExecContext(ctx, vals...); err != nil {
				return fmt.Errorf("store: copy %s: %w", table, err)
			}
		}
		if _, err := stmt.ExecContext(ctx); err != nil {
			return fmt.Errorf("store: copy %s: %w", table, err)
		}
		return nil
	}
	per := min(500, sqliteParams/len(cols))
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	statement := func(rows int) string {
		return q.Rebind("INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES " +
			strings.TrimSuffix(strings.Repeat(one+", ", rows), ", "))
	}
	// The statement of a full chunk is prepared once: SQLite would parse
	// it again at every chunk.
	var full *sql.Stmt
	if p, ok := q.(preparer); ok && n >= per {
		stmt, err := p.PrepareContext(ctx, statement(per))
		if err != nil {
			return fmt.Errorf("store: insert %s: %w", table, err)
		}
		defer stmt.Close()
		full = stmt
	}
	args := make([]any, 0, min(per, n)*len(cols))
	for start := 0; start < n; start += per {
		rows := min(per, n-start)
		args = args[:0]
		for i := start; i < start+rows; i++ {
			row(i, vals)
			args = append(args, vals...)
		}
		var err error
		if rows == per && full != nil {
			_, err = full.ExecContext(ctx, args...)
		} else {
			_, err = q.ExecContext(ctx, statement(rows), args...)
		}
		if err != nil {
			return fmt.Errorf("store: insert %s: %w", table, err)
		}
	}
	return nil
}

// preparer is what a *sqlx.Tx and a *sqlx.DB offer beyond Q.
type preparer interface {
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

// copyFrom is PostgreSQL's COPY statement of cols into table, names quoted.
func copyFrom(table string, cols []string) string {
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = pq.QuoteIdentifier(c)
	}
	return "COPY " + pq.QuoteIdentifier(table) + " (" + strings.Join(quoted, ", ") + ") FROM STDIN"
}
