package commands

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/catalogadmin"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// TestSuggestionCommands: primeur catalogue suggestions lists what
// producers suggested (JSON too), accept creates the type with the
// suggested name, family and unit and a rate given, merge-suggestion
// answers another with an existing type, and an answered suggestion is
// refused in French; catalogadmin TestSuggestions proves the operations
// on both engines.
func TestSuggestionCommands(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PRIMEUR_DATA_DIR", dir)
	storetest.SQLiteFile(t, filepath.Join(dir, "primeur.db"))
	if code, _, errOut := run(t, "", "migrate"); code != 0 {
		t.Fatalf("migrate: %s", errOut)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, "", filepath.Join(dir, "primeur.db"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	farm := accounts.User{ID: core.NewID(), Type: accounts.Producer, Email: "bergerie@x.fr", EmailKey: "bergerie@x.fr",
		Name: "Bergerie d'Iraty", PasswordHash: "-", DeliveryDays: "1000000", CreatedAt: now.UnixMilli(), UpdatedAt: now.UnixMilli()}
	ids := map[string]string{}
	if err := accounts.Insert(ctx, db, farm); err != nil {
		t.Fatal(err)
	}
	for _, in := range []catalogadmin.SuggestionInput{
		{Name: "Tomme des Bauges", Family: "fromages", Unit: "kg"},
		{Name: "Oeufs de poule Label Rouge", Family: "oeufs", Unit: "douzaine", Note: "calibre moyen"},
	} {
		s, err := catalogadmin.Suggest(ctx, db, farm.ID, in, now)
		if err != nil {
			t.Fatal(err)
		}
		ids[in.Family] = s.ID
	}
	db.Close()

	code, out, errOut := run(t, "", "catalogue", "suggestions", "--json")
	var listed []catalogadmin.Suggestion
	if code != 0 || json.Unmarshal([]byte(out), &listed) != nil || len(listed) != 2 || listed[0].ProducerName != farm.Name {
		t.Fatalf("suggestions: %d %q %q", code, out, errOut)
	}
	if code, out, _ := run(t, "", "catalogue", "suggestions"); code != 0 || !strings.Contains(out, "Tomme des Bauges") ||
		!strings.Contains(out, "en attente") {
		t.Fatalf("the table: %d %q", code, out)
	}
	code, out, errOut = run(t, "", "catalogue", "accept", ids["fromages"], "--vat", "5,5", "--season", "1-12", "--json")
	var accepted struct {
		Suggestion  catalogadmin.Suggestion `json:"suggestion"`
		ProductType productJSON             `json:"productType"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &accepted) != nil || accepted.ProductType.ID != "tomme-des-bauges" ||
		accepted.ProductType.Family != "fromages" || accepted.Suggestion.Status != catalogadmin.Accepted {
		t.Fatalf("accept: %d %q %q", code, out, errOut)
	}
	if code, out, errOut := run(t, "", "catalogue", "merge-suggestion", ids["oeufs"], "oeufs-de-poule-plein-air"); code != 0 ||
		!strings.Contains(out, "rattaché : « Oeufs de poule Label Rouge » à Œufs de poule plein air") {
		t.Fatalf("merge-suggestion: %d %q %q", code, out, errOut)
	}
	code, _, errOut = run(t, "", "catalogue", "accept", ids["oeufs"])
	if lines := strings.Split(strings.TrimSpace(errOut), "\n"); code == 0 ||
		!strings.HasPrefix(lines[len(lines)-1], "primeur : la suggestion « "+ids["oeufs"]+" » a déjà reçu une réponse") {
		t.Fatalf("accept after an answer: %d %q", code, errOut)
	}
	if code, out, _ := run(t, "", "catalogue", "suggestions", "--json"); code != 0 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("pending after the answers: %d %q", code, out)
	}
}
