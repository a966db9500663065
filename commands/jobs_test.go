package commands

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"primeur/core/accounts"
	"primeur/core/jobs"
	"primeur/core/orders"
	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// envMain makes the test binary behave as the primeur command (see
// TestMain), so tests can start real processes of it.
const envMain = "PRIMEUR_TEST_RUN_MAIN"

// Its own tests hash passwords at argon2id's least cost
// (accounts.CheapHashingForTests); the processes it starts as the primeur
// command keep the real one.
func TestMain(m *testing.M) {
	if os.Getenv(envMain) == "1" {
		os.Exit(Run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	flag.Parse()
	accounts.CheapHashingForTests()
	os.Exit(m.Run())
}

func TestJobsList(t *testing.T) {
	t.Setenv("PRIMEUR_DATA_DIR", t.TempDir())
	code, out, errOut := run(t, "", "jobs", "list")
	if code != 0 {
		t.Fatal(errOut)
	}
	for _, want := range []string{"deliveries", "toutes les 5 minutes", "claims", "toutes les heures", "invoices", "tous les jours à 21:00 (le dernier jour du mois : les factures du mois"} {
		if !strings.Contains(out, want) {
			t.Errorf("jobs list lacks %q:\n%s", want, out)
		}
	}
}

func TestJobsRunRefusals(t *testing.T) {
	t.Setenv("PRIMEUR_DATA_DIR", t.TempDir())
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"jobs", "run", "cleanup"}, "tâche inconnue « cleanup » ; vouliez-vous dire « claims » ?"},
		{[]string{"jobs", "run"}, "il manque un argument : primeur jobs run NOM"},
		{[]string{"jobs", "run", "invoices", "--at", "demain"}, "--at « demain » : une date et une heure sont attendues"},
		{[]string{"jobs", "run", "invoices", "--smtp.tls", "ssl"}, "smtp.tls"},
		{[]string{"jobs", "run", "claims", "--claims.autovalidate-after", "0s"}, "claims.autovalidate-after"},
	} {
		code, _, errOut := run(t, "", tt.args...)
		if code == 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: code %d, stderr %q", tt.args, code, errOut)
		}
	}
}

func TestJobSettingsFromEnvironmentAndFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PRIMEUR_DATA_DIR", dir)
	t.Setenv("PRIMEUR_DELIVERY_LOCK", "25:00")
	if code, _, errOut := run(t, "", "jobs", "run", "deliveries"); code == 0 || !strings.Contains(errOut, "delivery.lock") {
		t.Fatalf("environment ignored: %d %q", code, errOut)
	}
	file := filepath.Join(dir, "primeur.yaml")
	if err := os.WriteFile(file, []byte("smtp:\n  port: 70000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Unsetenv("PRIMEUR_DELIVERY_LOCK")
	if code, _, errOut := run(t, "", "jobs", "run", "deliveries", "--config", file); code == 0 || !strings.Contains(errOut, "smtp.port") {
		t.Fatalf("config file ignored: %d %q", code, errOut)
	}
}

func TestJobsRunAt(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PRIMEUR_DATA_DIR", dir)
	db := openMigrated(t, "", filepath.Join(dir, "primeur.db"))
	w := tradetest.New(t, db)
	o := w.Order(w.Farm, w.Shop, "2026-11-01")
	w.Delivery(o, "2026-11-30", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})

	code, out, errOut := run(t, "", "jobs", "run", "deliveries", "--at", "2026-11-30T12:30", "--force")
	if code != 0 || out != "deliveries (2026-11-30 12:30 CET) : livraisons verrouillées : 1, bons de livraison envoyés : 1, factures envoyées : 0\n" {
		t.Fatalf("%d %q %q", code, out, errOut)
	}
	// The settings come from the environment too: a lock at 07:00 changes
	// nothing here, the delivery being done already.
	t.Setenv("PRIMEUR_DELIVERY_LOCK", "07:00")
	code, out, _ = run(t, "", "jobs", "run", "invoices", "--at", "2026-11-30T21:00:00+01:00", "--force")
	if code != 0 || !strings.Contains(out, "factures émises : 1, factures envoyées : 1") {
		t.Fatalf("%d %q", code, out)
	}
	// The note and the invoice, a copy for each party's owner (issue 41).
	entries, _ := os.ReadDir(filepath.Join(dir, "outbox"))
	if len(entries) != 4 {
		t.Fatalf("outbox %v", entries)
	}
}

