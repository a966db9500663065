package delivery_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

var (
	ctx   = context.Background()
	rules = delivery.DefaultRules()
	// now is Friday 2026-11-20 10:00 in Paris.
	now = at(2026, 11, 20, 10, 0)
)

func f(v float64) *float64 { return &v }
func s(v string) *string   { return &v }

// tx runs op in a transaction, as the daemon does.
func tx(db *store.DB, op func(q store.Q) (orders.Full, error)) (orders.Full, error) {
	var full orders.Full
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		full, err = op(tx)
		return err
	})
	return full, err
}

// expectRefusal checks err against want — a French message (422 or 409)
// or a sentinel — and that nothing changed.
func expectRefusal(t *testing.T, w *tradetest.World, before string, err error, want any) {
	t.Helper()
	switch want := want.(type) {
	case error:
		if !errors.Is(err, want) {
			t.Fatalf("err = %v, want %v", err, want)
		}
	case string:
		if err == nil || err.Error() != want {
			t.Fatalf("err = %v, want %q", err, want)
		}
		var v *core.ValidationError
		var r *core.Refusal
		if !errors.As(err, &v) && !errors.As(err, &r) {
			t.Fatalf("err %v is neither a validation error nor a refusal", err)
		}
	}
	if after := storetest.Snapshot(t, w.DB); after != before {
		t.Fatalf("a refused operation changed the database:\n%s", storetest.Changes(before, after))
	}
}

type fixture struct {
	w     *tradetest.World
	order string
	other accounts.User // another shop
	farm2 accounts.User // another producer
}

func newFixture(t *testing.T, db *store.DB) fixture {
	w := tradetest.New(t, db)
	return fixture{
		w:     w,
		order: w.Order(w.Farm, w.Shop, "2026-11-01"),
		other: w.User(accounts.User{Type: accounts.Distributor, Email: "autre@magasin.fr", Name: "Autre magasin"}),
		farm2: w.User(accounts.User{Type: accounts.Producer, Email: "autre@ferme.fr", Name: "Autre ferme"}),
	}
}

