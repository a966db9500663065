package commands

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"primeur/core/accounts"
	"primeur/core/config"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// engines runs fn on a migrated SQLite data directory and, when
// PRIMEUR_TEST_DATABASE_URL is set, on a migrated PostgreSQL schema: the
// command line's settings point at it (PRIMEUR_DATA_DIR,
// PRIMEUR_DATABASE_URL), and db is the test's own handle on it.
func engines(t *testing.T, fn func(t *testing.T, db *store.DB, dir string)) {
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		t.Setenv("PRIMEUR_DATA_DIR", dir)
		t.Setenv("PRIMEUR_DATABASE_URL", "")
		fn(t, openMigrated(t, "", filepath.Join(dir, "primeur.db")), dir)
	})
	if os.Getenv(storetest.EnvURL) != "" {
		t.Run("postgres", func(t *testing.T) {
			dir, url := t.TempDir(), storetest.URL(t)
			t.Setenv("PRIMEUR_DATA_DIR", dir)
			t.Setenv("PRIMEUR_DATABASE_URL", url)
			fn(t, openMigrated(t, url, ""), dir)
		})
	}
}

// oneLine fails the test unless a refusal exited 1 with one line on
// standard error holding every want, nothing on standard output, and no
// Go parser's text.
func oneLine(t *testing.T, code int, out, errOut string, want ...string) {
	t.Helper()
	if code != 1 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "primeur : ") {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, w := range want {
		if !strings.Contains(errOut, w) {
			t.Fatalf("stderr %q lacks %q", errOut, w)
		}
	}
	for _, leak := range []string{"strconv", "parsing", "invalid syntax", "flag", "unknown", "error"} {
		if strings.Contains(errOut, leak) {
			t.Fatalf("stderr %q holds %q", errOut, leak)
		}
	}
}