func openMigrated(t *testing.T, url, path string) *store.DB {
	t.Helper()
	if url == "" {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			storetest.SQLiteFile(t, path)
		}
	}
	db, err := store.Open(context.Background(), url, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := schema.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestTwoProcessesRunTheInvoicesAtOnce starts two real `primeur jobs run
// invoices` processes on one database: one invoice per order, continuous
// numbers, one email per invoice.
func TestTwoProcessesRunTheInvoicesAtOnce(t *testing.T) {
	bases := map[string]func(t *testing.T) (url, dataDir string){
		"sqlite": func(t *testing.T) (string, string) { return "", t.TempDir() },
	}
	if os.Getenv(storetest.EnvURL) != "" {
		bases["postgres"] = func(t *testing.T) (string, string) { return storetest.URL(t), t.TempDir() }
	}
	for name, base := range bases {
		t.Run(name, func(t *testing.T) {
			url, dir := base(t)
			db := openMigrated(t, url, filepath.Join(dir, "primeur.db"))
			w := tradetest.New(t, db)
			farms := []accounts.User{w.Farm}
			for i := range 2 {
				farms = append(farms, w.User(accounts.User{Type: accounts.Producer, Email: fmt.Sprintf("ferme%d@x.fr", i), Name: fmt.Sprintf("Ferme %d", i)}))
			}
			orderCount := 0
			for _, f := range farms {
				for i := range 8 {
					shop := w.User(accounts.User{Type: accounts.Distributor, Email: fmt.Sprintf("m%d-%s", i, f.Email), Name: fmt.Sprintf("Magasin %d", i)})
					o := w.Order(f, shop, "2026-11-01")
					w.Emailed(o, "2026-11-10", tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
					orderCount++
				}
			}

			var wg sync.WaitGroup
			outs := make([]bytes.Buffer, 2)
			for i := range 2 {
				cmd := exec.Command(os.Args[0], "jobs", "run", "invoices", "--at", "2026-11-30T21:00:00+01:00", "--force",
					"--data-dir", dir, "--database-url", url, "--log-level", "warn")
				cmd.Env = append(os.Environ(), envMain+"=1")
				cmd.Stdout, cmd.Stderr = &outs[i], &outs[i]
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := cmd.Wait(); err != nil {
						t.Errorf("process %d: %v: %s", i, err, outs[i].String())
					}
				}()
			}
			wg.Wait()
			t.Logf("process outputs: %q, %q", outs[0].String(), outs[1].String())

			var rows []struct {
				Producer string `db:"producer_id"`
				Seq      int64  `db:"seq"`
				Number   string `db:"number"`
			}
			if err := store.Select(context.Background(), db, &rows, `SELECT producer_id, seq, number FROM documents WHERE kind = 'invoice' ORDER BY producer_id, seq`); err != nil {
				t.Fatal(err)
			}
			if len(rows) != orderCount {
				t.Fatalf("%d invoices for %d orders", len(rows), orderCount)
			}
			seqs := map[string][]int64{}
			for _, r := range rows {
				seqs[r.Producer] = append(seqs[r.Producer], r.Seq)
			}
			for _, f := range farms {
				if !slices.Equal(seqs[f.ID], []int64{1, 2, 3, 4, 5, 6, 7, 8}) {
					t.Fatalf("%s: numbers %v", f.Name, seqs[f.ID])
				}
			}
			// A copy of each invoice for the shop and one for its producer.
			entries, _ := os.ReadDir(filepath.Join(dir, "outbox"))
			if len(entries) != 2*orderCount {
				t.Fatalf("%d files in the outbox for %d invoices", len(entries), orderCount)
			}
			var unsent int
			if err := store.Get(context.Background(), db, &unsent, `SELECT COUNT(*) FROM documents d WHERE d.kind = 'invoice'
				AND NOT EXISTS (SELECT 1 FROM sends s WHERE s.message_key = 'invoice-' || d.id AND s.sent_at IS NOT NULL)`); err != nil || unsent != 0 {
				t.Fatalf("%d invoices unsent, %v", unsent, err)
			}
		})
	}
}

// TestJobsRunWithHostileNames runs the real command, as a process, on a
// producer named with an emoji and a shop whose name holds control
// characters: it exits 0, having locked the delivery and written the note's
// email to the outbox (before issue 13, fpdf's panic ended it).
func TestJobsRunWithHostileNames(t *testing.T) {
	bases := map[string]func(t *testing.T) (url, dataDir string){
		"sqlite": func(t *testing.T) (string, string) { return "", t.TempDir() },
	}
	if os.Getenv(storetest.EnvURL) != "" {
		bases["postgres"] = func(t *testing.T) (string, string) { return storetest.URL(t), t.TempDir() }
	}
	for name, base := range bases {
		t.Run(name, func(t *testing.T) {
			url, dir := base(t)
			db := openMigrated(t, url, filepath.Join(dir, "primeur.db"))
			w := tradetest.New(t, db)
			w.Exec(`UPDATE users SET name = ? WHERE id = ?`, "Ferme du Lac 🥕 𝔘", w.Farm.ID)
			w.Exec(`UPDATE users SET name = ? WHERE id = ?`, "Épicerie\x1b[2J du Lac\r\n湖", w.Shop.ID)
			o := w.Order(w.Farm, w.Shop, "2026-11-01")
			d := w.Delivery(o, "2026-11-30", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})

			for _, args := range [][]string{
				{"jobs", "run", "deliveries", "--at", "2026-11-30T12:30", "--force"},
				{"jobs", "run", "invoices", "--at", "2026-12-01T06:00", "--force"},
			} {
				cmd := exec.Command(os.Args[0], append(args, "--data-dir", dir, "--database-url", url, "--log-level", "warn")...)
				cmd.Env = append(os.Environ(), envMain+"=1")
				out, err := cmd.CombinedOutput()
				if err != nil || cmd.ProcessState.ExitCode() != 0 {
					t.Fatalf("%v: %v\n%s", args, err, out)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "outbox", "note-"+d+".eml")); err != nil {
				t.Fatalf("outbox: %v", err)
			}
			var unsent int
			if err := store.Get(context.Background(), db, &unsent, `SELECT COUNT(*) FROM documents d WHERE d.kind = 'invoice'
				AND NOT EXISTS (SELECT 1 FROM sends s WHERE s.message_key = 'invoice-' || d.id AND s.sent_at IS NOT NULL)`); err != nil || unsent != 0 {
				t.Fatalf("%d invoices unsent, %v", unsent, err)
			}
		})
	}
}