// planned adds a planned delivery of tomatoes (kg) and lettuces (pieces).
func (fx fixture) planned(date string) string {
	return fx.w.Delivery(fx.order, date, orders.Planned,
		tradetest.L{Product: "tomate", Price: 250, Expected: 1000},
		tradetest.L{Product: "laitue", Price: 90, Expected: 2000})
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fx := newFixture(t, db)
		w := fx.w
		tests := []struct {
			name   string
			date   string // the delivery's date
			status string
			who    func() string
			change func(id string) delivery.Change
			now    time.Time
			want   any // nil for success
		}{
			{"date and quantities", "2026-11-23", orders.Planned, nil, func(id string) delivery.Change {
				return delivery.Change{Date: s("2026-11-21"), Lines: []delivery.LineSent{
					{ID: w.Line(id, "tomate"), QuantitySent: f(12.5)}, {ID: w.Line(id, "laitue"), QuantitySent: f(0)},
				}}
			}, now, nil},
			{"nothing to change", "2026-11-23", orders.Planned, nil, func(string) delivery.Change { return delivery.Change{} }, now, nil},
			{"a minute before the lock", "2026-11-23", orders.Planned, nil, func(id string) delivery.Change {
				return delivery.Change{Lines: []delivery.LineSent{{ID: w.Line(id, "tomate"), QuantitySent: f(9)}}}
			}, at(2026, 11, 23, 11, 59), nil},
			{"today", "2026-11-23", orders.Planned, nil, func(string) delivery.Change { return delivery.Change{Date: s("2026-11-20")} }, now, delivery.MsgDate},
			{"past", "2026-11-23", orders.Planned, nil, func(string) delivery.Change { return delivery.Change{Date: s("2026-11-02")} }, now, delivery.MsgDate},
			{"not a date", "2026-11-23", orders.Planned, nil, func(string) delivery.Change { return delivery.Change{Date: s("2026-11-31")} }, now, delivery.MsgDate},
			{"french date", "2026-11-23", orders.Planned, nil, func(string) delivery.Change { return delivery.Change{Date: s("25/11/2026")} }, now, delivery.MsgDate},
			{"empty date", "2026-11-23", orders.Planned, nil, func(string) delivery.Change { return delivery.Change{Date: s("")} }, now, delivery.MsgDate},
			{"another month", "2026-11-23", orders.Planned, nil, func(string) delivery.Change { return delivery.Change{Date: s("2026-12-02")} }, now, delivery.MsgDate},
			{"negative quantity", "2026-11-23", orders.Planned, nil, func(id string) delivery.Change {
				return delivery.Change{Lines: []delivery.LineSent{{ID: w.Line(id, "tomate"), QuantitySent: f(-1)}}}
			}, now, delivery.MsgNegative},
			{"three decimals of kg", "2026-11-23", orders.Planned, nil, func(id string) delivery.Change {
				return delivery.Change{Lines: []delivery.LineSent{{ID: w.Line(id, "tomate"), QuantitySent: f(1.005)}}}
			}, now, delivery.MsgWeight},
			{"half a lettuce", "2026-11-23", orders.Planned, nil, func(id string) delivery.Change {
				return delivery.Change{Lines: []delivery.LineSent{{ID: w.Line(id, "laitue"), QuantitySent: f(2.5)}}}
			}, now, delivery.MsgPieces},
			{"negative lettuces", "2026-11-23", orders.Planned, nil, func(id string) delivery.Change {
				return delivery.Change{Lines: []delivery.LineSent{{ID: w.Line(id, "laitue"), QuantitySent: f(-2)}}}
			}, now, delivery.MsgNegative},
			{"huge quantity", "2026-11-23", orders.Planned, nil, func(id string) delivery.Change {
				return delivery.Change{Lines: []delivery.LineSent{{ID: w.Line(id, "tomate"), QuantitySent: f(1e300)}}}
			}, now, delivery.MsgWeight},
			{"line of another delivery", "2026-11-23", orders.Planned, nil, func(string) delivery.Change {
				other := fx.planned("2026-11-24")
				return delivery.Change{Lines: []delivery.LineSent{{ID: w.Line(other, "tomate"), QuantitySent: f(1)}}}
			}, now, delivery.MsgUnknownLine},
			{"valid date but one bad line", "2026-11-23", orders.Planned, nil, func(id string) delivery.Change {
				return delivery.Change{Date: s("2026-11-25"), Lines: []delivery.LineSent{{ID: w.Line(id, "tomate"), QuantitySent: f(-3)}}}
			}, now, delivery.MsgNegative},
			{"at the lock", "2026-11-20", orders.Planned, nil, func(string) delivery.Change { return delivery.Change{Date: s("2026-11-24")} },
				at(2026, 11, 20, 12, 0), rules.MsgLocked()},
			{"done", "2026-11-19", orders.Done, nil, func(string) delivery.Change { return delivery.Change{Date: s("2026-11-24")} }, now, delivery.MsgNotPlanned},
			{"cancelled", "2026-11-23", orders.Cancelled, nil, func(string) delivery.Change { return delivery.Change{Date: s("2026-11-24")} }, now, delivery.MsgNotPlanned},
			{"another shop", "2026-11-23", orders.Planned, func() string { return fx.other.ID }, func(string) delivery.Change {
				return delivery.Change{Date: s("2026-11-24")}
			}, now, core.ErrNotFound},
			{"the producer", "2026-11-23", orders.Planned, func() string { return w.Farm.ID }, func(string) delivery.Change {
				return delivery.Change{Date: s("2026-11-24")}
			}, now, core.ErrNotFound},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				id := w.Delivery(fx.order, tt.date, tt.status,
					tradetest.L{Product: "tomate", Price: 250, Expected: 1000},
					tradetest.L{Product: "laitue", Price: 90, Expected: 2000})
				who := w.Shop.ID
				if tt.who != nil {
					who = tt.who()
				}
				c := tt.change(id)
				before := storetest.Snapshot(t, w.DB)
				full, err := tx(db, func(q store.Q) (orders.Full, error) {
					return rules.Update(ctx, q, who, fx.order, id, c, tt.now)
				})
				if tt.want != nil {
					expectRefusal(t, w, before, err, tt.want)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				got := w.Get(id)
				if c.Date != nil && got.Date != *c.Date {
					t.Errorf("date %s", got.Date)
				}
				for _, ls := range c.Lines {
					for _, l := range got.Lines {
						if l.ID == ls.ID && (l.QuantitySent == nil || l.QuantitySent.Float() != *ls.QuantitySent) {
							t.Errorf("line %s sent %v", l.ProductID, l.QuantitySent)
						}
					}
				}
				if full.ID != fx.order || len(full.Deliveries) == 0 {
					t.Errorf("answer %+v", full)
				}
				if got.Status != orders.Planned {
					t.Errorf("status %s", got.Status)
				}
			})
		}
		// A wrong order id for an existing delivery is not found.
		id := fx.planned("2026-11-26")
		other := w.Order(w.Farm, w.Shop, "2026-12-01")
		_, err := tx(db, func(q store.Q) (orders.Full, error) {
			return rules.Update(ctx, q, w.Shop.ID, other, id, delivery.Change{Date: s("2026-11-27")}, now)
		})
		if !errors.Is(err, core.ErrNotFound) {
			t.Fatalf("delivery under another order: %v", err)
		}
	})
}