// TestJobsRunAtInTheFuture: `jobs run invoices --at` a time to come is
// refused with one French line naming --dry-run and --force, and changes
// nothing; --dry-run at the month's end lists the invoices the run would
// issue and the emails it would send, the database byte for byte as it
// was and the outbox empty; --force runs it, issuing those invoices.
func TestJobsRunAtInTheFuture(t *testing.T) {
	engines(t, func(t *testing.T, db *store.DB, dir string) {
		w := tradetest.New(t, db)
		o := w.Order(w.Farm, w.Shop, "2026-11-01")
		w.Emailed(o, "2026-11-10", tradetest.L{Product: "tomate", Price: 250, Expected: 4000})
		w.Delivery(o, "2026-11-30", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		halle := w.User(accounts.User{Type: accounts.Distributor, Email: "halle@annecy.fr", Name: "Halle d'Annecy"})
		w.Emailed(w.Order(w.Farm, halle, "2026-11-01"), "2026-11-12", tradetest.L{Product: "tomate", Price: 300, Expected: 2000})
		before := storetest.Snapshot(t, db)
		unchanged := func(what string) {
			t.Helper()
			if after := storetest.Snapshot(t, db); after != before {
				t.Fatalf("%s changed the database:\n%s", what, storetest.Changes(before, after))
			}
			if entries, _ := os.ReadDir(filepath.Join(dir, "outbox")); len(entries) != 0 {
				t.Fatalf("%s wrote to the outbox: %v", what, entries)
			}
		}

		future := time.Now().Add(48 * time.Hour).Format(time.RFC3339)
		for _, job := range []string{"invoices", "deliveries", "claims", "reminders"} {
			code, out, errOut := run(t, "", "jobs", "run", job, "--at", future)
			oneLine(t, code, out, errOut, "--at", "est à venir", "--dry-run", "--force")
		}
		unchanged("a refused run")

		code, out, errOut := run(t, "", "jobs", "run", "invoices", "--at", "2026-11-30T21:00", "--dry-run")
		if code != 0 {
			t.Fatalf("dry run: %d %s", code, errOut)
		}
		for _, want := range []string{
			"invoices (2026-11-30 21:00 CET), à blanc : factures émises : 2, factures envoyées : 2,",
			"documents qui seraient émis :\n  facture FA-2026-000001 : Ferme des Aravis → Épicerie du Lac, 131,88\u00a0€ TTC\n" +
				"  facture FA-2026-000002 : Ferme des Aravis → Halle d'Annecy, 63,30\u00a0€ TTC\n",
			"emails qui seraient envoyés :\n  à ",
			"Facture FA-2026-000001 — Ferme des Aravis — novembre 2026 (FA-2026-000001.pdf)",
			"rien n'a été écrit ni envoyé (--dry-run)\n",
		} {
			if !strings.Contains(out, want) {
				t.Fatalf("dry run lacks %q:\n%s", want, out)
			}
		}
		if !strings.HasPrefix(errOut, "base de données : ") {
			t.Fatalf("dry run's stderr %q", errOut)
		}
		unchanged("the dry run")
		// A dry run may look at any time, to come or not.
		if code, _, errOut := run(t, "", "jobs", "run", "deliveries", "--at", future, "--dry-run"); code != 0 {
			t.Fatalf("dry run in the future: %d %s", code, errOut)
		}
		unchanged("a dry run in the future")

		code, out, errOut = run(t, "", "jobs", "run", "invoices", "--at", "2026-11-30T21:00", "--force")
		if code != 0 || !strings.Contains(out, "documents émis :\n  facture FA-2026-000001 : Ferme des Aravis → Épicerie du Lac, 131,88\u00a0€ TTC\n") {
			t.Fatalf("forced run: %d %q %s", code, out, errOut)
		}
		// Each invoice to each side's owners (issue 41).
		if entries, _ := os.ReadDir(filepath.Join(dir, "outbox")); len(entries) != 4 {
			t.Fatalf("outbox after the real run: %v", entries)
		}
	})
}

// TestUnknownSettingsAreRefused: a key of the configuration file, a
// PRIMEUR_* variable or a flag that names no setting stops the command
// with one French line naming it and the closest known one, before
// anything is created.
func TestUnknownSettingsAreRefused(t *testing.T) {
	for _, tt := range []struct {
		name string
		file string
		env  map[string]string
		args []string
		want []string
	}{
		{"file key", "data_dir: ./ailleurs\n", nil, []string{"migrate"},
			[]string{"clé inconnue « data_dir » dans le fichier de configuration", "vouliez-vous dire « data-dir » ?"}},
		{"nested file key", "smtp:\n  hots: smtp.example.org\n", nil, []string{"migrate"},
			[]string{"clé inconnue « smtp.hots »", "vouliez-vous dire « smtp.host » ?"}},
		{"file section", "delivery: 12:00\n", nil, []string{"migrate"}, []string{"clé inconnue « delivery »", "« delivery.lock »"}},
		{"environment", "", map[string]string{"PRIMEUR_DATADIR": "./ailleurs"}, []string{"migrate"},
			[]string{"variable d'environnement inconnue PRIMEUR_DATADIR ; vouliez-vous dire PRIMEUR_DATA_DIR ?"}},
		{"environment, dotted key", "", map[string]string{"PRIMEUR_SMTP_HOTS": "x"}, []string{"migrate"},
			[]string{"PRIMEUR_SMTP_HOTS ; vouliez-vous dire PRIMEUR_SMTP_HOST ?"}},
		{"flag", "", nil, []string{"migrate", "--data_dir", "x"},
			[]string{"option inconnue « --data_dir » pour primeur migrate ; vouliez-vous dire « --data-dir » ?"}},
		{"flag of another command", "", nil, []string{"migrate", "--smtp.host", "x"}, []string{"option inconnue « --smtp.host » pour primeur migrate"}},
		{"shorthand", "", nil, []string{"migrate", "-x"}, []string{"option inconnue « -x »"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			t.Setenv("PRIMEUR_DATA_DIR", dir)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			args := tt.args
			if tt.file != "" {
				file := filepath.Join(t.TempDir(), "primeur.yaml")
				mustWrite(t, file, []byte(tt.file))
				args = append(args, "--config", file)
			}
			code, out, errOut := run(t, "", args...)
			oneLine(t, code, out, errOut, tt.want...)
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Fatalf("the refused command created %s (%v)", dir, err)
			}
		})
	}
	// The tests' and tools' own variables are not settings and pass.
	t.Setenv("PRIMEUR_DATA_DIR", t.TempDir())
	t.Setenv("PRIMEUR_E2E_DATA_DIR", "x")
	t.Setenv(EnvPassword, "x")
	if code, _, errOut := run(t, "", "migrate"); code != 0 {
		t.Fatalf("%d %s", code, errOut)
	}
}

