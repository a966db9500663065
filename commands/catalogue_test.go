package commands

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"primeur/core/store/storetest"
)

// TestCatalogueCommands: primeur catalogue lists the types by family (in
// JSON too), adds one, refuses a name taken in French on one line (after
// the line naming the database), renames
// and retires it (gone from the list, back with --retired), and refuses a
// merge of types of different units; core/catalogadmin's tests prove the
// operations themselves on both engines.
func TestCatalogueCommands(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PRIMEUR_DATA_DIR", dir)
	storetest.SQLiteFile(t, filepath.Join(dir, "primeur.db"))
	if code, _, errOut := run(t, "", "migrate"); code != 0 {
		t.Fatalf("migrate: %s", errOut)
	}
	list := func(args ...string) []productJSON {
		t.Helper()
		code, out, errOut := run(t, "", append([]string{"catalogue", "list", "--json"}, args...)...)
		var ps []productJSON
		if code != 0 || json.Unmarshal([]byte(out), &ps) != nil {
			t.Fatalf("list: %d %q %q", code, out, errOut)
		}
		return ps
	}
	all := list()
	if len(all) < 700 || all[0].Family != "fruits" {
		t.Fatalf("%d types, first %+v", len(all), all[0])
	}
	eggs := list("--family", "oeufs")
	if len(eggs) < 5 || eggs[0].Family != "oeufs" {
		t.Fatalf("eggs %+v", eggs)
	}
	code, out, errOut := run(t, "", "catalogue", "add", "Tomme des Bauges", "--family", "fromages", "--vat", "5,5", "--json")
	var added productJSON
	if code != 0 || json.Unmarshal([]byte(out), &added) != nil || added.ID != "tomme-des-bauges" || added.VATRate != "5.5" {
		t.Fatalf("add: %d %q %q", code, out, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"catalogue", "add", "TOMME des bauges", "--family", "fromages"}, "un produit s'appelle déjà « Tomme des Bauges » (tomme-des-bauges)"},
		{[]string{"catalogue", "add", "Bleu", "--family", "bleus"}, "famille inconnue « bleus »"},
		{[]string{"catalogue", "merge", "tomme-des-bauges", "--into", "cidre-brut"}, "le catalogue compte « Tomme des Bauges » en kilogrammes (kg) et « Cidre brut » en bouteilles"},
		{[]string{"catalogue", "merge", "tomme-des-bauges"}, "il manque --into"},
		{[]string{"catalogue", "list", "--family", "bleus"}, "famille inconnue « bleus »"},
		{[]string{"catalogue", "retire", "inconnu"}, "produit inconnu « inconnu »"},
	} {
		code, _, errOut := run(t, "", c.args...)
		lines := strings.Split(strings.TrimSpace(errOut), "\n") // the database's line, then the refusal's
		if code == 0 || !strings.HasPrefix(lines[len(lines)-1], "primeur : "+c.want) {
			t.Errorf("%v: %d %q, want %q", c.args, code, errOut, c.want)
		}
	}
	if code, out, _ := run(t, "", "catalogue", "rename", "tomme-des-bauges", "Tome des Bauges"); code != 0 || !strings.Contains(out, "renommé : Tome des Bauges") {
		t.Fatalf("rename: %d %q", code, out)
	}
	if code, out, _ := run(t, "", "catalogue", "retire", "tomme-des-bauges"); code != 0 || !strings.HasPrefix(out, "retiré : Tome des Bauges") {
		t.Fatalf("retire: %d %q", code, out)
	}
	if n := len(list()); n != len(all) {
		t.Errorf("%d types listed after retiring the one added, want %d", n, len(all))
	}
	if n := len(list("--retired")); n != len(all)+1 {
		t.Errorf("%d types with --retired, want %d", n, len(all)+1)
	}
}
