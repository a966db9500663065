package tradetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/trade"
)

// Agreement is one order as a seeder states it (the benchmarks, the
// reliability tests, the load bench): the commitments of a producer to a
// shop for a month, each proposed by the producer at ProposedAt and
// accepted by the shop at At, one after another in the order given, then
// what became of each delivery trade planned for them.
type Agreement struct {
	ProducerID string
	ShopID     string
	// Month is the month of the shop's needs and of the order, "2026-11-01".
	Month string
	// ProposedAt is when the producer proposed (zero: At); At is when the
	// shop accepted.
	ProposedAt time.Time
	At         time.Time
	// Commitments are what the shop accepted, each on its need of the
	// product for the month. On a need where the producer is already
	// committed, the quantity adds to the commitment: a correction.
	Commitments []Commitment
	// Dates, when set, are the dates of the new deliveries instead of the
	// producer's delivery days, in order: each commitment is split over
	// them as trade splits it over its days (trade.Split), and each
	// delivery is reached as World.Played reaches one (player.deliver);
	// slower than the producer's days, which need two operations per
	// commitment.
	Dates []string
	// Outcome says what became of the agreement's i-th new delivery (in
	// date order, with its id and lines); nil: every one is still planned.
	Outcome func(i int, d orders.FullDelivery) Outcome
}

// Commitment is one accepted proposal of an Agreement: the product (the
// shop's need of it), the quantity in hundredths of its unit and the unit
// price in cents.
type Commitment struct {
	ProductID string
	Quantity  decimal.Dec
	Price     decimal.Dec
}

// Pending is an open proposal: a producer's offer on a shop's need of a
// product for a month, made at At and not yet answered (a correction when
// the producer is committed on the need).
type Pending struct {
	ProducerID string
	ShopID     string
	ProductID  string
	Month      string
	Quantity   decimal.Dec
	Price      decimal.Dec
	At         time.Time
}

// Batch is what Play writes: needs, agreements in the order they were
// made, then open proposals.
type Batch struct {
	// Needs are set first through planning's write path, each shop's at
	// the CreatedAt of its first (their ids are planning's own).
	Needs      []planning.Need
	Agreements []Agreement
	Pending    []Pending
}