// TestValuesOfTheWrongKind: a value that is not of its setting's or flag's
// kind is one French line naming the value and the form expected, never a
// Go parser's error, from wherever it comes.
func TestValuesOfTheWrongKind(t *testing.T) {
	for _, tt := range []struct {
		name string
		file string
		env  map[string]string
		args []string
		want string
	}{
		{"port flag", "", nil, []string{"jobs", "run", "deliveries", "--smtp.port", "abc"}, "--smtp.port « abc » : un nombre entier est attendu"},
		{"port variable", "", map[string]string{"PRIMEUR_SMTP_PORT": "abc"}, []string{"jobs", "run", "deliveries"}, "smtp.port « abc » : un nombre entier est attendu"},
		{"port in the file", "smtp:\n  port: abc\n", nil, []string{"jobs", "run", "deliveries"}, "smtp.port « abc » : un nombre entier est attendu"},
		{"port out of range", "smtp:\n  port: 70000\n", nil, []string{"jobs", "run", "deliveries"}, "smtp.port 70000"},
		{"boolean", "", map[string]string{"PRIMEUR_SECURE_COOKIES": "peut-être"}, []string{"serve"}, "secure-cookies « peut-être » : true ou false est attendu"},
		{"list for a text", "timezone: [Europe/Paris]\n", nil, []string{"migrate"}, "timezone « [Europe/Paris] » : une seule valeur est attendue"},
		{"days", "", nil, []string{"simulate", "supply", "--distributor", "a@b.fr", "--days", "cinq"}, "--days « cinq » : un nombre entier est attendu"},
		{"turnover", "", nil, []string{"simulate", "import", "--distributor", "a@b.fr", "--turnover", "12,5", "--from", "2027-01", "--to", "2027-02"},
			"--turnover « 12,5 » : un nombre est attendu"},
		{"today", "", nil, []string{"simulate", "supply", "--distributor", "a@b.fr", "--today", "demain"}, "--today « demain » : une date AAAA-MM-JJ est attendue"},
		{"at", "", nil, []string{"jobs", "run", "invoices", "--at", "demain"}, "--at « demain » : une date et une heure sont attendues"},
		{"month", "", nil, []string{"invoices", "export", "--month", "novembre", "--out", "x"}, "--month « novembre » : un mois AAAA-MM est attendu"},
		{"flag without its value", "", nil, []string{"jobs", "run", "invoices", "--at"}, "l'option --at attend une valeur"},
		{"required flag", "", nil, []string{"simulate", "supply"}, "option obligatoire manquante : --distributor"},
		{"missing argument", "", nil, []string{"user", "set-password"}, "il manque un argument : primeur user set-password EMAIL"},
		{"argument too many", "", nil, []string{"user", "list", "tous"}, "primeur user list ne prend pas d'argument (« tous » donné)"},
		{"missing configuration file", "", nil, []string{"migrate", "--config", "/nonexistent/primeur.yaml"}, "fichier de configuration /nonexistent/primeur.yaml introuvable"},
		{"configuration file that is not YAML", "smtp: [port: 5\n", nil, []string{"migrate"}, "illisible"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("PRIMEUR_DATA_DIR", filepath.Join(t.TempDir(), "data"))
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			args := tt.args
			if tt.file != "" {
				file := filepath.Join(t.TempDir(), "primeur.yaml")
				mustWrite(t, file, []byte(tt.file))
				args = append(args, "--config", file)
			}
			code, out, errOut := run(t, "", args...)
			oneLine(t, code, out, errOut, tt.want)
		})
	}
}