func TestCancel(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fx := newFixture(t, db)
		w := fx.w
		tests := []struct {
			name, date, status string
			who                func() string
			now                time.Time
			want               any
		}{
			{"planned", "2026-11-23", orders.Planned, nil, now, nil},
			{"planned today before noon", "2026-11-20", orders.Planned, nil, at(2026, 11, 20, 11, 59), nil},
			{"at the lock", "2026-11-20", orders.Planned, nil, at(2026, 11, 20, 12, 0), rules.MsgLocked()},
			{"done", "2026-11-18", orders.Done, nil, now, delivery.MsgNotPlanned},
			{"cancelled", "2026-11-23", orders.Cancelled, nil, now, delivery.MsgNotPlanned},
			{"another shop", "2026-11-23", orders.Planned, func() string { return fx.other.ID }, now, core.ErrNotFound},
			{"the producer", "2026-11-23", orders.Planned, func() string { return w.Farm.ID }, now, core.ErrNotFound},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				id := w.Delivery(fx.order, tt.date, tt.status, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
				who := w.Shop.ID
				if tt.who != nil {
					who = tt.who()
				}
				before := storetest.Snapshot(t, w.DB)
				full, err := tx(db, func(q store.Q) (orders.Full, error) {
					return rules.Cancel(ctx, q, who, fx.order, id, tt.now)
				})
				if tt.want != nil {
					expectRefusal(t, w, before, err, tt.want)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if got := w.Get(id); got.Status != orders.Cancelled {
					t.Fatalf("status %s", got.Status)
				}
				for _, d := range full.ViewFor(w.Shop.ID).Deliveries {
					if d.ID == id && d.Status != orders.Cancelled {
						t.Fatalf("answer shows %s", d.Status)
					}
				}
			})
		}
	})
}

// done adds a done delivery: 10 kg of tomatoes, 20 lettuces.
func (fx fixture) done(date string) string {
	return fx.w.Delivery(fx.order, date, orders.Done,
		tradetest.L{Product: "tomate", Price: 250, Expected: 1200, Sent: tradetest.Dec(1000)},
		tradetest.L{Product: "laitue", Price: 90, Expected: 2000, Sent: tradetest.Dec(2000)})
}

func claimOf(w *tradetest.World, id string, lines ...delivery.LineClaim) delivery.Claim {
	for i := range lines {
		lines[i].ID = w.Line(id, lines[i].ID)
	}
	return delivery.Claim{Lines: lines}
}

