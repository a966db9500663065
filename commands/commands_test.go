package commands

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"primeur/core/store/storetest"
)

// run runs the command line in-process and returns its status and output.
func run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestVersion(t *testing.T) {
	code, out, _ := run(t, "", "version")
	if code != 0 || !strings.HasPrefix(out, "primeur v1.0.4 (commit ") {
		t.Fatalf("%d %q", code, out)
	}
}

func TestInvalidConfigurationFailsFastOnOneLine(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"bad timezone flag", nil, []string{"user", "list", "--timezone", "Nowhere/City"}, "timezone"},
		{"bad log level env", map[string]string{"PRIMEUR_LOG_LEVEL": "chatty"}, []string{"migrate"}, "log-level"},
		{"bad log format env", map[string]string{"PRIMEUR_LOG_FORMAT": "logfmt"}, []string{"serve"}, "log-format « logfmt » : text ou json est attendu"},
		{"bad log format flag", nil, []string{"jobs", "list", "--log-format", "xml"}, "log-format « xml »"},
		{"bad addr env", map[string]string{"PRIMEUR_ADDR": "nope"}, []string{"serve"}, "addr"},
		{"bad accessibility contact env", map[string]string{"PRIMEUR_ACCESSIBILITY_CONTACT": "accessibilité"}, []string{"serve"}, "accessibility.contact"},
		{"bad accessibility contact flag", nil, []string{"serve", "--accessibility.contact", "pas une adresse"}, "accessibility.contact"},
		{"bad database url", nil, []string{"migrate", "--database-url", "mysql://x"}, "database-url"},
		{"missing config file", nil, []string{"migrate", "--config", "/nonexistent/primeur.yaml"}, "config"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("PRIMEUR_DATA_DIR", t.TempDir())
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			code, _, errOut := run(t, "", tt.args...)
			if code == 0 || !strings.Contains(errOut, tt.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
				t.Fatalf("code %d, stderr %q", code, errOut)
			}
		})
	}
}

