package commands

import (
	"encoding/json"
	"strings"
	"testing"

	"primeur/core/accounts"
	"primeur/core/dayplan"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// TestDeliveriesDay prints a producer's day as text and as JSON, on both
// engines, and refuses an unknown producer, a shop and a malformed date
// with one French line, changing nothing.
func TestDeliveriesDay(t *testing.T) {
	engines(t, func(t *testing.T, db *store.DB, _ string) {
		w := tradetest.New(t, db)
		thones := w.User(accounts.User{Type: accounts.Distributor, Email: "biocoop@thones.fr", Name: "Biocoop Thônes",
			AddressLine1: "2 place Avet", AddressLine2: "74230 Thônes"})
		w.Deliver(w.Farm.ID, w.Shop.ID, "2026-11-24", orders.Planned,
			tradetest.L{Product: "tomate", Price: 250, Expected: 1000}, tradetest.L{Product: "laitue", Price: 90, Expected: 2000})
		w.Deliver(w.Farm.ID, thones.ID, "2026-11-24", orders.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 450})
		before := storetest.Snapshot(t, db)

		code, out, errOut := run(t, "", "deliveries", "day", "--producer", "ferme@aravis.fr", "--date", "2026-11-24")
		if code != 0 || !strings.HasPrefix(errOut, "base de données : ") {
			t.Fatalf("day: %d %q", code, errOut)
		}
		for _, want := range []string{
			"Journée de livraison du 24 novembre 2026 — Ferme des Aravis\n",
			"CUEILLETTE\n", "  Tomate", "14,50\u00a0kg", "      Biocoop Thônes", "4,50\u00a0kg", "20\u00a0pièces",
			"COLISAGE\n  1. Biocoop Thônes — BL-000002 — 2 place Avet, 74230 Thônes\n",
			"  2. Épicerie du Lac — BL-000001 — 3 quai de la Tournette, 74000 Annecy\n",
			"TOURNÉE : 2 arrêts, ", "(à vol d'oiseau × 1,3, retour à la ferme compris)\n",
			"  départ : 12 route des Aravis, 74220 La Clusaz\n",
			"     geo:", "?q=2+place+Avet%2C+74230+Th%C3%B4nes\n", "  retour à la ferme — ",
		} {
			if !strings.Contains(out, want) {
				t.Fatalf("day lacks %q:\n%s", want, out)
			}
		}

		code, out, errOut = run(t, "", "deliveries", "day", "--producer", "ferme@aravis.fr", "--date", "2026-11-24", "--json")
		var day dayplan.Day
		if code != 0 || json.Unmarshal([]byte(out), &day) != nil || len(day.Round.Stops) != 2 || len(day.Pick) != 2 ||
			day.Pick[1].Total != 1450 {
			t.Fatalf("json: %d %q %q", code, out, errOut)
		}

		code, out, _ = run(t, "", "deliveries", "day", "--producer", "ferme@aravis.fr", "--date", "2026-11-26")
		if code != 0 || !strings.HasSuffix(out, "Aucune livraison ce jour-là.\n") {
			t.Fatalf("an empty day: %d %q", code, out)
		}

		for _, tt := range []struct {
			args []string
			want []string
		}{
			{[]string{"--producer", "personne@nulle.part", "--date", "2026-11-24"}, []string{"--producer « personne@nulle.part »", "aucun producteur"}},
			{[]string{"--producer", "epicerie@lac.fr", "--date", "2026-11-24"}, []string{"--producer « epicerie@lac.fr »", "aucun producteur"}},
			{[]string{"--producer", "ferme@aravis.fr", "--date", "24/11/2026"}, []string{"--date « 24/11/2026 »", "AAAA-MM-JJ"}},
			{[]string{"--producer", "ferme@aravis.fr"}, []string{"--date :", "obligatoire", "AAAA-MM-JJ"}},
			{[]string{"--date", "2026-11-24"}, []string{"--producer", "obligatoire"}},
		} {
			code, out, errOut := run(t, "", append([]string{"deliveries", "day"}, tt.args...)...)
			lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
			last := lines[len(lines)-1] // after the database's line, when opened
			oneLine(t, code, out, last+"\n", tt.want...)
		}
		if after := storetest.Snapshot(t, db); after != before {
			t.Fatalf("the command changed the database:\n%s", storetest.Changes(before, after))
		}
	})
}
