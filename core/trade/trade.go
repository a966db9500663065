package trade

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/notify"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/store"
)

// Messages: PRODUCT §5 (proposal form) and §8 (the delivery-days detail the UI
// recognises), and the refusals PRODUCT leaves to the server.
const (
	MsgNoDeliveryDays   = "Producer should first provide delivery days"
	MsgExceeds          = "La quantité saisie excède le besoin restant (%s%s)"
	MsgQuantityPositive = "Veuillez saisir une quantité supérieure à zéro"
	MsgQuantityOrZero   = "Veuillez saisir une quantité (zéro autorisé)"
	MsgBadPrice         = "Veuillez saisir un prix correct"
	MsgPricePositive    = "Veuillez saisir un prix supérieur à zéro"
	MsgNotAllowed       = "Cette action n'est pas possible dans l'état actuel de la proposition."
	MsgOwnProposals     = "Un producteur ne peut agir que sur ses propres propositions."
)

// MaxPrice bounds a unit price: 10 000 € HT per kg or piece, far above any
// fruit or vegetable, and low enough for price × quantity sums to stay exact.
const MaxPrice = decimal.Dec(10_000_00)

// Offer is a proposal as the form sends it: a quantity in the product's
// unit and a unit price HT in euros.
type Offer struct {
	Quantity float64
	Price    float64
	// Product is the producer's own product the offer names (issue 39):
	// nil keeps the one the negotiation named, "" names none. Only the
	// producer's offer sets it; the shop's counter-proposal keeps it.
	Product *string
	// Taken says that the proposal is made from one of the producer's
	// offers that the shop is taking (core/offers.Take), which the shop
	// accepts in the same transaction: the shop, who acts, is not notified
	// of it; the producer hears of the take once, by the acceptance's
	// answer (PRODUCT §16).
	Taken bool
}

// Outcome is the answer of every trade operation: the need, and what else
// the operation changed, each shaped as the actor's user load shows it, so
// that a client can bring its copy of the user load up to date without
// reading it again. Only an acceptance changes an order and a price.
type Outcome struct {
	// Need is the need as the actor sees it (a producer sees only its own
	// proposals).
	Need planning.View
	// Order is the order of (producer, shop, the need's month) after an
	// acceptance re-planned it, seen from the actor's side; nil when the
	// operation left orders alone or when the acceptance deleted it.
	Order *orders.View
	// RemovedOrder is the id of that order when the acceptance deleted it
	// (a commitment ended, leaving it without delivery nor commitment).
	RemovedOrder string
	// Events are the events the operation recorded, newest first, as the
	// actor's feed shows them (the actor emitted them); never nil.
	Events []activity.View
}

// deal is a negotiation being acted on: the locked need, its proposals, the
// producer, where the actor stands, and what the operation changed so far.
type deal struct {
	need planning.Need
	// proposals are the need's proposals as the operation leaves them, in
	// their order (planning.CompareProposals): each write of the operation
	// changes them as it changes the table, so that the answer shows the
	// need without reading it again.
	proposals  []planning.Proposal
	producer   accounts.User
	actor      accounts.User
	side       Side
	state      State
	commitment *planning.Proposal
	open       *planning.Proposal
	allowed    Actions
	// product is the need's product: its id, name and unit (what trade
	// checks and shows of it), read with the need.
	product catalog.Product
	// shopName is the need's shop's name, as its events show it; area its
	// comparison area (AreaOf its address); shopEntity the legal entity it
	// counts as in the price figures (EntityOf). Read with the need.
	shopName, area, shopEntity string
	// producerLocked says that begin read the producer under its lock
	// (FOR UPDATE), its delivery days included: an acceptance by the shop.
	producerLocked bool

	// events are the events recorded, oldest first.
	events []activity.View
	// orderID is the order an acceptance re-planned; "" when none.
	orderID string
	// order is that order as the re-plan left it; nil when deleted.
	order *orders.Full
	// invoiced says that order has an invoice (ensureOrder).
	invoiced bool
	// quiet says that the operation's events notify nobody (Offer.Taken).
	quiet bool
}

