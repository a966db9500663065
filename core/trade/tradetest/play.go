package tradetest

import (
	"context"
	"fmt"
	"slices"
	"time"

	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/delivery"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/trade"
)

// Outcome is what became of a delivery after trade planned it, as a world
// states it: the operations that would have produced it are played at
// their times (see World.Played).
type Outcome struct {
	// Status is where the delivery ends: orders.Planned (or empty), Done —
	// locked at its lock time by the deliveries job's LockDue — or
	// Cancelled by the shop (delivery.Rules.Cancel) at ChangedAt.
	Status string
	// Sent are the quantities the shop noted as sent (delivery.Rules.Update)
	// at ChangedAt, per product id.
	Sent map[string]decimal.Dec
	// ChangedAt is when the shop noted Sent or cancelled; zero: the moment
	// the delivery was planned.
	ChangedAt time.Time
	// NoteSentAt is when the delivery note of a done delivery was emailed
	// (delivery.NoteDelay after the lock at the earliest); zero: not yet.
	NoteSentAt time.Time
	// Claim is the producer's claim on a done delivery; nil: none.
	Claim *ClaimOutcome
}

// ClaimOutcome is a claim the producer sent at SentAt
// (delivery.Rules.SendClaim) and the shop's answer (delivery.Rules.Review):
// Status orders.ClaimSent (no answer yet; empty means the same),
// ClaimAccepted or ClaimRejected at ReviewedAt.
type ClaimOutcome struct {
	// Lines are the claimed lines by product id.
	Lines      map[string]ClaimedLine
	SentAt     time.Time
	Status     string
	ReviewedAt time.Time
}

// ClaimedLine is the claim on one line: the signed quantity, its type
// (orders.ClaimQuality or ClaimQuantity) and an optional comment.
type ClaimedLine struct {
	Quantity decimal.Dec
	Type     string
	Comment  string
}

// player plays trade's and the deliveries' operations on q: what a world
// writes goes through them alone.
type player struct {
	ctx   context.Context
	q     store.Q
	rules delivery.Rules
}

// commitment is a producer's commitment on one of a shop's needs.
type commitment struct {
	NeedID    string      `db:"need_id"`
	ProductID string      `db:"product_id"`
	Quantity  decimal.Dec `db:"quantity"`
	Price     decimal.Dec `db:"price"`
}

// commitments reads the commitments of producer on shop's needs of month,
// by product.
func (p player) commitments(producerID, shopID, month string) (map[string]commitment, error) {
	var cs []commitment
	if err := store.Select(p.ctx, p.q, &cs, `SELECT n.id AS need_id, n.product_id, pr.quantity, pr.price
		FROM needs n JOIN proposals pr ON pr.need_id = n.id
		WHERE n.distributor_id = ? AND n.month = ? AND pr.producer_id = ? AND pr.status = 'accepted'`,
		shopID, month, producerID); err != nil {
		return nil, fmt.Errorf("commitments: %w", err)
	}
	out := make(map[string]commitment, len(cs))
	for _, c := range cs {
		out[c.ProductID] = c
	}
	return out, nil
}

// commit brings producer's commitment on the need to qty at price as the
// two parties do it: the producer proposes (a correction when committed),
// the shop accepts; trade re-plans the order.
func (p player) commit(producer, shop accounts.User, needID string, qty, price decimal.Dec, at time.Time) error {
	if _, err := trade.Propose(p.ctx, p.q, producer, needID, producer.ID, trade.Offer{Quantity: qty.Float(), Price: price.Float()}, at); err != nil {
		return fmt.Errorf("propose %s at %s: %w", qty, price, err)
	}
	if _, err := trade.Review(p.ctx, p.q, shop, needID, producer.ID, true, at); err != nil {
		return fmt.Errorf("accept %s at %s: %w", qty, price, err)
	}
	return nil
}

