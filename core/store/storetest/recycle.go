package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// A PostgreSQL test database is a schema copied from the process's
// template (template.go). Building one — some ninety tables, their
// indexes and keys — and dropping it at the end cost 0.2–0.5 s of the
// server's time on a quiet machine and over 1.5 s on a busy one, for each
// of the suite's several hundred PostgreSQL tests (issue 35). So a
// schema is not dropped when its test ends: its rows are put back as the
// template's (every table emptied and filled again, the sequences set
// back) and the next test of the process takes it, which costs a few
// milliseconds. A schema whose shape a test changed (a column or a table
// added, an index dropped…) is dropped as before.
//
// The recycled schemas are named after the template's process,
// t_<template>_<random>: a process that ends leaves them behind, and the
// next one to make its template drops them with the template
// (dropAbandoned). Their name starts with t_ as every test schema's, which
// ServerCPU relies on.
type schemaPool struct {
	mu   sync.Mutex
	free []string
}

var recycled schemaPool

// recycledSchema returns a schema holding the template's rows for t, and
// gives it back to the pool at the end of t, once the test's own
// cleanups (its connections closed) have run.
func recycledSchema(t testing.TB, base string) string {
	t.Helper()
	src := postgresTemplate(t, base)
	recycled.mu.Lock()
	var name string
	if n := len(recycled.free); n > 0 {
		name, recycled.free = recycled.free[n-1], recycled.free[:n-1]
	}
	recycled.mu.Unlock()
	ctx := context.Background()
	if name == "" {
		name = "t_" + strings.TrimPrefix(src, "tmpl_") + "_" + randomHex(4)
		if _, err := migrated.pin.ExecContext(ctx, "CREATE SCHEMA "+name); err != nil {
			t.Fatalf("storetest: create schema: %v", err)
		}
		if _, err := migrated.pin.ExecContext(ctx, fmt.Sprintf(cloneSchema, src, name)); err != nil {
			t.Fatalf("storetest: copy the template %s into %s: %v", src, name, err)
		}
		if _, err := migrated.pin.ExecContext(ctx, fmt.Sprintf(noAutovacuum, name)); err != nil {
			t.Fatalf("storetest: %s without autovacuum: %v", name, err)
		}
	}
	t.Cleanup(func() { giveBack(src, name) })
	return name
}

// giveBack puts the schema's rows back as the template's and returns it
// to the pool; a schema that no longer has the template's shape, or that
// cannot be reset (a lock held by a connection that outlived its test), is
// dropped instead.
func giveBack(src, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := reset(ctx, src, name); err != nil {
		_, _ = migrated.pin.ExecContext(ctx, "DROP SCHEMA IF EXISTS "+name+" CASCADE")
		return
	}
	recycled.mu.Lock()
	recycled.free = append(recycled.free, name)
	recycled.mu.Unlock()
}

// reset puts the schema name's rows back as the template src's
// (resetSchema), then vacuums the tables the ended tests left large
// (vacuumPages: their dead rows' pages given back for the next tests'
// rows) and tells the planner again that none was ever counted
// (forgetCounts: VACUUM counts them).
func reset(ctx context.Context, src, name string) error {
	if _, err := migrated.pin.ExecContext(ctx, fmt.Sprintf(resetSchema, src, name)); err != nil {
		return fmt.Errorf("storetest: reset %s: %w", name, err)
	}
	var large sql.NullString
	if err := migrated.pin.GetContext(ctx, &large, `SELECT string_agg(format('%I.%I', $1::text, relname), ', ')
		FROM pg_class WHERE relnamespace = $1::regnamespace AND relkind = 'r' AND pg_relation_size(oid) > $2`,
		name, vacuumPages*8192); err != nil {
		return fmt.Errorf("storetest: tables of %s: %w", name, err)
	}
	if !large.Valid {
		return nil
	}
	if _, err := migrated.pin.ExecContext(ctx, "VACUUM "+large.String); err != nil {
		return fmt.Errorf("storetest: vacuum %s: %w", name, err)
	}
	if _, err := migrated.pin.ExecContext(ctx, fmt.Sprintf("DO $forget$ DECLARE dst text := '%s'; BEGIN %s END $forget$", name, forgetCounts)); err != nil {
		return fmt.Errorf("storetest: forget the counts of %s: %w", name, err)
	}
	return nil
}

// vacuumPages is the size, in pages, over which a recycled table is
// vacuumed when given back: below it, the dead rows of the tests before
// cost the next test's scans less than a VACUUM costs.
const vacuumPages = 64

// noAutovacuum turns autovacuum off on the tables of the schema named by
// its argument. An ANALYZE of a table emptied by DELETE told the planner
// "no row in 21 pages" for the whole of the next test, whose queries over
// the rows it wrote then ran as nested scans (a daemon test under -race
// ran 13 minutes in one transaction); the tables are vacuumed when given
// back instead (reset).
const noAutovacuum = `DO $off$
DECLARE
	r record;
BEGIN
	FOR r IN SELECT c.relname FROM pg_class c WHERE c.relnamespace = '%[1]s'::regnamespace AND c.relkind = 'r' LOOP
		EXECUTE format('ALTER TABLE %%I.%%I SET (autovacuum_enabled = false, toast.autovacuum_enabled = false)', '%[1]s', r.relname);
	END LOOP;
END
$off$`

