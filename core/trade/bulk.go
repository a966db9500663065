package trade

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/store"
)

// Agreement is one order as Bulk writes it: the commitments of a producer
// to a shop for one month, proposed by the producer at ProposedAt and
// accepted by the shop at At, one after another in the order given, then
// what became of each delivery trade planned for them.
type Agreement struct {
	ProducerID string
	ShopID     string
	// Month is the month of the shop's needs and of the order, "2026-11-01".
	Month string
	// OrderID is the id of the order when Bulk creates it; empty: a new one.
	OrderID string
	// ProposedAt is when the producer proposed (zero: At); At is when the
	// shop accepted.
	ProposedAt time.Time
	At         time.Time
	// Commitments are what the shop accepted, each on its need of the
	// product for the month. On a need where the producer is already
	// committed, the quantity adds to the commitment: a correction.
	Commitments []Accepted
	// Dates, when set, are the dates of the new deliveries instead of the
	// producer's delivery days (Schedule): each after At's day, in the
	// order's month or the next (where the shop may move a delivery that
	// trade planned past the month's end). The commitments are split over
	// them as over scheduled dates. On an order that exists, Dates are
	// required: its deliveries are left as they are and the new ones carry
	// what the agreement adds.
	Dates []string
	// Outcome says what became of the agreement's i-th new delivery (in
	// date order, with its id, chrono and lines); nil: every one is still
	// planned. delivery.Rules.Settle checks and applies it.
	Outcome func(i int, d orders.FullDelivery) delivery.Outcome
}

// Accepted is one accepted proposal of an Agreement: the product (the
// shop's need of it), the quantity in hundredths of its unit and the unit
// price in cents.
type Accepted struct {
	ProductID string
	Quantity  decimal.Dec
	Price     decimal.Dec
}

// Pending is an open proposal Bulk writes: a producer's offer on a shop's
// need of a product for a month, made at At and not yet answered (a
// correction when the producer is committed on the need).
type Pending struct {
	ProducerID string
	ShopID     string
	ProductID  string
	Month      string
	Quantity   decimal.Dec
	Price      decimal.Dec
	At         time.Time
}

// Batch is what Bulk writes: new needs, agreements in the order they were
// made, then open proposals.
type Batch struct {
	// Needs are needs to create first (planning.Insert: none may exist),
	// for a platform written from scratch. Bulk knows that nothing holds
	// on them, so it does not read them back.
	Needs      []planning.Need
	Agreements []Agreement
	Pending    []Pending
}

// Bulk writes trade in bulk in the caller's transaction — the load bench's
// platform, the fixtures of tests, the browser tests' seeders — keeping
// what Propose, Review and the deliveries' operations keep, so that what
// it writes is what they would have left:
//
//   - each commitment passes Propose's checks (a past month, a producer
//     without delivery days, quantity by the unit, price) and the need's
//     accepted + proposed (planning.Reserved) stays within its quantity;
//     a correction replaces the commitment row, as Review does;
//   - the order of (producer, shop, month) is created once, at the first
//     acceptance;
//   - new deliveries are planned as ReplanOrder plans a new order whose
//     commitments are accepted one after another at the same moment: on
//     Schedule's dates (or Agreement.Dates), the first commitment split
//     over them (Split; a date it leaves empty gets no delivery), each
//     next one over the deliveries planned, each line at its commitment's
//     price and need;
//   - delivery-note numbers come from the producer's counter (store.Take),
//     in the order of the agreements, then of dates;
//   - price_months counts every change of commitment as accepting it does;
//   - each delivery's outcome goes through delivery.Rules.Settle;
//   - the events are those the operations record (proposal:request or
//     fix:request when proposed, proposal:review or fix:review when
//     accepted, the claims' events).
//
// It returns, per agreement, its order with the deliveries it added.
func Bulk(ctx context.Context, q store.Q, rules delivery.Rules, b Batch) ([]orders.Full, error) {
	w, err := readBulk(ctx, q, rules, b)
	if err != nil {
		return nil, err
	}
	events := len(b.Pending)
	for _, a := range b.Agreements {
		events += 2 * len(a.Commitments)
	}
	w.events = make([]activity.Event, 0, events+events/16) // and a few claims
	out := make([]orders.Full, len(b.Agreements))
	for i, a := range b.Agreements {
		if out[i], err = w.agree(a); err != nil {
			return nil, err
		}
	}
	for _, p := range b.Pending {
		if err := w.offer(p); err != nil {
			return nil, err
		}
	}
	for _, n := range w.needs {
		if reserved := planning.Reserved(n.proposals); reserved > n.need.Quantity {
			return nil, fmt.Errorf("trade: bulk: need of %s for %s in %s: %w", n.need.DistributorID, n.need.ProductID, n.need.Month,
				core.Refuse(core.ErrConflict, ExceedsMessage(max(0, n.need.Quantity-n.before), w.products[n.need.ProductID].Unit)))
		}
	}
	if err := w.number(ctx, q, out); err != nil {
		return nil, err
	}
	for i, a := range b.Agreements {
		if err := w.settle(a, &out[i]); err != nil {
			return nil, err
		}
	}
	if err := w.write(ctx, q, out); err != nil {
		return nil, err
	}
	return out, nil
}

