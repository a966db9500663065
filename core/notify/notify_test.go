package notify_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"primeur/core/activity"
	"primeur/core/notify"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// TestLinesAgreeWithPluralNames: the lines of the digests put the verb in
// the plural after a plural name ("Les Jardins d'Alby vous proposent",
// "… ont accepté"), the singular otherwise (core/grammar, the same rule as
// the interface's feed).
func TestLinesAgreeWithPluralNames(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := tradetest.New(t, db)
		at := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
		lines := func() []string {
			t.Helper()
			var out []string
			if err := store.Select(ctx, db, &out, `SELECT line FROM notifications`); err != nil {
				t.Fatal(err)
			}
			if _, err := store.Exec(ctx, db, `DELETE FROM notifications`); err != nil {
				t.Fatal(err)
			}
			slices.Sort(out)
			return out
		}
		yes := true
		for _, c := range []struct {
			name string
			want []string
		}{
			{"Les Jardins d'Alby", []string{
				"Les Jardins d'Alby ont accepté votre réclamation sur la livraison du 3 décembre 2026.",
				"Les Jardins d'Alby ont accepté votre proposition : Tomate.",
				"Les Jardins d'Alby ont annulé la livraison du 3 décembre 2026.",
				"Les Jardins d'Alby ont déclaré une réclamation sur la livraison du 3 décembre 2026.",
				"Les Jardins d'Alby vous proposent Tomate.",
			}},
			{"Épicerie du Lac", []string{
				"Épicerie du Lac a accepté votre réclamation sur la livraison du 3 décembre 2026.",
				"Épicerie du Lac a accepté votre proposition : Tomate.",
				"Épicerie du Lac a annulé la livraison du 3 décembre 2026.",
				"Épicerie du Lac a déclaré une réclamation sur la livraison du 3 décembre 2026.",
				"Épicerie du Lac vous propose Tomate.",
			}},
		} {
			product := &activity.Product{Name: "Tomate", Unit: "kg"}
			steps := []func() error{
				func() error { return notify.ClaimReview(ctx, db, w.Farm.ID, c.name, "2026-12-03", true, at) },
				func() error {
					return notify.Trade(ctx, db, activity.Event{Type: activity.ProposalReview, TargetID: w.Farm.ID, CreatedAt: at,
						Data: activity.Data{Product: product, Outcome: &yes}}, c.name, w.Shop.ID)
				},
				func() error { return notify.DeliveryChanged(ctx, db, w.Farm.ID, c.name, "2026-12-03", true, at) },
				func() error { return notify.ClaimRequest(ctx, db, w.Shop.ID, c.name, "2026-12-03", at) },
				func() error {
					return notify.Trade(ctx, db, activity.Event{Type: activity.ProposalRequest, TargetID: w.Shop.ID, CreatedAt: at,
						Data: activity.Data{Product: product}}, c.name, w.Shop.ID)
				},
			}
			for _, step := range steps {
				if err := step(); err != nil {
					t.Fatal(err)
				}
			}
			got := lines()
			slices.Sort(c.want)
			if len(got) != len(c.want) {
				t.Fatalf("%s: %q", c.name, got)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("%s: line %d = %q, want %q", c.name, i, got[i], c.want[i])
				}
			}
		}
	})
}
