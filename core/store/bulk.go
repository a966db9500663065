package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
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

// Column is a column of a bulk write: its name and its PostgreSQL type
// ("text" or "bigint"), which names the array its values travel in.
type Column struct {
	Name, Type string
}

// Upsert writes n rows into table inside the caller's work, inserting each
// one or, when a row with the same conflict columns exists, setting its
// update columns to the new values. On PostgreSQL it is one statement
// whatever n: each column's values go as one array parameter, and
// unnest turns the arrays back into rows; on SQLite, multi-row INSERT …
// ON CONFLICT statements of up to 500 rows (and on PostgreSQL for a few
// rows, fewRows). row fills the values of row i,
// in the order of cols, into dst (strings for text columns, integers of any
// kind or driver.Valuers of them for bigint ones); it must not keep dst. The
// names are the caller's constants, never user input.
func Upsert(ctx context.Context, q Q, table string, cols []Column, conflict, update []string, n int, row func(i int, dst []any)) error {
	sets := make([]string, len(update))
	for i, c := range update {
		sets[i] = c + " = excluded." + c
	}
	return upsert(ctx, q, table, cols, conflict, sets, n, row)
}

// UpsertAdding is Upsert for sums and counts: when a row with the same
// conflict columns exists, the new values of the add columns are added to
// its own. The rows go in the order row gives them, so that concurrent
// writers who sort their rows alike lock them in the same order (one row
// may appear once only).
func UpsertAdding(ctx context.Context, q Q, table string, cols []Column, conflict, add []string, n int, row func(i int, dst []any)) error {
	sets := make([]string, len(add))
	for i, c := range add {
		sets[i] = c + " = " + table + "." + c + " + excluded." + c
	}
	return upsert(ctx, q, table, cols, conflict, sets, n, row)
}

// fewRows is the most rows an upsert writes with VALUES on PostgreSQL
// rather than arrays: its statement is kept per connection (stmtcache.go),
// as hot paths of one or two rows (an acceptance's price sums) want.
const fewRows = 4

// upsert is Upsert and UpsertAdding with the SET clause's assignments.
func upsert(ctx context.Context, q Q, table string, cols []Column, conflict, sets []string, n int, row func(i int, dst []any)) error {
	if n == 0 {
		return nil
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	head := "INSERT INTO " + table + " (" + strings.Join(names, ", ") + ") "
	tail := " ON CONFLICT (" + strings.Join(conflict, ", ") + ") DO UPDATE SET " + strings.Join(sets, ", ")
	vals := make([]any, len(cols))
	if q.DriverName() == "postgres" && n > fewRows {
		arrays := make([]any, len(cols))
		casts := make([]string, len(cols))
		for j, c := range cols {
			casts[j] = "?::" + c.Type + "[]"
			switch c.Type {
			case "text":
				arrays[j] = make([]string, 0, n)
			case "bigint":
				arrays[j] = make([]int64, 0, n)
			default:
				return fmt.Errorf("store: upsert %s: column %s of type %s", table, c.Name, c.Type)
			}
		}
		for i := range n {
			row(i, vals)
			for j, v := range vals {
				if err := appendValue(arrays, j, v); err != nil {
					return fmt.Errorf("store: upsert %s, column %s: %w", table, cols[j].Name, err)
				}
			}
		}
		args := make([]any, len(cols))
		for j, a := range arrays {
			args[j] = pq.Array(a)
		}
		query := q.Rebind(head + "SELECT * FROM unnest(" + strings.Join(casts, ", ") + ")" + tail)
		if _, err := q.ExecContext(ctx, query, args...); err != nil {
			return fmt.Errorf("store: upsert %s: %w", table, err)
		}
		return nil
	}
	per := min(500, sqliteParams/len(cols))
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	args := make([]any, 0, min(per, n)*len(cols))
	for start := 0; start < n; start += per {
		rows := min(per, n-start)
		args = args[:0]
		for i := start; i < start+rows; i++ {
			row(i, vals)
			args = append(args, vals...)
		}
		query := head + "VALUES " + strings.TrimSuffix(strings.Repeat(one+", ", rows), ", ") + tail
		if _, err := q.ExecContext(ctx, q.Rebind(query), args...); err != nil {
			return fmt.Errorf("store: upsert %s: %w", table, err)
		}
	}
	return nil
}

// InsertReturning runs head, a multi-row "INSERT INTO t (c1, …, cn)", over
// n rows given by row (cols values each, in their order) followed by tail
// (its ON CONFLICT clause and a RETURNING clause), in statements of up to
// 500 rows on both engines, and hands each row RETURNING gives to scan, in
// no particular order (return the rows' keys to match them). The rows go in
// the order row gives them, so that concurrent writers who sort their rows
// alike lock them in the same order (one row may appear once only). head
// and tail are the caller's constants, never user input.
func InsertReturning(ctx context.Context, q Q, head string, cols int, tail string, n int,
	row func(i int, dst []any), scan func(rows *sqlx.Rows) error) error {
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
	vals := make([]any, cols)
	for start := 0; start < n; start += 500 {
		count := min(500, n-start)
		args := make([]any, 0, count*cols)
		for i := start; i < start+count; i++ {
			row(i, vals)
			args = append(args, vals...)
		}
		query := head + " VALUES " + strings.TrimSuffix(strings.Repeat(one+", ", count), ", ") + " " + tail
		if err := insertReturning(ctx, q, q.Rebind(query), args, scan); err != nil {
			return fmt.Errorf("store: insert: %w", err)
		}
	}
	return nil
}

// insertReturning runs one statement of InsertReturning.
func insertReturning(ctx context.Context, q Q, query string, args []any, scan func(rows *sqlx.Rows) error) error {
	rows, err := q.QueryxContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// appendValue appends v to the array of column j, converted as
// database/sql converts a parameter (a Valuer's value, any integer kind to
// int64): a string to a text array, an integer to a bigint array.
func appendValue(arrays []any, j int, v any) error {
	v, err := driver.DefaultParameterConverter.ConvertValue(v)
	if err != nil {
		return err
	}
	switch a := arrays[j].(type) {
	case []string:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("%T for a text column", v)
		}
		arrays[j] = append(a, s)
	case []int64:
		x, ok := v.(int64)
		if !ok {
			return fmt.Errorf("%T for a bigint column", v)
		}
		arrays[j] = append(a, x)
	}
	return nil
}
