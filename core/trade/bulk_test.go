package trade_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade"
)

// bulkParties are the accounts of the bulk tests, with fixed ids so that
// two databases can be compared row for row.
var bulkParties = []accounts.User{
	{ID: "shop-a", Type: accounts.Distributor, DeliveryDays: "0000000", AddressLine1: "1 place du marché", AddressLine2: "74230 Thônes", SIRET: siretOf(801)},
	{ID: "shop-b", Type: accounts.Distributor, DeliveryDays: "0000000", AddressLine1: "20200 Bastia", SIRET: siretOf(802)},
	{ID: "farm-f", Type: accounts.Producer, DeliveryDays: "1001000", SIRET: siretOf(803)}, // Monday, Thursday
	{ID: "farm-g", Type: accounts.Producer, DeliveryDays: "0100000", SIRET: siretOf(804)}, // Tuesday
	{ID: "farm-idle", Type: accounts.Producer, DeliveryDays: "0000000", SIRET: siretOf(805)},
}

// bulkNeeds are the shops' needs: shop, product, month, quantity.
var bulkNeeds = []struct {
	shop, product, month string
	qty                  float64
}{
	{"shop-a", "tomate", "2026-11", 500}, {"shop-a", "tomate", "2026-12", 500}, {"shop-a", "laitue", "2026-12", 100},
	{"shop-b", "tomate", "2026-11", 500}, {"shop-b", "carotte", "2026-11", 200}, {"shop-b", "tomate", "2026-12", 500},
	{"shop-a", "tomate", "2026-10", 500},
}