// lockQuery locks a need for a trade operation — its row on PostgreSQL
// (FOR UPDATE OF n, not the product's nor the shop's), the write lock
// that SQLite's BEGIN IMMEDIATE took — so that concurrent trade on it
// serialises, and reads in the same statement what the operation checks
// and shows beside it: the need's product (name, unit) and its shop (name,
// address: the price comparison's area). The proposals are read by the
// next statement: on PostgreSQL, a statement that waited for the lock
// still reads the other tables as they were when it began.
const lockQuery = `SELECT n.id, n.distributor_id, n.product_id, n.month, n.quantity, n.created_at, n.updated_at,
	pr.name, pr.unit, s.name, s.address_line1, s.address_line2, s.address_line3, s.siret, s.email_key, s.email_confirmed
	FROM needs n JOIN products pr ON pr.id = n.product_id JOIN users s ON s.id = n.distributor_id
	WHERE n.id = ?`

// lock runs lockQuery for needID into d, then reads the need's proposals.
// A need that does not exist is core.ErrNotFound.
func (d *deal) lock(ctx context.Context, q store.Q, needID string) error {
	n := &d.need
	var line1, line2, line3 sql.NullString
	var shop accounts.User
	err := q.QueryRowxContext(ctx, q.Rebind(lockQuery+store.ForUpdateOf(q, "n")), needID).Scan(
		&n.ID, &n.DistributorID, &n.ProductID, &n.Month, (*int64)(&n.Quantity), &n.CreatedAt, &n.UpdatedAt,
		&d.product.Name, &d.product.Unit, &d.shopName, &line1, &line2, &line3, &shop.SIRET, &shop.EmailKey, &shop.EmailConfirmedKey)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("trade: need %s: %w", needID, core.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("trade: lock need %s: %w", needID, err)
	}
	d.product.ID = n.ProductID
	d.area = AreaOf(line1.String, line2.String, line3.String)
	d.shopEntity = EntityOf(shop)
	d.proposals, err = planning.ProposalsOf(ctx, q, needID)
	return err
}

// begin checks who acts, locks the need (so that concurrent trade on it
// serialises) and reads the negotiation's state. A producer acts only for
// itself (403 otherwise); a shop only on its own needs (404 otherwise, as
// for a need that does not exist or a producer that is not one). When
// lockProducer is set (an acceptance), a shop's operation reads the
// producer under its lock, as accept needs it.
func begin(ctx context.Context, q store.Q, actor accounts.User, needID, producerID string, lockProducer bool, now time.Time) (*deal, error) {
	d := &deal{actor: actor}
	switch {
	case actor.IsProducer():
		if producerID != actor.ID {
			return nil, core.Refuse(core.ErrForbidden, MsgOwnProposals)
		}
		d.side = planning.FromProducer
	case actor.IsDistributor():
		d.side = planning.FromDistributor
	default:
		return nil, fmt.Errorf("trade: %w", core.ErrForbidden)
	}
	if err := d.lock(ctx, q, needID); err != nil {
		return nil, err
	}
	n := d.need
	if d.side == planning.FromDistributor && n.DistributorID != actor.ID {
		return nil, fmt.Errorf("trade: need %s: %w", needID, core.ErrNotFound)
	}
	if d.side == planning.FromProducer {
		d.producer = actor
	} else {
		// What trade looks at of the producer: who it is, its days, the
		// name its events show; under its lock for an acceptance (accept),
		// after the need's, as every operation takes them.
		query := `SELECT id, type, name, delivery_days, siret, email_key, email_confirmed FROM users WHERE id = ?`
		if lockProducer {
			query += store.ForUpdate(q)
		}
		err := store.Get(ctx, q, &d.producer, query, producerID)
		if store.IsNotFound(err) || (err == nil && !d.producer.IsProducer()) {
			return nil, fmt.Errorf("trade: producer %s: %w", producerID, core.ErrNotFound)
		}
		if err != nil {
			return nil, fmt.Errorf("trade: producer %s: %w", producerID, err)
		}
		d.producerLocked = lockProducer
	}
	if n.Month < calendar.MonthOf(now).String() {
		return nil, core.Refuse(core.ErrConflict, planning.MsgPastMonth)
	}
	// Copies: the operation's writes change d.proposals under them.
	var commitment, open *planning.Proposal
	d.state, commitment, open = StateOf(d.proposals, producerID)
	if commitment != nil {
		c := *commitment
		d.commitment = &c
	}
	if open != nil {
		o := *open
		d.open = &o
	}
	d.allowed = Allowed(d.state, d.side)
	return d, nil
}