type needKey struct{ shop, product, month string }

type orderKey struct{ producer, shop, month string }

// bulkNeed is a need with its proposals as the batch leaves them.
type bulkNeed struct {
	need      planning.Need
	proposals []planning.Proposal
	before    decimal.Dec // reserved before the batch
}

// bulkProposal is a proposal row to insert.
type bulkProposal struct {
	planning.Proposal
	createdAt int64
}

// bulkOrder is an order the batch writes to: an existing one (existing)
// or one it creates.
type bulkOrder struct {
	order    orders.Order
	existing bool
}

// bulk is a batch being built: what exists, then what to write.
type bulk struct {
	rules    delivery.Rules
	users    map[string]accounts.User
	products map[string]catalog.Product
	settled  map[string]delivery.Product // the products as Settle reads them
	needs    map[needKey]*bulkNeed
	orders   map[orderKey]*bulkOrder

	newNeeds []planning.Need // the needs to create
	removed  []string        // ids of proposals the batch replaces
	added    []*bulkProposal
	created  []*bulkOrder     // orders to insert, in order
	touched  map[string]int64 // existing orders' new updated_at
	prices   priceSums
	events   []activity.Event
}

// readBulk reads what the batch builds on: its parties, the products, the
// shops' needs of its months with their proposals, and the orders of its
// shops for those months — locked on PostgreSQL, as the operations lock
// them.
func readBulk(ctx context.Context, q store.Q, rules delivery.Rules, b Batch) (*bulk, error) {
	w := &bulk{
		rules: rules, users: map[string]accounts.User{}, products: map[string]catalog.Product{},
		needs: map[needKey]*bulkNeed{}, orders: map[orderKey]*bulkOrder{}, touched: map[string]int64{}, prices: newPriceSums(),
	}
	w.newNeeds = slices.Clone(b.Needs)
	for i := range w.newNeeds {
		n := &w.newNeeds[i]
		if n.ID == "" {
			n.ID = core.NewID()
		}
		w.needs[needKey{n.DistributorID, n.ProductID, n.Month}] = &bulkNeed{need: *n}
	}
	// The shops and months of the needs to read: those the batch uses and
	// does not create.
	users, shops, months := map[string]bool{}, map[string]bool{}, map[string]bool{}
	uses := func(shop, product, month string) {
		if w.needs[needKey{shop, product, month}] == nil {
			shops[shop], months[month] = true, true
		}
	}
	orderShops, orderMonths := map[string]bool{}, map[string]bool{}
	for _, a := range b.Agreements {
		users[a.ProducerID], users[a.ShopID], orderShops[a.ShopID], orderMonths[a.Month] = true, true, true, true
		for _, c := range a.Commitments {
			uses(a.ShopID, c.ProductID, a.Month)
		}
	}
	for _, p := range b.Pending {
		users[p.ProducerID], users[p.ShopID] = true, true
		uses(p.ShopID, p.ProductID, p.Month)
	}
	ps, err := catalog.All(ctx, q)
	if err != nil {
		return nil, err
	}
	w.settled = make(map[string]delivery.Product, len(ps))
	for _, p := range ps {
		w.products[p.ID] = p
		w.settled[p.ID] = delivery.Product{Name: p.Name, Unit: p.Unit}
	}
	ids, shopIDs, monthList := keys(users), keys(shops), keys(months)
	if len(monthList) == 0 {
		shopIDs = nil
	}
	for _, part := range chunks(ids) {
		var us []accounts.User
		if err := store.SelectIn(ctx, q, &us, `SELECT id, type, delivery_days, address_line1, address_line2, address_line3,
			siret, email_key, email_confirmed FROM users WHERE id IN (?) ORDER BY id`+store.ForUpdate(q), part); err != nil {
			return nil, fmt.Errorf("trade: bulk: users: %w", err)
		}
		for _, u := range us {
			w.users[u.ID] = u
		}
	}
	for _, part := range chunks(shopIDs) {
		// Read by hand: a platform's seed reads tens of thousands.
		query, args, err := store.In(q, `SELECT id, distributor_id, product_id, month, quantity, created_at, updated_at
			FROM needs WHERE distributor_id IN (?) AND month IN (?)`+store.ForUpdate(q), part, monthList)
		if err != nil {
			return nil, fmt.Errorf("trade: bulk: needs: %w", err)
		}
		byID, err := w.readNeeds(ctx, q, query, args)
		if err != nil {
			return nil, fmt.Errorf("trade: bulk: needs: %w", err)
		}
		var props []planning.Proposal
		if err := store.SelectIn(ctx, q, &props, `SELECT p.id, p.need_id, p.producer_id, p.status, p.origin, p.quantity, p.price, p.updated_at
			FROM proposals p JOIN needs n ON n.id = p.need_id WHERE n.distributor_id IN (?) AND n.month IN (?)`, part, monthList); err != nil {
			return nil, fmt.Errorf("trade: bulk: proposals: %w", err)
		}
		for _, p := range props {
			if bn := byID[p.NeedID]; bn != nil {
				bn.proposals = append(bn.proposals, p)
			}
		}
		for _, bn := range byID {
			bn.before = planning.Reserved(bn.proposals)
		}
	}
	for _, part := range chunks(keys(orderShops)) {
		var os []orders.Order
		if err := store.SelectIn(ctx, q, &os, `SELECT id, producer_id, distributor_id, month, created_at, updated_at
			FROM orders WHERE distributor_id IN (?) AND month IN (?) ORDER BY id`+store.ForUpdate(q), part, keys(orderMonths)); err != nil {
			return nil, fmt.Errorf("trade: bulk: orders: %w", err)
		}
		for _, o := range os {
			w.orders[orderKey{o.ProducerID, o.DistributorID, o.Month}] = &bulkOrder{order: o, existing: true}
		}
	}
	return w, nil
}

