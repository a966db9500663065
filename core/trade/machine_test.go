package trade_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
)

// TestStateMachine walks every state × every operation × both sides and two
// third parties (another producer, another shop): an operation is carried
// out exactly when the shared table allows it, with the expected outcome
// and event; every refusal changes nothing.
func TestStateMachine(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		needID := f.need(t, "tomate", "2026-12", 100)
		const committedQty, openQty, rivalQty = 4000, 5000, 1000 // hundredths of a kg

		// reset puts the farm's negotiation on the need in state s.
		reset := func(t *testing.T, s trade.State) {
			exec(t, db, `DELETE FROM proposals`)
			exec(t, db, `DELETE FROM orders`)
			exec(t, db, `DELETE FROM events`)
			if s.Committed {
				f.row(t, needID, f.farm.ID, planning.StatusAccepted, planning.FromProducer, committedQty, 200)
			}
			if s.Open != "" {
				f.row(t, needID, f.farm.ID, s.Open, s.From, openQty, 250)
			}
			// Another producer's proposal beside them, stamped a minute
			// after the operations' clock (another replica's): the answer
			// orders the need's proposals as a read does (by creation,
			// then id), a new one before it, and hides it from the farm.
			exec(t, db, `INSERT INTO proposals (id, need_id, producer_id, status, origin, quantity, price, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, core.NewID(), needID, f.rival.ID, planning.StatusProposed, planning.FromProducer,
				rivalQty, 210, now.Add(time.Minute).UnixMilli(), now.Add(time.Minute).UnixMilli())
		}

		type op struct {
			name    string
			allowed func(trade.Actions) bool
			run     func(actor accounts.User) (planning.View, error)
		}
		ops := []op{
			{"propose", trade.Actions.CanPropose, func(a accounts.User) (planning.View, error) {
				return propose(db, a, needID, f.farm.ID, 30, 2.2, now)
			}},
			{"accept", func(a trade.Actions) bool { return a.CanReview(true) }, func(a accounts.User) (planning.View, error) {
				return review(db, a, needID, f.farm.ID, true, now)
			}},
			{"refuse", func(a trade.Actions) bool { return a.CanReview(false) }, func(a accounts.User) (planning.View, error) {
				return review(db, a, needID, f.farm.ID, false, now)
			}},
			{"withdraw", trade.Actions.CanWithdraw, func(a accounts.User) (planning.View, error) {
				return withdraw(db, a, needID, f.farm.ID, now)
			}},
		}
		actors := []struct {
			name string
			user accounts.User
			side string
			deny error // for third parties
		}{
			{"producer", f.farm, planning.FromProducer, nil},
			{"shop", f.shop, planning.FromDistributor, nil},
			{"another producer", f.rival, "", core.ErrForbidden},
			{"another shop", f.otherShop, "", core.ErrNotFound},
		}

		for _, s := range trade.States() {
			for _, a := range actors {
				for _, o := range ops {
					name := fmt.Sprintf("committed=%v open=%s from=%s/%s %s", s.Committed, s.Open, s.From, a.name, o.name)
					t.Run(name, func(t *testing.T) {
						reset(t, s)
						before := storetest.Snapshot(t, db)
						v, err := o.run(a.user)
						allowed := a.side != "" && o.allowed(trade.Allowed(s, a.side))
						if !allowed {
							want := a.deny
							if want == nil {
								want = core.ErrConflict
							}
							if !errors.Is(err, want) {
								t.Fatalf("want %v, got %v", want, err)
							}
							if a.deny == nil && message(err) != trade.MsgNotAllowed {
								t.Fatalf("message %q", message(err))
							}
							if storetest.Snapshot(t, db) != before {
								t.Fatal("a refused operation changed something")
							}
							return
						}
						if err != nil {
							t.Fatalf("allowed operation failed: %v", err)
						}
						if v.ID != needID {
							t.Fatalf("answer is not the need: %+v", v)
						}
						// The answer is the need as stored after the
						// operation, as the actor sees it (the operation
						// does not read it again: trade keeps it).
						n, ps, err := planning.Get(ctx, db, needID)
						if err != nil {
							t.Fatal(err)
						}
						stored := planning.ViewOf(n, ps)
						if a.side == planning.FromProducer {
							stored.Proposals = slices.DeleteFunc(slices.Clone(ps), func(p planning.Proposal) bool { return p.Producer != a.user.ID })
						}
						if !reflect.DeepEqual(v, stored) {
							t.Fatalf("answer %+v\nstored %+v", v, stored)
						}
						got, c, open := stateOf(t, db, needID, f.farm.ID)
						events := count(t, db, `SELECT COUNT(*) FROM events`)
						fix := s.Committed
						switch o.name {
						case "propose":
							want := trade.State{Committed: s.Committed, Open: planning.StatusProposed, From: a.side}
							if got != want || open.Quantity != 3000 || open.Price != 220 {
								t.Fatalf("state %+v (%+v), want %+v", got, open, want)
							}
							typ := activity.ProposalRequest
							if fix {
								typ = activity.FixRequest
							}
							if events != 1 || count(t, db, `SELECT COUNT(*) FROM events WHERE type = ?`, typ) != 1 {
								t.Fatalf("want one %s event", typ)
							}
						case "accept":
							if got != (trade.State{Committed: true}) || c.Quantity != openQty || c.Price != 250 {
								t.Fatalf("state %+v, commitment %+v", got, c)
							}
							if o := order(t, db, f.farm.ID, f.shop.ID, "2026-12-01"); carried(o, "planned")["tomate"] != openQty {
								t.Fatalf("deliveries carry %v", carried(o, "planned"))
							}
							typ := activity.ProposalReview
							if fix {
								typ = activity.FixReview
							}
							if events != 1 || count(t, db, `SELECT COUNT(*) FROM events WHERE type = ?`, typ) != 1 {
								t.Fatalf("want one %s event", typ)
							}
						case "refuse":
							want := trade.State{Committed: s.Committed, Open: planning.StatusRejected, From: s.From}
							if got != want {
								t.Fatalf("state %+v, want %+v", got, want)
							}
							if s.Open == planning.StatusRejected {
								// Refusing what is already refused changes nothing.
								if storetest.Snapshot(t, db) != before {
									t.Fatal("refusing a rejected proposal changed something")
								}
							} else if events != 1 {
								t.Fatalf("%d events", events)
							}
						case "withdraw":
							if got != (trade.State{Committed: s.Committed}) || events != 0 {
								t.Fatalf("state %+v, %d events", got, events)
							}
						}
						// A producer sees only its own proposals.
						if a.side == planning.FromProducer {
							for _, p := range v.Proposals {
								if p.Producer != f.farm.ID {
									t.Fatal("a producer sees another producer's proposal")
								}
							}
						}
					})
				}
			}
		}
	})
}