// Play writes a batch of trade in the caller's transaction, through the
// operations alone: planning.WriteAll for the needs; trade.Propose and
// trade.Review for each commitment, trade planning the orders on the
// producers' delivery days (or Agreement.Dates); then what became of the
// deliveries, each kind of change in time order across the batch — the
// shop's sent quantities and cancellations (delivery.Rules.Update,
// Cancel), the lock (LockDueIn at the latest lock of a done delivery:
// every delivery planned by then is locked, as the deliveries job locks
// them, so a batch states done deliveries before planned ones), the notes'
// emails (their mark, as the deliveries job leaves it), the producers'
// claims (SendClaim) and the shops' answers (Review); last, the open
// proposals (trade.Propose). It returns, per agreement, its order with the
// deliveries it added, as they end.
func Play(ctx context.Context, q store.Q, rules delivery.Rules, b Batch) ([]orders.Full, error) {
	p := player{ctx: ctx, q: q, rules: rules}
	if err := p.needs(b.Needs); err != nil {
		return nil, err
	}
	users := map[string]accounts.User{}
	user := func(id string) (accounts.User, error) {
		if u, ok := users[id]; ok {
			return u, nil
		}
		u, err := accounts.ByID(ctx, q, id)
		users[id] = u
		return u, err
	}
	needs := map[needRef]string{}
	needOf := func(shop, product, month string) (string, error) {
		if id, ok := needs[needRef{shop, product, month}]; ok {
			return id, nil
		}
		var rows []struct {
			ID      string `db:"id"`
			Product string `db:"product_id"`
		}
		if err := store.Select(ctx, q, &rows, `SELECT id, product_id FROM needs WHERE distributor_id = ? AND month = ?`, shop, month); err != nil {
			return "", err
		}
		for _, r := range rows {
			needs[needRef{shop, r.Product, month}] = r.ID
		}
		if id, ok := needs[needRef{shop, product, month}]; ok {
			return id, nil
		}
		return "", fmt.Errorf("no need of %s for %s in %s", shop, product, month)
	}
	type played struct {
		order string
		ids   []string // the deliveries the agreement added, in date order
	}
	plays := make([]played, len(b.Agreements))
	for k, a := range b.Agreements {
		fail := func(err error) error {
			return fmt.Errorf("tradetest: agreement of %s with %s for %s: %w", a.ProducerID, a.ShopID, a.Month, err)
		}
		producer, err := user(a.ProducerID)
		if err != nil {
			return nil, fail(err)
		}
		shop, err := user(a.ShopID)
		if err != nil {
			return nil, fail(err)
		}
		order, err := trade.EnsureOrder(ctx, q, a.ProducerID, a.ShopID, a.Month, a.At)
		if err != nil {
			return nil, fail(err)
		}
		before, err := p.deliveryIDs(order)
		if err != nil {
			return nil, fail(err)
		}
		if a.Dates == nil {
			err = p.agree(producer, shop, a, needOf)
		} else {
			err = p.agreeOn(order, producer, shop, a, needOf)
		}
		if err != nil {
			return nil, fail(err)
		}
		after, err := p.deliveryIDs(order)
		if err != nil {
			return nil, fail(err)
		}
		plays[k].order = order
		for _, id := range after {
			if !slices.Contains(before, id) {
				plays[k].ids = append(plays[k].ids, id)
			}
		}
	}

	// What became of the deliveries.
	type fate struct {
		order          string
		d              orders.FullDelivery
		producer, shop accounts.User
		out            Outcome
		at             time.Time
	}
	var fates []fate
	for k, a := range b.Agreements {
		if a.Outcome == nil || len(plays[k].ids) == 0 {
			continue
		}
		f, err := orders.Get(ctx, q, plays[k].order)
		if err != nil {
			return nil, err
		}
		i := 0
		for _, d := range f.Deliveries { // in date order, as orders.Get reads them
			if slices.Contains(plays[k].ids, d.ID) {
				fates = append(fates, fate{order: f.ID, d: d, producer: users[a.ProducerID], shop: users[a.ShopID], out: a.Outcome(i, d), at: a.At})
				i++
			}
		}
	}
	slices.SortStableFunc(fates, func(x, y fate) int { return strings.Compare(x.d.Date, y.d.Date) })
	var last time.Time
	ids := make([]string, len(fates))
	for i, f := range fates {
		ids[i] = f.d.ID
		if err := p.change(f.order, f.d, f.shop, f.out, f.at); err != nil {
			return nil, fmt.Errorf("tradetest: delivery of %s on %s: %w", f.order, f.d.Date, err)
		}
		if lock := rules.LockTime(f.d.Date); f.out.Status == orders.Done && lock.After(last) {
			last = lock
		}
	}
	if !last.IsZero() {
		if _, err := rules.LockDueIn(ctx, q, last); err != nil {
			return nil, err
		}
	}
	statuses, err := p.statuses(ids)
	if err != nil {
		return nil, err
	}
	for _, f := range fates {
		if err := p.after(f.order, f.d, statuses[f.d.ID], f.producer, f.shop, f.out); err != nil {
			return nil, fmt.Errorf("tradetest: delivery of %s on %s: %w", f.order, f.d.Date, err)
		}
	}
	for _, pe := range b.Pending {
		producer, err := user(pe.ProducerID)
		if err != nil {
			return nil, err
		}
		need, err := needOf(pe.ShopID, pe.ProductID, pe.Month)
		if err != nil {
			return nil, err
		}
		if _, err := trade.Propose(ctx, q, producer, need, producer.ID, trade.Offer{Quantity: pe.Quantity.Float(), Price: pe.Price.Float()}, pe.At); err != nil {
			return nil, fmt.Errorf("tradetest: proposal of %s on %s: %w", pe.ProducerID, need, err)
		}
	}
	out := make([]orders.Full, len(b.Agreements))
	for k := range b.Agreements {
		f, err := orders.Get(ctx, q, plays[k].order)
		if err != nil {
			return nil, err
		}
		out[k] = orders.Full{Order: f.Order}
		for _, d := range f.Deliveries {
			if slices.Contains(plays[k].ids, d.ID) {
				out[k].Deliveries = append(out[k].Deliveries, d)
			}
		}
	}
	return out, nil
}

