package trade_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/trade"
)

var ctx = context.Background()

// now is a Friday morning in Paris.
var now = at(2026, 11, 20, 10)

type fixture struct {
	db                *store.DB
	shop, otherShop   accounts.User
	farm, rival, idle accounts.User // idle has no delivery day
}

// newUser creates an account with a SIRET of its own and its login
// confirmed (accounts.Insert): a legal entity of its own in the price
// figures (trade.EntityOf).
func newUser(t testing.TB, db store.Q, email, typ, days string) accounts.User {
	t.Helper()
	u := accounts.User{ID: core.NewID(), Type: typ, Email: email, EmailKey: email, Name: email, PasswordHash: "-",
		DeliveryDays: days, SIRET: siretOf(int(sirets.Add(1))), CreatedAt: now.UnixMilli(), UpdatedAt: now.UnixMilli()}
	if err := accounts.Insert(ctx, db, u); err != nil {
		t.Fatal(err)
	}
	return u
}

func setup(t testing.TB, db *store.DB) *fixture {
	t.Helper()
	return &fixture{
		db:        db,
		shop:      newUser(t, db, "shop@x.fr", accounts.Distributor, "0000000"),
		otherShop: newUser(t, db, "other-shop@x.fr", accounts.Distributor, "0000000"),
		farm:      newUser(t, db, "farm@x.fr", accounts.Producer, "1001000"), // Monday, Thursday
		rival:     newUser(t, db, "rival@x.fr", accounts.Producer, "0100100"),
		idle:      newUser(t, db, "idle@x.fr", accounts.Producer, "0000000"),
	}
}

// need creates a need of the shop, as of now.
func (f *fixture) need(t testing.TB, product, month string, qty float64) string {
	t.Helper()
	v, err := planning.Create(ctx, f.db, f.shop.ID, planning.NeedInput{ProductID: product, Date: month, Quantity: qty}, now)
	if err != nil {
		t.Fatal(err)
	}
	return v.ID
}

// row writes a proposal row directly, to put a negotiation in a state.
func (f *fixture) row(t testing.TB, needID, producerID, status, from string, qty, price decimal.Dec) {
	t.Helper()
	exec(t, f.db, `INSERT INTO proposals (id, need_id, producer_id, status, origin, quantity, price, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, core.NewID(), needID, producerID, status, from, qty, price, now.UnixMilli(), now.UnixMilli())
}

func exec(t testing.TB, q store.Q, query string, args ...any) {
	t.Helper()
	if _, err := store.Exec(ctx, q, query, args...); err != nil {
		t.Fatal(err)
	}
}

// tx runs a trade operation in a transaction, as the daemon does.
func tx(db *store.DB, fn func(q store.Q) (trade.Outcome, error)) (trade.Outcome, error) {
	var o trade.Outcome
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		o, err = fn(tx)
		return err
	})
	return o, err
}

// needOf keeps the need of an outcome.
func needOf(o trade.Outcome, err error) (planning.View, error) { return o.Need, err }

func propose(db *store.DB, actor accounts.User, needID, producerID string, qty, price float64, at time.Time) (planning.View, error) {
	return needOf(tx(db, func(q store.Q) (trade.Outcome, error) {
		return trade.Propose(ctx, q, actor, needID, producerID, trade.Offer{Quantity: qty, Price: price}, at)
	}))
}

func review(db *store.DB, actor accounts.User, needID, producerID string, accepted bool, at time.Time) (planning.View, error) {
	return needOf(tx(db, func(q store.Q) (trade.Outcome, error) {
		return trade.Review(ctx, q, actor, needID, producerID, accepted, at)
	}))
}

func withdraw(db *store.DB, actor accounts.User, needID, producerID string, at time.Time) (planning.View, error) {
	return needOf(tx(db, func(q store.Q) (trade.Outcome, error) {
		return trade.Withdraw(ctx, q, actor, needID, producerID, at)
	}))
}

// ok returns a function failing the test on an error: ok(t)(propose(…)).
func ok(t testing.TB) func(planning.View, error) planning.View {
	return func(v planning.View, err error) planning.View {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func count(t testing.TB, db store.Q, query string, args ...any) int {
	t.Helper()
	var n int
	if err := store.Get(ctx, db, &n, query, args...); err != nil {
		t.Fatal(err)
	}
	return n
}

// message is the French text of a refusal or of the first invalid field.
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

// stateOf reads a producer's negotiation on a need.
func stateOf(t testing.TB, db store.Q, needID, producerID string) (trade.State, *planning.Proposal, *planning.Proposal) {
	t.Helper()
	_, ps, err := planning.Get(ctx, db, needID)
	if err != nil {
		t.Fatal(err)
	}
	return trade.StateOf(ps, producerID)
}

// order loads the order of (producer, shop, month), nil when there is none.
func order(t testing.TB, db store.Q, producerID, shopID, month string) *orders.Full {
	t.Helper()
	fs, err := orders.Load(ctx, db, orders.Filter{ProducerID: producerID, DistributorID: shopID})
	if err != nil {
		t.Fatal(err)
	}
	for i := range fs {
		if fs[i].Month == month {
			return &fs[i]
		}
	}
	return nil
}

// planned sums, per product, what the order's deliveries of a status carry
// (sent for done ones, expected otherwise).
func carried(o *orders.Full, status string) map[string]decimal.Dec {
	out := map[string]decimal.Dec{}
	if o == nil {
		return out
	}
	for _, d := range o.Deliveries {
		if d.Status != status {
			continue
		}
		for _, l := range d.Lines {
			out[l.ProductID] += l.Sent()
		}
	}
	return out
}

func planningCreate(db *store.DB, shopID, product, month string, qty float64) (string, error) {
	v, err := planning.Create(ctx, db, shopID, planning.NeedInput{ProductID: product, Date: month, Quantity: qty}, now)
	return v.ID, err
}
