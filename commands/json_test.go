package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core/accounts"
	"primeur/core/config"
	"primeur/core/jobs"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon"
)

// decodeStrict reads out as exactly one JSON document into v, refusing a
// field v does not have and anything after the document.
func decodeStrict(t *testing.T, out string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("not the JSON expected: %v\n%s", err, out)
	}
	if dec.More() {
		t.Fatalf("more than one JSON document on standard output:\n%s", out)
	}
}

// conformsTo checks out against the schema name of the API's OpenAPI
// document, as an answer of the daemon is checked.
func conformsTo(t *testing.T, name, out string) {
	t.Helper()
	r := daemon.New(daemon.Options{Config: config.Defaults()}).OpenAPI().Components.Schemas
	s := r.Map()[name]
	if s == nil {
		t.Fatalf("no schema %s in the document", name)
	}
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	res := &huma.ValidateResult{}
	huma.Validate(r, s, huma.NewPathBuffer([]byte{}, 0), huma.ModeReadFromServer, v, res)
	for _, e := range res.Errors {
		t.Errorf("the output breaks %s: %v", name, e)
	}
}

func TestJobsListJSON(t *testing.T) {
	t.Setenv("PRIMEUR_DATA_DIR", t.TempDir())
	code, out, errOut := run(t, "", "jobs", "list", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var got []jobJSON
	decodeStrict(t, out, &got)
	if len(got) != len(jobs.All) {
		t.Fatalf("%d jobs printed, %d exist", len(got), len(jobs.All))
	}
	for i, j := range jobs.All {
		cron, err := j.Schedule.Cron()
		if err != nil {
			t.Fatal(err)
		}
		if want := (jobJSON{Name: j.Name, Schedule: j.Schedule.String(), Cron: cron, Summary: j.Summary}); got[i] != want {
			t.Errorf("job %d: %+v, want %+v", i, got[i], want)
		}
	}
	// The field names are the documented ones.
	for _, key := range []string{`"name": "deliveries"`, `"schedule": `, `"summary": `} {
		if !strings.Contains(out, key) {
			t.Errorf("no %s in\n%s", key, out)
		}
	}
}

func TestUserListJSON(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PRIMEUR_DATA_DIR", dir)
	storetest.SQLiteFile(t, filepath.Join(dir, "primeur.db"))
	if code, _, errOut := run(t, "", "migrate"); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := run(t, "", "user", "list", "--json")
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("no account: exit %d, %q %s", code, out, errOut)
	}
	for _, u := range []struct{ email, name, kind string }{
		{"ferme@example.fr", "Ferme <du> Lac & fils", "producer"},
		{"epicerie@example.fr", "Épicerie du Lac", "distributor"},
	} {
		if code, _, errOut := run(t, "motdepasse1\n", "user", "create", "--email", u.email, "--name", u.name, "--type", u.kind); code != 0 {
			t.Fatal(errOut)
		}
	}
	code, out, errOut = run(t, "", "user", "list", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var got []userJSON
	decodeStrict(t, out, &got)

	db, err := store.Open(context.Background(), "", filepath.Join(dir, "primeur.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	users, err := accounts.List(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(users) != 2 {
		t.Fatalf("%d accounts printed, %d stored", len(got), len(users))
	}
	for i, u := range users {
		want := userJSON{ID: u.ID, Type: u.Type, Email: u.Email, Name: u.Name,
			CreatedAt: time.UnixMilli(u.CreatedAt).UTC().Format(time.RFC3339)}
		if got[i] != want {
			t.Errorf("account %d: %+v, want %+v", i, got[i], want)
		}
	}
	if got[0].Type != accounts.Distributor || !strings.Contains(out, `"name": "Ferme <du> Lac & fils"`) {
		t.Errorf("shops first, names as written:\n%s", out)
	}
	if !bytes.Contains([]byte(out), []byte(`"_id": "`+users[0].ID+`"`)) || !strings.Contains(out, `"createdAt": "`) {
		t.Errorf("field names are not the documented ones:\n%s", out)
	}
}
