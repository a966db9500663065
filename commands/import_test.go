package commands

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/planning"
	"primeur/core/planning/planningtest"
	"primeur/core/sheets/sheetstest"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// cliWorld is a database with a shop and a producer, reached by the
// commands through PRIMEUR_DATA_DIR (SQLite) or PRIMEUR_DATABASE_URL.
type cliWorld struct {
	db   *store.DB
	shop accounts.User
	farm accounts.User
}

func newCLIWorld(t *testing.T, postgres bool) cliWorld {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("PRIMEUR_DATA_DIR", dir)
	var db *store.DB
	var err error
	if postgres {
		url := storetest.URL(t)
		t.Setenv("PRIMEUR_DATABASE_URL", url)
		db, err = store.Open(context.Background(), url, "")
	} else {
		t.Setenv("PRIMEUR_DATABASE_URL", "")
		storetest.SQLiteFile(t, filepath.Join(dir, "primeur.db"))
		db, err = store.Open(context.Background(), "", filepath.Join(dir, "primeur.db"))
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if code, _, errOut := run(t, "", "migrate"); code != 0 {
		t.Fatal(errOut)
	}
	w := cliWorld{db: db}
	ctx := context.Background()
	for _, u := range []struct {
		dst   *accounts.User
		email string
		shop  bool
	}{{&w.shop, "epicerie@example.fr", true}, {&w.farm, "ferme@example.fr", false}} {
		if *u.dst, err = accounts.Register(ctx, db, accounts.Registration{Email: u.email, Password: "motdepasse1", Name: u.email, Distributor: u.shop}, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// needs is the shop's needs, "product month quantity" sorted.
func (w cliWorld) needs(t *testing.T) string {
	t.Helper()
	var rows []string
	if err := w.db.Select(&rows, w.db.Rebind(`SELECT product_id || ' ' || month || ' ' || CAST(quantity AS TEXT) FROM needs
		WHERE distributor_id = ? ORDER BY product_id, month`), w.shop.ID); err != nil {
		t.Fatal(err)
	}
	return strings.Join(rows, "\n")
}

func (w cliWorld) events(t *testing.T) int {
	t.Helper()
	var n int
	if err := w.db.Get(&n, `SELECT COUNT(*) FROM events`); err != nil {
		t.Fatal(err)
	}
	return n
}

// nextMonth is the month after the current one in Paris, "2026-12": the
// files of these tests are made relative to the real clock, which the
// commands use.
func nextMonth() string {
	paris, _ := time.LoadLocation("Europe/Paris")
	return calendar.MonthOf(time.Now().In(paris)).AddMonths(1).String()[:7]
}

func writeWorkbook(t *testing.T, rows [][]any) string {
	t.Helper()
	data, err := planningtest.Workbook(rows)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "besoins.xlsx")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func fixturePath(name string) string { return filepath.Join("..", "testdata", "xlsx", name) }

func TestImportNeedsCommand(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			if engine == "postgres" && os.Getenv(storetest.EnvURL) == "" {
				t.Skip(storetest.EnvURL + " is not set")
			}
			w := newCLIWorld(t, engine == "postgres")
			months, _ := planningtest.Months(nextMonth(), 3)
			clean := writeWorkbook(t, [][]any{planningtest.Header(months), {"Tomate", 10, 20, 30.5}, {"melon", 4, nil, 6}})
			partial := writeWorkbook(t, [][]any{planningtest.Header(months), {"Tomate", 5, 5, 5}, {"Durian", 1}})

			refused := []struct {
				name string
				args []string
				want string
			}{
				{"bad file", []string{"import", "needs", fixturePath("text-quantity.xlsx"), "--distributor", w.shop.Email}, "Quantité illisible en B4 (« douze »)"},
				{"zip bomb", []string{"import", "needs", fixturePath("zip-bomb.xlsx"), "--distributor", w.shop.Email}, planning.MsgImportInflated},
				{"wrong extension", []string{"import", "needs", fixturePath("wrong-extension.txt"), "--distributor", w.shop.Email}, planning.MsgImportExtension},
				{"missing file", []string{"import", "needs", "/nonexistent/b.xlsx", "--distributor", w.shop.Email}, "/nonexistent/b.xlsx : fichier ou dossier introuvable"},
				{"unknown shop", []string{"import", "needs", clean, "--distributor", "nobody@example.fr"}, "--distributor « nobody@example.fr » : aucun compte n'a cet email"},
				{"producer", []string{"import", "needs", clean, "--distributor", w.farm.Email}, "ce compte est un producteur"},
				{"no distributor", []string{"import", "needs", clean}, "distributor"},
			}
			for _, tt := range refused {
				code, _, errOut := run(t, "", tt.args...)
				if code != 1 || !strings.Contains(errOut, tt.want) {
					t.Errorf("%s: exit %d, stderr %q", tt.name, code, errOut)
				}
			}
			if w.needs(t) != "" || w.events(t) != 0 {
				t.Fatal("a refused import wrote")
			}

			// --dry-run reports what would happen and writes nothing.
			code, out, errOut := run(t, "", "import", "needs", clean, "--distributor", w.shop.Email, "--dry-run")
			if code != 0 || !strings.Contains(out, "besoins appliqués :     5 (5 créé(s) ou modifié(s))") || !strings.Contains(out, "à blanc : rien n'a été écrit") ||
				!strings.Contains(errOut, "mois 3/3 écrit") || strings.Count(out, " : nouveau → ") != 5 {
				t.Fatalf("dry run: exit %d\n%s\n%s", code, out, errOut)
			}
			if w.needs(t) != "" || w.events(t) != 0 {
				t.Fatal("a dry run wrote")
			}

			// --json prints what POST /api/needs-loader answers, and only
			// that on standard output.
			code, out, errOut = run(t, "", "import", "needs", clean, "--distributor", w.shop.Email, "--dry-run", "--json")
			if code != 0 || !strings.Contains(errOut, "mois 3/3 écrit") {
				t.Fatalf("dry run --json: exit %d\n%s\n%s", code, out, errOut)
			}
			var res planning.ImportResult
			decodeStrict(t, out, &res)
			conformsTo(t, "PlanningImportResult", out)
			if res.DBSuccesses != 5 || len(res.Needs) != 5 || strings.Join(res.ProductsFound, ",") != "Tomate,Melon" ||
				len(res.ProductsMissing) != 0 || len(res.DBErrors) != 0 || res.Event.Type != "need:import" {
				t.Fatalf("dry run --json: %+v", res)
			}
			if w.needs(t) != "" || w.events(t) != 0 {
				t.Fatal("a dry run wrote")
			}

			code, out, errOut = run(t, "", "import", "needs", clean, "--distributor", w.shop.Email)
			if code != 0 || !strings.Contains(out, "produits trouvés :      2") || strings.Contains(out, "absents") {
				t.Fatalf("import: exit %d\n%s\n%s", code, out, errOut)
			}
			m := nextMonth() + "-01"
			m3 := calendar.AddMonthsTo(m, 2)
			if got := w.needs(t); !strings.Contains(got, "tomate "+m3+" 3050") || !strings.Contains(got, "melon "+m+" 400") || w.events(t) != 1 {
				t.Fatalf("needs after import:\n%s", got)
			}

			// Missing products and needs under commitments: applied except
			// what is listed, exit status 2.
			var tomato string
			if err := w.db.Get(&tomato, w.db.Rebind(`SELECT id FROM needs WHERE distributor_id = ? AND product_id = 'tomate' AND month = ?`), w.shop.ID, m); err != nil {
				t.Fatal(err)
			}
			if _, err := store.Exec(context.Background(), w.db, `INSERT INTO proposals (id, need_id, producer_id, status, origin, quantity, price, created_at, updated_at)
				VALUES (?, ?, ?, 'accepted', 'producer', 800, 150, 0, 0)`, core.NewID(), tomato, w.farm.ID); err != nil {
				t.Fatal(err)
			}
			code, out, _ = run(t, "", "import", "needs", partial, "--distributor", w.shop.Email, "--dry-run", "--json")
			var partRes planning.ImportResult
			decodeStrict(t, out, &partRes)
			conformsTo(t, "PlanningImportResult", out)
			if code != exitPartial || strings.Join(partRes.ProductsMissing, ",") != "Durian" || len(partRes.DBErrors) != 1 ||
				partRes.DBErrors[0].Cell != "B2" || partRes.DBErrors[0].Message != planning.MsgBelowReserved {
				t.Fatalf("partial import --json: exit %d\n%s", code, out)
			}
			code, out, _ = run(t, "", "import", "needs", partial, "--distributor", w.shop.Email)
			if code != exitPartial || !strings.Contains(out, "produits absents :      1 (Durian)") ||
				!strings.Contains(out, "B2 Tomate "+m[:7]+" : 5 demandé, 8 réservé — "+planning.MsgBelowReserved) {
				t.Fatalf("partial import: exit %d\n%s", code, out)
			}
			if got := w.needs(t); !strings.Contains(got, "tomate "+m+" 1000") || !strings.Contains(got, "tomate "+m3+" 500") {
				t.Fatalf("needs after partial import:\n%s", got)
			}
		})
	}
}

func TestSimulateImportCommand(t *testing.T) {
	w := newCLIWorld(t, false)
	from := nextMonth()
	to := calendar.AddMonthsTo(from+"-01", 11)[:7]
	args := []string{"simulate", "import", "--distributor", w.shop.Email, "--turnover", "120000", "--from", from, "--to", to}

	code, out, errOut := run(t, "", args...)
	if code != 0 || !strings.Contains(out, "PRODUIT") || !strings.Contains(out, "Carotte") || !strings.Contains(out, "617.72") ||
		!strings.Contains(out, "rien n'a été écrit") {
		t.Fatalf("simulate: exit %d\n%s\n%s", code, out, errOut)
	}
	if w.needs(t) != "" {
		t.Fatal("a simulation wrote")
	}

	code, out, _ = run(t, "", append(args, "--json")...)
	var sim struct {
		Months   []string
		Products []struct {
			ID         string `json:"_id"`
			Quantities []float64
		}
		Commit *struct{}
	}
	if err := json.Unmarshal([]byte(out), &sim); code != 0 || err != nil || len(sim.Months) != 12 || len(sim.Products) < 40 ||
		len(sim.Products[0].Quantities) != 12 || sim.Commit != nil {
		t.Fatalf("json: exit %d, %v\n%s", code, err, out)
	}

	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"--turnover", "0"}, planning.MsgTurnover},
		{[]string{"--turnover", "-4"}, planning.MsgTurnover},
		{[]string{"--from", "2020-01", "--to", "2020-02"}, planning.MsgPastMonth},
		{[]string{"--to", "2020-01"}, "La date de fin doit être postérieure à la date de début"},
		{[]string{"--to", calendar.AddMonthsTo(from+"-01", 36)[:7]}, planning.MsgStandardMonths},
		{[]string{"--from", "décembre"}, planning.MsgBadMonth},
		{[]string{"--distributor", w.farm.Email}, "ce compte est un producteur"},
	} {
		full := append(append([]string{}, args...), bad.args...)
		if code, _, errOut := run(t, "", full...); code != 1 || !strings.Contains(errOut, bad.want) {
			t.Errorf("%v: exit %d, %q", bad.args, code, errOut)
		}
	}

	code, out, errOut = run(t, "", append(args, "--commit", "--json")...)
	var committed struct {
		Commit struct {
			Needs       int
			DBSuccesses int
		}
	}
	if err := json.Unmarshal([]byte(out), &committed); code != 0 || err != nil || committed.Commit.Needs < 12*40 ||
		!strings.Contains(errOut, "mois 12/12 écrit") {
		t.Fatalf("commit: exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	if n := strings.Count(w.needs(t), "\n") + 1; n != committed.Commit.Needs || w.events(t) != 1 {
		t.Fatalf("%d needs stored, %d reported", n, committed.Commit.Needs)
	}
}