// keys are the sorted keys of a set.
func keys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// chunks cuts ids into parts of at most 500, for IN (…) clauses.
func chunks(ids []string) [][]string {
	var out [][]string
	for len(ids) > 0 {
		n := min(500, len(ids))
		out = append(out, ids[:n])
		ids = ids[n:]
	}
	return out
}

// parties checks that producerID is a producer and shopID a shop.
func (w *bulk) parties(producerID, shopID string) (accounts.User, error) {
	producer, ok := w.users[producerID]
	if !ok || !producer.IsProducer() {
		return accounts.User{}, fmt.Errorf("producer %s: %w", producerID, core.ErrNotFound)
	}
	if shop, ok := w.users[shopID]; !ok || !shop.IsDistributor() {
		return accounts.User{}, fmt.Errorf("shop %s: %w", shopID, core.ErrNotFound)
	}
	return producer, nil
}

// need finds the shop's need of a product for a month, refusing a month
// past at now, as Propose does.
func (w *bulk) need(shopID, productID, month string, now time.Time) (*bulkNeed, catalog.Product, error) {
	p, ok := w.products[productID]
	if !ok {
		return nil, p, fmt.Errorf("product %s: %w", productID, core.ErrNotFound)
	}
	n := w.needs[needKey{shopID, productID, month}]
	if n == nil {
		return nil, p, fmt.Errorf("need of %s for %s in %s: %w", shopID, productID, month, core.ErrNotFound)
	}
	if month < calendar.MonthOf(now).String() {
		return nil, p, core.Refuse(core.ErrConflict, planning.MsgPastMonth)
	}
	return n, p, nil
}

// checkOffer checks a proposal's quantity and price as Propose does.
func checkOffer(unit string, qty, price decimal.Dec, correction bool) error {
	if q, msg := parseQuantity(unit, qty.Float(), correction); msg != "" || q != qty {
		return core.Invalid("quantity", msg)
	}
	if p, msg := parsePrice(price.Float()); msg != "" || p != price {
		return core.Invalid("price", msg)
	}
	return nil
}

