package commands

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"primeur/daemon"
	"primeur/daemon/daemontest"
)

func TestSupplyViewerCommand(t *testing.T) {
	dir := t.TempDir()
	db := openShared(t, "", filepath.Join(dir, "primeur.db"))
	s := daemontest.New(t, db)
	seedSupply(t, s, db)
	t.Setenv(EnvPassword, daemontest.Password)

	// Without a terminal (here a pipe and a buffer), the command logs in
	// and prints the plain report of the current week: no viewer, no
	// bubbletea error.
	code, out, errOut := run(t, "", "supply", "--server", s.URL, "--email", "epicerie@example.fr")
	if code != 0 {
		t.Fatalf("supply: %d %s", code, errOut)
	}
	for _, want := range []string{"Évolution des stocks et conseils d'approvisionnement", "Épicerie du Lac — du lundi 16 novembre 2026",
		"Stock du matin, livraisons du jour (+) et risque", "Tomate (kg)"} {
		if !strings.Contains(out, want) {
			t.Fatalf("missing %q in %q", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Fatalf("terminal sequences in the report: %q", out)
	}
	// The password may come from the first line of standard input too.
	t.Setenv(EnvPassword, "")
	if code, out2, errOut := run(t, daemontest.Password+"\n", "supply", "--server", s.URL, "--email", "epicerie@example.fr"); code != 0 || out2 != out {
		t.Fatalf("password on stdin: %d %q %s", code, out2, errOut)
	}
	// So does a standard input that is not a pipe: /dev/null, where
	// bubbletea's reader failed (cancelreader: epoll).
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	t.Setenv(EnvPassword, daemontest.Password)
	var buf, errBuf bytes.Buffer
	if code := Run(context.Background(), []string{"supply", "--server", s.URL, "--email", "epicerie@example.fr"}, devnull, &buf, &errBuf); code != 0 ||
		buf.String() != out {
		t.Fatalf("stdin /dev/null: %d %q %s", code, buf.String(), errBuf.String())
	}

	for _, tt := range []struct {
		name, password string
		args           []string
		want           string
	}{
		{"producer", daemontest.Password, []string{"--server", s.URL, "--email", "saules@example.fr"}, daemon.MsgShopsOnly},
		{"wrong password", "mauvais123", []string{"--server", s.URL, "--email", "epicerie@example.fr"}, "L'adresse email ou le mot de passe saisis sont incorrects."},
		{"bad server", daemontest.Password, []string{"--server", "localhost:8080", "--email", "epicerie@example.fr"}, "--server « localhost:8080 » : une URL http:// ou https:// est attendue"},
		{"no password", "", []string{"--server", s.URL, "--email", "epicerie@example.fr"}, "aucun mot de passe sur l'entrée standard"},
		{"no email", daemontest.Password, []string{"--server", s.URL}, "option obligatoire manquante : --email"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(EnvPassword, tt.password)
			code, _, errOut := run(t, "", append([]string{"supply"}, tt.args...)...)
			if code == 0 || !strings.Contains(errOut, tt.want) {
				t.Fatalf("%d %q", code, errOut)
			}
		})
	}
}