func TestClaim(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fx := newFixture(t, db)
		w := fx.w
		send := func(who, id string, c delivery.Claim, at time.Time) (orders.Full, error) {
			return tx(db, func(q store.Q) (orders.Full, error) {
				return rules.SendClaim(ctx, q, who, fx.order, id, c, at)
			})
		}

		// A first claim, then a change of it.
		id := fx.done("2026-11-18")
		c := claimOf(w, id, delivery.LineClaim{ID: "tomate", QuantityClaimed: f(-3), ClaimType: s("quality"), ClaimComment: s("  tomates abîmées ")})
		full, err := send(w.Farm.ID, id, c, now)
		if err != nil {
			t.Fatal(err)
		}
		got := w.Get(id)
		if got.ClaimStatus != orders.ClaimSent || got.ClaimSentAt == nil || *got.ClaimSentAt != now.UnixMilli() {
			t.Fatalf("delivery after claim %+v", got.Delivery)
		}
		for _, l := range got.Lines {
			want := map[string][3]any{"tomate": {decimal.Dec(-300), "quality", "tomates abîmées"}, "laitue": {decimal.Dec(0), "", ""}}[l.ProductID]
			if l.QuantityClaimed != want[0] || l.ClaimType != want[1] || l.ClaimComment != want[2] {
				t.Errorf("line %s: %v %q %q", l.ProductID, l.QuantityClaimed, l.ClaimType, l.ClaimComment)
			}
		}
		if v := full.ViewFor(w.Farm.ID); v.Deliveries[0].ClaimStatus != orders.ClaimSent {
			t.Fatalf("answer %+v", v.Deliveries[0])
		}
		all, err := activity.Feed(ctx, db, w.Shop.ID, "", 10)
		var feed []activity.View // the claims among the trade that planned the delivery
		for _, e := range all {
			if e.Type == activity.ClaimRequest {
				feed = append(feed, e)
			}
		}
		if err != nil || len(feed) != 1 || all[0].Type != activity.ClaimRequest || feed[0].Origin.Name != w.Farm.Name ||
			feed[0].Target == nil || feed[0].Target.Name != w.Shop.Name || feed[0].Data.Date != "2026-11-18" ||
			feed[0].Data.Product == nil || feed[0].Data.Product.Name != "Tomate" || *feed[0].Data.Quantity != -300 {
			t.Fatalf("event %+v, %v", feed, err)
		}

		later := now.Add(time.Hour)
		before := storetest.Snapshot(t, w.DB)
		_, err = send(w.Farm.ID, id, c, later)
		expectRefusal(t, w, before, err, delivery.MsgNoChange)

		c2 := claimOf(w, id,
			delivery.LineClaim{ID: "tomate", QuantityClaimed: f(-2), ClaimType: s("quality"), ClaimComment: s("tomates abîmées")},
			delivery.LineClaim{ID: "laitue", QuantityClaimed: f(-3), ClaimType: s("quantity")})
		if _, err := send(w.Farm.ID, id, c2, later); err != nil {
			t.Fatal(err)
		}
		got = w.Get(id)
		if *got.ClaimSentAt != later.UnixMilli() || got.Lines[0].QuantityClaimed != -300 || got.Lines[1].QuantityClaimed != -200 {
			t.Fatalf("modified claim %+v %+v", got.Delivery, got.Lines)
		}

		// Refusals, each on a fresh done delivery unless said otherwise.
		reviewed := w.Played(fx.order, "2026-11-17", tradetest.Outcome{Status: orders.Done,
			Claim: &tradetest.ClaimOutcome{Lines: map[string]tradetest.ClaimedLine{"tomate": {Quantity: -100, Type: orders.ClaimQuality}},
				SentAt: at(2026, 11, 17, 15, 0), Status: orders.ClaimAccepted, ReviewedAt: at(2026, 11, 18, 9, 0)}},
			tradetest.L{Product: "tomate", Price: 250, Expected: 1200}, tradetest.L{Product: "laitue", Price: 90, Expected: 2000})
		invoicedOrder := w.Order(w.Farm, w.Shop, "2026-10-01")
		invoiced := w.Delivery(invoicedOrder, "2026-11-19", orders.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		w.Exec(`INSERT INTO documents (id, kind, series, order_id, producer_id, distributor_id, month, year, seq, number, issued_at,
			issue_date, due_date, seller, buyer, notes, vat_rate, vat_exempt, vat_regime, discount, discount_until, total_ht, total_vat,
			total_ttc, terms, mail_seller_key, mail_buyer_key, mail_accounting_key)
			VALUES ('inv', 'invoice', 'FA', ?, ?, ?, '2026-10-01', 2026, 1, 'FA-2026-000001', 0, '2026-11-01', '2026-11-30', '{}', '{}',
			'[]', 550, FALSE, 'normal', 0, '', 0, 0, 0, '[]', '', '', '')`,
			invoicedOrder, w.Farm.ID, w.Shop.ID)
		tomato := func(q float64, kind string) func(string) delivery.Claim {
			return func(id string) delivery.Claim {
				return claimOf(w, id, delivery.LineClaim{ID: "tomate", QuantityClaimed: f(q), ClaimType: s(kind)})
			}
		}
		tests := []struct {
			name     string
			delivery func() string
			order    string
			claim    func(id string) delivery.Claim
			who      string
			now      time.Time
			want     any
		}{
			{"no quantity", func() string { return fx.done("2026-11-18") }, "", func(id string) delivery.Claim {
				return claimOf(w, id, delivery.LineClaim{ID: "tomate", ClaimType: s("quality")})
			}, "", now, delivery.MsgNoQuantity},
			{"only zeros", func() string { return fx.done("2026-11-18") }, "", tomato(0, "quality"), "", now, delivery.MsgNoQuantity},
			{"no lines", func() string { return fx.done("2026-11-18") }, "", func(string) delivery.Claim { return delivery.Claim{} }, "", now, delivery.MsgNoQuantity},
			{"three decimals", func() string { return fx.done("2026-11-18") }, "", tomato(-0.001, "quality"), "", now, delivery.MsgNotNumber},
			{"half a lettuce", func() string { return fx.done("2026-11-18") }, "", func(id string) delivery.Claim {
				return claimOf(w, id, delivery.LineClaim{ID: "laitue", QuantityClaimed: f(0.5), ClaimType: s("quantity")})
			}, "", now, delivery.MsgPieces},
			{"more than delivered", func() string { return fx.done("2026-11-18") }, "", tomato(-10.01, "quality"), "", now, delivery.MsgClaimExceeds},
			// 10 kg sent of 12 ordered: at most 2 more; 20 lettuces of 20, none.
			{"more than ordered", func() string { return fx.done("2026-11-18") }, "", tomato(2.01, "quantity"), "", now,
				"La quantité livrée plus la quantité réclamée ne peut excéder la quantité commandée (12kg)"},
			{"999999999 kg", func() string { return fx.done("2026-11-18") }, "", tomato(999999999, "quantity"), "", now,
				delivery.ClaimAboveMessage(1200, "kg")},
			{"beyond a trillion", func() string { return fx.done("2026-11-18") }, "", tomato(1e13, "quantity"), "", now,
				delivery.ClaimAboveMessage(1200, "kg")},
			{"minus a trillion and more", func() string { return fx.done("2026-11-18") }, "", tomato(-1e13, "quality"), "", now, delivery.MsgClaimExceeds},
			{"one lettuce more than ordered", func() string { return fx.done("2026-11-18") }, "", func(id string) delivery.Claim {
				return claimOf(w, id, delivery.LineClaim{ID: "laitue", QuantityClaimed: f(1), ClaimType: s("quantity")})
			}, "", now, "La quantité livrée plus la quantité réclamée ne peut excéder la quantité commandée (20un)"},
			{"12345.675 kg", func() string { return fx.done("2026-11-18") }, "", tomato(-12345.675, "quality"), "", now, delivery.MsgNotNumber},
			{"5000.004 lettuces", func() string { return fx.done("2026-11-18") }, "", func(id string) delivery.Claim {
				return claimOf(w, id, delivery.LineClaim{ID: "laitue", QuantityClaimed: f(-5000.004), ClaimType: s("quantity")})
			}, "", now, delivery.MsgPieces},
			{"negative zero", func() string { return fx.done("2026-11-18") }, "", tomato(math.Copysign(0, -1), "quality"), "", now, delivery.MsgNoQuantity},
			{"no type", func() string { return fx.done("2026-11-18") }, "", tomato(-1, ""), "", now, delivery.MsgClaimType},
			{"unknown type", func() string { return fx.done("2026-11-18") }, "", tomato(-1, "qualite"), "", now, delivery.MsgClaimType},
			{"comment too long", func() string { return fx.done("2026-11-18") }, "", func(id string) delivery.Claim {
				return claimOf(w, id, delivery.LineClaim{ID: "tomate", QuantityClaimed: f(-1), ClaimType: s("quality"), ClaimComment: s(strings.Repeat("é", 501))})
			}, "", now, delivery.MsgTooLong},
			{"line of another delivery", func() string { return fx.done("2026-11-18") }, "", func(string) delivery.Claim {
				return claimOf(w, fx.done("2026-11-19"), delivery.LineClaim{ID: "tomate", QuantityClaimed: f(-1), ClaimType: s("quality")})
			}, "", now, delivery.MsgUnknownLine},
			{"same line twice", func() string { return fx.done("2026-11-18") }, "", func(id string) delivery.Claim {
				return claimOf(w, id, delivery.LineClaim{ID: "tomate", QuantityClaimed: f(-1), ClaimType: s("quality")},
					delivery.LineClaim{ID: "tomate", QuantityClaimed: f(-2), ClaimType: s("quality")})
			}, "", now, delivery.MsgDuplicate},
			{"planned", func() string { return fx.planned("2026-11-23") }, "", tomato(-1, "quality"), "", now, delivery.MsgNotDone},
			{"cancelled", func() string {
				return w.Delivery(fx.order, "2026-11-19", orders.Cancelled, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
			}, "", tomato(-1, "quality"), "", now, delivery.MsgNotDone},
			// Tuesday 17: Wednesday 18 and Thursday 19 are its two working days.
			{"past its window", func() string { return fx.done("2026-11-17") }, "", tomato(-1, "quality"), "", now,
				"Le délai de demande d'avoir est dépassé : elle était possible jusqu'au jeudi 19 novembre 2026, deux jours ouvrés après la livraison."},
			{"at midnight after its last day", func() string { return fx.done("2026-11-18") }, "", tomato(-1, "quality"), "", at(2026, 11, 21, 0, 0),
				delivery.ClaimClosedMessage(date(t, "2026-11-20"))},
			// Tuesday 10: Wednesday 11 November is a holiday.
			{"past its window, a holiday in it", func() string { return fx.done("2026-11-10") }, "", tomato(-1, "quality"), "", at(2026, 11, 14, 8, 0),
				delivery.ClaimClosedMessage(date(t, "2026-11-13"))},
			// Friday 27: Monday 30 November and Tuesday 1 December.
			{"over a weekend and into the next month", func() string { return fx.done("2026-11-27") }, "", tomato(-1, "quality"), "", at(2026, 12, 2, 9, 0),
				delivery.ClaimClosedMessage(date(t, "2026-12-01"))},
			{"reviewed", func() string { return reviewed }, "", tomato(-1, "quality"), "", now, delivery.MsgClaimReviewed},
			{"the shop", func() string { return fx.done("2026-11-18") }, "", tomato(-1, "quality"), w.Shop.ID, now, core.ErrNotFound},
			{"another producer", func() string { return fx.done("2026-11-18") }, "", tomato(-1, "quality"), fx.farm2.ID, now, core.ErrNotFound},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				id := tt.delivery()
				order, who := fx.order, w.Farm.ID
				if tt.order != "" {
					order = tt.order
				}
				if tt.who != "" {
					who = tt.who
				}
				c := tt.claim(id)
				before := storetest.Snapshot(t, w.DB)
				_, err := tx(db, func(q store.Q) (orders.Full, error) {
					return rules.SendClaim(ctx, q, who, order, id, c, tt.now)
				})
				expectRefusal(t, w, before, err, tt.want)
			})
		}

		// A planned delivery past its lock is locked, then claimed.
		late := fx.planned("2026-11-19")
		if _, err := send(w.Farm.ID, late, claimOf(w, late, delivery.LineClaim{ID: "laitue", QuantityClaimed: f(-1), ClaimType: s("quality")}), now); err != nil {
			t.Fatal(err)
		}
		if got := w.Get(late); got.Status != orders.Done || got.ClaimStatus != orders.ClaimSent || *got.Lines[1].QuantitySent != 1000 {
			t.Fatalf("late delivery %+v %+v", got.Delivery, got.Lines)
		}
		// The last moment of the window is still in it, past a holiday;
		// and over a weekend, in the next month.
		last := fx.done("2026-11-10")
		if _, err := send(w.Farm.ID, last, claimOf(w, last, delivery.LineClaim{ID: "tomate", QuantityClaimed: f(1), ClaimType: s("quantity")}),
			at(2026, 11, 13, 23, 59)); err != nil {
			t.Fatal(err)
		}
		friday := fx.done("2026-11-27")
		if _, err := send(w.Farm.ID, friday, claimOf(w, friday, delivery.LineClaim{ID: "tomate", QuantityClaimed: f(-1), ClaimType: s("quality")}),
			at(2026, 12, 1, 23, 59)); err != nil {
			t.Fatal(err)
		}
		// An invoiced order's delivery is claimed within its window like
		// any other: the claim, once accepted, is settled by a credit note.
		if _, err := send(w.Farm.ID, invoiced, tomato(-1, "quality")(invoiced), now); err == nil {
			t.Fatal("claimed under the wrong order")
		}
		if _, err := tx(db, func(q store.Q) (orders.Full, error) {
			return rules.SendClaim(ctx, q, w.Farm.ID, invoicedOrder, invoiced, tomato(-1, "quality")(invoiced), now)
		}); err != nil {
			t.Fatal(err)
		}
		if got := w.Get(invoiced); got.ClaimStatus != orders.ClaimSent {
			t.Fatalf("claim on an invoiced order: %+v", got.Delivery)
		}
		// Up to the quantity ordered exactly, and down to nothing.
		bounded := fx.done("2026-11-18")
		if _, err := send(w.Farm.ID, bounded, claimOf(w, bounded, delivery.LineClaim{ID: "tomate", QuantityClaimed: f(2), ClaimType: s("quantity")},
			delivery.LineClaim{ID: "laitue", QuantityClaimed: f(-20), ClaimType: s("quality")}), now); err != nil {
			t.Fatal(err)
		}
		if got := w.Get(bounded); got.Lines[0].QuantityClaimed != -2000 || got.Lines[1].QuantityClaimed != 200 {
			t.Fatalf("claim to the bounds %+v", got.Lines)
		}
	})
}

