package offers_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/decimal"
	"primeur/core/offers"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/supplied"
	"primeur/core/trade"
	"primeur/core/trade/tradetest"
)

var (
	ctx = context.Background()
	now = tradetest.At(2026, 11, 20, 9, 0)
)

// message is the French text of a refusal, "" for none.
func message(err error) string {
	var r *core.Refusal
	var v *core.ValidationError
	switch {
	case errors.As(err, &r):
		return r.Message
	case errors.As(err, &v):
		return v.Fields[0].Message
	}
	return ""
}

// TestOffers: a producer posts an offer of its own product; shops take
// parts of it through the real operations (need created or raised,
// proposal made from the offer, accepted), the rest stays; every refusal
// is in French and changes nothing; ownership and sides are checked. Both
// engines, one world.
func TestOffers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := tradetest.New(t, db)
		farm, shop := w.Farm, w.Shop
		other := w.User(accounts.User{Type: accounts.Distributor, Email: "cave@bourg.fr", Name: "Cave du Bourg",
			AddressLine1: "1 place du Marché", AddressLine2: "73000 Chambéry"})
		rival := w.User(accounts.User{Type: accounts.Producer, Email: "rival@x.fr", Name: "Ferme rivale",
			AddressLine1: "2 route", AddressLine2: "74000 Annecy"})
		tx := func(fn func(tx *sqlx.Tx) error) error { return db.Tx(ctx, fn) }
		var apple, rivalApple supplied.Product
		if err := tx(func(tx *sqlx.Tx) (err error) {
			in := supplied.Input{Type: "pomme-reinette", Name: "Reinette du Léman", UnitQuantity: 1,
				Months: []int{1, 2, 3, 10, 11, 12}, RefPrice: 1.5}
			if apple, err = supplied.Create(ctx, tx, farm.ID, in, now); err != nil {
				return err
			}
			rivalApple, err = supplied.Create(ctx, tx, rival.ID, in, now)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		offer := offers.Input{SuppliedProduct: apple.ID, Month: "2027-02", Quantity: 200, Price: 1.6}

		t.Run("refused offers", func(t *testing.T) {
			before := storetest.Snapshot(t, db)
			with := func(change func(in *offers.Input)) offers.Input { in := offer; change(&in); return in }
			for _, c := range []struct {
				name, producer string
				in             offers.Input
				msg            string
			}{
				{"another's product", farm.ID, with(func(in *offers.Input) { in.SuppliedProduct = rivalApple.ID }), offers.MsgProduct},
				{"no product", farm.ID, with(func(in *offers.Input) { in.SuppliedProduct = "" }), offers.MsgProduct},
				{"past month", farm.ID, with(func(in *offers.Input) { in.Month = "2026-10" }), offers.MsgMonth},
				{"too far ahead", farm.ID, with(func(in *offers.Input) { in.Month = "2028-12" }), offers.MsgMonth},
				{"not a month", farm.ID, with(func(in *offers.Input) { in.Month = "février" }), offers.MsgMonth},
				{"no quantity", farm.ID, with(func(in *offers.Input) { in.Quantity = 0 }), trade.MsgQuantityPositive},
				{"thousandths", farm.ID, with(func(in *offers.Input) { in.Quantity = 1.234 }), planning.MsgBadWeight},
				{"no price", farm.ID, with(func(in *offers.Input) { in.Price = 0 }), trade.MsgPricePositive},
				{"bad price", farm.ID, with(func(in *offers.Input) { in.Price = -2 }), trade.MsgBadPrice},
			} {
				t.Run(c.name, func(t *testing.T) {
					err := tx(func(tx *sqlx.Tx) error {
						_, err := offers.Create(ctx, tx, c.producer, c.in, now)
						return err
					})
					if got := message(err); got != c.msg {
						t.Fatalf("got %v, want %q", err, c.msg)
					}
				})
			}
			if after := storetest.Snapshot(t, db); after != before {
				t.Fatalf("a refused offer changed:\n%s", storetest.Changes(before, after))
			}
		})

		var o offers.Offer
		if err := tx(func(tx *sqlx.Tx) (err error) {
			o, err = offers.Create(ctx, tx, farm.ID, offer, now)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if o.Month != "2027-02-01" || o.Quantity != 200_00 || o.Remaining != 200_00 || o.Price != 160 ||
			o.Product.ID != apple.ID || o.ProducerName != "Ferme des Aravis" {
			t.Fatalf("posted %+v", o)
		}

		var otherNeed string
		take := func(u accounts.User, id string, qty float64) (trade.Outcome, error) {
			var out trade.Outcome
			err := tx(func(tx *sqlx.Tx) (err error) {
				out, err = offers.Take(ctx, tx, u, id, qty, now)
				return err
			})
			return out, err
		}
		remaining := func(t *testing.T) decimal.Dec {
			t.Helper()
			var r decimal.Dec
			if err := store.Get(ctx, db, &r, `SELECT remaining FROM offers WHERE id = ?`, o.ID); err != nil {
				t.Fatal(err)
			}
			return r
		}
		commitment := func(t *testing.T, out trade.Outcome, qty decimal.Dec) {
			t.Helper()
			n := out.Need
			if n.Date != "2027-02-01" || n.Product != "pomme-reinette" || n.QuantityAccepted != qty || len(n.Proposals) != 1 {
				t.Fatalf("need %+v", n)
			}
			p := n.Proposals[0]
			if p.Status != planning.StatusAccepted || p.Producer != farm.ID || p.Quantity != qty || p.Price != 160 ||
				p.SuppliedProduct == nil || *p.SuppliedProduct != apple.ID {
				t.Fatalf("commitment %+v", p)
			}
			if out.Order == nil {
				t.Fatal("no order after the acceptance")
			}
		}

		// notified counts the notifications queued for each organisation.
		notified := func(t *testing.T) map[string]int {
			t.Helper()
			var rows []struct {
				User string `db:"user_id"`
				Kind string `db:"kind"`
			}
			if err := store.Select(ctx, db, &rows, `SELECT user_id, kind FROM notifications`); err != nil {
				t.Fatal(err)
			}
			n := map[string]int{}
			for _, r := range rows {
				n[r.User+" "+r.Kind]++
			}
			return n
		}

		t.Run("a shop takes part of it, the rest stays", func(t *testing.T) {
			before := notified(t)
			out, err := take(shop, o.ID, 80)
			if err != nil {
				t.Fatal(err)
			}
			// One take, one notification: the producer hears that the
			// shop accepted its proposal; the shop, who took, hears
			// nothing.
			after := notified(t)
			for _, k := range []string{shop.ID + " proposal", shop.ID + " answer", farm.ID + " proposal"} {
				if after[k] != before[k] {
					t.Errorf("%s: %d notifications after the take, want %d", k, after[k], before[k])
				}
			}
			if got := after[farm.ID+" answer"] - before[farm.ID+" answer"]; got != 1 {
				t.Errorf("the producer got %d answers for one take, want 1", got)
			}
			commitment(t, out, 80_00)
			if out.Need.Quantity != 80_00 {
				t.Fatalf("need created for %v, want 80", out.Need.Quantity)
			}
			if r := remaining(t); r != 120_00 {
				t.Fatalf("remaining %v, want 120", r)
			}
			list, err := offers.ForShop(ctx, db, other.ID, offers.Filter{Type: "pomme-reinette"}, now)
			if err != nil || len(list) != 1 || list[0].Remaining != 120_00 {
				t.Fatalf("shops see %+v, %v", list, err)
			}
		})

		t.Run("a planned need is raised by what is missing", func(t *testing.T) {
			w.Need(other.ID, "pomme-reinette", "2027-02-01", 50_00)
			out, err := take(other, o.ID, 100)
			if err != nil {
				t.Fatal(err)
			}
			commitment(t, out, 100_00)
			otherNeed = out.Need.ID
			if out.Need.Quantity != 100_00 || out.Need.QuantityAvailable != 0 {
				t.Fatalf("need %v available %v, want 100 and 0", out.Need.Quantity, out.Need.QuantityAvailable)
			}
			if r := remaining(t); r != 20_00 {
				t.Fatalf("remaining %v, want 20", r)
			}
		})

		t.Run("refused takes change nothing", func(t *testing.T) {
			var withdrawn offers.Offer
			if err := tx(func(tx *sqlx.Tx) (err error) {
				in := offer
				in.Month = "2027-03"
				if withdrawn, err = offers.Create(ctx, tx, farm.ID, in, now); err != nil {
					return err
				}
				return offers.Withdraw(ctx, tx, farm.ID, withdrawn.ID, now)
			}); err != nil {
				t.Fatal(err)
			}
			before := storetest.Snapshot(t, db)
			for _, c := range []struct {
				name string
				by   accounts.User
				id   string
				qty  float64
				msg  string
				kind error
			}{
				{"more than remains", shop, o.ID, 30, "Il ne reste que 20 kg sur cette offre.", nil},
				{"nothing", shop, o.ID, 0, trade.MsgQuantityPositive, nil},
				{"thousandths", shop, o.ID, 1.234, planning.MsgBadWeight, nil},
				{"already committed on the need", shop, o.ID, 5, offers.MsgAlreadyTrade, nil},
				{"withdrawn", shop, withdrawn.ID, 5, offers.MsgGone, nil},
				{"by a producer", farm, o.ID, 5, offers.MsgOwnOffer, core.ErrForbidden},
				{"unknown", shop, "nope", 5, "", core.ErrNotFound},
			} {
				t.Run(c.name, func(t *testing.T) {
					_, err := take(c.by, c.id, c.qty)
					if message(err) != c.msg || (c.kind != nil && !errors.Is(err, c.kind)) || err == nil {
						t.Fatalf("got %v, want %q", err, c.msg)
					}
				})
			}
			if after := storetest.Snapshot(t, db); after != before {
				t.Fatalf("a refused take changed:\n%s", storetest.Changes(before, after))
			}
		})

		// The commitment made from the offer holds of it at most what it
		// commits: a correction accepted down gives the difference back,
		// once; one raising it takes nothing; a correction refused or
		// withdrawn changes nothing; ending it gives back what it held.
		t.Run("a commitment corrected down gives back to the offer", func(t *testing.T) {
			for _, c := range []struct {
				name      string
				qty       float64
				answer    string // "accept", "refuse" or "withdraw"
				remaining decimal.Dec
			}{
				{"down to 70", 70, "accept", 50_00},
				{"refused down to 30", 30, "refuse", 50_00},
				{"withdrawn down to 30", 30, "withdraw", 50_00},
				{"up to 90", 90, "accept", 50_00},
				{"down to 80, above what it holds", 80, "accept", 50_00},
				{"down to 60", 60, "accept", 60_00},
				{"ended", 0, "accept", 120_00},
			} {
				t.Run(c.name, func(t *testing.T) {
					if err := tx(func(tx *sqlx.Tx) error {
						if _, err := trade.Propose(ctx, tx, farm, otherNeed, farm.ID, trade.Offer{Quantity: c.qty, Price: 1.6}, now); err != nil {
							return err
						}
						var err error
						switch c.answer {
						case "accept":
							_, err = trade.Review(ctx, tx, other, otherNeed, farm.ID, true, now)
						case "refuse":
							if _, err = trade.Review(ctx, tx, other, otherNeed, farm.ID, false, now); err == nil {
								_, err = trade.Withdraw(ctx, tx, farm, otherNeed, farm.ID, now)
							}
						case "withdraw":
							_, err = trade.Withdraw(ctx, tx, farm, otherNeed, farm.ID, now)
						}
						return err
					}); err != nil {
						t.Fatal(err)
					}
					if r := remaining(t); r != c.remaining {
						t.Fatalf("remaining %v, want %v", r, c.remaining)
					}
				})
			}
		})

		t.Run("withdrawn by its producer only", func(t *testing.T) {
			if err := tx(func(tx *sqlx.Tx) error { return offers.Withdraw(ctx, tx, rival.ID, o.ID, now) }); !errors.Is(err, core.ErrNotFound) {
				t.Fatalf("a rival withdrew it: %v", err)
			}
			own, err := offers.Own(ctx, db, farm.ID, now)
			if err != nil || len(own) != 1 || own[0].ID != o.ID {
				t.Fatalf("own offers %+v, %v", own, err)
			}
			if err := tx(func(tx *sqlx.Tx) error { return offers.Withdraw(ctx, tx, farm.ID, o.ID, now) }); err != nil {
				t.Fatal(err)
			}
			list, err := offers.ForShop(ctx, db, shop.ID, offers.Filter{Producer: farm.ID}, now)
			if err != nil || len(list) != 0 {
				t.Fatalf("shops still see %+v, %v", list, err)
			}
			exp, err := offers.ExportOf(ctx, db, farm.ID)
			if err != nil || len(exp.Offers) != 2 || len(exp.Takes) != 2 {
				t.Fatalf("the producer's export holds %+v, %v", exp, err)
			}
			exp, err = offers.ExportOf(ctx, db, other.ID)
			if err != nil || len(exp.Offers) != 0 || len(exp.Takes) != 1 || exp.Takes[0].Quantity != 100_00 {
				t.Fatalf("the shop's export holds %+v, %v", exp, err)
			}
		})
	})
}