// deliveryIDs are the ids of an order's deliveries.
func (p player) deliveryIDs(order string) ([]string, error) {
	var ids []string
	err := store.Select(p.ctx, p.q, &ids, `SELECT id FROM deliveries WHERE order_id = ?`, order)
	return ids, err
}

// needs sets the needs, each shop's in one call of planning's write path at
// the CreatedAt of its first.
func (p player) needs(ns []planning.Need) error {
	var shops []string
	cells := map[string][]planning.Cell{}
	at := map[string]time.Time{}
	for _, n := range ns {
		if _, ok := cells[n.DistributorID]; !ok {
			shops = append(shops, n.DistributorID)
			at[n.DistributorID] = time.UnixMilli(n.CreatedAt)
		}
		cells[n.DistributorID] = append(cells[n.DistributorID], planning.Cell{ProductID: n.ProductID, Month: n.Month, Quantity: n.Quantity})
	}
	for _, shop := range shops {
		if _, err := planning.WriteAll(p.ctx, p.q, shop, cells[shop], at[shop]); err != nil {
			return fmt.Errorf("tradetest: needs of %s: %w", shop, err)
		}
	}
	return nil
}

// agree plays an agreement's commitments on the producer's days.
func (p player) agree(producer, shop accounts.User, a Agreement, needOf func(shop, product, month string) (string, error)) error {
	cs, err := p.commitments(producer.ID, shop.ID, a.Month)
	if err != nil {
		return err
	}
	proposed := a.ProposedAt
	if proposed.IsZero() {
		proposed = a.At
	}
	for _, c := range a.Commitments {
		need, err := needOf(shop.ID, c.ProductID, a.Month)
		if err != nil {
			return err
		}
		total := cs[c.ProductID].Quantity + c.Quantity
		if _, err := trade.Propose(p.ctx, p.q, producer, need, producer.ID, trade.Offer{Quantity: total.Float(), Price: c.Price.Float()}, proposed); err != nil {
			return fmt.Errorf("propose %s of %s: %w", total, c.ProductID, err)
		}
		if _, err := trade.Review(p.ctx, p.q, shop, need, producer.ID, true, a.At); err != nil {
			return fmt.Errorf("accept %s of %s: %w", total, c.ProductID, err)
		}
	}
	return nil
}

// agreeOn plays an agreement on its dates: the commitments split over them
// as trade splits them, each date's delivery reached by deliver.
func (p player) agreeOn(order string, producer, shop accounts.User, a Agreement, needOf func(shop, product, month string) (string, error)) error {
	shares := make([][]decimal.Dec, len(a.Commitments))
	for i, c := range a.Commitments {
		var unit string
		if err := store.Get(p.ctx, p.q, &unit, `SELECT unit FROM products WHERE id = ?`, c.ProductID); err != nil {
			return fmt.Errorf("product %s: %w", c.ProductID, err)
		}
		if unit == "" {
			unit = catalog.Kg
		}
		shares[i] = trade.Split(c.Quantity, len(a.Dates), unit)
	}
	for k, date := range a.Dates {
		if _, ok := calendar.ParseDate(date); !ok {
			return fmt.Errorf("date %q", date)
		}
		var lines []L
		for i, c := range a.Commitments {
			if shares[i][k] > 0 {
				lines = append(lines, L{Product: c.ProductID, Price: c.Price, Expected: shares[i][k]})
			}
		}
		if len(lines) == 0 {
			continue
		}
		if _, _, err := p.deliver(order, producer, shop, a.Month, date, lines, func(product string, _ decimal.Dec) (string, error) {
			return needOf(shop.ID, product, a.Month)
		}); err != nil {
			return err
		}
	}
	return nil
}
