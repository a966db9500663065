package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"primeur/core/store"
)

// Restore puts copy, a PostgreSQL copy of origin made by Clone, back as
// origin is — every table's rows and the sequences' values, what a new
// Clone would give — and returns it: a restore costs milliseconds where a
// clone costs one to two seconds (a schema of some ninety tables, its
// indexes and keys, built again). A test that runs many writes, each on
// the world as it was (the authorization matrix), runs them one after
// another on one copy and restores it after each.
//
// The first Restore of a copy fills every table again and marks the
// tables written from then on: a statement trigger on each notes its name
// in the copy's table storetest_dirty. The next ones fill again only the
// tables marked. A table is emptied and filled with the foreign keys'
// triggers, and the marks, off for the transaction
// (session_replication_role = replica: the rows are origin's, which the
// keys accepted), which needs a superuser, as the tests' server has
// (postgres); under another role Restore returns a new Clone instead. On
// SQLite, where a clone is a file copy, it fails the test: clone instead.
// Nothing may write to either database meanwhile.
func Restore(t testing.TB, origin, copy *store.DB) *store.DB {
	t.Helper()
	if origin.Dialect != store.Postgres || copy.Dialect != store.Postgres {
		t.Fatal("storetest: Restore is for PostgreSQL copies: Clone on SQLite")
	}
	var src, dst, super string
	for _, q := range []struct {
		db   *store.DB
		into *string
		sql  string
	}{{origin, &src, "SELECT current_schema()"}, {copy, &dst, "SELECT current_schema()"}, {copy, &super, "SHOW is_superuser"}} {
		if err := q.db.Get(q.into, q.sql); err != nil {
			t.Fatalf("storetest: restore: %v", err)
		}
	}
	if src == dst {
		t.Fatal("storetest: restore: a database onto itself")
	}
	if super != "on" {
		return Clone(t, origin)
	}
	if _, err := copy.ExecContext(context.Background(), fmt.Sprintf(restoreSchema, src, dst)); err != nil {
		t.Fatalf("storetest: restore %s from %s: %v", dst, src, err)
	}
	return copy
}

// restoreSchema fills the schema named by its second argument again with
// the rows of the one named by its first (see Restore), in one
// transaction: every table the first time, when it also puts the marks in
// place, the tables marked since after; the sequences at their values as
// cloneSchema sets them.
var restoreSchema = strings.TrimSpace(`
DO $restore$
DECLARE
	src text := '%[1]s';
	dst text := '%[2]s';
	r record;
	first boolean;
BEGIN
	PERFORM set_config('search_path', 'pg_catalog', true);
	PERFORM set_config('session_replication_role', 'replica', true);
	first := NOT EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = dst::regnamespace AND c.relname = 'storetest_dirty');
	IF first THEN
		EXECUTE format('CREATE UNLOGGED TABLE %%I.storetest_dirty (name TEXT PRIMARY KEY)', dst);
		EXECUTE format('CREATE FUNCTION %%I.storetest_mark() RETURNS trigger LANGUAGE plpgsql AS %%L', dst,
			format('BEGIN INSERT INTO %%I.storetest_dirty VALUES (TG_TABLE_NAME) ON CONFLICT DO NOTHING; RETURN NULL; END', dst));
		FOR r IN SELECT c.relname FROM pg_class c WHERE c.relnamespace = dst::regnamespace AND c.relkind = 'r' AND c.relname <> 'storetest_dirty' LOOP
			EXECUTE format('CREATE TRIGGER storetest_dirty AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %%I.%%I FOR EACH STATEMENT EXECUTE FUNCTION %%I.storetest_mark()',
				dst, r.relname, dst);
		END LOOP;
	END IF;
	FOR r IN EXECUTE format('SELECT c.relname FROM pg_class c WHERE c.relnamespace = %%L::regnamespace AND c.relkind = ''r'' AND c.relname <> ''storetest_dirty''
		AND (%%L OR c.relname IN (SELECT name FROM %%I.storetest_dirty))', dst, first, dst) LOOP
		EXECUTE format('DELETE FROM %%I.%%I', dst, r.relname);
		EXECUTE format('INSERT INTO %%I.%%I OVERRIDING SYSTEM VALUE SELECT * FROM %%I.%%I', dst, r.relname, src, r.relname);
	END LOOP;
	EXECUTE format('DELETE FROM %%I.storetest_dirty', dst);
` + setSequences + `END
$restore$`)

// setSequences sets the sequences of the schema named by the PL/pgSQL
// variable dst, standalone and identity, to their values in the one named
// by src, as cloneSchema leaves them: the end of restoreSchema and
// resetSchema (r a record variable of theirs; percent signs doubled for
// fmt.Sprintf).
const setSequences = `	FOR r IN SELECT c.relname FROM pg_class c WHERE c.relnamespace = src::regnamespace AND c.relkind = 'S'
		AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'i') LOOP
		EXECUTE format('SELECT setval(%%L, last_value, is_called) FROM %%I.%%I', quote_ident(dst) || '.' || quote_ident(r.relname), src, r.relname);
	END LOOP;
	FOR r IN SELECT c.relname, a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
		WHERE c.relnamespace = src::regnamespace AND c.relkind = 'r' AND a.attidentity <> '' LOOP
		EXECUTE format('SELECT setval(%%L, last_value, is_called) FROM %%s',
			pg_get_serial_sequence(quote_ident(dst) || '.' || quote_ident(r.relname), r.attname),
			pg_get_serial_sequence(quote_ident(src) || '.' || quote_ident(r.relname), r.attname));
	END LOOP;
`
