package rewards_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/rewards"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
	"primeur/core/trade/tradetest"
)

func eur(f float64) decimal.Dec { return decimal.Round(f) }

func TestLevelOf(t *testing.T) {
	tests := []struct {
		purchases, contribution float64
		want                    string
	}{
		{0, 0, rewards.Sympathisant},
		{499.99, 0, rewards.Sympathisant},
		{300, 100, rewards.Sympathisant}, // a pledge alone certifies nothing
		{500, 0, rewards.Militant},
		{5000, 0, rewards.Militant}, // no pledge, no certified level
		{999.99, 10, rewards.Militant},
		{1000, 9.99, rewards.Militant},
		{1000, 10, rewards.Ambassadeur},
		{1999.99, 100, rewards.Ambassadeur},
		{2000, 99.99, rewards.Ambassadeur},
		{2000, 100, rewards.SuperAmbassadeur},
		{8000, 500, rewards.SuperAmbassadeur},
	}
	for _, tt := range tests {
		if got := rewards.LevelOf(eur(tt.purchases), eur(tt.contribution)); got != tt.want {
			t.Errorf("LevelOf(%v €, %v €/mois) = %s, want %s", tt.purchases, tt.contribution, got, tt.want)
		}
	}
}

func TestScoreOf(t *testing.T) {
	tests := []struct {
		purchases float64
		months    int
		want      int64
	}{
		{0, 0, 0},
		{1234.99, 0, 1234},
		{0, 3, 300},
		{600, 3, 900},
		{-20, -1, 0},
	}
	for _, tt := range tests {
		if got := rewards.ScoreOf(eur(tt.purchases), tt.months); got != tt.want {
			t.Errorf("ScoreOf(%v, %d) = %d, want %d", tt.purchases, tt.months, got, tt.want)
		}
	}
}

func TestParseAmount(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		in   *float64
		want decimal.Dec
		msg  string
	}{
		{nil, 0, rewards.MsgAmountRequired},
		{f(0), 0, rewards.MsgAmountMin},
		{f(9.99), 0, rewards.MsgAmountMin},
		{f(-50), 0, rewards.MsgAmountMin},
		{f(10.005), 0, rewards.MsgAmountFormat},
		{f(9999.995), 0, rewards.MsgAmountFormat},
		{f(2.505), 0, rewards.MsgAmountFormat},
		{f(1234.565), 0, rewards.MsgAmountFormat},
		{f(1e2), 10000, ""},
		{f(math.NaN()), 0, rewards.MsgAmountFormat},
		{f(math.Inf(1)), 0, rewards.MsgAmountFormat},
		{f(10000.01), 0, rewards.MsgAmountMax},
		{f(1e300), 0, rewards.MsgAmountMax},
		{f(10), 1000, ""},
		{f(42.5), 4250, ""},
		{f(10000), 1000000, ""},
	}
	for _, tt := range tests {
		got, err := rewards.ParseAmount("amount", tt.in)
		var ve *core.ValidationError
		switch {
		case tt.msg == "" && err != nil:
			t.Errorf("ParseAmount(%v): %v", deref(tt.in), err)
		case tt.msg == "" && got != tt.want:
			t.Errorf("ParseAmount(%v) = %v, want %v", deref(tt.in), got, tt.want)
		case tt.msg != "" && (!errors.As(err, &ve) || ve.Fields[0].Message != tt.msg || ve.Fields[0].Field != "amount"):
			t.Errorf("ParseAmount(%v) err = %v, want %q", deref(tt.in), err, tt.msg)
		}
	}
}

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

func TestWindow(t *testing.T) {
	paris, _ := time.LoadLocation("Europe/Paris")
	last, current := rewards.Window(time.Date(2026, 1, 1, 0, 30, 0, 0, paris))
	if last != "2025-12-01" || current != "2026-01-01" {
		t.Fatalf("window = %s, %s", last, current)
	}
}

// world is a platform with shops, a producer delivering every day and the
// trade the rewards read, written by tradetest and the trade operations.
type world struct {
	t          *testing.T
	db         *store.DB
	ctx        context.Context
	tw         *tradetest.World
	farm       accounts.User
	a, b, c, d accounts.User
}