// TestUnknownSubcommands: a word that names no command exits 1 with one
// French line, suggesting the command meant; a group alone prints its help.
func TestUnknownSubcommands(t *testing.T) {
	t.Setenv("PRIMEUR_DATA_DIR", t.TempDir())
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"user", "add"}, "commande inconnue « add » pour primeur user ; vouliez-vous dire « create » ?"},
		{[]string{"jobs", "lst"}, "commande inconnue « lst » pour primeur jobs ; vouliez-vous dire « list » ?"},
		{[]string{"sevre"}, "commande inconnue « sevre » pour primeur ; vouliez-vous dire « serve » ?"},
		{[]string{"user", "purge"}, "commande inconnue « purge » pour primeur user ; « primeur user --help » les liste"},
		{[]string{"help", "nope"}, "commande inconnue « nope » pour primeur"},
		{[]string{"user", "add", "--email", "a@b.fr"}, "vouliez-vous dire « create » ?"},
	} {
		code, out, errOut := run(t, "", tt.args...)
		oneLine(t, code, out, errOut, tt.want)
	}
	for _, args := range [][]string{{"user"}, {"help", "user"}, {"user", "--help"}} {
		code, out, errOut := run(t, "", args...)
		if code != 0 || !strings.Contains(out, "Gérer les comptes") || !strings.Contains(out, "  create ") || errOut != "" {
			t.Fatalf("%v: %d %q %q", args, code, out, errOut)
		}
	}
}

// TestUserExportNamesItsFile: without --out the zip is named after the
// account and the day, in the current directory; a second export refuses
// to overwrite it (the file unchanged) unless --force.
func TestUserExportNamesItsFile(t *testing.T) {
	engines(t, func(t *testing.T, db *store.DB, _ string) {
		w := tradetest.New(t, db)
		cwd := t.TempDir()
		t.Chdir(cwd)
		name := "primeur-donnees-ferme-aravis-fr-" + time.Now().In(tradetest.At(2026, 1, 1, 0, 0).Location()).Format("2006-01-02") + ".zip"
		code, out, errOut := run(t, "", "user", "export", "Ferme@Aravis.fr")
		if code != 0 || out != "données de Ferme@Aravis.fr écrites dans "+name+"\n" {
			t.Fatalf("export: %d %q %s", code, out, errOut)
		}
		z, err := zip.OpenReader(filepath.Join(cwd, name))
		if err != nil {
			t.Fatal(err)
		}
		z.Close()
		mustWrite(t, filepath.Join(cwd, name), []byte("la première"))
		code, out, errOut = run(t, "", "user", "export", "ferme@aravis.fr")
		oneLine(t, code, out, errOut, name+" existe déjà ; choisissez un autre nom (--out), ou --force pour le remplacer")
		if data, _ := os.ReadFile(filepath.Join(cwd, name)); string(data) != "la première" {
			t.Fatal("the refused export changed the file")
		}
		if code, _, errOut := run(t, "", "user", "export", "ferme@aravis.fr", "--force"); code != 0 {
			t.Fatalf("--force: %d %s", code, errOut)
		}
		if z, err := zip.OpenReader(filepath.Join(cwd, name)); err != nil {
			t.Fatalf("--force did not replace the file: %v", err)
		} else {
			z.Close()
		}
		// Another account's export has its own name.
		if code, out, _ := run(t, "", "user", "export", w.Shop.Email); code != 0 || !strings.Contains(out, "primeur-donnees-epicerie-lac-fr-") {
			t.Fatalf("shop's export: %q", out)
		}
		if entries, _ := os.ReadDir(cwd); len(entries) != 2 {
			t.Fatalf("files left in the directory: %v", entries)
		}
	})
}

// TestMigrateStatusCreatesNothing: `migrate --status` on a place without a
// database lists every migration as pending and creates nothing — no
// SQLite file nor directory, no PostgreSQL table; after `migrate` it lists
// them applied.
func TestMigrateStatusCreatesNothing(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "data")
		t.Setenv("PRIMEUR_DATA_DIR", dir)
		code, out, errOut := run(t, "", "migrate", "--status")
		if code != 0 || !strings.HasPrefix(out, "aucune base dans "+filepath.Join(dir, "primeur.db")+" : primeur migrate la créera\n00001  en attente  00001_accounts.sql\n") ||
			strings.Contains(out, "appliquée") {
			t.Fatalf("%d %q %q", code, out, errOut)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Fatalf("migrate --status created %s (%v)", dir, err)
		}
		pending := strings.Count(out, "en attente")
		if code, _, errOut := run(t, "", "migrate"); code != 0 {
			t.Fatal(errOut)
		}
		code, out, _ = run(t, "", "migrate", "--status")
		if code != 0 || strings.Count(out, "appliquée") != pending || strings.Contains(out, "en attente") {
			t.Fatalf("after migrate: %q", out)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		url := storetest.EmptyURL(t)
		t.Setenv("PRIMEUR_DATA_DIR", t.TempDir())
		t.Setenv("PRIMEUR_DATABASE_URL", url)
		code, out, errOut := run(t, "", "migrate", "--status")
		if code != 0 || !strings.HasPrefix(out, "00001  en attente  00001_accounts.sql\n") || strings.Contains(out, "appliquée") ||
			!strings.HasPrefix(errOut, "base de données : PostgreSQL, serveur ") || strings.Contains(errOut, "postgres:postgres@") {
			t.Fatalf("%d %q %q", code, out, errOut)
		}
		db, err := store.OpenExisting(t.Context(), url, "")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if tables := storetest.Tables(t, db); len(tables) != 0 {
			t.Fatalf("migrate --status created %v", tables)
		}
		if code, _, errOut := run(t, "", "migrate"); code != 0 {
			t.Fatal(errOut)
		}
		if code, out, _ := run(t, "", "migrate", "--status"); code != 0 || strings.Contains(out, "en attente") {
			t.Fatalf("after migrate: %q", out)
		}
	})
}