// bulkWorld is a database with the parties and needs, as of 1 November.
func bulkWorld(t *testing.T, db *store.DB) {
	t.Helper()
	created := at(2026, 10, 1, 9)
	for _, u := range bulkParties {
		u.Email, u.EmailKey, u.Name, u.PasswordHash = u.ID+"@x.fr", u.ID+"@x.fr", u.ID, "-"
		u.CreatedAt, u.UpdatedAt = created.UnixMilli(), created.UnixMilli()
		if err := accounts.Insert(ctx, db, u); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range bulkNeeds {
		if _, err := planning.Create(ctx, db, n.shop, planning.NeedInput{ProductID: n.product, Date: n.month, Quantity: n.qty}, created); err != nil {
			t.Fatal(err)
		}
	}
}

// second is another empty database of the same engine as db.
func second(t *testing.T, db *store.DB) *store.DB {
	t.Helper()
	if db.Dialect == store.Postgres {
		return storetest.Postgres(t)
	}
	return storetest.SQLite(t)
}

var rules = func() delivery.Rules {
	r := delivery.DefaultRules()
	r.Location = paris
	return r
}()

// bulkScenario is a month of trade, in the order it happened: two
// producers, two shops, orders planned on the producers' days (one whose
// first commitment, 3 lettuces over 9 dates, leaves a single delivery),
// sent quantities changed, a delivery cancelled, deliveries locked, claims
// accepted and refused, a correction planned past the month's end, and
// open proposals — a plain one and a pending correction.
func bulkScenario() trade.Batch {
	kg := func(f float64) decimal.Dec { return decimal.Round(f) }
	return trade.Batch{
		Agreements: []trade.Agreement{
			{
				ProducerID: "farm-g", ShopID: "shop-a", Month: "2026-11-01", ProposedAt: at(2026, 11, 2, 8), At: at(2026, 11, 2, 9),
				Commitments: []trade.Accepted{{ProductID: "tomate", Quantity: kg(40), Price: kg(2.5)}},
				Outcome: func(i int, d orders.FullDelivery) delivery.Outcome {
					switch d.Date {
					case "2026-11-03":
						return delivery.Outcome{Status: orders.Done, Sent: map[string]decimal.Dec{"tomate": kg(9.5)}, ChangedAt: at(2026, 11, 2, 15),
							Claim: &delivery.ClaimOutcome{Lines: map[string]delivery.ClaimedLine{"tomate": {Quantity: kg(-1), Type: orders.ClaimQuality, Comment: "abîmées"}},
								SentAt: at(2026, 11, 3, 15), Status: orders.ClaimAccepted, ReviewedAt: at(2026, 11, 4, 10)}}
					case "2026-11-10":
						return delivery.Outcome{Status: orders.Cancelled, ChangedAt: at(2026, 11, 5, 10)}
					case "2026-11-17":
						return delivery.Outcome{Status: orders.Done,
							Claim: &delivery.ClaimOutcome{Lines: map[string]delivery.ClaimedLine{"tomate": {Quantity: kg(-2), Type: orders.ClaimQuantity}},
								SentAt: at(2026, 11, 17, 14), Status: orders.ClaimRejected, ReviewedAt: at(2026, 11, 18, 9)}}
					}
					return delivery.Outcome{Status: orders.Done}
				},
			},
			{
				ProducerID: "farm-f", ShopID: "shop-b", Month: "2026-11-01", At: at(2026, 11, 5, 16),
				Commitments: []trade.Accepted{{ProductID: "tomate", Quantity: kg(70), Price: kg(2)}, {ProductID: "carotte", Quantity: kg(35.5), Price: kg(1.2)}},
				Outcome: func(i int, d orders.FullDelivery) delivery.Outcome {
					out := delivery.Outcome{}
					if d.Date <= "2026-11-25" {
						out.Status = orders.Done
					}
					if d.Date == "2026-11-12" {
						out.Sent, out.ChangedAt = map[string]decimal.Dec{"carotte": kg(4)}, at(2026, 11, 10, 8)
					}
					return out
				},
			},
			{
				ProducerID: "farm-g", ShopID: "shop-b", Month: "2026-11-01", ProposedAt: at(2026, 11, 16, 8), At: at(2026, 11, 16, 10),
				Commitments: []trade.Accepted{{ProductID: "tomate", Quantity: kg(12), Price: kg(2.4)}},
				Outcome:     func(int, orders.FullDelivery) delivery.Outcome { return delivery.Outcome{Status: orders.Done} },
			},
			{
				ProducerID: "farm-f", ShopID: "shop-a", Month: "2026-12-01", At: at(2026, 11, 20, 10),
				Commitments: []trade.Accepted{{ProductID: "laitue", Quantity: kg(3), Price: kg(0.9)}, {ProductID: "tomate", Quantity: kg(100), Price: kg(2)}},
			},
			// A correction once the order's deliveries are all done: the
			// next Tuesday is in December.
			{
				ProducerID: "farm-g", ShopID: "shop-b", Month: "2026-11-01", At: at(2026, 11, 25, 15), Dates: []string{"2026-12-01"},
				Commitments: []trade.Accepted{{ProductID: "tomate", Quantity: kg(6), Price: kg(2.6)}},
			},
		},
		Pending: []trade.Pending{
			{ProducerID: "farm-g", ShopID: "shop-b", ProductID: "tomate", Month: "2026-12-01", Quantity: kg(20), Price: kg(2.2), At: at(2026, 11, 25, 17)},
			{ProducerID: "farm-f", ShopID: "shop-a", ProductID: "tomate", Month: "2026-12-01", Quantity: kg(120), Price: kg(2), At: at(2026, 11, 25, 18)},
		},
	}
}

// timeline runs actions in the order of their times (then of scheduling).
type timeline struct {
	actions []action
	seq     int
}

type action struct {
	at  time.Time
	seq int
	run func(at time.Time) error
}

func (tl *timeline) add(at time.Time, run func(time.Time) error) {
	tl.seq++
	tl.actions = append(tl.actions, action{at, tl.seq, run})
}

func (tl *timeline) play(t *testing.T) {
	t.Helper()
	for len(tl.actions) > 0 {
		sort.Slice(tl.actions, func(a, b int) bool {
			x, y := tl.actions[a], tl.actions[b]
			return x.at.Before(y.at) || x.at.Equal(y.at) && x.seq < y.seq
		})
		a := tl.actions[0]
		tl.actions = tl.actions[1:]
		if err := a.run(a.at); err != nil {
			t.Fatalf("at %s: %v", a.at, err)
		}
	}
}

// byTrade plays a batch through the operations themselves: Propose and
// Review for each commitment, the shop's Update and Cancel, the deliveries
// job at every day's lock until through, SendClaim and the shop's Review.
func byTrade(t *testing.T, db *store.DB, b trade.Batch, through time.Time) {
	t.Helper()
	user := func(id string) accounts.User {
		u, err := accounts.ByID(ctx, db, id)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	needOf := func(shop, product, month string) string {
		var id string
		if err := store.Get(ctx, db, &id, `SELECT id FROM needs WHERE distributor_id = ? AND product_id = ? AND month = ?`, shop, product, month); err != nil {
			t.Fatal(err)
		}
		return id
	}
	inTx := func(fn func(q store.Q) error) error { return db.Tx(ctx, func(tx *sqlx.Tx) error { return fn(tx) }) }
	tl := &timeline{}
	for day := at(2026, 11, 1, 12); !day.After(through); day = day.AddDate(0, 0, 1) {
		tl.add(day, func(now time.Time) error { _, err := rules.LockDue(ctx, db, now); return err })
	}
	seen := map[string]bool{}
	for _, a := range b.Agreements {
		proposed := a.ProposedAt
		if proposed.IsZero() {
			proposed = a.At
		}
		tl.add(a.At, func(time.Time) error {
			farm, shop := user(a.ProducerID), user(a.ShopID)
			for _, c := range a.Commitments {
				need := needOf(a.ShopID, c.ProductID, a.Month)
				qty := c.Quantity
				if _, ps, err := planning.Get(ctx, db, need); err == nil {
					if _, old, _ := trade.StateOf(ps, farm.ID); old != nil {
						qty += old.Quantity
					}
				}
				ok(t)(propose(db, farm, need, farm.ID, qty.Float(), c.Price.Float(), proposed))
				ok(t)(review(db, shop, need, farm.ID, true, a.At))
			}
			o := order(t, db, a.ProducerID, a.ShopID, a.Month)
			i := 0
			for _, d := range o.Deliveries { // by date
				if seen[d.ID] {
					continue
				}
				seen[d.ID] = true
				if a.Outcome != nil {
					schedule(tl, inTx, o.ID, d, a.Outcome(i, d), a.At)
				}
				i++
			}
			return nil
		})
	}
	for _, p := range b.Pending {
		tl.add(p.At, func(now time.Time) error {
			farm := user(p.ProducerID)
			_, err := propose(db, farm, needOf(p.ShopID, p.ProductID, p.Month), farm.ID, p.Quantity.Float(), p.Price.Float(), now)
			return err
		})
	}
	tl.play(t)
}

// schedule puts on the timeline the operations that give delivery d the
// outcome out (the lock is the daily job's).
func schedule(tl *timeline, inTx func(func(store.Q) error) error, orderID string, d orders.FullDelivery, out delivery.Outcome, planned time.Time) {
	lineOf := func(product string) string {
		for _, l := range d.Lines {
			if l.ProductID == product {
				return l.ID
			}
		}
		return ""
	}
	changed := out.ChangedAt
	if changed.IsZero() {
		changed = planned
	}
	if len(out.Sent) > 0 {
		var c delivery.Change
		for p, q := range out.Sent {
			f := q.Float()
			c.Lines = append(c.Lines, delivery.LineSent{ID: lineOf(p), QuantitySent: &f})
		}
		tl.add(changed, func(now time.Time) error {
			return inTx(func(q store.Q) error {
				shop, err := shopOf(q, orderID)
				if err == nil {
					_, err = rules.Update(ctx, q, shop, orderID, d.ID, c, now)
				}
				return err
			})
		})
	}
	if out.Status == orders.Cancelled {
		tl.add(changed, func(now time.Time) error {
			return inTx(func(q store.Q) error {
				shop, err := shopOf(q, orderID)
				if err == nil {
					_, err = rules.Cancel(ctx, q, shop, orderID, d.ID, now)
				}
				return err
			})
		})
	}
	if cl := out.Claim; cl != nil {
		var c delivery.Claim
		for p, l := range cl.Lines {
			f, kind, comment := l.Quantity.Float(), l.Type, l.Comment
			c.Lines = append(c.Lines, delivery.LineClaim{ID: lineOf(p), QuantityClaimed: &f, ClaimType: &kind, ClaimComment: &comment})
		}
		tl.add(cl.SentAt, func(now time.Time) error {
			return inTx(func(q store.Q) error {
				_, err := rules.SendClaim(ctx, q, d.ProducerID, orderID, d.ID, c, now)
				return err
			})
		})
		if cl.Status == orders.ClaimAccepted || cl.Status == orders.ClaimRejected {
			tl.add(cl.ReviewedAt, func(now time.Time) error {
				return inTx(func(q store.Q) error {
					shop, err := shopOf(q, orderID)
					if err == nil {
						_, err = rules.Review(ctx, q, shop, orderID, d.ID, cl.Status == orders.ClaimAccepted, now)
					}
					return err
				})
			})
		}
	}
}

func shopOf(q store.Q, orderID string) (string, error) {
	var shop string
	err := store.Get(ctx, q, &shop, `SELECT distributor_id FROM orders WHERE id = ?`, orderID)
	return shop, err
}

// bulkWrite writes a batch with trade.Bulk in one transaction.
func bulkWrite(db *store.DB, b trade.Batch) ([]orders.Full, error) {
	var out []orders.Full
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		out, err = trade.Bulk(ctx, tx, rules, b)
		return err
	})
	return out, err
}