// fixed is what each product's commitment already holds in an order's
// deliveries that re-planning no longer changes at the time of a plan
// (trade.PlanOrder): a done delivery's sent quantities, the expected ones
// of the others. The caller knows that none of them is re-plannable.
func fixed(f orders.Full) map[string]decimal.Dec {
	out := map[string]decimal.Dec{}
	for _, d := range f.Deliveries {
		for _, l := range d.Lines {
			if d.Status == orders.Done {
				out[l.ProductID] += l.Sent()
			} else {
				out[l.ProductID] += l.QuantityExpected
			}
		}
	}
	return out
}

// smallest is the least quantity of a product of unit: a hundredth of a
// kilogram, one piece.
func smallest(unit string) decimal.Dec {
	if catalog.Whole(unit) {
		return decimal.Hundred
	}
	return 1
}

// deliver adds to an order a delivery on date carrying lines, through
// trade's operations alone, and returns its id. Trade plans deliveries on
// the producer's delivery days and shares a commitment evenly over them;
// a delivery on a chosen date, with chosen quantities, is reached as the
// parties would reach it, on the day after the order's last planned
// delivery (or on the eve of the month):
//
//  1. each commitment of the order above what its deliveries hold is
//     corrected down to it (what a done delivery lacked would otherwise
//     be planned again);
//  2. the producer proposes the smallest quantity of the first line's
//     product above what the deliveries hold, the shop accepts: trade
//     plans it on the last of the producer's days (Split leaves the
//     others empty);
//  3. each line's commitment is brought to what the deliveries hold plus
//     the line (a proposal, or a correction, accepted): the one delivery
//     trade may re-plan receives it all;
//  4. the shop moves that delivery to date (delivery.Rules.Update), unless
//     it is there.
//
// When the order already has a planned delivery on date or later (a test
// that writes its deliveries out of date order), the agreement is made on
// the day of its last one, so that trade re-plans none of them, and the
// shop's move is played on the eve of date: the one operation a world
// plays before one it follows. It returns the delivery's id and the
// earliest moment of it.
//
// need(product, total) makes sure the shop's need of product for the month
// may hold a commitment of the producer of total, and returns its id.
func (p player) deliver(orderID string, producer, shop accounts.User, month, date string, lines []L, need func(product string, total decimal.Dec) (string, error)) (string, time.Time, error) {
	if len(lines) == 0 {
		return "", time.Time{}, fmt.Errorf("no line")
	}
	f, err := orders.Get(p.ctx, p.q, orderID)
	if err != nil {
		return "", time.Time{}, err
	}
	m, ok := calendar.ParseMonth(month)
	if !ok {
		return "", time.Time{}, fmt.Errorf("month %q", month)
	}
	// The day of the agreement: the eve of the month, or the day of the
	// order's last planned delivery; the month's last day for a delivery
	// in the next month (one the shop moved there).
	day := m.First().AddDays(-1).String()
	for _, d := range f.Deliveries {
		if d.Status == orders.Planned && d.Date > day {
			day = d.Date
		}
	}
	if date > m.Last().String() && day < m.Last().String() {
		day = m.Last().String()
	}
	if day > m.Last().String() {
		return "", time.Time{}, fmt.Errorf("a planned delivery on %s, in the next month", day)
	}
	d, _ := calendar.ParseDate(day)
	at := d.At(9*time.Hour, p.rules.Location)
	// The shop moves the delivery on the agreement's day; or, when the
	// order has a planned delivery on date or later, on the eve of date.
	moved := at
	if day >= date {
		d, _ := calendar.ParseDate(date)
		moved = d.AddDays(-1).At(9*time.Hour, p.rules.Location)
	}

	held := fixed(f)
	cs, err := p.commitments(producer.ID, shop.ID, month)
	if err != nil {
		return "", time.Time{}, err
	}
	seen := map[string]bool{}
	for _, l := range lines {
		if seen[l.Product] {
			return "", time.Time{}, fmt.Errorf("two lines of %s", l.Product)
		}
		seen[l.Product] = true
	}
	first := lines[0].Product
	// 1. What the deliveries lacked is not planned again.
	for _, product := range sortedKeys(cs) {
		if c := cs[product]; product != first && c.Quantity > held[product] {
			if err := p.commit(producer, shop, c.NeedID, held[product], c.Price, at); err != nil {
				return "", time.Time{}, fmt.Errorf("%s: %w", product, err)
			}
		}
	}
	var unit string
	if err := store.Get(p.ctx, p.q, &unit, `SELECT unit FROM products WHERE id = ?`, first); err != nil {
		return "", time.Time{}, fmt.Errorf("product %s: %w", first, err)
	}
	// 2. One delivery, on the last of the producer's days.
	step := smallest(unit)
	needID, err := need(first, held[first]+step)
	if err != nil {
		return "", time.Time{}, err
	}
	if err := p.commit(producer, shop, needID, held[first]+step, lines[0].Price, at); err != nil {
		return "", time.Time{}, fmt.Errorf("%s: %w", first, err)
	}
	f, err = orders.Get(p.ctx, p.q, orderID)
	if err != nil {
		return "", time.Time{}, err
	}
	var planned []orders.FullDelivery
	for _, d := range f.Deliveries {
		if d.Status == orders.Planned && d.Date > day {
			planned = append(planned, d)
		}
	}
	if len(planned) != 1 {
		return "", time.Time{}, fmt.Errorf("%d deliveries planned after %s", len(planned), day)
	}
	id := planned[0].ID
	// 3. The lines.
	for i, l := range lines {
		if i == 0 && l.Expected == step {
			continue
		}
		needID, err := need(l.Product, held[l.Product]+l.Expected)
		if err != nil {
			return "", time.Time{}, err
		}
		if err := p.commit(producer, shop, needID, held[l.Product]+l.Expected, l.Price, at); err != nil {
			return "", time.Time{}, fmt.Errorf("%s: %w", l.Product, err)
		}
	}
	// 4. Moved to its date by the shop.
	if planned[0].Date != date {
		if _, err := p.rules.Update(p.ctx, p.q, shop.ID, orderID, id, delivery.Change{Date: &date}, moved); err != nil {
			return "", time.Time{}, fmt.Errorf("move the delivery of %s to %s: %w", planned[0].Date, date, err)
		}
	}
	if moved.Before(at) {
		return id, moved, nil
	}
	return id, at, nil
}

