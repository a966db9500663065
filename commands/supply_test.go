package commands

import (
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

	// The viewer logs in, draws the current week and quits on q.
	code, out, errOut := run(t, "q", "supply", "--server", s.URL, "--email", "epicerie@example.fr")
	if code != 0 {
		t.Fatalf("supply: %d %s", code, errOut)
	}
	for _, want := range []string{"Evolution des stocks et conseils d'approvisionnement", "Épicerie du Lac — du lundi 16 novembre 2026", "Tomate (kg)"} {
		if !strings.Contains(out, want) {
			t.Fatalf("missing %q in %q", want, out)
		}
	}

	for _, tt := range []struct {
		name, password string
		args           []string
		want           string
	}{
		{"producer", daemontest.Password, []string{"--server", s.URL, "--email", "saules@example.fr"}, daemon.MsgShopsOnly},
		{"wrong password", "mauvais123", []string{"--server", s.URL, "--email", "epicerie@example.fr"}, "L'adresse email ou le mot de passe saisis sont incorrects."},
		{"bad server", daemontest.Password, []string{"--server", "localhost:8080", "--email", "epicerie@example.fr"}, "--server must be an http:// or https:// URL"},
		{"no password", "", []string{"--server", s.URL, "--email", "epicerie@example.fr"}, "set PRIMEUR_PASSWORD"},
		{"no email", daemontest.Password, []string{"--server", s.URL}, `required flag(s) "email" not set`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(EnvPassword, tt.password)
			code, _, errOut := run(t, "q", append([]string{"supply"}, tt.args...)...)
			if code == 0 || !strings.Contains(errOut, tt.want) {
				t.Fatalf("%d %q", code, errOut)
			}
		})
	}
}