func newWorld(t *testing.T, db *store.DB) *world {
	w := &world{t: t, db: db, ctx: context.Background(), tw: tradetest.On(t, db)}
	mk := func(email, typ string) accounts.User {
		return w.tw.User(accounts.User{Type: typ, Email: email, Name: email, DeliveryDays: "1111111"})
	}
	w.farm = mk("ferme@x.fr", accounts.Producer)
	w.a, w.b, w.c, w.d = mk("a@x.fr", accounts.Distributor), mk("b@x.fr", accounts.Distributor),
		mk("c@x.fr", accounts.Distributor), mk("d@x.fr", accounts.Distributor)
	return w
}

type line struct {
	product         string
	price, expected float64
	sent            *float64
	claimed         float64
}

// delivery writes a delivery of the farm to shop with its lines, in
// status, and with a claim of the lines' claimed quantities sent at 15:00
// on its date and, unless claim is sent, answered the next morning.
func (w *world) delivery(shop accounts.User, date, status, claim string, lines ...line) {
	w.t.Helper()
	out := tradetest.Outcome{Status: status, Sent: map[string]decimal.Dec{}}
	var ls []tradetest.L
	claimed := map[string]tradetest.ClaimedLine{}
	for _, l := range lines {
		ls = append(ls, tradetest.L{Product: l.product, Price: eur(l.price), Expected: eur(l.expected)})
		if l.sent != nil {
			out.Sent[l.product] = eur(*l.sent)
		}
		if l.claimed != 0 {
			claimed[l.product] = tradetest.ClaimedLine{Quantity: eur(l.claimed), Type: orders.ClaimQuality}
		}
	}
	if claim != orders.ClaimVoid {
		day, _ := time.ParseInLocation("2006-01-02", date, tradetest.Paris)
		out.Claim = &tradetest.ClaimOutcome{Lines: claimed, SentAt: day.Add(15 * time.Hour), Status: claim, ReviewedAt: day.Add(34 * time.Hour)}
	}
	w.tw.Played(w.tw.OrderOf(w.farm.ID, shop.ID, date[:8]+"01"), date, out, ls...)
}

// trade runs the farm's proposal on shop's need of product for month (a
// need of 100 is set first) at 2026-11-10, then answers: accepted, refused
// or, with answer nil, not yet.
func (w *world) trade(shop accounts.User, product, month string, qty, price float64, answer *bool) {
	w.t.Helper()
	need := w.tw.Need(shop.ID, product, month, eur(100))
	at := time.Date(2026, 11, 10, 9, 0, 0, 0, tradetest.Paris)
	if err := w.db.Tx(w.ctx, func(tx *sqlx.Tx) error {
		if _, err := trade.Propose(w.ctx, tx, w.farm, need, w.farm.ID, trade.Offer{Quantity: qty, Price: price}, at); err != nil {
			return err
		}
		if answer == nil {
			return nil
		}
		_, err := trade.Review(w.ctx, tx, shop, need, w.farm.ID, *answer, at.Add(time.Hour))
		return err
	}); err != nil {
		w.t.Fatal(err)
	}
}

// end ends the farm's commitment on shop's need: the shop's correction to
// 0, accepted by the farm.
func (w *world) end(shop accounts.User, product, month string) {
	w.t.Helper()
	var need string
	if err := store.Get(w.ctx, w.db, &need, `SELECT id FROM needs WHERE distributor_id = ? AND product_id = ? AND month = ?`, shop.ID, product, month); err != nil {
		w.t.Fatal(err)
	}
	at := time.Date(2026, 11, 12, 9, 0, 0, 0, tradetest.Paris)
	if err := w.db.Tx(w.ctx, func(tx *sqlx.Tx) error {
		if _, err := trade.Propose(w.ctx, tx, shop, need, w.farm.ID, trade.Offer{Quantity: 0, Price: 2.5}, at); err != nil {
			return err
		}
		_, err := trade.Review(w.ctx, tx, w.farm, need, w.farm.ID, true, at.Add(time.Hour))
		return err
	}); err != nil {
		w.t.Fatal(err)
	}
}

