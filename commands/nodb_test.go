package commands

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"primeur/core/store"
	"primeur/core/store/storetest"
)

// noDBCommands are the commands that read or write an existing database,
// each with the arguments it needs to get as far as opening it.
func noDBCommands(t *testing.T) map[string][]string {
	month := nextMonth()
	workbook := writeWorkbook(t, [][]any{{"Produit", month}, {"Tomate", 10}})
	return map[string][]string{
		"user list":         {"user", "list"},
		"user create":       {"user", "create", "--email", "a@example.fr", "--name", "A", "--type", "producer"},
		"user set-password": {"user", "set-password", "a@example.fr"},
		"jobs run":          {"jobs", "run", "deliveries"},
		"import needs":      {"import", "needs", workbook, "--distributor", "a@example.fr"},
		"simulate import":   {"simulate", "import", "--distributor", "a@example.fr", "--turnover", "100000", "--from", month, "--to", month},
		"simulate supply":   {"simulate", "supply", "--distributor", "a@example.fr"},
		"backup":            {"backup", filepath.Join(t.TempDir(), "sauvegarde.db")},
	}
}

// TestCommandsRefuseAPlaceWithoutDatabase runs every command but migrate,
// serve and demo on a data directory that holds no Primeur database: an
// empty one, a missing one, one whose primeur.db is an empty file or
// another application's SQLite database. Each exits non-zero with the one
// line naming the file, and leaves the directory as it was.
func TestCommandsRefuseAPlaceWithoutDatabase(t *testing.T) {
	places := map[string]func(t *testing.T, dir string){
		"empty data directory":   func(*testing.T, string) {},
		"missing data directory": func(t *testing.T, dir string) { mustRemove(t, dir) },
		"empty file": func(t *testing.T, dir string) {
			mustWrite(t, filepath.Join(dir, "primeur.db"), nil)
		},
		"other application's database": func(t *testing.T, dir string) {
			db, err := store.Open(context.Background(), "", filepath.Join(dir, "primeur.db"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`CREATE TABLE notes (body TEXT); PRAGMA journal_mode = DELETE`); err != nil {
				t.Fatal(err)
			}
			db.Close()
		},
		"not a database": func(t *testing.T, dir string) {
			mustWrite(t, filepath.Join(dir, "primeur.db"), []byte(strings.Repeat("pas une base SQLite\n", 500)))
		},
	}
	for place, prepare := range places {
		for name, args := range noDBCommands(t) {
			t.Run(place+"/"+name, func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "data")
				if err := os.Mkdir(dir, 0o750); err != nil {
					t.Fatal(err)
				}
				prepare(t, dir)
				before := listDir(t, dir)
				code, out, errOut := run(t, "motdepasse1\n", append(args, "--data-dir", dir)...)
				want := "primeur : aucune base Primeur dans " + filepath.Join(dir, "primeur.db") + " ; lancez primeur migrate\n"
				if code == 0 || errOut != want || out != "" {
					t.Fatalf("code %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
				}
				if after := listDir(t, dir); after != before {
					t.Fatalf("the data directory changed: %q, was %q", after, before)
				}
			})
		}
	}
}

// TestCommandsRefuseAPostgresSchemaWithoutDatabase: the same commands on
// an empty PostgreSQL schema refuse with the line naming the database and
// create no table.
func TestCommandsRefuseAPostgresSchemaWithoutDatabase(t *testing.T) {
	url := storetest.EmptyURL(t)
	db, err := store.OpenExisting(context.Background(), url, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for name, args := range noDBCommands(t) {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := run(t, "motdepasse1\n", append(args, "--data-dir", t.TempDir(), "--database-url", url)...)
			if name == "backup" {
				// backup says how to back PostgreSQL up before looking.
				if code == 0 || !strings.Contains(errOut, "pg_dump") {
					t.Fatalf("code %d, stderr %q", code, errOut)
				}
				return
			}
			if code == 0 || out != "" || !strings.HasPrefix(errOut, "primeur : aucune base Primeur dans postgres://") ||
				!strings.HasSuffix(errOut, " ; lancez primeur migrate\n") || strings.Contains(errOut, "postgres:postgres@") {
				t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
			}
			var tables int
			if err := db.Get(&tables, `SELECT COUNT(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()`); err != nil || tables != 0 {
				t.Fatalf("%d tables in the schema (%v)", tables, err)
			}
		})
	}
}

func mustRemove(t *testing.T, path string) {
	t.Helper()
	if err := os.RemoveAll(path); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// listDir names the entries of dir with their sizes and times ("" when dir
// is missing).
func listDir(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d bytes %s; ", e.Name(), info.Size(), info.ModTime())
	}
	return b.String()
}