// changed applies to the deal's proposals what the operation wrote to the
// proposal id: set changes it in place, nil deletes it.
func (d *deal) changed(id string, set func(p *planning.Proposal)) {
	for i := range d.proposals {
		if d.proposals[i].ID == id {
			if set == nil {
				d.proposals = slices.Delete(d.proposals, i, i+1)
			} else {
				set(&d.proposals[i])
			}
			return
		}
	}
}

// added adds to the deal's proposals the proposal the operation inserted,
// in its place.
func (d *deal) added(p planning.Proposal) {
	i, _ := slices.BinarySearchFunc(d.proposals, p, func(a, b planning.Proposal) int { return planning.CompareProposals(&a, &b) })
	d.proposals = slices.Insert(d.proposals, i, p)
}

// other is the id of the party facing the actor.
func (d *deal) other() string {
	if d.side == planning.FromProducer {
		return d.need.DistributorID
	}
	return d.producer.ID
}

// remaining is the most producer may hold on the need: its quantity less
// what the other producers have committed or proposed (PRODUCT §5, PRODUCT §15;
// a correction may reuse its own commitment, which is not subtracted).
func (d *deal) remaining() decimal.Dec {
	var others []planning.Proposal
	for _, p := range d.proposals {
		if p.Producer != d.producer.ID {
			others = append(others, p)
		}
	}
	return max(0, d.need.Quantity-planning.Reserved(others))
}

// view is the need as the operation left it, as the actor sees it (a
// producer sees only its own proposals): from the deal, whose proposals
// followed the operation's writes (TestStateMachine, TestOutcome).
func (d *deal) view() planning.View {
	ps := slices.Clone(d.proposals)
	v := planning.ViewOf(d.need, ps)
	if d.side == planning.FromProducer {
		own := []planning.Proposal{}
		for _, p := range ps {
			if p.Producer == d.producer.ID {
				own = append(own, p)
			}
		}
		v.Proposals = own
	}
	return v
}

// outcome reads what the operation changed, for its answer: the need, and
// only the order, the product's price and the events it touched, each as
// the actor's user load shows it.
func (d *deal) outcome(ctx context.Context, q store.Q, now time.Time) (Outcome, error) {
	out := Outcome{Need: d.view(), Events: make([]activity.View, len(d.events))}
	for i, e := range d.events {
		out.Events[len(d.events)-1-i] = e
	}
	if d.orderID != "" {
		v, err := answerOrder(ctx, q, d.orderID, d.order, d.invoiced, d.actor.ID)
		if err != nil {
			return Outcome{}, err
		}
		if v != nil {
			out.Order = v
		} else {
			out.RemovedOrder = d.orderID
		}
	}
	return out, nil
}