// stateOn is the producer's commitment and open proposal on a need.
func (n *bulkNeed) stateOn(producerID string) (commitment, open *planning.Proposal) {
	_, commitment, open = StateOf(n.proposals, producerID)
	return commitment, open
}

// replace swaps the proposal with id old (none when empty) for p in the
// need and in the rows to write.
func (w *bulk) replace(n *bulkNeed, old string, p *bulkProposal) {
	if old != "" {
		n.proposals = slices.DeleteFunc(n.proposals, func(x planning.Proposal) bool { return x.ID == old })
		i := slices.IndexFunc(w.added, func(x *bulkProposal) bool { return x.ID == old })
		if i >= 0 {
			w.added = slices.Delete(w.added, i, i+1)
		} else {
			w.removed = append(w.removed, old)
		}
	}
	n.proposals = append(n.proposals, p.Proposal)
	w.added = append(w.added, p)
}

// agree applies one agreement: its commitments, its order and its new
// deliveries (ids and lines; chronos and outcomes come later).
func (w *bulk) agree(a Agreement) (orders.Full, error) {
	fail := func(err error) (orders.Full, error) {
		return orders.Full{}, fmt.Errorf("trade: bulk: agreement of %s with %s for %s: %w", a.ProducerID, a.ShopID, a.Month, err)
	}
	at := a.At.In(w.rules.Location)
	proposed := a.ProposedAt.In(w.rules.Location)
	if a.ProposedAt.IsZero() {
		proposed = at
	}
	if proposed.After(at) || len(a.Commitments) == 0 {
		return fail(fmt.Errorf("accepted at %s, proposed at %s, %d commitments", at, proposed, len(a.Commitments)))
	}
	if m, ok := calendar.ParseMonth(a.Month); !ok || m.String() != a.Month {
		return fail(fmt.Errorf("month %q", a.Month))
	}
	producer, err := w.parties(a.ProducerID, a.ShopID)
	if err != nil {
		return fail(err)
	}
	shop := w.users[a.ShopID]
	key := orderKey{a.ProducerID, a.ShopID, a.Month}
	o := w.orders[key]
	dates := a.Dates
	switch {
	case o != nil && dates == nil:
		return fail(fmt.Errorf("the order exists: the dates of its new deliveries are needed"))
	case dates == nil:
		if !producer.HasDeliveryDays() {
			return fail(core.Refuse(core.ErrConflict, MsgNoDeliveryDays))
		}
		dates = Schedule(a.Month, producer.Days(), at)
	default:
		next := calendar.AddMonthsTo(a.Month, 1)
		for i, d := range dates {
			if _, ok := calendar.ParseDate(d); !ok || !Replannable(d, at) || (i > 0 && d <= dates[i-1]) ||
				(calendar.MonthKey(d) != a.Month && calendar.MonthKey(d) != next) {
				return fail(fmt.Errorf("delivery date %q", d))
			}
		}
	}
	if len(dates) == 0 {
		return fail(fmt.Errorf("no delivery date"))
	}

	units := make([]string, len(a.Commitments))
	needs := make([]*bulkNeed, len(a.Commitments))
	seen := map[string]bool{}
	ms := at.UnixMilli()
	for i, c := range a.Commitments {
		n, p, err := w.need(a.ShopID, c.ProductID, a.Month, at)
		if err != nil {
			return fail(err)
		}
		if seen[c.ProductID] {
			return fail(fmt.Errorf("%s committed twice", c.ProductID))
		}
		seen[c.ProductID] = true
		if err := checkOffer(p.Unit, c.Quantity, c.Price, false); err != nil {
			return fail(fmt.Errorf("%s: %w", c.ProductID, err))
		}
		old, open := n.stateOn(a.ProducerID)
		if old != nil {
			copied := *old // replace rewrites the need's proposals
			old = &copied
		}
		if open != nil {
			return fail(fmt.Errorf("%s: %w", c.ProductID, core.Refuse(core.ErrConflict, MsgNotAllowed)))
		}
		total, oldID, request, review := c.Quantity, "", activity.ProposalRequest, activity.ProposalReview
		if old != nil {
			total, oldID, request, review = old.Quantity+c.Quantity, old.ID, activity.FixRequest, activity.FixReview
			if err := checkOffer(p.Unit, total, c.Price, true); err != nil {
				return fail(fmt.Errorf("%s: %w", c.ProductID, err))
			}
		}
		row := &bulkProposal{Proposal: planning.Proposal{
			ID: core.NewID(), NeedID: n.need.ID, Producer: a.ProducerID, Status: planning.StatusAccepted,
			From: planning.FromProducer, Quantity: total, Price: c.Price, UpdatedAt: ms,
		}, createdAt: proposed.UnixMilli()}
		w.replace(n, oldID, row)
		w.prices.count(change{product: c.ProductID, month: a.Month, shop: a.ShopID, producer: a.ProducerID,
			area: AreaOf(shop.AddressLine1, shop.AddressLine2, shop.AddressLine3), buyer: EntityOf(shop), seller: EntityOf(producer),
			quantity: total, price: c.Price})
		yes := true
		w.events = append(w.events,
			activity.Event{CreatedAt: proposed, Type: request, OriginID: a.ProducerID, TargetID: a.ShopID,
				Data: eventData(p, n.need.ID, a.Month, old, total, c.Price, nil)},
			activity.Event{CreatedAt: at, Type: review, OriginID: a.ShopID, TargetID: a.ProducerID,
				Data: eventData(p, n.need.ID, a.Month, old, total, c.Price, &yes)})
		units[i], needs[i] = p.Unit, n
	}

	if o == nil {
		id := a.OrderID
		if id == "" {
			id = core.NewID()
		}
		o = &bulkOrder{order: orders.Order{ID: id, ProducerID: a.ProducerID, DistributorID: a.ShopID, Month: a.Month, CreatedAt: ms, UpdatedAt: ms}}
		w.orders[key] = o
		w.created = append(w.created, o)
	} else {
		o.order.UpdatedAt = ms
		if o.existing {
			w.touched[o.order.ID] = ms
		}
	}

	quantities := make([]decimal.Dec, len(a.Commitments))
	for i, c := range a.Commitments {
		quantities[i] = c.Quantity
	}
	kept, shares := planLines(dates, quantities, units)
	full := orders.Full{Order: o.order, Deliveries: make([]orders.FullDelivery, 0, len(kept))}
	for di, date := range kept {
		d := orders.FullDelivery{Delivery: orders.Delivery{
			ID: core.NewID(), OrderID: o.order.ID, ProducerID: a.ProducerID, Status: orders.Planned, Date: date,
			ClaimStatus: orders.ClaimVoid, CreatedAt: ms, UpdatedAt: ms,
		}, Lines: make([]orders.Line, 0, len(a.Commitments))}
		for ci, c := range a.Commitments {
			if qty := shares[ci][di]; qty > 0 {
				d.Lines = append(d.Lines, orders.Line{
					ID: core.NewID(), DeliveryID: d.ID, NeedID: needs[ci].need.ID, ProductID: c.ProductID,
					Price: c.Price, QuantityExpected: qty,
				})
			}
		}
		slices.SortFunc(d.Lines, func(x, y orders.Line) int { return strings.Compare(x.ProductID, y.ProductID) })
		full.Deliveries = append(full.Deliveries, d)
	}
	return full, nil
}