// rowsOf is every table trade, delivery and the price sums write, keyed
// by what both ways share (ids of parties, products, months, chronos),
// not by the ids each draws.
func rowsOf(t *testing.T, db *store.DB) map[string][]string {
	t.Helper()
	need := `(SELECT n.distributor_id || '/' || n.product_id || '/' || n.month FROM needs n WHERE n.id = %s)`
	queries := map[string]string{
		"proposals": `SELECT ` + fmt.Sprintf(need, "p.need_id") + `, p.producer_id, p.status, p.origin, p.quantity, p.price, p.created_at, p.updated_at FROM proposals p`,
		"orders":    `SELECT producer_id, distributor_id, month, created_at, updated_at FROM orders`,
		"deliveries": `SELECT d.producer_id, d.chrono, o.distributor_id, o.month, d.status, d.date, d.claim_status,
			COALESCE(d.claim_sent_at, -1), COALESCE(d.claim_reviewed_at, -1), COALESCE(d.note_sent_at, -1), d.created_at, d.updated_at
			FROM deliveries d JOIN orders o ON o.id = d.order_id`,
		"lines": `SELECT d.producer_id, d.chrono, l.product_id, ` + fmt.Sprintf(need, "l.need_id") + `, l.price, l.quantity_expected,
			COALESCE(l.quantity_sent, -1), l.quantity_claimed, l.claim_type, l.claim_comment
			FROM delivery_lines l JOIN deliveries d ON d.id = l.delivery_id`,
		"counters": `SELECT key, value FROM counters`,
		"price_commitments": `SELECT shop_id, month, product_id, producer_id, area, buyer, seller, amount, quantity FROM price_commitments
			WHERE quantity <> 0`,
		"price_entities": `SELECT product_id, month, area, side, entity, purchases, quantity FROM price_entities WHERE purchases <> 0`,
		"price_cells": `SELECT product_id, month, area, amount, quantity, purchases, buyers, sellers, largest_buyer, largest_seller FROM price_cells
			WHERE amount <> 0 OR quantity <> 0 OR purchases <> 0 OR buyers <> 0 OR sellers <> 0`,
		"events": `SELECT type, created_at, origin_id, COALESCE(target_id, ''), data FROM events`,
	}
	// Events name their need by id: replaced by the need's key.
	var keys []struct {
		ID  string `db:"id"`
		Key string `db:"k"`
	}
	if err := store.Select(ctx, db, &keys, `SELECT id, distributor_id || '/' || product_id || '/' || month AS k FROM needs`); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for table, q := range queries {
		rows, err := db.QueryContext(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				if b, ok := v.([]byte); ok {
					vals[i] = string(b)
				}
			}
			row := fmt.Sprint(vals...)
			if table == "events" {
				for _, k := range keys {
					row = strings.ReplaceAll(row, `"need":"`+k.ID+`"`, `"need":"`+k.Key+`"`)
				}
			}
			out[table] = append(out[table], row)
		}
		rows.Close()
		slices.Sort(out[table])
	}
	return out
}