func f(v float64) *float64 { return &v }

func TestStanding(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		w := newWorld(t, db)
		ctx := w.ctx
		paris, _ := time.LoadLocation("Europe/Paris")
		now := time.Date(2026, 11, 20, 10, 0, 0, 0, paris)

		// Shop A. October: 40 kg at 2,50 € + (10,5 − 2 accepted claim) × 1,99 € = 100 + 16,915 → 116,92 €.
		w.delivery(w.a, "2026-10-06", "done", "accepted",
			line{"tomate", 2.50, 40, nil, 0}, line{"poire", 1.99, 12, f(10.5), -2})
		// A rejected claim does not count; the sent quantity does (80 × 2,50 = 200 €).
		w.delivery(w.a, "2026-10-13", "done", "rejected", line{"tomate", 2.50, 90, f(80), 10})
		// November so far: 600 € (a sent claim is not accepted yet).
		w.delivery(w.a, "2026-11-03", "done", "sent", line{"tomate", 3, 200, nil, -50})
		// Not counted: cancelled, planned, September, December (written
		// before the planned one: its lock, as the deliveries job locks,
		// takes every delivery due by then).
		w.delivery(w.a, "2026-10-20", "cancelled", "void", line{"tomate", 100, 100, nil, 0})
		w.delivery(w.a, "2026-09-30", "done", "void", line{"tomate", 100, 100, nil, 0})
		w.delivery(w.a, "2026-12-01", "done", "void", line{"tomate", 100, 100, nil, 0})
		w.delivery(w.a, "2026-11-24", "planned", "void", line{"tomate", 100, 100, nil, 0})
		// Shop B: 1 500 € in October. Shop D: 600 € in October (ties with A). Shop C: nothing.
		w.delivery(w.b, "2026-10-02", "done", "void", line{"tomate", 15, 100, nil, 0})
		w.delivery(w.d, "2026-10-02", "done", "void", line{"tomate", 6, 100, nil, 0})

		// A's commitments: those of its deliveries (September to December)
		// and two in January → 5 months.
		yes, no := true, false
		w.trade(w.a, "tomate", "2027-01-01", 10, 2.5, &yes)
		w.trade(w.a, "poire", "2027-01-01", 10, 2.5, &yes)
		// Not commitments: a pending and a rejected proposal, a commitment ended.
		w.trade(w.a, "tomate", "2027-02-01", 10, 2.5, nil)
		w.trade(w.a, "tomate", "2027-03-01", 10, 2.5, &no)
		w.trade(w.a, "tomate", "2027-04-01", 10, 2.5, &yes)
		w.end(w.a, "tomate", "2027-04-01")
		// B and D: one month each, that of their deliveries.

		s, err := rewards.StandingOf(ctx, db, w.a.ID, now)
		if err != nil {
			t.Fatal(err)
		}
		want := rewards.Purchases{
			LastMonth:    rewards.MonthValue{Month: "2026-10-01", Value: eur(316.92)},
			CurrentMonth: rewards.MonthValue{Month: "2026-11-01", Value: eur(600)},
			Monthly:      eur(600),
		}
		if s.Purchases != want {
			t.Fatalf("purchases = %+v, want %+v", s.Purchases, want)
		}
		if s.MonthsOfCommitment != 5 || s.Rank != 2 || s.Shops != 4 || s.Score != 1100 || s.Level != rewards.Militant || s.Contribution != nil {
			t.Fatalf("standing = %+v", s)
		}

		// D ties with A; C is last behind three shops.
		if sd, _ := rewards.StandingOf(ctx, db, w.d.ID, now); sd.Rank != 2 || sd.Score != 700 {
			t.Fatalf("D = %+v", sd)
		}
		if sc, _ := rewards.StandingOf(ctx, db, w.c.ID, now); sc.Rank != 4 || sc.Score != 0 || sc.Level != rewards.Sympathisant {
			t.Fatalf("C = %+v", sc)
		}
		sb, _ := rewards.StandingOf(ctx, db, w.b.ID, now)
		if sb.Rank != 1 || sb.Level != rewards.Militant || sb.Score != 1600 {
			t.Fatalf("B = %+v", sb)
		}
		// A shop's months of commitment, read for its standing alone, are
		// the board's, read for every shop at once.
		board, err := rewards.LoadBoard(ctx, db, now)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range []accounts.User{w.a, w.b, w.c, w.d} {
			if s, _ := rewards.StandingOf(ctx, db, u.ID, now); s.MonthsOfCommitment != board.Months[u.ID] {
				t.Fatalf("%s: %d months alone, %d on the board", u.Name, s.MonthsOfCommitment, board.Months[u.ID])
			}
		}
		if board.Shops != 4 {
			t.Fatalf("the board counts %d shops", board.Shops)
		}

		// A pledge certifies B (over 1 000 €), not A (600 €).
		later := now.Add(time.Hour)
		for _, u := range []accounts.User{w.a, w.b} {
			if err := rewards.SetContribution(ctx, db, u.ID, eur(25), now); err != nil {
				t.Fatal(err)
			}
		}
		if err := rewards.SetContribution(ctx, db, w.b.ID, eur(120), later); err != nil {
			t.Fatal(err)
		}
		sb, _ = rewards.StandingOf(ctx, db, w.b.ID, now)
		if sb.Level != rewards.Ambassadeur || sb.Contribution == nil || sb.Contribution.Amount != eur(120) ||
			sb.Contribution.Since != "2026-11-20T09:00:00Z" || sb.Contribution.UpdatedAt != "2026-11-20T10:00:00Z" {
			t.Fatalf("B pledged = %+v %+v", sb, sb.Contribution)
		}
		if s, _ = rewards.StandingOf(ctx, db, w.a.ID, now); s.Level != rewards.Militant || s.Contribution.Amount != eur(25) {
			t.Fatalf("A pledged = %+v", s)
		}
		// The score ignores the contribution.
		if s.Score != 1100 {
			t.Fatalf("A's score moved with its pledge: %d", s.Score)
		}
		if err := rewards.EndContribution(ctx, db, w.b.ID); err != nil {
			t.Fatal(err)
		}
		if sb, _ = rewards.StandingOf(ctx, db, w.b.ID, now); sb.Level != rewards.Militant || sb.Contribution != nil {
			t.Fatalf("B after ending = %+v", sb)
		}

		scores, err := rewards.Scores(ctx, db, now)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int64{}
		for _, s := range scores {
			got[s.Distributor] = s.Score
		}
		wantScores := map[string]int64{w.a.ID: 1100, w.b.ID: 1600, w.c.ID: 0, w.d.ID: 700}
		if len(got) != len(wantScores) {
			t.Fatalf("scores = %v", got)
		}
		for id, v := range wantScores {
			if got[id] != v {
				t.Fatalf("scores = %v, want %v", got, wantScores)
			}
		}

		// Producers are not in the programme; unknown ids are not found.
		if _, err := rewards.StandingOf(ctx, db, w.farm.ID, now); !errors.Is(err, core.ErrForbidden) {
			t.Fatalf("producer standing err = %v", err)
		}
		if err := rewards.SetContribution(ctx, db, w.farm.ID, eur(20), now); !errors.Is(err, core.ErrForbidden) {
			t.Fatalf("producer pledge err = %v", err)
		}
		if err := rewards.SetContribution(ctx, db, "nobody", eur(20), now); !errors.Is(err, core.ErrNotFound) {
			t.Fatalf("unknown pledge err = %v", err)
		}
		if err := rewards.SetContribution(ctx, db, w.c.ID, eur(9.99), now); err == nil {
			t.Fatal("a pledge under 10 € was recorded")
		}
		var n int
		if err := store.Get(ctx, db, &n, `SELECT COUNT(*) FROM contributions`); err != nil || n != 1 {
			t.Fatalf("contributions = %d (%v), want A's only", n, err)
		}
	})
}