// planLines is how ReplanOrder plans a new order whose commitments (their
// quantities and units) are accepted one after another at the same
// moment: the first acceptance splits the first commitment over dates and
// plans a delivery on each date that gets a share; each next acceptance
// shares every commitment over those deliveries. It returns the dates
// kept and, per commitment, its share of each.
func planLines(dates []string, quantities []decimal.Dec, units []string) ([]string, [][]decimal.Dec) {
	var kept []string
	for i, qty := range Split(quantities[0], len(dates), units[0]) {
		if qty > 0 {
			kept = append(kept, dates[i])
		}
	}
	shares := make([][]decimal.Dec, len(quantities))
	for i, qty := range quantities {
		shares[i] = Split(qty, len(kept), units[i])
	}
	return kept, shares
}

// offer applies an open proposal.
func (w *bulk) offer(p Pending) error {
	fail := func(err error) error {
		return fmt.Errorf("trade: bulk: proposal of %s to %s for %s in %s: %w", p.ProducerID, p.ShopID, p.ProductID, p.Month, err)
	}
	at := p.At.In(w.rules.Location)
	producer, err := w.parties(p.ProducerID, p.ShopID)
	if err != nil {
		return fail(err)
	}
	if !producer.HasDeliveryDays() {
		return fail(core.Refuse(core.ErrConflict, MsgNoDeliveryDays))
	}
	n, product, err := w.need(p.ShopID, p.ProductID, p.Month, at)
	if err != nil {
		return fail(err)
	}
	commitment, open := n.stateOn(p.ProducerID)
	if open != nil {
		return fail(core.Refuse(core.ErrConflict, MsgNotAllowed))
	}
	if commitment != nil {
		copied := *commitment // replace rewrites the need's proposals
		commitment = &copied
	}
	if err := checkOffer(product.Unit, p.Quantity, p.Price, commitment != nil); err != nil {
		return fail(err)
	}
	ms := at.UnixMilli()
	w.replace(n, "", &bulkProposal{Proposal: planning.Proposal{
		ID: core.NewID(), NeedID: n.need.ID, Producer: p.ProducerID, Status: planning.StatusProposed,
		From: planning.FromProducer, Quantity: p.Quantity, Price: p.Price, UpdatedAt: ms,
	}, createdAt: ms})
	typ := activity.ProposalRequest
	if commitment != nil {
		typ = activity.FixRequest
	}
	w.events = append(w.events, activity.Event{CreatedAt: at, Type: typ, OriginID: p.ProducerID, TargetID: p.ShopID,
		Data: eventData(product, n.need.ID, p.Month, commitment, p.Quantity, p.Price, nil)})
	return nil
}