// TestJobsRunRetryFailed: a note abandoned after its failed attempts is
// passed by (and reported) until an administrator runs the job with
// --retry-failed, which sends it.
func TestJobsRunRetryFailed(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PRIMEUR_DATA_DIR", dir)
	db := openMigrated(t, "", filepath.Join(dir, "primeur.db"))
	w := tradetest.New(t, db)
	o := w.Order(w.Farm, w.Shop, "2026-11-01")
	d := w.Delivery(o, "2026-11-20", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
	w.Exec(`INSERT INTO sends (message_key, kind, subject_id, attempts) VALUES (?, 'note', ?, ?)`, "note-"+d, d, jobs.MaxAttempts)

	code, out, errOut := run(t, "", "jobs", "run", "deliveries", "--at", "2026-11-30T12:30", "--force")
	if code != 0 || out != "deliveries (2026-11-30 12:30 CET) : livraisons verrouillées : 0, bons de livraison envoyés : 0, factures envoyées : 0, "+
		"envois abandonnés (à relancer par primeur jobs run deliveries --retry-failed) : 1\n" {
		t.Fatalf("%d %q %q", code, out, errOut)
	}
	code, out, errOut = run(t, "", "jobs", "run", "deliveries", "--at", "2026-11-30T12:35", "--retry-failed", "--force")
	if code != 0 || out != "envois abandonnés remis en file : 1 bon(s) de livraison, 0 facture(s)\n"+
		"deliveries (2026-11-30 12:35 CET) : livraisons verrouillées : 0, bons de livraison envoyés : 1, factures envoyées : 0\n" {
		t.Fatalf("%d %q %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "outbox", "note-"+d+".eml")); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = run(t, "", "jobs", "run", "claims", "--retry-failed")
	if code == 0 || !strings.Contains(errOut, "--retry-failed") {
		t.Fatalf("claims --retry-failed: %d %q", code, errOut)
	}
}