// settle plays on delivery id of the order what became of it: the shop's
// sent quantities and cancellation (change), the lock (LockDueIn at its
// lock time: every planned delivery due by then is locked, as the
// deliveries job locks them), then the note's email, the producer's claim
// and the shop's answer (after).
func (p player) settle(orderID, id, date string, producer, shop accounts.User, out Outcome, planned time.Time) error {
	f, err := orders.Get(p.ctx, p.q, orderID)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(f.Deliveries, func(d orders.FullDelivery) bool { return d.ID == id })
	if i < 0 {
		return fmt.Errorf("delivery %s is not one of order %s", id, orderID)
	}
	d := f.Deliveries[i]
	if err := p.change(orderID, d, shop, out, planned); err != nil {
		return err
	}
	if out.Status == orders.Done {
		if _, err := p.rules.LockDueIn(p.ctx, p.q, p.rules.LockTime(date)); err != nil {
			return err
		}
	}
	statuses, err := p.statuses([]string{id})
	if err != nil {
		return err
	}
	return p.after(orderID, d, statuses[id], producer, shop, out)
}

// statuses reads the deliveries' statuses, by id.
func (p player) statuses(ids []string) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	for start := 0; start < len(ids); start += 500 {
		var rows []struct {
			ID     string `db:"id"`
			Status string `db:"status"`
		}
		if err := store.SelectIn(p.ctx, p.q, &rows, `SELECT id, status FROM deliveries WHERE id IN (?)`, ids[start:min(start+500, len(ids))]); err != nil {
			return nil, err
		}
		for _, r := range rows {
			out[r.ID] = r.Status
		}
	}
	return out, nil
}

// line is the id of the line of product in delivery d.
func line(d orders.FullDelivery, product string) (string, error) {
	for _, l := range d.Lines {
		if l.ProductID == product {
			return l.ID, nil
		}
	}
	return "", fmt.Errorf("no line of %s", product)
}

