package commands

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"primeur/core/schema"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/supply"
	"primeur/core/trade/tradetest"
	"primeur/daemon/daemontest"
)

// sharedDatabase runs fn on SQLite and, when configured, PostgreSQL, with a
// migrated database and the flags that make a command open the same one.
func sharedDatabase(t *testing.T, fn func(t *testing.T, db *store.DB, flags []string)) {
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		fn(t, openShared(t, "", filepath.Join(dir, "primeur.db")), []string{"--data-dir", dir})
	})
	t.Run("postgres", func(t *testing.T) {
		url := storetest.URL(t) // skips without PRIMEUR_TEST_DATABASE_URL
		fn(t, openShared(t, url, ""), []string{"--database-url", url, "--data-dir", t.TempDir()})
	})
}

func openShared(t *testing.T, url, path string) *store.DB {
	t.Helper()
	if url == "" {
		storetest.SQLiteFile(t, path)
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

// seedSupply gives a shop (registered through the API) needs over two
// months and deliveries of two producers, one cancelled.
func seedSupply(t *testing.T, s *daemontest.Server, db *store.DB) *daemontest.Client {
	t.Helper()
	shop, shopID := s.Register("epicerie@example.fr", "Épicerie du Lac", true)
	_, saules := s.Producer("saules@example.fr", "Ferme des Saules")
	_, alpage := s.Producer("alpage@example.fr", "Alpage")
	w := tradetest.On(t, db)
	w.Need(shopID, "tomate", "2026-11-01", 25000)
	w.Need(shopID, "tomate", "2026-12-01", 54000)
	w.Need(shopID, "poireau", "2026-11-01", 4650)
	w.Need(shopID, "melon", "2026-12-01", 270)
	w.Deliver(saules, shopID, "2026-11-12", supply.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 3200, Sent: tradetest.Dec(3000)})
	w.Deliver(alpage, shopID, "2026-11-16", supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 2550}, tradetest.L{Product: "poireau", Price: 250, Expected: 1333})
	w.Deliver(saules, shopID, "2026-11-17", supply.Cancelled, tradetest.L{Product: "tomate", Price: 250, Expected: 10000})
	w.Deliver(saules, shopID, "2026-11-19", supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 2000}, tradetest.L{Product: "melon", Price: 250, Expected: 600})
	w.Deliver(alpage, shopID, "2026-12-01", supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 5000})
	return shop
}

func TestSimulateSupplyMatchesTheAPI(t *testing.T) {
	sharedDatabase(t, func(t *testing.T, db *store.DB, flags []string) {
		s := daemontest.New(t, db) // today is Friday 2026-11-20 in Paris
		shop := seedSupply(t, s, db)
		for _, window := range []struct{ start, days string }{{"2026-11-16", "5"}, {"2026-11-27", "8"}, {"2026-11-02", "31"}} {
			var api, cli any
			shop.Do("GET", "/api/supply?start="+window.start+"&days="+window.days, nil).Expect(t, 200).JSON(t, &api)
			args := append([]string{"simulate", "supply", "--distributor", "EPICERIE@example.fr", "--start", window.start,
				"--days", window.days, "--today", "2026-11-20", "--json"}, flags...)
			code, out, errOut := run(t, "", args...)
			if code != 0 {
				t.Fatalf("simulate supply: %d %s", code, errOut)
			}
			if err := json.Unmarshal([]byte(out), &cli); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(api, cli) {
				t.Fatalf("window %v: the CLI and the API differ\nAPI %v\nCLI %v", window, api, cli)
			}
			if !strings.Contains(out, `"proposedOrder"`) || !strings.Contains(out, `"Tomate"`) {
				t.Fatalf("unexpected JSON %s", out)
			}
		}
	})
}

func TestSimulateSupplyReport(t *testing.T) {
	dir := t.TempDir()
	db := openShared(t, "", filepath.Join(dir, "primeur.db"))
	s := daemontest.New(t, db)
	seedSupply(t, s, db)
	base := []string{"simulate", "supply", "--data-dir", dir, "--today", "2026-11-20"}

	code, out, errOut := run(t, "", append(base, "--distributor", "epicerie@example.fr", "--start", "2026-11-16")...)
	if code != 0 {
		t.Fatal(errOut)
	}
	for _, want := range []string{
		"Évolution des stocks et conseils d'approvisionnement",
		"Épicerie du Lac — du lundi 16 novembre 2026 au vendredi 20 novembre 2026 (aujourd'hui : vendredi 20 novembre 2026)",
		"lun 16/11", "ven 20/11",
		// Tomate (need 10 a day): morning 0 + 25,5 delivered, then 16, 6
		// (partial), 0 + 20, 10; at risk (45,5 delivered from the 13th to
		// the 19th < 70). Poireau (1,86 a day): 13,33 ≥ 13,02, not at risk.
		"Tomate (kg) *", "0 +25,5", "6 !", "0 +20", "Poireau (kg)   1,86      0 +13,33",
		"Commande plateforme proposée pour le lendemain",
		"* Produits à risque (livraisons des 7 jours avant aujourd'hui inférieures à 7 fois les ventes moyennes) : ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "Aucune livraison") {
		t.Errorf("deliveries are planned in this window:\n%s", out)
	}
	lines := strings.Split(out, "\n")
	var orders string
	for i, l := range lines {
		if strings.HasPrefix(l, "Commande plateforme") {
			for _, m := range lines[i:] {
				if strings.HasPrefix(m, "Tomate (kg)") {
					orders = strings.Join(strings.Fields(m), " ")
				}
			}
		}
	}
	// Orders: Tue 10 + 10 − 16 = 4; Fri 10 + 10 (Saturday) − 10 = 10.
	if orders != "Tomate (kg) 0 4 0 0 10" {
		t.Errorf("tomato orders %q\n%s", orders, out)
	}

	// A window without deliveries says so.
	code, out, _ = run(t, "", append(base, "--distributor", "epicerie@example.fr", "--start", "2026-11-23", "--days", "3")...)
	if code != 0 || !strings.Contains(out, "Aucune livraison n'est prévue entre le 23/11/2026 et le 25/11/2026") {
		t.Fatalf("no deliveries: %d\n%s", code, out)
	}

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--distributor", "nobody@example.fr"}, "--distributor « nobody@example.fr » : aucun compte n'a cet email"},
		{[]string{"--distributor", "saules@example.fr"}, "ce compte est un producteur"},
		{[]string{"--distributor", "epicerie@example.fr", "--days", "0"}, supply.MsgBadDays},
		{[]string{"--distributor", "epicerie@example.fr", "--days", "32"}, supply.MsgBadDays},
		{[]string{"--distributor", "epicerie@example.fr", "--start", "30/11/2026"}, supply.MsgBadStart},
		{[]string{"--distributor", "epicerie@example.fr", "--today", "demain"}, "--today « demain » : une date AAAA-MM-JJ est attendue"},
		{nil, "option obligatoire manquante : --distributor"},
	} {
		code, _, errOut := run(t, "", append(base, tt.args...)...)
		if code == 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: %d %q", tt.args, code, errOut)
		}
	}
}
