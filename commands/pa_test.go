package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"primeur/core/pa"
	"primeur/core/pa/patest"
)

// TestPAConnectAndStatus: a demo producer connected to a local PA with
// --since, its secret on stdin; the pa job deposits its documents; pa
// status lists them with their flow and status, in a table and in JSON.
// Refused, in one line and writing nothing: a shop, a URL in plain http
// to another machine, no secret, a wrong secret (the test fails), a
// --since to come.
func TestPAConnectAndStatus(t *testing.T) {
	dir := withDemo(t)
	srv, err := patest.Start(patest.Config{ClientID: "glieres", ClientSecret: "le-secret-des-glieres"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	producer := "ferme-des-glieres@demo.primeur.fr"
	connect := func(stdin string, extra ...string) (int, string, string) {
		args := append([]string{"pa", "connect", producer, "--flow-url", srv.FlowURL(), "--token-url", srv.TokenURL(),
			"--client-id", "glieres"}, extra...)
		return run(t, stdin, args...)
	}
	for _, tc := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"no secret", "", nil, "aucun secret sur l'entrée standard : donnez le secret du client sur sa première ligne"},
		{"wrong secret", "faux\n", nil, "L'obtention du jeton d'accès auprès de la plateforme agréée a échoué : l'identifiant ou le secret du client est refusé. Rien n'a été enregistré (--no-check pour enregistrer sans tester)"},
		{"since to come", "le-secret-des-glieres\n", []string{"--since", "2999-01-01"}, "--since « 2999-01-01 » : une date passée est attendue"},
		{"since not a date", "le-secret-des-glieres\n", []string{"--since", "01/01/2026"}, "--since « 01/01/2026 » : une date AAAA-MM-JJ est attendue"},
		{"http elsewhere", "le-secret-des-glieres\n", []string{"--directory-url", "http://annuaire.example.fr"}, pa.MsgDirectoryURL},
	} {
		code, out, errOut := connect(tc.stdin, tc.args...)
		if code != 1 || out != "" || !strings.Contains(errOut, tc.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 1 {
			t.Fatalf("%s: %d %q %q", tc.name, code, out, errOut)
		}
	}
	if code, _, errOut := run(t, "s\n", "pa", "connect", "epicerie-du-lac@demo.primeur.fr", "--flow-url", srv.FlowURL(),
		"--token-url", srv.TokenURL(), "--client-id", "x", "--no-check"); code != 1 || !strings.Contains(errOut, pa.MsgNotProducer) {
		t.Fatalf("a shop: %d %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, pa.KeyFile)); !os.IsNotExist(err) {
		t.Fatalf("a refused connection made the key file: %v", err)
	}
	if code, out, _ := run(t, "", "pa", "status"); code != 0 || !strings.HasPrefix(out, "aucun document à déposer") {
		t.Fatalf("nothing connected: %d %q", code, out)
	}

	code, out, errOut := connect("le-secret-des-glieres\n", "--since", "2020-01-01")
	if code != 0 || !strings.Contains(out, "connecté à sa plateforme agréée") || !strings.Contains(errOut, "clé des secrets créée") {
		t.Fatalf("connect: %d %q %q", code, out, errOut)
	}
	if st, err := os.Stat(filepath.Join(dir, pa.KeyFile)); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v", err)
	}
	code, out, errOut = run(t, "", "jobs", "run", "pa", "--dry-run")
	if code != 0 || !strings.Contains(out, "documents qui seraient déposés sur la plateforme agréée :") || len(srv.Deposits()) != 0 {
		t.Fatalf("dry run: %d %q %q", code, out, errOut)
	}
	code, out, errOut = run(t, "", "jobs", "run", "pa")
	if code != 0 || !strings.Contains(out, "documents déposés sur la plateforme agréée : ") {
		t.Fatalf("run: %d %q %q", code, out, errOut)
	}
	// The documents' deposits (the Encaissée messages of the invoices
	// the demo's shops paid are flows without a trackingId).
	deposits := srv.Deposits()
	delete(deposits, "")
	deposited := len(deposits)
	if deposited == 0 {
		t.Fatal("the demo producer has no document deposited")
	}
	code, out, _ = run(t, "", "pa", "status", "--producer", producer)
	if code != 0 || !strings.HasPrefix(out, "PRODUCTEUR") || strings.Count(out, "Déposée")+strings.Count(out, "Encaissée") != deposited {
		t.Fatalf("status: %d %q (deposited %d)", code, out, deposited)
	}
	code, out, _ = run(t, "", "pa", "status", "--json")
	var docs []pa.Document
	if code != 0 || json.Unmarshal([]byte(out), &docs) != nil || len(docs) != deposited {
		t.Fatalf("json: %d %q", code, out)
	}
	for _, d := range docs {
		deposited := d.Status == pa.StatusDeposited && len(d.History) == 1
		cashed := d.Status == pa.StatusCashed && len(d.History) == 2 && d.History[1].Status == pa.StatusCashed
		if d.FlowID == "" || (!deposited && !cashed) || d.History[0].Status != pa.StatusDeposited || d.Producer != producer {
			t.Fatalf("%+v", d)
		}
	}
	if bad := srv.Invalid(); len(bad) > 0 {
		t.Fatalf("against the OpenAPI document: %q", bad)
	}
	code, out, _ = run(t, "", "pa", "rotate-key")
	if code != 0 || !strings.Contains(out, "1 secret(s) rechiffré(s)") {
		t.Fatalf("rotate: %d %q", code, out)
	}
	// The rotated key still opens the secret: the next run reads statuses.
	if code, out, errOut := run(t, "", "jobs", "run", "pa"); code != 0 || !strings.Contains(out, "documents déposés sur la plateforme agréée : 0") {
		t.Fatalf("after rotation: %d %q %q", code, out, errOut)
	}
}