// number gives the new deliveries their delivery-note numbers: per
// producer, one take of its counter (producers in id order, as locks go),
// then in the order of the agreements and dates.
func (w *bulk) number(ctx context.Context, q store.Q, out []orders.Full) error {
	count := map[string]int64{}
	for _, f := range out {
		count[f.ProducerID] += int64(len(f.Deliveries))
	}
	next := map[string]int64{}
	producers := make([]string, 0, len(count))
	for p, n := range count {
		if n > 0 {
			producers = append(producers, p)
		}
	}
	sort.Strings(producers)
	for _, p := range producers {
		first, err := store.Take(ctx, q, "chrono:"+p, count[p])
		if err != nil {
			return fmt.Errorf("trade: bulk: %w", err)
		}
		next[p] = first
	}
	for i := range out {
		for j := range out[i].Deliveries {
			d := &out[i].Deliveries[j]
			d.Chrono = next[d.ProducerID]
			next[d.ProducerID]++
		}
	}
	return nil
}

// settle applies each new delivery's outcome.
func (w *bulk) settle(a Agreement, f *orders.Full) error {
	if a.Outcome == nil {
		return nil
	}
	for i := range f.Deliveries {
		d := &f.Deliveries[i]
		events, err := w.rules.Settle(f.Order, d, w.settled, a.Outcome(i, *d), a.At.In(w.rules.Location))
		if err != nil {
			return fmt.Errorf("trade: bulk: %w", err)
		}
		w.events = append(w.events, events...)
	}
	return nil
}

