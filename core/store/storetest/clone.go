package storetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"primeur/core/store"
)

// Clone returns a copy of db, as it is, for the test: a fixture built once
// (a world of core/trade/tradetest, say) is cloned per test or subtest,
// the way PocketBase copies its fixture database, instead of being built
// again. On SQLite the copy is a new file in t.TempDir() written by
// SQLite's online backup API (store.DB.Backup: pages as they are, rowids
// and all); on PostgreSQL a new schema of the same server (each test's
// database is a schema, see Postgres) holding the same tables, rows,
// sequences, indexes and constraints, under the same names — copied by
// the server in one statement (cloneSchema). Both are closed, and the
// schema dropped, at the end of the test. db must not be written while it
// is copied.
func Clone(t testing.TB, db *store.DB) *store.DB {
	t.Helper()
	ctx := context.Background()
	if db.Dialect != store.Postgres {
		path := filepath.Join(t.TempDir(), "primeur.db")
		if err := db.Backup(ctx, path, false); err != nil {
			t.Fatalf("storetest: clone: %v", err)
		}
		return connect(t, "", path)
	}
	var src string
	if err := db.Get(&src, "SELECT current_schema()"); err != nil {
		t.Fatalf("storetest: clone: %v", err)
	}
	dst := newSchema(t)
	if _, err := db.ExecContext(ctx, fmt.Sprintf(cloneSchema, src, dst)); err != nil {
		t.Fatalf("storetest: clone %s into %s: %v", src, dst, err)
	}
	return connect(t, withParam(t, WithSearchPath(t, os.Getenv(EnvURL), dst), "application_name", dst), "")
}

// cloneSchema copies the schema named by its first argument into the
// empty schema named by its second, on the server, in one transaction:
// the sequences at their values, the tables (columns, defaults, checks,
// identities at their values) with their rows, then the primary keys and unique constraints, the other
// indexes and the foreign keys, each under its name. The definitions are
// read with an empty search_path, so every name in them is qualified, and
// the source's schema in them becomes the copy's.
var cloneSchema = strings.TrimSpace(`
DO $clone$
DECLARE
	src text := '%[1]s';
	dst text := '%[2]s';
	r record;
BEGIN
	PERFORM set_config('search_path', 'pg_catalog', true);
	FOR r IN SELECT c.relname FROM pg_class c WHERE c.relnamespace = src::regnamespace AND c.relkind = 'S'
		AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'i') LOOP
		EXECUTE format('CREATE SEQUENCE %%I.%%I', dst, r.relname);
		EXECUTE format('SELECT setval(%%L, last_value, is_called) FROM %%I.%%I', dst || '.' || r.relname, src, r.relname);
	END LOOP;
	FOR r IN SELECT c.relname FROM pg_class c WHERE c.relnamespace = src::regnamespace AND c.relkind = 'r' ORDER BY c.relname LOOP
		EXECUTE format('CREATE TABLE %%I.%%I (LIKE %%I.%%I INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING IDENTITY)', dst, r.relname, src, r.relname);
		EXECUTE format('INSERT INTO %%I.%%I OVERRIDING SYSTEM VALUE SELECT * FROM %%I.%%I', dst, r.relname, src, r.relname);
	END LOOP;
	FOR r IN SELECT c.relname, a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
		WHERE c.relnamespace = src::regnamespace AND c.relkind = 'r' AND a.attidentity <> '' LOOP
		EXECUTE format('SELECT setval(%%L, last_value, is_called) FROM %%s',
			pg_get_serial_sequence(quote_ident(dst) || '.' || quote_ident(r.relname), r.attname),
			pg_get_serial_sequence(quote_ident(src) || '.' || quote_ident(r.relname), r.attname));
	END LOOP;
	FOR r IN SELECT c.relname, a.attname, pg_get_expr(d.adbin, d.adrelid) AS def
		FROM pg_attrdef d JOIN pg_class c ON c.oid = d.adrelid
		JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
		WHERE c.relnamespace = dst::regnamespace AND pg_get_expr(d.adbin, d.adrelid) LIKE '%%' || quote_ident(src) || '.%%' LOOP
		EXECUTE format('ALTER TABLE %%I.%%I ALTER COLUMN %%I SET DEFAULT %%s', dst, r.relname, r.attname,
			replace(r.def, quote_ident(src) || '.', quote_ident(dst) || '.'));
	END LOOP;
	FOR r IN SELECT c.relname, con.conname, pg_get_constraintdef(con.oid) AS def
		FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
		WHERE con.connamespace = src::regnamespace AND con.contype IN ('p', 'u', 'x')
		ORDER BY c.relname, con.conname LOOP
		EXECUTE format('ALTER TABLE %%I.%%I ADD CONSTRAINT %%I %%s', dst, r.relname, r.conname,
			replace(r.def, quote_ident(src) || '.', quote_ident(dst) || '.'));
	END LOOP;
	FOR r IN SELECT pg_get_indexdef(i.indexrelid) AS def
		FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		WHERE c.relnamespace = src::regnamespace
		AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = i.indexrelid AND con.contype IN ('p', 'u', 'x'))
		ORDER BY c.relname LOOP
		EXECUTE replace(r.def, ' ON ' || quote_ident(src) || '.', ' ON ' || quote_ident(dst) || '.');
	END LOOP;
	FOR r IN SELECT c.relname, con.conname, pg_get_constraintdef(con.oid) AS def
		FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
		WHERE con.connamespace = src::regnamespace AND con.contype = 'f'
		ORDER BY c.relname, con.conname LOOP
		EXECUTE format('ALTER TABLE %%I.%%I ADD CONSTRAINT %%I %%s', dst, r.relname, r.conname,
			replace(r.def, quote_ident(src) || '.', quote_ident(dst) || '.'));
	END LOOP;
END
$clone$`)