// TestImportChildProcess is not a test: it is the import process that
// TestImportKilledMidway starts and kills (the test binary re-executed).
func TestImportChildProcess(t *testing.T) {
	var args []string
	if err := json.Unmarshal([]byte(os.Getenv("PRIMEUR_TEST_CHILD_ARGS")), &args); err != nil {
		t.Skip("helper process for TestImportKilledMidway")
	}
	os.Exit(Run(context.Background(), args, os.Stdin, os.Stdout, os.Stderr))
}

// TestImportKilledMidway starts a real import process on a large file,
// kills it (SIGKILL) once it has written its first month, inside its
// transaction, and checks that the database is as it was and that the
// import then succeeds.
func TestImportKilledMidway(t *testing.T) {
	if testing.Short() {
		t.Skip("large import")
	}
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			if engine == "postgres" && os.Getenv(storetest.EnvURL) == "" {
				t.Skip(storetest.EnvURL + " is not set")
			}
			w := newCLIWorld(t, engine == "postgres")
			// Seconds of writing remain after the first month, far longer than
			// the kill takes to arrive (the race detector slows the writes as
			// much as the smaller file speeds them up).
			products, months := 10_000, 12
			if raceDetector {
				products = 2_000
			}
			if err := planningtest.AddSynthetic(context.Background(), w.db, products); err != nil {
				t.Fatal(err)
			}
			file := writeWorkbook(t, planningtest.Large(products, nextMonth(), months))
			// Needs already there, which the killed import changes in its
			// first month and must leave as they were.
			two, _ := planningtest.Months(nextMonth(), 2)
			code, _, errOut := run(t, "", "import", "needs", writeWorkbook(t, [][]any{planningtest.Header(two),
				{planningtest.Synthetic(1), 999, 999}, {planningtest.Synthetic(2), 999}}), "--distributor", w.shop.Email)
			if code != 0 {
				t.Fatal(errOut)
			}
			before, events := w.needs(t), w.events(t)

			args := []string{"import", "needs", file, "--distributor", w.shop.Email}
			cmd := exec.Command(os.Args[0], "-test.run=^TestImportChildProcess$")
			encoded, _ := json.Marshal(args)
			cmd.Env = append(os.Environ(), "PRIMEUR_TEST_CHILD_ARGS="+string(encoded))
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(stderr)
			first := ""
			for lines.Scan() {
				if strings.HasPrefix(lines.Text(), "mois 1/") {
					first = lines.Text()
					break
				}
			}
			if first == "" {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				t.Fatal("the import printed no progress")
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			go func() {
				for lines.Scan() { // drain, so the child never blocks on a full pipe
				}
			}()
			err = cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || !exit.Sys().(syscall.WaitStatus).Signaled() {
				t.Fatalf("the import was not killed midway (%v): it finished first", err)
			}
			if w.needs(t) != before || w.events(t) != events {
				t.Fatal("a killed import left part of its writes")
			}

			code, out, errOut := run(t, "", args...)
			if code != 0 || !strings.Contains(out, fmt.Sprintf("besoins appliqués :     %d", products*months)) {
				t.Fatalf("re-run: exit %d\n%s\n%s", code, out, errOut)
			}
			if n := strings.Count(w.needs(t), "\n") + 1; n != products*months {
				t.Fatalf("%d needs after the re-run", n)
			}
		})
	}
}

