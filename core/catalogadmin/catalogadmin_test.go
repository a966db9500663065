package catalogadmin_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/catalog"
	"primeur/core/catalogadmin"
	"primeur/core/decimal"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
	"primeur/core/trade/tradetest"
)

var ctx = context.Background()

// refusal is the French message of a refusal, "" for none.
func refusal(err error) string {
	var r *core.Refusal
	if errors.As(err, &r) {
		return r.Message
	}
	if err != nil {
		return "not a refusal: " + err.Error()
	}
	return ""
}

// TestCatalogueOperations, on both engines: an administrator adds a type
// (its id from its name, its family, unit, VAT rate and season), refused
// in French for a name taken whatever its accents and case, an unknown
// family or unit, a bad rate; renames one; merges one into another — the
// needs, their commitment's delivery lines and the price comparison's
// figures move to the kept type, the merged one is retired —, refused for
// a shop that planned both in one month, for different units, into a
// retired type; retires one — its needs stay, still editable, and it takes
// no new need. A refused operation changes nothing.
func TestCatalogueOperations(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		now := tradetest.At(2026, 11, 20, 10, 0)
		tx := func(fn func(q store.Q) error) error {
			return db.Tx(ctx, func(tx *sqlx.Tx) error { return fn(tx) })
		}

		// Add.
		var added catalog.Product
		if err := tx(func(q store.Q) error {
			var err error
			added, err = catalogadmin.Add(ctx, q, catalogadmin.AddInput{Name: "  Tomme   des Bauges ", Family: "fromages",
				Unit: "kg", VAT: "5,5", Season: ""})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if added.ID != "tomme-des-bauges" || added.Name != "Tomme des Bauges" || added.Family != "fromages" ||
			added.Unit != catalog.Kg || added.VATRate != 550 || added.Retired {
			t.Fatalf("added %+v", added)
		}
		before := storetest.Snapshot(t, db)
		for _, c := range []struct {
			in   catalogadmin.AddInput
			want string
		}{
			{catalogadmin.AddInput{Name: "TOMME DES BAUGES", Family: "fromages"}, "un produit s'appelle déjà « Tomme des Bauges » (tomme-des-bauges)"},
			{catalogadmin.AddInput{Name: "Comte", Family: "fromages"}, "un produit s'appelle déjà « Comté » (comte)"},
			{catalogadmin.AddInput{Name: "Bleu", Family: "bleus"}, "famille inconnue « bleus »"},
			{catalogadmin.AddInput{Name: "Bleu", Family: "fromages", Unit: "g"}, "unité inconnue « g »"},
			{catalogadmin.AddInput{Name: "Bleu", Family: "fromages", VAT: "cinq"}, "taux de TVA « cinq » invalide"},
			{catalogadmin.AddInput{Name: " ", Family: "fromages"}, catalogadmin.MsgNoName},
			{catalogadmin.AddInput{ID: "Bleu!", Name: "Bleu", Family: "fromages"}, "identifiant « Bleu! » invalide"},
		} {
			err := tx(func(q store.Q) error { _, err := catalogadmin.Add(ctx, q, c.in); return err })
			if !strings.HasPrefix(refusal(err), c.want) {
				t.Errorf("add %+v: %q, want %q", c.in, refusal(err), c.want)
			}
		}
		if storetest.Snapshot(t, db) != before {
			t.Fatal("a refused add changed the database")
		}

		// Rename.
		if err := tx(func(q store.Q) error {
			p, err := catalogadmin.Rename(ctx, q, "tomme-des-bauges", "Tome des Bauges")
			if err == nil && (p.Name != "Tome des Bauges" || p.NameKey != "tome des bauges") {
				t.Errorf("renamed %+v", p)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}

		// Merge: a shop's need of "Tomme fermière" with a commitment, and
		// another shop's of "Tomme de Savoie" the same month.
		w := tradetest.New(t, db)
		other := w.User(accounts.User{Type: accounts.Distributor, Email: "autre@magasin.fr", Name: "Autre magasin",
			SIRET: "73282932000074", AddressLine1: "1 rue du Pont", AddressLine2: "74000 Annecy"})
		fermiere := w.Need(w.Shop.ID, "tomme-fermiere", "2026-12-01", decimal.FromInt(20))
		savoie := w.Need(other.ID, "tomme-de-savoie", "2026-12-01", decimal.FromInt(5))
		w.OrderOf(w.Farm.ID, w.Shop.ID, "2026-12-01")
		if err := tx(func(q store.Q) error {
			if _, err := trade.Propose(ctx, q, w.Farm, fermiere, w.Farm.ID, trade.Offer{Quantity: 12, Price: 14.5}, now); err != nil {
				return err
			}
			_, err := trade.Review(ctx, q, w.Shop, fermiere, w.Farm.ID, true, now)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		cells := func(product string) (n int, quantity int64) {
			var rows []int64
			if err := store.Select(ctx, db, &rows, `SELECT quantity FROM price_cells WHERE product_id = ? AND month = '2026-12-01'`, product); err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				quantity += r
			}
			return len(rows), quantity
		}
		if n, q := cells("tomme-fermiere"); n == 0 || q == 0 {
			t.Fatalf("the commitment counts nowhere: %d cells, %d", n, q)
		}
		before = storetest.Snapshot(t, db)
		for _, c := range []struct{ from, into, want string }{
			{"tomme-fermiere", "tomme-fermiere", catalogadmin.MsgSame},
			{"tomme-fermiere", "lait-cru-entier", "le catalogue compte « Tomme fermière » en kilogrammes (kg) et « Lait cru entier » en litres (L)"},
			{"tomme-fermiere", "inconnu", "produit inconnu « inconnu »"},
		} {
			err := tx(func(q store.Q) error { _, err := catalogadmin.Merge(ctx, q, c.from, c.into, now); return err })
			if !strings.HasPrefix(refusal(err), c.want) {
				t.Errorf("merge %s into %s: %q, want %q", c.from, c.into, refusal(err), c.want)
			}
		}
		if storetest.Snapshot(t, db) != before {
			t.Fatal("a refused merge changed the database")
		}
		// The other shop plans both in December: refused.
		w.Need(other.ID, "tomme-fermiere", "2026-12-01", decimal.FromInt(3))
		err := tx(func(q store.Q) error {
			_, err := catalogadmin.Merge(ctx, q, "tomme-fermiere", "tomme-de-savoie", now)
			return err
		})
		if want := "1 magasin(s) ont des besoins de « Tomme fermière » et de « Tomme de Savoie » le même mois (2026-12)"; !strings.HasPrefix(refusal(err), want) {
			t.Fatalf("merge of a shop's two needs: %q", refusal(err))
		}
		w.Exec(`DELETE FROM needs WHERE distributor_id = ? AND product_id = 'tomme-fermiere'`, other.ID)
		var merged catalogadmin.Merged
		if err := tx(func(q store.Q) error {
			var err error
			merged, err = catalogadmin.Merge(ctx, q, "tomme-fermiere", "tomme-de-savoie", now)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if merged.Needs != 1 || !merged.From.Retired {
			t.Fatalf("merged %+v", merged)
		}
		n, ps, err := planning.Get(ctx, db, fermiere)
		if err != nil || n.ProductID != "tomme-de-savoie" || len(ps) != 1 || ps[0].Status != planning.StatusAccepted || ps[0].Quantity != 1200 {
			t.Fatalf("the moved need %+v %+v, %v", n, ps, err)
		}
		var lines int
		if err := store.Get(ctx, db, &lines, `SELECT COUNT(*) FROM delivery_lines WHERE need_id = ? AND product_id = 'tomme-de-savoie'`, fermiere); err != nil || lines == 0 || int64(lines) != merged.DeliveryLines {
			t.Errorf("the commitment's delivery lines: %d moved, %d there, %v", merged.DeliveryLines, lines, err)
		}
		if n, _ := cells("tomme-fermiere"); n != 0 {
			t.Errorf("%d price cells left on the merged type", n)
		}
		if n, q := cells("tomme-de-savoie"); n != 2 || q != 2*1200 { // the platform's cell and the département's
			t.Errorf("the kept type's cells: %d, %d", n, q)
		}
		// The moved figures are those a rebuild from the commitments gives.
		prices := func() string {
			var rows []string
			if err := store.Select(ctx, db, &rows, `SELECT product_id || '|' || month || '|' || area || '|' || amount || '|' ||
				quantity || '|' || purchases || '|' || buyers || '|' || sellers FROM price_cells ORDER BY 1`); err != nil {
				t.Fatal(err)
			}
			return strings.Join(rows, "\n")
		}
		moved := prices()
		if err := tx(func(q store.Q) error { return trade.RebuildPrices(ctx, q) }); err != nil {
			t.Fatal(err)
		}
		if rebuilt := prices(); rebuilt != moved {
			t.Errorf("moved price cells\n%s\nrebuilt\n%s", moved, rebuilt)
		}
		if _, _, err := planning.Get(ctx, db, savoie); err != nil {
			t.Fatal(err)
		}
		err = tx(func(q store.Q) error {
			_, err := catalogadmin.Merge(ctx, q, "tomme-de-savoie", "tomme-fermiere", now)
			return err
		})
		if !strings.HasPrefix(refusal(err), "le produit « Tomme fermière » est retiré du catalogue") {
			t.Errorf("merge into a retired type: %q", refusal(err))
		}

		// Retire: the kept need stays and changes, no new one.
		if err := tx(func(q store.Q) error {
			_, err := catalogadmin.Retire(ctx, q, "tomme-de-savoie", now)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := planning.Update(ctx, db, other.ID, savoie, 8, now); err != nil {
			t.Errorf("the retired type's need: %v", err)
		}
		if _, err := planning.Create(ctx, db, other.ID, planning.NeedInput{ProductID: "tomme-de-savoie", Date: "2027-01", Quantity: 3}, now); refusal(err) != planning.MsgRetired {
			t.Errorf("a new need of a retired type: %v", err)
		}
		if err := tx(func(q store.Q) error { _, err := catalogadmin.Retire(ctx, q, "tomme-de-savoie", now); return err }); !strings.HasPrefix(refusal(err), "le produit « Tomme de Savoie » est déjà retiré") {
			t.Errorf("retired twice: %q", refusal(err))
		}
	})
}