// TestCheckClaim: the bounds of a claim per line — the line then bills
// between zero and what was ordered (or what the shop noted as sent, when
// that is more: a claim may always reduce) — and the decimal rule.
func TestCheckClaim(t *testing.T) {
	t.Parallel()
	line := func(expected, sent decimal.Dec) orders.Line {
		return orders.Line{QuantityExpected: expected, QuantitySent: &sent}
	}
	above := func(ordered decimal.Dec, unit string) string { return delivery.ClaimAboveMessage(ordered, unit) }
	tests := []struct {
		name string
		line orders.Line
		unit string
		in   float64
		want decimal.Dec
		msg  string
	}{
		{"2.5 kg line, 999999999 claimed", line(250, 250), "kg", 999999999, 0, above(250, "kg")},
		{"up to the ordered quantity", line(250, 200), "kg", 0.5, 50, ""},
		{"a hundredth over it", line(250, 200), "kg", 0.51, 0, above(250, "kg")},
		{"down to nothing", line(250, 200), "kg", -2, -200, ""},
		{"a hundredth under nothing", line(250, 200), "kg", -2.01, 0, delivery.MsgClaimExceeds},
		{"nothing sent yet: the expected quantity counts", orders.Line{QuantityExpected: 300}, "kg", -3, -300, ""},
		{"sent more than ordered: may reduce", line(1000, 1200), "kg", -1, -100, ""},
		{"sent more than ordered: may not add", line(1000, 1200), "kg", 1, 0, above(1000, "kg")},
		{"sent more than ordered: down to nothing", line(1000, 1200), "kg", -12, -1200, ""},
		{"pieces", line(1200, 1000), "un", 2, 200, ""},
		{"pieces over", line(1200, 1000), "un", 3, 0, above(1200, "un")},
		{"half a piece", line(1200, 1000), "un", 0.5, 0, delivery.MsgPieces},
		{"5000.004 pieces", line(1200, 1000), "un", -5000.004, 0, delivery.MsgPieces},
		{"12345.675 kg", line(1234600, 1234600), "kg", -12345.675, 0, delivery.MsgNotNumber},
		{"99999.995 kg", line(10000000, 10000000), "kg", -99999.995, 0, delivery.MsgNotNumber},
		{"1.234 kg", line(250, 250), "kg", -1.234, 0, delivery.MsgNotNumber},
		{"zero", line(250, 250), "kg", 0, 0, ""},
		{"negative zero", line(250, 250), "kg", math.Copysign(0, -1), 0, ""},
		{"exponent 1e2", line(20000, 10000), "kg", 1e2, 10000, ""},
		{"a trillion and more", line(250, 250), "kg", 1e13, 0, above(250, "kg")},
		{"minus a trillion and more", line(250, 250), "kg", -1e13, 0, delivery.MsgClaimExceeds},
		{"largest float", line(250, 250), "kg", math.MaxFloat64, 0, above(250, "kg")},
		{"NaN", line(250, 250), "kg", math.NaN(), 0, delivery.MsgNotNumber},
	}
	for _, tt := range tests {
		got, msg := delivery.CheckClaim(tt.line, tt.unit, tt.in)
		if got != tt.want || msg != tt.msg {
			t.Errorf("%s: CheckClaim(%v) = %v, %q; want %v, %q", tt.name, tt.in, got, msg, tt.want, tt.msg)
		}
	}
	if got := delivery.ClaimAboveMessage(250, "kg"); got != "La quantité livrée plus la quantité réclamée ne peut excéder la quantité commandée (2,5kg)" {
		t.Errorf("message %q", got)
	}
}