func sameRows(t *testing.T, got, want map[string][]string) {
	t.Helper()
	for table := range want {
		if g, w := got[table], want[table]; !slices.Equal(g, w) {
			t.Errorf("%s:\n got %s\nwant %s", table, strings.Join(g, "\n     "), strings.Join(w, "\n     "))
		}
	}
}

// TestBulkAgreesWithTrade: a month of trade written by trade.Bulk leaves
// the rows that Propose, Review and the deliveries' operations leave when
// they play it — proposals, orders, deliveries and lines with their
// chronos, states and claims, counters, price sums, events — and its price
// sums are those RebuildPrices computes from its commitments.
func TestBulkAgreesWithTrade(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		played, written := db, second(t, db)
		bulkWorld(t, played)
		bulkWorld(t, written)
		byTrade(t, played, bulkScenario(), at(2026, 11, 25, 12))
		out, err := bulkWrite(written, bulkScenario())
		if err != nil {
			t.Fatal(err)
		}
		want, got := rowsOf(t, played), rowsOf(t, written)
		if len(want["deliveries"]) != 15 || len(want["events"]) < 20 || len(want["price_cells"]) < 4 {
			t.Fatalf("the scenario played %d deliveries, %d events, %d price cells", len(want["deliveries"]), len(want["events"]), len(want["price_cells"]))
		}
		sameRows(t, got, want)

		// What Bulk returns is what it wrote.
		for _, f := range out {
			stored, err := orders.Get(ctx, written, f.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Deliveries {
				i := slices.IndexFunc(stored.Deliveries, func(s orders.FullDelivery) bool { return s.ID == d.ID })
				if i < 0 || !reflect.DeepEqual(stored.Deliveries[i], d) {
					t.Fatalf("returned %+v, stored %+v", d, stored.Deliveries)
				}
			}
		}

		if err := trade.RebuildPrices(ctx, written); err != nil {
			t.Fatal(err)
		}
		sameRows(t, rowsOf(t, written), got)
	})
}

