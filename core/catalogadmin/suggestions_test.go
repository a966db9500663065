package catalogadmin_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/catalogadmin"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// fieldRefusal is the French message of a refusal on a field, or of a
// refusal; "" for none.
func fieldRefusal(err error) string {
	var v *core.ValidationError
	if errors.As(err, &v) {
		return v.Fields[0].Message
	}
	return refusal(err)
}

// TestSuggestions, on both engines: a producer suggests a missing type,
// refused in French (nothing changed) for an empty or long name, a type
// already in the catalogue whatever its accents, an unknown family or
// unit, a long note, the same suggestion twice; an administrator accepts
// one (the type is created with the suggestion's name, family and unit)
// and merges another into an existing type; an answered suggestion takes
// no second answer; the producer reads both outcomes.
func TestSuggestions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		now := tradetest.At(2026, 11, 20, 10, 0)
		w := tradetest.New(t, db)
		tx := func(fn func(q store.Q) error) error {
			return db.Tx(ctx, func(tx *sqlx.Tx) error { return fn(tx) })
		}
		suggest := func(producer string, in catalogadmin.SuggestionInput) (catalogadmin.Suggestion, error) {
			var s catalogadmin.Suggestion
			err := tx(func(q store.Q) (err error) {
				s, err = catalogadmin.Suggest(ctx, q, producer, in, now)
				return err
			})
			return s, err
		}
		brebis := catalogadmin.SuggestionInput{Name: "Tomme de brebis des Pyrénées", Family: "fromages", Unit: "kg",
			Note: "Pâte pressée, meules de 4 kg"}
		s1, err := suggest(w.Farm.ID, brebis)
		if err != nil || s1.Status != catalogadmin.Pending || s1.Name != brebis.Name || s1.ProducerName != "Ferme des Aravis" {
			t.Fatalf("suggested %+v, %v", s1, err)
		}
		s2, err := suggest(w.Farm.ID, catalogadmin.SuggestionInput{Name: "Oeufs de poule label rouge", Family: "oeufs", Unit: "douzaine"})
		if err != nil {
			t.Fatal(err)
		}

		t.Run("refused suggestions", func(t *testing.T) {
			before := storetest.Snapshot(t, db)
			with := func(change func(in *catalogadmin.SuggestionInput)) catalogadmin.SuggestionInput {
				in := brebis
				in.Name = "Fromage de chèvre cendré"
				change(&in)
				return in
			}
			for _, c := range []struct {
				name string
				in   catalogadmin.SuggestionInput
				msg  string
			}{
				{"no name", with(func(in *catalogadmin.SuggestionInput) { in.Name = "  " }), catalogadmin.MsgSuggestName},
				{"long name", with(func(in *catalogadmin.SuggestionInput) { in.Name = strings.Repeat("é", 81) }), catalogadmin.MsgSuggestName},
				{"in the catalogue already", with(func(in *catalogadmin.SuggestionInput) { in.Name = "TOMME DE SAVOIE" }),
					fmt.Sprintf(catalogadmin.MsgSuggestExists, "Tomme de Savoie")},
				{"unknown family", with(func(in *catalogadmin.SuggestionInput) { in.Family = "jouets" }), catalogadmin.MsgSuggestFamily},
				{"unknown unit", with(func(in *catalogadmin.SuggestionInput) { in.Unit = "tonne" }), catalogadmin.MsgSuggestUnit},
				{"long note", with(func(in *catalogadmin.SuggestionInput) { in.Note = strings.Repeat("n", 301) }), catalogadmin.MsgSuggestNote},
				{"twice", with(func(in *catalogadmin.SuggestionInput) { in.Name = "tomme de brebis des pyrenees" }), catalogadmin.MsgSuggestTwice},
			} {
				t.Run(c.name, func(t *testing.T) {
					if _, err := suggest(w.Farm.ID, c.in); fieldRefusal(err) != c.msg {
						t.Fatalf("got %v, want %q", err, c.msg)
					}
				})
			}
			if after := storetest.Snapshot(t, db); after != before {
				t.Fatalf("a refused suggestion changed:\n%s", storetest.Changes(before, after))
			}
		})

		t.Run("accepted, merged, answered once", func(t *testing.T) {
			err := tx(func(q store.Q) error {
				s, p, err := catalogadmin.AcceptSuggestion(ctx, q, s1.ID, catalogadmin.AddInput{Season: "1-12"}, now)
				if err != nil {
					return err
				}
				if p.ID != "tomme-de-brebis-des-pyrenees" || p.Family != "fromages" || p.Unit != "kg" || p.VATRate != 550 ||
					s.Status != catalogadmin.Accepted || s.ProductType != p.ID || s.ProductTypeName != brebis.Name {
					return fmt.Errorf("accepted %+v as %+v", s, p)
				}
				s, err = catalogadmin.MergeSuggestion(ctx, q, s2.ID, "oeufs-de-pintade", now)
				if err == nil {
					return fmt.Errorf("merged into an unknown type: %+v", s)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			var into string
			if err := store.Get(ctx, db, &into, `SELECT id FROM products WHERE family_id = 'oeufs' AND unit = 'douzaine'
				AND retired_at IS NULL ORDER BY id LIMIT 1`); err != nil {
				t.Fatal(err)
			}
			if err := tx(func(q store.Q) error {
				_, err := catalogadmin.MergeSuggestion(ctx, q, s2.ID, into, now)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			before := storetest.Snapshot(t, db)
			for _, c := range []struct {
				name string
				op   func(q store.Q) error
				msg  string
			}{
				{"accepted twice", func(q store.Q) error {
					_, _, err := catalogadmin.AcceptSuggestion(ctx, q, s1.ID, catalogadmin.AddInput{}, now)
					return err
				}, fmt.Sprintf(catalogadmin.MsgSuggestAnswered, s1.ID, "accepted")},
				{"merged after its answer", func(q store.Q) error {
					_, err := catalogadmin.MergeSuggestion(ctx, q, s2.ID, into, now)
					return err
				}, fmt.Sprintf(catalogadmin.MsgSuggestAnswered, s2.ID, "merged")},
				{"unknown", func(q store.Q) error {
					_, err := catalogadmin.MergeSuggestion(ctx, q, "nope", into, now)
					return err
				}, fmt.Sprintf(catalogadmin.MsgSuggestUnknown, "nope")},
			} {
				t.Run(c.name, func(t *testing.T) {
					if err := tx(c.op); refusal(err) != c.msg {
						t.Fatalf("got %v, want %q", err, c.msg)
					}
				})
			}
			if after := storetest.Snapshot(t, db); after != before {
				t.Fatalf("a refused answer changed:\n%s", storetest.Changes(before, after))
			}
			mine, err := catalogadmin.Suggestions(ctx, db, w.Farm.ID, false)
			if err != nil || len(mine) != 2 {
				t.Fatalf("the producer reads %+v, %v", mine, err)
			}
			for _, s := range mine {
				if s.Status == catalogadmin.Pending || s.ProductType == "" || s.ProductTypeName == "" {
					t.Fatalf("outcome not shown: %+v", s)
				}
			}
			other := w.User(accounts.User{Type: accounts.Producer, Email: "autre@x.fr", Name: "Autre"})
			if theirs, err := catalogadmin.Suggestions(ctx, db, other.ID, false); err != nil || len(theirs) != 0 {
				t.Fatalf("another producer reads %+v, %v", theirs, err)
			}
			if pending, err := catalogadmin.Suggestions(ctx, db, "", true); err != nil || len(pending) != 0 {
				t.Fatalf("still pending: %+v, %v", pending, err)
			}
		})
	})
}