func TestConfigPrecedence(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "primeur.yaml")
	if err := os.WriteFile(file, []byte("data-dir: "+filepath.Join(dir, "from-file")+"\nlog-level: warn\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The file applies when nothing else says otherwise.
	code, _, errOut := run(t, "", "migrate", "--config", file)
	if code != 0 {
		t.Fatal(errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "from-file", "primeur.db")); err != nil {
		t.Fatalf("config file ignored: %v", err)
	}
	// The environment beats the file; a flag beats the environment.
	t.Setenv("PRIMEUR_DATA_DIR", filepath.Join(dir, "from-env"))
	run(t, "", "migrate", "--config", file)
	if _, err := os.Stat(filepath.Join(dir, "from-env", "primeur.db")); err != nil {
		t.Fatalf("environment ignored: %v", err)
	}
	run(t, "", "migrate", "--config", file, "--data-dir", filepath.Join(dir, "from-flag"))
	if _, err := os.Stat(filepath.Join(dir, "from-flag", "primeur.db")); err != nil {
		t.Fatalf("flag ignored: %v", err)
	}
}

func TestUserCommands(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PRIMEUR_DATA_DIR", dir)
	storetest.SQLiteFile(t, filepath.Join(dir, "primeur.db"))
	if code, _, errOut := run(t, "", "migrate"); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := run(t, "motdepasse1\n", "user", "create", "--email", "ferme@example.fr", "--name", "Ferme du Lac", "--type", "producer")
	if code != 0 || !strings.Contains(out, "compte producteur créé : ferme@example.fr") {
		t.Fatalf("create: %d %q %q", code, out, errOut)
	}
	code, _, errOut = run(t, "court\n", "user", "create", "--email", "b@example.fr", "--name", "B")
	if code == 0 || !strings.Contains(errOut, "Mot de passe invalide") {
		t.Fatalf("weak password: %d %q", code, errOut)
	}
	code, _, errOut = run(t, "motdepasse1\n", "user", "create", "--email", "FERME@example.fr", "--name", "Again")
	if code == 0 || !strings.Contains(errOut, "existe déjà") {
		t.Fatalf("duplicate: %d %q", code, errOut)
	}
	code, _, errOut = run(t, "", "user", "create", "--email", "c@example.fr", "--name", "C")
	if code == 0 || !strings.Contains(errOut, "aucun mot de passe sur l'entrée standard") {
		t.Fatalf("no password: %d %q", code, errOut)
	}
	code, out, _ = run(t, "", "user", "list")
	if code != 0 || !strings.Contains(out, "ferme@example.fr") || strings.Contains(out, "b@example.fr") {
		t.Fatalf("list: %q", out)
	}
	code, out, errOut = run(t, "nouveau123\n", "user", "set-password", "ferme@example.fr")
	if code != 0 || !strings.Contains(out, "mot de passe changé pour ferme@example.fr") {
		t.Fatalf("set-password: %d %q %q", code, out, errOut)
	}
	code, _, _ = run(t, "nouveau123\n", "user", "set-password", "nobody@example.fr")
	if code == 0 {
		t.Fatal("set-password on an unknown account succeeded")
	}
}

func TestOpenAPICommand(t *testing.T) {
	code, out, errOut := run(t, "", "openapi")
	if code != 0 {
		t.Fatal(errOut)
	}
	var doc struct {
		OpenAPI string         `json:"openapi"`
		Paths   map[string]any `json:"paths"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.OpenAPI != "3.1.0" || doc.Paths["/auth/login"] == nil {
		t.Fatalf("openapi: %v %+v", err, doc)
	}
}

func TestDemoCommand(t *testing.T) {
	t.Setenv("PRIMEUR_DATA_DIR", t.TempDir())
	code, out, errOut := run(t, "", "demo")
	if code != 0 || !strings.Contains(out, "epicerie-du-lac@demo.primeur.fr") {
		t.Fatalf("demo: %d %q %q", code, out, errOut)
	}
	code, out, _ = run(t, "", "demo")
	if code != 0 || !strings.Contains(out, "epicerie-du-lac@demo.primeur.fr") {
		t.Fatalf("demo again: %d %q", code, out)
	}
}

// TestUserExportAndClose: an administrator writes an account's data as a
// zip, then closes it: it can no longer be found by its email.
func TestUserExportAndClose(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PRIMEUR_DATA_DIR", dir)
	storetest.SQLiteFile(t, filepath.Join(dir, "primeur.db"))
	if code, _, errOut := run(t, "", "migrate"); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := run(t, "motdepasse1\n", "user", "create", "--email", "ferme@example.fr", "--name", "Ferme du Lac", "--type", "producer"); code != 0 {
		t.Fatalf("create: %d %s", code, errOut)
	}
	zipPath := filepath.Join(dir, "ferme.zip")
	code, out, errOut := run(t, "", "user", "export", "ferme@example.fr", "--out", zipPath)
	if code != 0 || !strings.Contains(out, "écrites dans "+zipPath) {
		t.Fatalf("export: %d %q %s", code, out, errOut)
	}
	z, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
	}
	z.Close()
	if strings.Join(names, ",") != "LISEZMOI.txt,compte.json,besoins.json,commandes.json,activite.json,paiements.json,tournees.json,produits.json" {
		t.Fatalf("files %v", names)
	}
	if code, out, errOut := run(t, "", "user", "close", "ferme@example.fr"); code != 0 || !strings.Contains(out, "compte ferme@example.fr clos") {
		t.Fatalf("close: %d %q %s", code, out, errOut)
	}
	if code, _, _ := run(t, "", "user", "export", "ferme@example.fr"); code == 0 {
		t.Fatal("a closed account is still found by its email")
	}
}

// demoWorld is the world `primeur demo` seeds, made once per test binary —
// a seed is the demo's year of trade through the real operations, some
// 20 s under -race — and copied into the data directory of each test that
// reads or changes it (withDemo). TestDemoCommand and the serve tests
// still run the command itself.
var demoWorld struct {
	sync.Once
	files map[string][]byte // the data directory's files by name
	err   error
}

// withDemo points PRIMEUR_DATA_DIR at a new data directory holding a copy
// of the demo world, and returns it.
func withDemo(t *testing.T) string {
	t.Helper()
	demoWorld.Do(func() {
		dir, err := os.MkdirTemp("", "primeur-demo-")
		if err != nil {
			demoWorld.err = err
			return
		}
		defer os.RemoveAll(dir)
		var out, errOut bytes.Buffer
		if code := Run(context.Background(), []string{"demo", "--data-dir", dir}, strings.NewReader(""), &out, &errOut); code != 0 {
			demoWorld.err = fmt.Errorf("primeur demo: %d %s", code, errOut.String())
			return
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			demoWorld.err = err
			return
		}
		demoWorld.files = map[string][]byte{}
		for _, e := range entries {
			if !e.Type().IsRegular() {
				continue
			}
			if demoWorld.files[e.Name()], err = os.ReadFile(filepath.Join(dir, e.Name())); err != nil {
				demoWorld.err = err
				return
			}
		}
	})
	if demoWorld.err != nil {
		t.Fatal(demoWorld.err)
	}
	dir := t.TempDir()
	for name, data := range demoWorld.files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PRIMEUR_DATA_DIR", dir)
	return dir
}