// TestBulkDatesAsScheduled: dates given that are the producer's schedule
// plan what the schedule plans.
func TestBulkDatesAsScheduled(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		scheduled, dated := db, second(t, db)
		bulkWorld(t, scheduled)
		bulkWorld(t, dated)
		b := bulkScenario()
		if _, err := bulkWrite(scheduled, b); err != nil {
			t.Fatal(err)
		}
		farm, err := accounts.ByID(ctx, scheduled, "farm-f")
		if err != nil {
			t.Fatal(err)
		}
		b.Agreements[1].Dates = trade.Schedule("2026-11-01", farm.Days(), b.Agreements[1].At)
		if _, err := bulkWrite(dated, b); err != nil {
			t.Fatal(err)
		}
		sameRows(t, rowsOf(t, dated), rowsOf(t, scheduled))
	})
}

// TestBulkRefusals: a batch that trade or the deliveries' rules would
// refuse writes nothing.
func TestBulkRefusals(t *testing.T) {
	kg := func(f float64) decimal.Dec { return decimal.Round(f) }
	one := func(edit func(a *trade.Agreement)) trade.Batch {
		a := trade.Agreement{
			ProducerID: "farm-f", ShopID: "shop-a", Month: "2026-12-01", At: at(2026, 11, 20, 10),
			Commitments: []trade.Accepted{{ProductID: "tomate", Quantity: kg(10), Price: kg(2)}},
		}
		edit(&a)
		return trade.Batch{Agreements: []trade.Agreement{a}}
	}
	outcome := func(out delivery.Outcome) func(*trade.Agreement) {
		return func(a *trade.Agreement) {
			a.Outcome = func(i int, d orders.FullDelivery) delivery.Outcome {
				if i == 0 {
					return out
				}
				return delivery.Outcome{}
			}
		}
	}
	tests := []struct {
		name  string
		batch trade.Batch
		want  string // the refusal's message, or a part of the error
	}{
		{"a past month", one(func(a *trade.Agreement) { a.Month = "2026-10-01" }), planning.MsgPastMonth},
		{"no delivery days", one(func(a *trade.Agreement) { a.ProducerID = "farm-idle" }), trade.MsgNoDeliveryDays},
		{"not a producer", one(func(a *trade.Agreement) { a.ProducerID = "shop-b" }), "not found"},
		{"no need", one(func(a *trade.Agreement) { a.Commitments[0].ProductID = "melon" }), "not found"},
		{"over the need", one(func(a *trade.Agreement) { a.Commitments[0].Quantity = kg(495.01) }), trade.ExceedsMessage(kg(495), "kg")},
		{"part of a piece", one(func(a *trade.Agreement) {
			a.Commitments[0] = trade.Accepted{ProductID: "laitue", Quantity: kg(2.5), Price: kg(1)}
		}), "Veuillez saisir un nombre de pieces correct"},
		{"no price", one(func(a *trade.Agreement) { a.Commitments[0].Price = 0 }), trade.MsgPricePositive},
		{"twice a product", one(func(a *trade.Agreement) { a.Commitments = append(a.Commitments, a.Commitments[0]) }), "twice"},
		{"proposed after", one(func(a *trade.Agreement) { a.ProposedAt = a.At.Add(time.Minute) }), "proposed at"},
		{"a date before", one(func(a *trade.Agreement) { a.Dates = []string{"2026-12-03", "2026-11-20"} }), "delivery date"},
		{"a date of today", one(func(a *trade.Agreement) { a.Dates = []string{"2026-11-20"} }), "delivery date"},
		{"two months later", one(func(a *trade.Agreement) { a.Dates = []string{"2027-01-04", "2027-02-01"} }), "delivery date"},
		{"cancelled after the lock", one(outcome(delivery.Outcome{Status: orders.Cancelled, ChangedAt: at(2026, 12, 3, 13)})), delivery.DefaultRules().MsgLocked()},
		{"sent negative", one(outcome(delivery.Outcome{Sent: map[string]decimal.Dec{"tomate": -1}})), delivery.MsgNegative},
		{"a claim on a planned delivery", one(outcome(delivery.Outcome{
			Claim: &delivery.ClaimOutcome{Lines: map[string]delivery.ClaimedLine{"tomate": {Quantity: -1, Type: orders.ClaimQuality}}, SentAt: at(2026, 12, 3, 15)},
		})), delivery.MsgNotDone},
		{"a claim past its window", one(outcome(delivery.Outcome{Status: orders.Done,
			Claim: &delivery.ClaimOutcome{Lines: map[string]delivery.ClaimedLine{"tomate": {Quantity: -1, Type: orders.ClaimQuality}}, SentAt: at(2027, 1, 1, 9)},
		})), "Le délai de demande d'avoir est dépassé"},
		{"a claim above the order", one(outcome(delivery.Outcome{Status: orders.Done,
			Claim: &delivery.ClaimOutcome{Lines: map[string]delivery.ClaimedLine{"tomate": {Quantity: 1, Type: orders.ClaimQuality}}, SentAt: at(2026, 12, 3, 15)},
		})), "La quantite livree plus la quantite reclamee"},
		{"an answer before the claim", one(outcome(delivery.Outcome{Status: orders.Done,
			Claim: &delivery.ClaimOutcome{Lines: map[string]delivery.ClaimedLine{"tomate": {Quantity: -1, Type: orders.ClaimQuality}},
				SentAt: at(2026, 12, 3, 15), Status: orders.ClaimAccepted, ReviewedAt: at(2026, 12, 3, 14)},
		})), "before it was sent"},
		{"a note before its time", one(outcome(delivery.Outcome{Status: orders.Done, NoteSentAt: at(2026, 12, 3, 12)})), "note"},
		{"an order without dates", trade.Batch{Agreements: []trade.Agreement{
			one(func(*trade.Agreement) {}).Agreements[0],
			one(func(a *trade.Agreement) { a.At = at(2026, 11, 21, 10) }).Agreements[0],
		}}, "dates of its new deliveries"},
		{"an open proposal", one(func(a *trade.Agreement) { a.ProducerID = "farm-g" }), trade.MsgNotAllowed},
		{"an open proposal again", trade.Batch{Pending: []trade.Pending{{ProducerID: "farm-g", ShopID: "shop-a", ProductID: "tomate",
			Month: "2026-12-01", Quantity: kg(5), Price: kg(2), At: at(2026, 11, 20, 9)}}}, trade.MsgNotAllowed},
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		bulkWorld(t, db)
		// An open proposal an agreement would have to answer first.
		if _, err := propose(db, mustUser(t, db, "farm-g"), needID(t, db, "shop-a", "tomate", "2026-12-01"), "farm-g", 5, 2, at(2026, 11, 19, 9)); err != nil {
			t.Fatal(err)
		}
		before := rowsOf(t, db)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := bulkWrite(db, tt.batch)
				if err == nil {
					t.Fatal("written")
				}
				var r *core.Refusal
				if msg := message(err); msg != tt.want && !strings.Contains(err.Error(), tt.want) && !(errors.As(err, &r) && r.Message == tt.want) {
					t.Fatalf("err = %v, want %q", err, tt.want)
				}
				sameRows(t, rowsOf(t, db), before)
			})
		}
	})
}

func mustUser(t *testing.T, db *store.DB, id string) accounts.User {
	t.Helper()
	u, err := accounts.ByID(ctx, db, id)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func needID(t *testing.T, db *store.DB, shop, product, month string) string {
	t.Helper()
	var id string
	if err := store.Get(ctx, db, &id, `SELECT id FROM needs WHERE distributor_id = ? AND product_id = ? AND month = ?`, shop, product, month); err != nil {
		t.Fatal(err)
	}
	return id
}