func TestReview(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fx := newFixture(t, db)
		w := fx.w
		claimed := func() string {
			id := fx.done("2026-11-18")
			if _, err := tx(db, func(q store.Q) (orders.Full, error) {
				return rules.SendClaim(ctx, q, w.Farm.ID, fx.order, id,
					claimOf(w, id, delivery.LineClaim{ID: "tomate", QuantityClaimed: f(-2), ClaimType: s("quality")}), now)
			}); err != nil {
				t.Fatal(err)
			}
			return id
		}
		review := func(who, id string, ok bool) (orders.Full, error) {
			return tx(db, func(q store.Q) (orders.Full, error) {
				return rules.Review(ctx, q, who, fx.order, id, ok, now.Add(time.Hour))
			})
		}
		for _, ok := range []bool{true, false} {
			id := claimed()
			full, err := review(w.Shop.ID, id, ok)
			if err != nil {
				t.Fatal(err)
			}
			want := map[bool]string{true: orders.ClaimAccepted, false: orders.ClaimRejected}[ok]
			got := w.Get(id)
			if got.ClaimStatus != want || got.ClaimReviewedAt == nil || *got.ClaimReviewedAt != now.Add(time.Hour).UnixMilli() {
				t.Fatalf("reviewed %+v", got.Delivery)
			}
			if full.ViewFor(w.Shop.ID).Producer != w.Farm.ID {
				t.Fatal("answer not seen from the shop")
			}
			feed, _ := activity.Feed(ctx, db, w.Farm.ID, "", 1)
			if feed[0].Type != activity.ClaimReview || *feed[0].Data.Outcome != ok || feed[0].Origin.Name != w.Shop.Name || feed[0].Target.Name != w.Farm.Name {
				t.Fatalf("event %+v", feed[0])
			}
			// Reviewed once: a second answer is refused.
			before := storetest.Snapshot(t, w.DB)
			_, err = review(w.Shop.ID, id, !ok)
			expectRefusal(t, w, before, err, delivery.MsgNoClaim)
		}
		void := fx.done("2026-11-18")
		before := storetest.Snapshot(t, w.DB)
		_, err := review(w.Shop.ID, void, true)
		expectRefusal(t, w, before, err, delivery.MsgNoClaim)
		pending := claimed()
		before = storetest.Snapshot(t, w.DB)
		for _, who := range []string{fx.other.ID, w.Farm.ID, "nobody"} {
			_, err := review(who, pending, true)
			expectRefusal(t, w, before, err, core.ErrNotFound)
		}
	})
}