// TestImportNeedsSheet: the command names the sheet it read, reads the one
// --sheet names, and, when several sheets could be meant, writes nothing
// and says how to choose; a .csv names no sheet. Both engines.
func TestImportNeedsSheet(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			if engine == "postgres" && os.Getenv(storetest.EnvURL) == "" {
				t.Skip(storetest.EnvURL + " is not set")
			}
			w := newCLIWorld(t, engine == "postgres")
			m := nextMonth()
			// An instructions sheet, active, then two tables: "Été" asks for
			// 10 kg of tomatoes next month, "Hiver" for 20.
			table := func(q int) map[string]any {
				return map[string]any{"A1": "Produit", "B1": m[5:] + "/" + m[:4], "A2": "Tomate", "B2": q}
			}
			data, err := sheetstest.XLSX(sheetstest.Workbook{Sheets: []sheetstest.Sheet{
				{Name: "Mode d'emploi", Cells: map[string]any{"A1": "Une ligne par produit."}},
				{Name: "Été", Cells: table(10)},
				{Name: "Hiver", Cells: table(20)},
			}})
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "besoins.xlsx")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}

			code, out, errOut := run(t, "", "import", "needs", path, "--distributor", w.shop.Email)
			want := "Plusieurs feuilles contiennent un tableau de besoins (« Été », « Hiver ») et aucune n'est la feuille active : " +
				"choisissez celle à importer. Indiquez-la avec --sheet, par exemple --sheet « Hiver »."
			if code != 1 || out != "" || !strings.Contains(errOut, want) {
				t.Fatalf("ambiguous: exit %d\n%s\n%s", code, out, errOut)
			}
			code, out, errOut = run(t, "", "import", "needs", path, "--distributor", w.shop.Email, "--sheet", "Printemps")
			if want := "--sheet « Printemps » : Le classeur n'a pas de feuille « Printemps » : ses feuilles sont « Mode d'emploi », « Été », « Hiver »."; code != 1 || !strings.Contains(errOut, want) {
				t.Fatalf("no such sheet: exit %d\n%s\n%s", code, out, errOut)
			}
			if w.needs(t) != "" || w.events(t) != 0 {
				t.Fatal("a refused import wrote")
			}

			code, out, errOut = run(t, "", "import", "needs", path, "--distributor", w.shop.Email, "--sheet", "Hiver")
			if code != 0 || !strings.Contains(out, "  feuille lue :           Hiver (feuilles avec un tableau : Été, Hiver ; --sheet pour en lire une autre)\n") {
				t.Fatalf("--sheet Hiver: exit %d\n%s\n%s", code, out, errOut)
			}
			if got, want := w.needs(t), "tomate "+m+"-01 2000"; got != want {
				t.Fatalf("needs %q, want %q", got, want)
			}

			// A .csv is one table: no sheet named.
			csv := filepath.Join(t.TempDir(), "besoins.csv")
			if err := os.WriteFile(csv, []byte("Produit;"+m[5:]+"/"+m[:4]+"\r\nTomate;30\r\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			code, out, errOut = run(t, "", "import", "needs", csv, "--distributor", w.shop.Email)
			if code != 0 || strings.Contains(out, "feuille") {
				t.Fatalf("csv: exit %d\n%s\n%s", code, out, errOut)
			}
			if got, want := w.needs(t), "tomate "+m+"-01 3000"; got != want {
				t.Fatalf("needs %q, want %q", got, want)
			}
		})
	}
}
