package trade_test

import (
	"errors"
	"math"
	"testing"

	"primeur/core"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
)

func TestProposalRules(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		tomato := f.need(t, "tomate", "2026-12", 100)
		melon := f.need(t, "melon", "2026-12", 10)
		// The rival holds 30 kg committed and asks to correct it to 50 kg:
		// 50 kg remain.
		f.row(t, tomato, f.rival.ID, planning.StatusAccepted, planning.FromProducer, 3000, 200)
		f.row(t, tomato, f.rival.ID, planning.StatusProposed, planning.FromProducer, 5000, 210)
		// A need of a past month (created while it was current).
		past, err := planning.Create(ctx, db, f.shop.ID, planning.NeedInput{ProductID: "poire", Date: "2026-10", Quantity: 50}, at(2026, 10, 2, 9))
		if err != nil {
			t.Fatal(err)
		}
		f.row(t, past.ID, f.farm.ID, planning.StatusProposed, planning.FromProducer, 1000, 150)

		refused := []struct {
			name     string
			run      func() error
			kind     error
			msg      string
			field    string
			fieldMsg string
		}{
			{"over the remaining need", func() error { _, err := propose(db, f.farm, tomato, f.farm.ID, 50.01, 2, now); return err },
				nil, trade.ExceedsMessage(5000, "kg"), "", ""},
			{"pieces over the need", func() error { _, err := propose(db, f.farm, melon, f.farm.ID, 11, 2, now); return err },
				nil, "La quantité saisie excède le besoin restant (10un)", "", ""},
			{"zero outside a correction", func() error { _, err := propose(db, f.farm, tomato, f.farm.ID, 0, 2, now); return err },
				nil, trade.MsgQuantityPositive, "", ""},
			{"negative", func() error { _, err := propose(db, f.farm, tomato, f.farm.ID, -1, 2, now); return err },
				nil, trade.MsgQuantityPositive, "", ""},
			{"three decimals of kg", func() error { _, err := propose(db, f.farm, tomato, f.farm.ID, 1.234, 2, now); return err },
				nil, planning.MsgBadWeight, "", ""},
			{"half a melon", func() error { _, err := propose(db, f.farm, melon, f.farm.ID, 2.5, 2, now); return err },
				nil, planning.MsgBadPieces, "", ""},
			{"NaN", func() error { _, err := propose(db, f.farm, tomato, f.farm.ID, math.NaN(), 2, now); return err },
				nil, planning.MsgBadWeight, "", ""},
			{"huge quantity", func() error { _, err := propose(db, f.farm, tomato, f.farm.ID, 1e18, 2, now); return err },
				nil, planning.MsgTooLarge, "", ""},
			{"zero price", func() error { _, err := propose(db, f.farm, tomato, f.farm.ID, 5, 0, now); return err },
				nil, trade.MsgPricePositive, "", ""},
			{"price with three decimals", func() error { _, err := propose(db, f.farm, tomato, f.farm.ID, 5, 1.234, now); return err },
				nil, trade.MsgBadPrice, "", ""},
			{"price 9999.995", func() error { _, err := propose(db, f.farm, tomato, f.farm.ID, 5, 9999.995, now); return err },
				nil, trade.MsgBadPrice, "", ""},
			{"price 2.505", func() error { _, err := propose(db, f.farm, tomato, f.farm.ID, 5, 2.505, now); return err },
				nil, trade.MsgBadPrice, "", ""},
			{"quantity 12345.675", func() error { _, err := propose(db, f.farm, tomato, f.farm.ID, 12345.675, 2, now); return err },
				nil, planning.MsgBadWeight, "", ""},
			{"5000.004 melons", func() error { _, err := propose(db, f.farm, melon, f.farm.ID, 5000.004, 2, now); return err },
				nil, planning.MsgBadPieces, "", ""},
			{"negative price", func() error { _, err := propose(db, f.farm, tomato, f.farm.ID, 5, -2, now); return err },
				nil, trade.MsgBadPrice, "", ""},
			{"huge price", func() error { _, err := propose(db, f.farm, tomato, f.farm.ID, 5, 10000.01, now); return err },
				nil, planning.MsgTooLarge, "", ""},
			{"both fields wrong", func() error { _, err := propose(db, f.farm, tomato, f.farm.ID, 0, 0, now); return err },
				nil, trade.MsgQuantityPositive, "price", trade.MsgPricePositive},
			{"producer without delivery days", func() error { _, err := propose(db, f.idle, tomato, f.idle.ID, 5, 2, now); return err },
				core.ErrConflict, trade.MsgNoDeliveryDays, "", ""},
			{"past month: propose", func() error { _, err := propose(db, f.farm, past.ID, f.farm.ID, 5, 2, now); return err },
				core.ErrConflict, planning.MsgPastMonth, "", ""},
			{"past month: review", func() error { _, err := review(db, f.shop, past.ID, f.farm.ID, true, now); return err },
				core.ErrConflict, planning.MsgPastMonth, "", ""},
			{"past month: withdraw", func() error { _, err := withdraw(db, f.farm, past.ID, f.farm.ID, now); return err },
				core.ErrConflict, planning.MsgPastMonth, "", ""},
			{"unknown need", func() error { _, err := propose(db, f.farm, "nope", f.farm.ID, 5, 2, now); return err },
				core.ErrNotFound, "", "", ""},
			{"shop names an unknown producer", func() error { _, err := propose(db, f.shop, tomato, "nope", 5, 2, now); return err },
				core.ErrNotFound, "", "", ""},
			{"shop names a shop as producer", func() error { _, err := review(db, f.shop, tomato, f.otherShop.ID, true, now); return err },
				core.ErrNotFound, "", "", ""},
			{"producer acts for another", func() error { _, err := withdraw(db, f.farm, tomato, f.rival.ID, now); return err },
				core.ErrForbidden, trade.MsgOwnProposals, "", ""},
			{"shop proposes first", func() error { _, err := propose(db, f.shop, tomato, f.farm.ID, 5, 2, now); return err },
				core.ErrConflict, trade.MsgNotAllowed, "", ""},
			{"shop reviews without a proposal", func() error { _, err := review(db, f.shop, melon, f.farm.ID, true, now); return err },
				core.ErrConflict, trade.MsgNotAllowed, "", ""},
		}
		for _, tt := range refused {
			t.Run(tt.name, func(t *testing.T) {
				before := storetest.Snapshot(t, db)
				err := tt.run()
				if err == nil {
					t.Fatal("accepted")
				}
				if tt.kind != nil && !errors.Is(err, tt.kind) {
					t.Fatalf("error %v, want %v", err, tt.kind)
				}
				var invalid *core.ValidationError
				if tt.kind == nil && !errors.As(err, &invalid) {
					t.Fatalf("want a validation error, got %v", err)
				}
				if tt.msg != "" && message(err) != tt.msg {
					t.Fatalf("message %q, want %q", message(err), tt.msg)
				}
				if tt.field != "" && (len(invalid.Fields) != 2 || invalid.Fields[1].Field != tt.field || invalid.Fields[1].Message != tt.fieldMsg) {
					t.Fatalf("fields %+v", invalid.Fields)
				}
				if storetest.Snapshot(t, db) != before {
					t.Fatal("a refused call changed something")
				}
			})
		}

		// Up to the remaining need exactly.
		v := ok(t)(propose(db, f.farm, tomato, f.farm.ID, 50, 2.15, now))
		if v.QuantityAccepted != 3000 || v.QuantityProposed != 7000 || v.QuantityAvailable != 0 || len(v.Proposals) != 1 {
			t.Fatalf("view %+v", v)
		}
		// The shop sees both producers.
		shopView := ok(t)(review(db, f.shop, tomato, f.farm.ID, true, now))
		if len(shopView.Proposals) != 3 {
			t.Fatalf("shop sees %d proposals", len(shopView.Proposals))
		}

		// A correction may reuse its own commitment, and ask for zero.
		if _, err := propose(db, f.farm, tomato, f.farm.ID, 50.5, 2, now); message(err) != trade.ExceedsMessage(5000, "kg") {
			t.Fatalf("correction over: %v", err)
		}
		if _, err := propose(db, f.farm, tomato, f.farm.ID, -1, 2, now); message(err) != trade.MsgQuantityOrZero {
			t.Fatalf("negative correction: %v", err)
		}
		v = ok(t)(propose(db, f.farm, tomato, f.farm.ID, 0, 2, now))
		if v.QuantityAccepted != 8000 || v.QuantityProposed != 2000 {
			t.Fatalf("a correction to zero reserves the commitment until reviewed: %+v", v)
		}
		ok(t)(review(db, f.shop, tomato, f.farm.ID, true, now))
		if s, _, _ := stateOf(t, db, tomato, f.farm.ID); s != (trade.State{}) {
			t.Fatalf("commitment not ended: %+v", s)
		}
		// A rejected proposal reserves nothing: accepting it later must still
		// fit what others have taken since.
		f.row(t, melon, f.farm.ID, planning.StatusRejected, planning.FromProducer, 800, 150)
		ok(t)(propose(db, f.rival, melon, f.rival.ID, 5, 1.5, now))
		before := storetest.Snapshot(t, db)
		if _, err := review(db, f.shop, melon, f.farm.ID, true, now); !errors.Is(err, core.ErrConflict) || message(err) != trade.ExceedsMessage(500, "un") {
			t.Fatalf("accepting a rejected proposal that no longer fits: %v", err)
		}
		if storetest.Snapshot(t, db) != before {
			t.Fatal("refused acceptance changed something")
		}
		if trade.ExceedsMessage(1250, "kg") != "La quantité saisie excède le besoin restant (12,5kg)" {
			t.Fatal(trade.ExceedsMessage(1250, "kg"))
		}
	})
}