// TestCommandsNameTheirDatabase: a command that works on the database says
// which on standard error, never with the password.
func TestCommandsNameTheirDatabase(t *testing.T) {
	engines(t, func(t *testing.T, _ *store.DB, dir string) {
		code, out, errOut := run(t, "", "user", "list", "--json")
		want := "base de données : SQLite " + filepath.Join(dir, "primeur.db") + "\n"
		if url := os.Getenv("PRIMEUR_DATABASE_URL"); url != "" {
			want = "base de données : " + describeDatabase(&config.Config{DatabaseURL: url}) + "\n"
		}
		if code != 0 || errOut != want || !strings.HasPrefix(out, "[") {
			t.Fatalf("%d %q %q, want %q", code, out, errOut, want)
		}
	})
}

// TestDescribeDatabase: the database named as the commands say it — the
// SQLite file's absolute path; PostgreSQL's server, database, user and
// schema, never the password nor other options.
func TestDescribeDatabase(t *testing.T) {
	wd, _ := os.Getwd()
	for _, tt := range []struct{ url, dataDir, want string }{
		{"", "./data", "SQLite " + filepath.Join(wd, "data", "primeur.db")},
		{"", "/srv/primeur", "SQLite /srv/primeur/primeur.db"},
		{"postgres://primeur:s3cret@db.interne:5433/primeur?sslmode=require", "", "PostgreSQL, serveur db.interne:5433, base primeur, utilisateur primeur"},
		{"postgres://app@db/primeur?search_path=prod&password=s3cret", "", "PostgreSQL, serveur db:5432, base primeur, utilisateur app, schéma prod"},
		{"postgresql:///primeur?host=/run/postgresql&user=primeur", "", "PostgreSQL, serveur /run/postgresql (port 5432), base primeur, utilisateur primeur"},
		{"postgres://[::1]:5432/p", "", "PostgreSQL, serveur [::1]:5432, base p"},
	} {
		got := describeDatabase(&config.Config{DatabaseURL: tt.url, DataDir: tt.dataDir})
		if got != tt.want || strings.Contains(got, "s3cret") {
			t.Errorf("%q: %q, want %q", tt.url, got, tt.want)
		}
	}
}

// TestHelpIsFrench: every command's help — cobra's headings, the
// descriptions, the flags' texts — is French: none holds the English of
// cobra's templates nor common English words.
func TestHelpIsFrench(t *testing.T) {
	english := []string{"Usage:", "Flags:", "Available Commands", "help for", "(default", " the ", " and ", " with ", " from ",
		" into ", " which ", " when ", " must ", " print ", " write ", " if ", "[flags]"}
	a := &app{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		args := append(strings.Fields(strings.TrimPrefix(c.CommandPath(), "primeur")), "--help")
		code, out, errOut := run(t, "", args...)
		if code != 0 || errOut != "" {
			t.Errorf("%s --help: %d %q", c.CommandPath(), code, errOut)
		}
		text := strings.ReplaceAll(out, "\n", " ")
		for _, w := range english {
			if strings.Contains(text, w) {
				t.Errorf("%s --help holds %q:\n%s", c.CommandPath(), w, out)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(a.rootCommand())
}
