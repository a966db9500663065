package commands

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// latestVersion is the schema version of this binary's last migration.
func latestVersion(t *testing.T) int64 {
	t.Helper()
	v, err := schema.Latest(storetest.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// backedUp makes a data directory with a migrated database holding one
// account, and a backup of it; it returns both paths.
func backedUp(t *testing.T) (dataDir, file string) {
	t.Helper()
	dataDir = filepath.Join(t.TempDir(), "data")
	storetest.SQLiteFile(t, filepath.Join(dataDir, "primeur.db"))
	if code, _, errOut := run(t, "", "migrate", "--data-dir", dataDir); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := run(t, "motdepasse1\n", "user", "create", "--email", "ferme@example.fr", "--name", "Ferme", "--type", "producer", "--data-dir", dataDir); code != 0 {
		t.Fatal(errOut)
	}
	file = filepath.Join(t.TempDir(), "sauvegarde.db")
	code, out, errOut := run(t, "", "backup", file, "--data-dir", dataDir)
	if code != 0 || !strings.HasPrefix(out, "sauvegarde écrite : "+file+" (") || !strings.Contains(out, fmt.Sprintf("schéma version %d)", latestVersion(t))) {
		t.Fatalf("backup: %d %q %q", code, out, errOut)
	}
	return dataDir, file
}

func accountsIn(t *testing.T, dataDir string) string {
	t.Helper()
	code, out, errOut := run(t, "", "user", "list", "--data-dir", dataDir)
	if code != 0 {
		t.Fatal(errOut)
	}
	return out
}

func TestBackupRefusesToOverwriteUnlessForced(t *testing.T) {
	dataDir, file := backedUp(t)
	before, _ := os.ReadFile(file)
	code, _, errOut := run(t, "", "backup", file, "--data-dir", dataDir)
	if code == 0 || errOut != "primeur : "+file+" existe déjà ; choisissez un autre nom, ou --force pour le remplacer\n" {
		t.Fatalf("%d %q", code, errOut)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Fatal("the refused backup changed the file")
	}
	mustWrite(t, file, []byte("ancien contenu"))
	if code, _, errOut := run(t, "", "backup", file, "--force", "--data-dir", dataDir); code != 0 {
		t.Fatal(errOut)
	}
	restored := filepath.Join(t.TempDir(), "data")
	if code, _, errOut := run(t, "", "restore", file, "--data-dir", restored); code != 0 {
		t.Fatal(errOut)
	}
	if !strings.Contains(accountsIn(t, restored), "ferme@example.fr") {
		t.Fatal("the forced backup lacks the account")
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(file), ".primeur-*"))
	if len(leftovers) != 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}
}

func TestRestore(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, dataDir, file string) (args []string)
		want    string // stderr; empty: success
	}{
		{"into an empty data directory", func(t *testing.T, _, file string) []string {
			return []string{"restore", file, "--data-dir", filepath.Join(t.TempDir(), "neuf")}
		}, ""},
		{"over a database without --force", func(t *testing.T, dataDir, file string) []string {
			return []string{"restore", file, "--data-dir", dataDir}
		}, "existe déjà ; ajoutez --force pour la remplacer"},
		{"a file that is not a Primeur database", func(t *testing.T, _, _ string) []string {
			other := filepath.Join(t.TempDir(), "autre.db")
			mustWrite(t, other, []byte(strings.Repeat("x", 4096)))
			return []string{"restore", other, "--data-dir", filepath.Join(t.TempDir(), "neuf")}
		}, "n'est pas une sauvegarde Primeur"},
		{"a missing file", func(t *testing.T, _, _ string) []string {
			return []string{"restore", filepath.Join(t.TempDir(), "absent.db"), "--data-dir", filepath.Join(t.TempDir(), "neuf")}
		}, "absent.db introuvable"},
		{"a backup from a newer Primeur", func(t *testing.T, _, file string) []string {
			db, err := store.Open(context.Background(), "", file)
			if err != nil {
				t.Fatal(err)
			}
			_, err = db.Exec(`INSERT INTO goose_db_version (version_id, is_applied) VALUES (99999, 1)`)
			db.Close()
			if err != nil {
				t.Fatal(err)
			}
			return []string{"restore", file, "--data-dir", filepath.Join(t.TempDir(), "neuf")}
		}, "vient d'une version plus récente de Primeur (schéma version 99999)"},
		{"while a process holds the database", func(t *testing.T, dataDir, file string) []string {
			db, err := store.OpenExisting(context.Background(), "", filepath.Join(dataDir, "primeur.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return []string{"restore", file, "--force", "--data-dir", dataDir}
		}, "est ouverte par un démon ou une commande Primeur : arrêtez-les avant de restaurer"},
		{"on PostgreSQL", func(t *testing.T, _, file string) []string {
			return []string{"restore", file, "--database-url", "postgres://primeur@db.example/primeur"}
		}, "pg_restore"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dataDir, file := backedUp(t)
			args := tt.prepare(t, dataDir, file)
			target := args[len(args)-1]
			before := listDir(t, target)
			code, out, errOut := run(t, "", args...)
			if tt.want == "" {
				if code != 0 || !strings.HasPrefix(out, "base restaurée : ") {
					t.Fatalf("%d %q %q", code, out, errOut)
				}
				if !strings.Contains(accountsIn(t, target), "ferme@example.fr") {
					t.Fatal("the restored database lacks the account")
				}
				return
			}
			if code == 0 || !strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") != 1 {
				t.Fatalf("%d %q, want %q", code, errOut, tt.want)
			}
			if after := listDir(t, target); after != before {
				t.Fatalf("the refused restore changed %s: %q, was %q", target, after, before)
			}
		})
	}
}

// TestRestoreWithForceKeepsTheOldDatabaseAside restores over a database
// that changed since the backup: the backup's state is back, and the
// replaced database is kept beside it, whole.
func TestRestoreWithForceKeepsTheOldDatabaseAside(t *testing.T) {
	dataDir, file := backedUp(t)
	if code, _, errOut := run(t, "motdepasse1\n", "user", "create", "--email", "apres@example.fr", "--name", "Après", "--type", "distributor", "--data-dir", dataDir); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := run(t, "", "restore", file, "--force", "--data-dir", dataDir)
	if code != 0 || !strings.Contains(out, "l'ancienne base est conservée sous "+filepath.Join(dataDir, "primeur-avant-restauration-")) {
		t.Fatalf("%d %q %q", code, out, errOut)
	}
	if list := accountsIn(t, dataDir); !strings.Contains(list, "ferme@example.fr") || strings.Contains(list, "apres@example.fr") {
		t.Fatalf("restored accounts: %s", list)
	}
	aside, _ := filepath.Glob(filepath.Join(dataDir, "primeur-avant-restauration-*.db"))
	if len(aside) != 1 {
		t.Fatalf("kept aside: %v", aside)
	}
	old, err := store.OpenReadOnly(context.Background(), aside[0])
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	var n int
	if err := old.Get(&n, `SELECT COUNT(*) FROM users WHERE email = 'apres@example.fr'`); err != nil || n != 1 {
		t.Fatalf("the database kept aside lost its last account: %d %v", n, err)
	}
}
