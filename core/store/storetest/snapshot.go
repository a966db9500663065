package storetest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"primeur/core/store"
)

// Bookkeeping lists the tables that a request may write whatever its
// outcome, left out of SnapshotExcept's usual call: sessions (a session
// seen is touched), throttle (every login and registration attempt is
// counted before anything is checked) and goose's version table.
var Bookkeeping = []string{"sessions", "throttle", "goose_db_version"}

// Snapshot is the content of the given tables — every column of every
// row, each table headed by its name and column names, rows in the order
// of all their columns — for asserting that something changed nothing:
// compare two snapshots, and print Changes between them when they differ.
// With no table named, it is every table of the database. A table the
// database lacks fails the test. Snapshots are compared on one engine: a
// value reads as the engine's driver gives it.
func Snapshot(t testing.TB, db *store.DB, tables ...string) string {
	t.Helper()
	widths := tableWidths(t, db)
	if len(tables) == 0 {
		tables = slices.Sorted(maps.Keys(widths))
	}
	var b strings.Builder
	for _, table := range tables {
		n, ok := widths[table]
		if !ok {
			t.Fatalf("storetest: snapshot: no table %q", table)
		}
		writeTable(t, db, &b, table, n)
	}
	return b.String()
}

// SnapshotExcept is Snapshot of every table of the database but the
// ones named (usually Bookkeeping).
func SnapshotExcept(t testing.TB, db *store.DB, except ...string) string {
	t.Helper()
	var tables []string
	for _, table := range Tables(t, db) {
		if !slices.Contains(except, table) {
			tables = append(tables, table)
		}
	}
	return Snapshot(t, db, tables...)
}

// Tables lists the database's tables by name: on SQLite every table but
// SQLite's own, on PostgreSQL the base tables of the connection's schema.
func Tables(t testing.TB, db *store.DB) []string {
	t.Helper()
	return slices.Sorted(maps.Keys(tableWidths(t, db)))
}

// tableWidths is the number of columns of each of the database's tables
// (as Tables lists them), read in one query from the catalogue: a snapshot
// is one query more than its tables, not three times as many (on
// PostgreSQL, information_schema's views and a probe per table made the
// snapshots of a dry-run test most of its time; issue 35).
func tableWidths(t testing.TB, db *store.DB) map[string]int {
	t.Helper()
	list := `SELECT m.name, COUNT(*) FROM sqlite_master m JOIN pragma_table_info(m.name) c
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' GROUP BY m.name`
	if db.Dialect == store.Postgres {
		list = `SELECT c.relname, COUNT(*) FROM pg_catalog.pg_class c
			JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
			JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
			WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') GROUP BY c.relname`
	}
	rows, err := db.QueryContext(context.Background(), list)
	if err != nil {
		t.Fatalf("storetest: list tables: %v", err)
	}
	defer rows.Close()
	widths := map[string]int{}
	for rows.Next() {
		var name string
		var n int
		if err := rows.Scan(&name, &n); err != nil {
			t.Fatalf("storetest: list tables: %v", err)
		}
		widths[name] = n
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("storetest: list tables: %v", err)
	}
	return widths
}

// Columns lists the columns of table, in order. The probe is closed before
// it returns: a statement still open on the connection would keep its
// columns from before a change.
func Columns(t testing.TB, db *store.DB, table string) []string {
	t.Helper()
	cols, err := func() ([]string, error) {
		probe, err := db.QueryContext(context.Background(), `SELECT * FROM `+table+` WHERE 1 = 0`)
		if err != nil {
			return nil, err
		}
		defer probe.Close()
		return probe.Columns()
	}()
	if err != nil {
		t.Fatalf("storetest: columns of %s: %v", table, err)
	}
	return cols
}

// writeTable writes one table's name, columns and rows to b; the table
// has n columns.
func writeTable(t testing.TB, db *store.DB, b *strings.Builder, table string, n int) {
	t.Helper()
	order := make([]string, n)
	for i := range order {
		order[i] = strconv.Itoa(i + 1)
	}
	rows, err := db.QueryContext(context.Background(), `SELECT * FROM `+table+` ORDER BY `+strings.Join(order, ", "))
	if err != nil {
		t.Fatalf("storetest: snapshot %s: %v", table, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatalf("storetest: snapshot %s: %v", table, err)
	}
	if len(cols) != n {
		t.Fatalf("storetest: snapshot %s: %d columns, the catalogue says %d", table, len(cols), n)
	}
	fmt.Fprintf(b, "%s (%s)\n", table, strings.Join(cols, ", "))
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatalf("storetest: snapshot %s: %v", table, err)
		}
		b.WriteString(table)
		for _, v := range vals {
			b.WriteString(" | ")
			writeValue(b, v)
		}
		b.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("storetest: snapshot %s: %v", table, err)
	}
}

// writeValue writes one value as the drivers give them: strings (and
// bytes) quoted, numbers and booleans as Go writes them, times in RFC
// 3339, NULL as <nil>; anything else as %#v. Snapshots are most of the
// refusal tests' time (every row of every table, twice per refusal):
// fmt's reflection on each value was half of it under the race detector
// (issue 35).
func writeValue(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("<nil>")
	case string:
		b.WriteString(strconv.Quote(v))
	case []byte:
		b.WriteString(strconv.Quote(string(v)))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case time.Time:
		b.WriteString(v.Format(time.RFC3339Nano))
	default:
		fmt.Fprintf(b, "%#v", v)
	}
}

// Changes lists the lines of two snapshots that differ: "- " before each
// line only before has, "+ " before each line only after has (as many
// times as it is missing from the other), empty when they are equal.
func Changes(before, after string) string {
	count := map[string]int{}
	for _, line := range strings.Split(before, "\n") {
		count[line]++
	}
	for _, line := range strings.Split(after, "\n") {
		count[line]--
	}
	var b strings.Builder
	for _, side := range []struct {
		text, mark string
		sign       int
	}{{before, "- ", 1}, {after, "+ ", -1}} {
		for _, line := range strings.Split(side.text, "\n") {
			if count[line]*side.sign > 0 {
				b.WriteString(side.mark + line + "\n")
				count[line] -= side.sign
			}
		}
	}
	return b.String()
}

// QueryPlan is the engine's plan for a query, one step a line: the detail
// column of SQLite's EXPLAIN QUERY PLAN, or the lines of PostgreSQL's
// EXPLAIN. A test asserts that a query goes through an index by looking
// for the index's name in it.
func QueryPlan(t testing.TB, db *store.DB, query string, args ...any) []string {
	t.Helper()
	explain := `EXPLAIN QUERY PLAN `
	if db.Dialect == store.Postgres {
		explain = `EXPLAIN `
	}
	rows, err := db.QueryContext(context.Background(), db.Rebind(explain+query), args...)
	if err != nil {
		t.Fatalf("storetest: explain %s: %v", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatalf("storetest: explain %s: %v", query, err)
	}
	// SQLite answers (id, parent, notused, detail), PostgreSQL one text
	// column: the step is the last column either way.
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var plan []string
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatalf("storetest: explain %s: %v", query, err)
		}
		switch step := vals[len(vals)-1].(type) {
		case string:
			plan = append(plan, step)
		case []byte:
			plan = append(plan, string(step))
		default:
			t.Fatalf("storetest: explain %s: a step of type %T", query, step)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("storetest: explain %s: %v", query, err)
	}
	return plan
}