// forgetCounts tells the planner that the tables and indexes of the
// schema named by the PL/pgSQL variable dst were never counted, as those
// of a copy of the template: it then reckons a table's rows from its
// pages, and the column statistics of an ANALYZE are forgotten (a
// superuser's, as the tests' server role is).
const forgetCounts = `
	UPDATE pg_catalog.pg_class SET relpages = 0, reltuples = -1, relallvisible = 0
		WHERE relnamespace = dst::regnamespace AND relkind IN ('r', 'i', 't');
	DELETE FROM pg_catalog.pg_statistic s USING pg_catalog.pg_class c WHERE s.starelid = c.oid AND c.relnamespace = dst::regnamespace;
`

// schemaShape is a digest of a schema's shape: its relations and their
// kinds, their columns with their types, nullability and defaults, its
// constraints and indexes with their definitions, its triggers and
// functions, every name given without the schema's own. It is a format()
// string of PostgreSQL's whose argument is the schema's name, its
// percent signs doubled for fmt.Sprintf (resetSchema).
const schemaShape = `SELECT md5(string_agg(x, E'\n' ORDER BY x)) FROM (
	SELECT 'r ' || c.relname || ' ' || c.relkind::text AS x FROM pg_class c WHERE c.relnamespace = %%1$L::regnamespace
	UNION ALL SELECT 'a ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text
		|| ' ' || coalesce(replace(pg_get_expr(d.adbin, d.adrelid), quote_ident(%%1$L) || '.', ''), '')
		FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
		LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
		WHERE c.relnamespace = %%1$L::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
	UNION ALL SELECT 'c ' || c.relname || '.' || con.conname || ' ' || replace(pg_get_constraintdef(con.oid), quote_ident(%%1$L) || '.', '')
		FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid WHERE con.connamespace = %%1$L::regnamespace
	UNION ALL SELECT 'i ' || replace(pg_get_indexdef(i.indexrelid), quote_ident(%%1$L) || '.', '')
		FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace = %%1$L::regnamespace
	UNION ALL SELECT 't ' || c.relname || '.' || tg.tgname || ' ' || tg.tgenabled::text
		FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid WHERE c.relnamespace = %%1$L::regnamespace AND NOT tg.tgisinternal
	UNION ALL SELECT 'f ' || p.proname FROM pg_proc p WHERE p.pronamespace = %%1$L::regnamespace
) shape`

// resetSchema puts the rows of the schema named by its second argument
// back as those of the template named by its first, in one transaction,
// after checking that both have the same shape (schemaShape; it raises
// otherwise): every table the ended test wrote to (its file is not empty:
// a test writes to a few of the 54) emptied by DELETE and filled with the
// template's rows, with the foreign keys' triggers off for the
// transaction (session_replication_role = replica: the rows are the
// template's, which the keys accepted; a superuser's, as the tests'
// server role is), the planner told that nothing was counted
// (forgetCounts), then the sequences set as cloneSchema sets them. A lock
// still held on the schema by a connection of the ended test fails it
// within lock_timeout.
//
// TRUNCATE, which gives every table new files, cost the suite some 30 s
// of the server's file creations; a DELETE leaves the table its pages,
// and the planner must then not count them empty (noAutovacuum).
var resetSchema = strings.TrimSpace(`
DO $reset$
DECLARE
	src text := '%[1]s';
	dst text := '%[2]s';
	shape text := $shape$` + schemaShape + `$shape$;
	a text;
	b text;
	r record;
BEGIN
	PERFORM set_config('search_path', 'pg_catalog', true);
	PERFORM set_config('lock_timeout', '5s', true);
	EXECUTE format(shape, src) INTO a;
	EXECUTE format(shape, dst) INTO b;
	IF a IS DISTINCT FROM b THEN
		RAISE EXCEPTION 'storetest: the schema %% no longer has the template''s shape', dst;
	END IF;
	PERFORM set_config('session_replication_role', 'replica', true);
	FOR r IN SELECT c.relname FROM pg_class c WHERE c.relnamespace = dst::regnamespace AND c.relkind = 'r' AND pg_relation_size(c.oid) > 0 LOOP
		EXECUTE format('DELETE FROM %%I.%%I', dst, r.relname);
		IF pg_relation_size(format('%%I.%%I', src, r.relname)::regclass) > 0 THEN
			EXECUTE format('INSERT INTO %%I.%%I OVERRIDING SYSTEM VALUE SELECT * FROM %%I.%%I', dst, r.relname, src, r.relname);
		END IF;
	END LOOP;
` + forgetCounts + setSequences + `END
$reset$`)