// answerOrder is the order an acceptance re-planned as the viewer's user
// load shows it (orders.LoadViews), from the order as the re-plan left it
// (read and written in the same transaction): no need to read it again.
// Its invoice is the one thing the re-plan does not read (ensureOrder
// counted them, invoiced): an order traded on (of this month or later) has
// none, as invoices are issued for the months over; should one exist, the
// order is read as the user load reads it. nil when the re-plan deleted the
// order.
func answerOrder(ctx context.Context, q store.Q, orderID string, after *orders.Full, invoiced bool, viewerID string) (*orders.View, error) {
	if after == nil {
		return nil, nil
	}
	if invoiced {
		vs, err := orders.LoadViews(ctx, q, orders.Filter{IDs: []string{orderID}}, viewerID)
		if err != nil || len(vs) == 0 {
			return nil, err
		}
		return &vs[0], nil
	}
	v := after.ViewFor(viewerID)
	return &v, nil
}

// event records a trade event: product and month of the need, the
// proposal's quantity and price, and for a correction its size (delta) and
// direction (vector) against the commitment. The actor emits it; it joins
// the operation's outcome.
func (d *deal) event(ctx context.Context, q store.Q, typ, target string, qty, price decimal.Dec, outcome *bool, now time.Time) error {
	data := eventData(d.product, d.need.ID, d.need.Month, d.commitment, qty, price, outcome)
	e := activity.Event{Type: typ, OriginID: d.actor.ID, TargetID: target, CreatedAt: now, Data: data}
	var (
		v   activity.View
		err error
	)
	if name, known := d.nameOf(target); known {
		v, err = activity.RecordAs(ctx, q, e, activity.Party{Email: d.actor.Email, Name: d.actor.Name}, name)
	} else {
		v, err = activity.RecordView(ctx, q, e)
	}
	if err != nil {
		return fmt.Errorf("trade: %w", err)
	}
	if !d.quiet {
		if err := notify.Trade(ctx, q, e, d.actor.Name, d.need.DistributorID); err != nil {
			return fmt.Errorf("trade: %w", err)
		}
	}
	d.events = append(d.events, v)
	return nil
}

// nameOf is the name of a party of the deal as its events show it, when
// the deal has it: the actor's, the producer's, the shop's.
func (d *deal) nameOf(id string) (string, bool) {
	switch id {
	case d.actor.ID:
		return d.actor.Name, true
	case d.producer.ID:
		return d.producer.Name, d.producer.Name != ""
	case d.need.DistributorID:
		return d.shopName, true
	}
	return "", false
}

// eventData is the data of a trade event on need needID of product p for
// month:
// the proposal's quantity and price, the outcome of a review, and for a
// correction (commitment set) its size (delta) and direction (vector)
// against the commitment.
func eventData(p catalog.Product, needID, month string, commitment *planning.Proposal, qty, price decimal.Dec, outcome *bool) activity.Data {
	data := activity.Data{
		Product: &activity.Product{Name: p.Name, Unit: p.Unit}, Need: needID, Date: month,
		Quantity: &qty, Price: &price, Outcome: outcome,
	}
	if commitment != nil {
		delta, up := qty-commitment.Quantity, qty > commitment.Quantity
		if delta < 0 {
			delta = -delta
		}
		data.Delta, data.Vector = &delta, &up
	}
	return data
}