// write stores the batch.
func (w *bulk) write(ctx context.Context, q store.Q, out []orders.Full) error {
	if err := planning.Insert(ctx, q, w.newNeeds); err != nil {
		return fmt.Errorf("trade: bulk: %w", err)
	}
	for _, part := range chunks(w.removed) {
		query, args, err := store.In(q, `DELETE FROM proposals WHERE id IN (?)`, part)
		if err == nil {
			_, err = q.ExecContext(ctx, query, args...)
		}
		if err != nil {
			return fmt.Errorf("trade: bulk: replace commitments: %w", err)
		}
	}
	// In the order of needs, with ids drawn in that order: the indexes of
	// proposals by need then grow at their end, as they do when each need
	// is negotiated in turn.
	slices.SortStableFunc(w.added, func(x, y *bulkProposal) int {
		if c := strings.Compare(x.NeedID, y.NeedID); c != 0 {
			return c
		}
		return strings.Compare(x.Producer, y.Producer)
	})
	for _, p := range w.added {
		p.ID = core.NewID()
	}
	if err := store.Insert(ctx, q, "proposals", []string{"id", "need_id", "producer_id", "status", "origin", "quantity", "price",
		"created_at", "updated_at"}, len(w.added), func(i int, v []any) {
		p := w.added[i]
		v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8] = p.ID, p.NeedID, p.Producer, p.Status, p.From,
			int64(p.Quantity), int64(p.Price), p.createdAt, p.UpdatedAt
	}); err != nil {
		return fmt.Errorf("trade: bulk: %w", err)
	}
	if err := store.Insert(ctx, q, "orders", []string{"id", "producer_id", "distributor_id", "month", "created_at", "updated_at"},
		len(w.created), func(i int, v []any) {
			o := w.created[i].order
			v[0], v[1], v[2], v[3], v[4], v[5] = o.ID, o.ProducerID, o.DistributorID, o.Month, o.CreatedAt, o.UpdatedAt
		}); err != nil {
		return fmt.Errorf("trade: bulk: %w", err)
	}
	for _, id := range keys(setOf(w.touched)) {
		if _, err := store.Exec(ctx, q, `UPDATE orders SET updated_at = ? WHERE id = ?`, w.touched[id], id); err != nil {
			return fmt.Errorf("trade: bulk: touch order %s: %w", id, err)
		}
	}
	var ds []*orders.FullDelivery
	var ls []*orders.Line
	for i := range out {
		for j := range out[i].Deliveries {
			d := &out[i].Deliveries[j]
			ds = append(ds, d)
			for k := range d.Lines {
				ls = append(ls, &d.Lines[k])
			}
		}
	}
	if err := store.Insert(ctx, q, "deliveries", []string{"id", "order_id", "producer_id", "status", "date", "chrono", "claim_status",
		"claim_sent_at", "claim_reviewed_at", "note_sent_at", "created_at", "updated_at"}, len(ds), func(i int, v []any) {
		d := ds[i]
		v[0], v[1], v[2], v[3], v[4], v[5], v[6] = d.ID, d.OrderID, d.ProducerID, d.Status, d.Date, d.Chrono, d.ClaimStatus
		v[7], v[8], v[9], v[10], v[11] = nullable(d.ClaimSentAt), nullable(d.ClaimReviewedAt), nullable(d.NoteSentAt), d.CreatedAt, d.UpdatedAt
	}); err != nil {
		return fmt.Errorf("trade: bulk: %w", err)
	}
	if err := store.Insert(ctx, q, "delivery_lines", []string{"id", "delivery_id", "need_id", "product_id", "price", "quantity_expected",
		"quantity_sent", "quantity_claimed", "claim_type", "claim_comment"}, len(ls), func(i int, v []any) {
		l := ls[i]
		var sent any
		if l.QuantitySent != nil {
			sent = int64(*l.QuantitySent)
		}
		v[0], v[1], v[2], v[3], v[4], v[5] = l.ID, l.DeliveryID, l.NeedID, l.ProductID, int64(l.Price), int64(l.QuantityExpected)
		v[6], v[7], v[8], v[9] = sent, int64(l.QuantityClaimed), l.ClaimType, l.ClaimComment
	}); err != nil {
		return fmt.Errorf("trade: bulk: %w", err)
	}
	if err := w.prices.write(ctx, q); err != nil {
		return err
	}
	// By emitter and time, so that the events' index by emitter grows in
	// runs rather than at random.
	order := make([]int, len(w.events))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		x, y := &w.events[a], &w.events[b]
		if c := strings.Compare(x.OriginID, y.OriginID); c != 0 {
			return c
		}
		if c := x.CreatedAt.Compare(y.CreatedAt); c != 0 {
			return c
		}
		return a - b
	})
	events := make([]activity.Event, len(order))
	for i, k := range order {
		events[i] = w.events[k]
	}
	w.events = events
	if err := activity.RecordAll(ctx, q, w.events); err != nil {
		return fmt.Errorf("trade: bulk: %w", err)
	}
	return nil
}

func setOf(m map[string]int64) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

func nullable(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// readNeeds reads the needs a query selects into the writer's needs, and
// returns them by id.
func (w *bulk) readNeeds(ctx context.Context, q store.Q, query string, args []any) (map[string]*bulkNeed, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byID := map[string]*bulkNeed{}
	for rows.Next() {
		bn := &bulkNeed{}
		n := &bn.need
		if err := rows.Scan(&n.ID, &n.DistributorID, &n.ProductID, &n.Month, &n.Quantity, &n.CreatedAt, &n.UpdatedAt); err != nil {
			return nil, err
		}
		w.needs[needKey{n.DistributorID, n.ProductID, n.Month}] = bn
		byID[n.ID] = bn
	}
	return byID, rows.Err()
}