// change plays the shop's changes of delivery d, planned at planned: its
// sent quantities (Update) and cancellation (Cancel), at out.ChangedAt or
// planned, before its lock.
func (p player) change(orderID string, d orders.FullDelivery, shop accounts.User, out Outcome, planned time.Time) error {
	at := out.ChangedAt
	if at.IsZero() {
		at = planned
	}
	if at.Before(planned) {
		return fmt.Errorf("changed at %s, before it was planned at %s", at, planned)
	}
	if len(out.Sent) > 0 {
		var c delivery.Change
		for _, product := range sortedKeys(out.Sent) {
			l, err := line(d, product)
			if err != nil {
				return err
			}
			qty := out.Sent[product].Float()
			c.Lines = append(c.Lines, delivery.LineSent{ID: l, QuantitySent: &qty})
		}
		if _, err := p.rules.Update(p.ctx, p.q, shop.ID, orderID, d.ID, c, at); err != nil {
			return fmt.Errorf("sent quantities: %w", err)
		}
	}
	switch out.Status {
	case "", orders.Planned, orders.Done:
	case orders.Cancelled:
		if _, err := p.rules.Cancel(p.ctx, p.q, shop.ID, orderID, d.ID, at); err != nil {
			return fmt.Errorf("cancel: %w", err)
		}
	default:
		return fmt.Errorf("unknown status %q", out.Status)
	}
	return nil
}

// after checks that delivery d, now in status, ended where out says, and
// plays what follows the lock: the note's email, the producer's claim
// (SendClaim) and the shop's answer (Review).
func (p player) after(orderID string, d orders.FullDelivery, status string, producer, shop accounts.User, out Outcome) error {
	want := out.Status
	if want == "" {
		want = orders.Planned
	}
	if status != want {
		return fmt.Errorf("%s, not %s: a delivery planned before a done one is locked with it", status, want)
	}
	id := d.ID
	lock := p.rules.LockTime(d.Date)
	if !out.NoteSentAt.IsZero() {
		if out.Status != orders.Done || out.NoteSentAt.Before(lock.Add(delivery.NoteDelay)) {
			return fmt.Errorf("a note emailed at %s", out.NoteSentAt)
		}
		// The mark the deliveries job leaves once the note's email is
		// handed over (core/jobs): bookkeeping of mail, not trade.
		if _, err := store.Exec(p.ctx, p.q, `INSERT INTO sends (message_key, kind, subject_id, sent_at)
			VALUES (?, 'note', ?, ?) ON CONFLICT (message_key) DO UPDATE SET sent_at = excluded.sent_at`,
			"note-"+id, id, out.NoteSentAt.UnixMilli()); err != nil {
			return fmt.Errorf("note emailed: %w", err)
		}
	}
	cl := out.Claim
	if cl == nil {
		return nil
	}
	if cl.SentAt.Before(lock) {
		return fmt.Errorf("a claim sent at %s, before the lock", cl.SentAt)
	}
	var c delivery.Claim
	for _, product := range sortedKeys(cl.Lines) {
		l, err := line(d, product)
		if err != nil {
			return err
		}
		qty, kind, comment := cl.Lines[product].Quantity.Float(), cl.Lines[product].Type, cl.Lines[product].Comment
		c.Lines = append(c.Lines, delivery.LineClaim{ID: l, QuantityClaimed: &qty, ClaimType: &kind, ClaimComment: &comment})
	}
	if _, err := p.rules.SendClaim(p.ctx, p.q, producer.ID, orderID, id, c, cl.SentAt); err != nil {
		return fmt.Errorf("claim: %w", err)
	}
	switch cl.Status {
	case "", orders.ClaimSent:
	case orders.ClaimAccepted, orders.ClaimRejected:
		if cl.ReviewedAt.Before(cl.SentAt) {
			return fmt.Errorf("a claim answered at %s, before it was sent", cl.ReviewedAt)
		}
		if _, err := p.rules.Review(p.ctx, p.q, shop.ID, orderID, id, cl.Status == orders.ClaimAccepted, cl.ReviewedAt); err != nil {
			return fmt.Errorf("answer the claim: %w", err)
		}
	default:
		return fmt.Errorf("unknown claim status %q", cl.Status)
	}
	return nil
}

// sortedKeys are a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