// Propose creates or replaces the open proposal of producerID on a need:
// the producer's offer, or the shop's counter-proposal or correction. With
// a commitment in place it is a correction (fix:request), which may ask for
// 0 to end the commitment; otherwise a proposal (proposal:request). It
// returns the need as the actor sees it and the event recorded.
func Propose(ctx context.Context, q store.Q, actor accounts.User, needID, producerID string, offer Offer, now time.Time) (Outcome, error) {
	d, err := begin(ctx, q, actor, needID, producerID, false, now)
	if err != nil {
		return Outcome{}, err
	}
	if !d.allowed.CanPropose() {
		return Outcome{}, core.Refuse(core.ErrConflict, MsgNotAllowed)
	}
	if !d.producer.HasDeliveryDays() {
		return Outcome{}, core.Refuse(core.ErrConflict, MsgNoDeliveryDays)
	}
	unit := d.product.Unit
	invalid := &core.ValidationError{}
	qty, qtyErr := parseQuantity(unit, offer.Quantity, d.state.Committed)
	if qtyErr != "" {
		invalid.Add("quantity", qtyErr)
	} else if limit := d.remaining(); qty > limit {
		invalid.Add("quantity", ExceedsMessage(limit, unit))
	}
	price, priceErr := parsePrice(offer.Price)
	if priceErr != "" {
		invalid.Add("price", priceErr)
	}
	product, err := d.suppliedProduct(ctx, q, offer.Product)
	if fs := validationFields(err); fs != nil {
		invalid.Fields = append(invalid.Fields, fs...)
	} else if err != nil {
		return Outcome{}, err
	}
	if err := invalid.Err(); err != nil {
		return Outcome{}, err
	}
	if err := d.checkProposal(ctx, q, Commitment{NeedID: d.need.ID, ProductID: d.need.ProductID, Unit: unit,
		Quantity: qty, Price: price}, now); err != nil {
		return Outcome{}, err
	}

	d.quiet = offer.Taken
	ms := now.UnixMilli()
	if d.open != nil {
		// A counter-proposal keeps what it answers: the other side's
		// values it replaces; a side changing its own proposal keeps the
		// values that proposal answered (issue 37).
		prevFrom, prevQty, prevPrice := d.open.PreviousFrom, d.open.PreviousQuantity, d.open.PreviousPrice
		if d.open.From != d.side {
			from, oldQty, oldPrice := d.open.From, d.open.Quantity, d.open.Price
			prevFrom, prevQty, prevPrice = &from, &oldQty, &oldPrice
		}
		_, err = store.Exec(ctx, q, `UPDATE proposals SET status = ?, origin = ?, quantity = ?, price = ?,
			previous_origin = ?, previous_quantity = ?, previous_price = ?, supplied_product_id = ?, updated_at = ? WHERE id = ?`,
			planning.StatusProposed, d.side, qty, price, prevFrom, prevQty, prevPrice, product, ms, d.open.ID)
		d.changed(d.open.ID, func(p *planning.Proposal) {
			p.Status, p.From, p.Quantity, p.Price, p.UpdatedAt = planning.StatusProposed, d.side, qty, price, ms
			p.PreviousFrom, p.PreviousQuantity, p.PreviousPrice = prevFrom, prevQty, prevPrice
			p.SuppliedProduct = product
		})
	} else {
		p := planning.Proposal{ID: core.NewID(), NeedID: d.need.ID, Producer: d.producer.ID, Status: planning.StatusProposed,
			From: d.side, Quantity: qty, Price: price, SuppliedProduct: product, CreatedAt: ms, UpdatedAt: ms}
		_, err = store.Exec(ctx, q, `INSERT INTO proposals (id, need_id, producer_id, status, origin, quantity, price,
			supplied_product_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			p.ID, p.NeedID, p.Producer, p.Status, p.From, p.Quantity, p.Price, p.SuppliedProduct, p.CreatedAt, p.UpdatedAt)
		d.added(p)
	}
	if err != nil {
		return Outcome{}, fmt.Errorf("trade: write proposal: %w", err)
	}
	typ := activity.ProposalRequest
	if d.state.Committed {
		typ = activity.FixRequest
	}
	if err := d.event(ctx, q, typ, d.other(), qty, price, nil, now); err != nil {
		return Outcome{}, err
	}
	return d.outcome(ctx, q, now)
}

// Review answers the open proposal of producerID on a need, by the side
// that did not make it. Accepted, it becomes the commitment (replacing the
// previous one; a quantity of 0 ends it) and the order's deliveries are
// re-planned; refused, it is marked rejected (refusing a proposal already
// rejected changes nothing). Events proposal:review, or fix:review for a
// correction. It returns the need as the actor sees it, the event recorded
// and, after an acceptance, the order and the product's price.
func Review(ctx context.Context, q store.Q, actor accounts.User, needID, producerID string, accepted bool, now time.Time) (Outcome, error) {
	d, err := begin(ctx, q, actor, needID, producerID, accepted, now)
	if err != nil {
		return Outcome{}, err
	}
	if !d.allowed.CanReview(accepted) {
		return Outcome{}, core.Refuse(core.ErrConflict, MsgNotAllowed)
	}
	open := *d.open
	if !accepted && open.Status == planning.StatusRejected {
		return d.outcome(ctx, q, now)
	}
	ms := now.UnixMilli()
	if !accepted {
		if _, err := store.Exec(ctx, q, `UPDATE proposals SET status = ?, updated_at = ? WHERE id = ?`,
			planning.StatusRejected, ms, open.ID); err != nil {
			return Outcome{}, fmt.Errorf("trade: reject proposal: %w", err)
		}
		d.changed(open.ID, func(p *planning.Proposal) { p.Status, p.UpdatedAt = planning.StatusRejected, ms })
	} else {
		if err := d.accept(ctx, q, open, now); err != nil {
			return Outcome{}, err
		}
	}
	typ := activity.ProposalReview
	if d.state.Committed {
		typ = activity.FixReview
	}
	target := d.need.DistributorID
	if open.From == planning.FromProducer {
		target = d.producer.ID
	}
	if err := d.event(ctx, q, typ, target, open.Quantity, open.Price, &accepted, now); err != nil {
		return Outcome{}, err
	}
	return d.outcome(ctx, q, now)
}

// accept turns the open proposal into the commitment and re-plans the
// order of (producer, shop, month).
func (d *deal) accept(ctx context.Context, q store.Q, open planning.Proposal, now time.Time) error {
	// Serialise with a change of the producer's delivery days, which
	// re-plans the same orders, and read the days under that lock (begin
	// did when the shop accepts).
	// Its SIRET and email too, for the legal entity its commitment counts
	// as in the price figures (EntityOf): as stored, not as the session
	// read them.
	producer := d.producer
	if !d.producerLocked {
		if err := store.Get(ctx, q, &producer, `SELECT delivery_days, siret, email_key, email_confirmed FROM users WHERE id = ?`+store.ForUpdate(q),
			d.producer.ID); err != nil {
			return fmt.Errorf("trade: lock producer: %w", err)
		}
	}
	if open.Quantity > 0 && !producer.HasDeliveryDays() {
		return core.Refuse(core.ErrConflict, MsgNoDeliveryDays)
	}
	// A rejected proposal reserved nothing: it must still fit.
	if limit := d.remaining(); open.Quantity > limit {
		return core.Refuse(core.ErrConflict, ExceedsMessage(limit, d.product.Unit))
	}
	ms := now.UnixMilli()
	var err error
	if d.commitment != nil {
		if _, err := store.Exec(ctx, q, `DELETE FROM proposals WHERE id = ?`, d.commitment.ID); err != nil {
			return fmt.Errorf("trade: replace commitment: %w", err)
		}
		d.changed(d.commitment.ID, nil)
	}
	if open.Quantity > 0 {
		// The commitment answers nothing any more: its previous values go.
		_, err = store.Exec(ctx, q, `UPDATE proposals SET status = ?, previous_origin = NULL, previous_quantity = NULL,
			previous_price = NULL, updated_at = ? WHERE id = ?`, planning.StatusAccepted, ms, open.ID)
		d.changed(open.ID, func(p *planning.Proposal) {
			p.Status, p.UpdatedAt = planning.StatusAccepted, ms
			p.PreviousFrom, p.PreviousQuantity, p.PreviousPrice = nil, nil, nil
		})
	} else {
		_, err = store.Exec(ctx, q, `DELETE FROM proposals WHERE id = ?`, open.ID)
		d.changed(open.ID, nil)
	}
	if err != nil {
		return fmt.Errorf("trade: accept proposal: %w", err)
	}
	if d.commitment != nil && open.Quantity < d.commitment.Quantity {
		if err := giveBack(ctx, q, d.need.ID, d.producer.ID, open.Quantity, now); err != nil {
			return err
		}
	}
	o, stored, invoiced, err := ensureOrder(ctx, q, d.producer.ID, d.need.DistributorID, d.need.Month, now)
	if err != nil {
		return err
	}
	// The order's commitments as this acceptance leaves them: those it
	// kept with this one replaced, or read (they include it, written
	// above); the order keeps them (kept.go).
	k := kept{known: true, stored: stored}
	if k.commitments, err = commitmentsOf(ctx, q, o, stored); err != nil {
		return err
	}
	if stored.Valid {
		k.commitments = withCommitment(k.commitments, Commitment{NeedID: d.need.ID, ProductID: d.need.ProductID, Unit: d.product.Unit,
			Quantity: open.Quantity, Price: open.Price})
	}
	d.invoiced = invoiced
	days := producer.Days()
	check, err := minimumCheck(ctx, q, d.producer.ID, d.need.DistributorID)
	if err != nil {
		return err
	}
	if d.order, err = replanChecked(ctx, q, o, now, false, days, check, k); err != nil {
		return err
	}
	d.orderID = o.ID
	// Last, so that the month's row of the price sums, which every
	// acceptance of the product writes, stays locked the shortest.
	return countCommitment(ctx, q, change{product: d.need.ProductID, month: d.need.Month, shop: d.need.DistributorID,
		producer: d.producer.ID, area: d.area, buyer: d.shopEntity, seller: EntityOf(producer), quantity: open.Quantity, price: open.Price})
}

// Withdraw deletes the open proposal of producerID on a need, by the side
// that made it. PRODUCT has no event type for it: none is recorded. It returns
// the need as the actor sees it.
func Withdraw(ctx context.Context, q store.Q, actor accounts.User, needID, producerID string, now time.Time) (Outcome, error) {
	d, err := begin(ctx, q, actor, needID, producerID, false, now)
	if err != nil {
		return Outcome{}, err
	}
	if !d.allowed.CanWithdraw() {
		return Outcome{}, core.Refuse(core.ErrConflict, MsgNotAllowed)
	}
	if _, err := store.Exec(ctx, q, `DELETE FROM proposals WHERE id = ?`, d.open.ID); err != nil {
		return Outcome{}, fmt.Errorf("trade: withdraw proposal: %w", err)
	}
	d.changed(d.open.ID, nil)
	return d.outcome(ctx, q, now)
}

// ExceedsMessage is PRODUCT §5's message for a quantity over the remaining
// need, the maximum written the French way ("12,5kg", "3un").
func ExceedsMessage(limit decimal.Dec, unit string) string {
	return fmt.Sprintf(MsgExceeds, strings.ReplaceAll(limit.String(), ".", ","), unit)
}

// parseQuantity checks a proposal's quantity for the product's unit; zero
// is allowed only in a correction. It returns the PRODUCT §5 message when
// the quantity is refused.
func parseQuantity(unit string, f float64, correction bool) (decimal.Dec, string) {
	low := MsgQuantityPositive
	if correction {
		low = MsgQuantityOrZero
	}
	if !math.IsNaN(f) && f < 0 {
		return 0, low
	}
	qty, err := planning.ParseQuantity("quantity", unit, f)
	if err != nil {
		return 0, err.Error()
	}
	if qty == 0 && !correction {
		return 0, low
	}
	return qty, ""
}

// parsePrice checks a unit price: more than zero, at most MaxPrice, at
// most two decimals by core/decimal's exact rule (9999.995 is refused,
// never rounded).
func parsePrice(f float64) (decimal.Dec, string) {
	if f == 0 {
		return 0, MsgPricePositive
	}
	if f > MaxPrice.Float() && !math.IsInf(f, 1) {
		return 0, planning.MsgTooLarge
	}
	d, ok := decimal.FromFloat(f)
	if !ok || d < 0 {
		return 0, MsgBadPrice
	}
	if d == 0 {
		return 0, MsgPricePositive
	}
	if d > MaxPrice {
		return 0, planning.MsgTooLarge
	}
	return d, ""
}
