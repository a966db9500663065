package delivery

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/notify"
	"primeur/core/orders"
	"primeur/core/store"
)

// PRODUCT §5 messages of the delivery form (shop) and the claim form (producer).
const (
	MsgDate       = "Veuillez saisir une date valide"
	MsgNegative   = "Veuillez saisir une quantité positive"
	MsgWeight     = "Veuillez saisir un poids correct"
	MsgPieces     = "Veuillez saisir un nombre de pièces correct"
	MsgNoQuantity = "Aucune quantité saisie"
	MsgNotNumber  = "La quantité saisie doit être un nombre"
	MsgNoChange   = "Pas de changement à envoyer"
)

// Messages where PRODUCT is silent, in the same style.
const (
	MsgClaimType    = "Veuillez choisir le type de réclamation (Qualité ou Quantité)"
	MsgClaimExceeds = "La quantité réclamée ne peut excéder la quantité livrée"
	// MsgClaimAboveOrdered is the refusal of a claim that would bill more
	// than was ordered; ClaimAboveMessage fills in the ordered quantity.
	MsgClaimAboveOrdered = "La quantité livrée plus la quantité réclamée ne peut excéder la quantité commandée (%s%s)"
	MsgUnknownLine       = "Cette ligne n'appartient pas a la livraison"
	MsgDuplicate         = "Cette ligne est saisie deux fois"
	MsgTooLong           = accounts.MsgTooLong

	MsgNotPlanned = "Cette livraison n'est plus modifiable : seule une livraison prévue peut l'être."
	MsgNotDone    = "Une demande d'avoir n'est possible que sur une livraison effectuée."
	// MsgClaimClosed is the refusal of a claim after its window;
	// ClaimClosedMessage fills in the last day (window.go).
	MsgClaimClosed   = "Le délai de demande d'avoir est dépassé : elle était possible jusqu'au %s, deux jours ouvrés après la livraison."
	MsgClaimReviewed = "Cette demande d'avoir a déjà été traitée."
	MsgNoClaim       = "Aucune demande d'avoir en attente sur cette livraison."
	// MsgShopClaimPending refuses the producer's claim while the shop's
	// (its reception's differences) waits for the producer's answer.
	MsgShopClaimPending = "Le magasin a envoyé une demande d'avoir sur cette livraison à sa réception : acceptez-la ou refusez-la."
)

// MsgLocked is the refusal of a change after the lock.
func (r Rules) MsgLocked() string {
	return fmt.Sprintf("Le bon de livraison n'est plus modifiable après %s le jour de la livraison.", r.LockLabel())
}

// maxComment bounds a claim comment, in characters.
const maxComment = 500

// LineSent is the shop's sent quantity for one line; nil leaves it as is.
type LineSent struct {
	ID           string
	QuantitySent *float64
}

// Change is the shop's update of a planned delivery. Nil or empty fields
// are left as they are.
type Change struct {
	// Date is the new delivery date, "YYYY-MM-DD".
	Date  *string
	Lines []LineSent
}

// LineClaim is the producer's claim on one line.
type LineClaim struct {
	ID string
	// QuantityClaimed is the signed adjustment: -3 when 3 kg were unfit,
	// +2 when 2 more pieces were delivered than noted.
	QuantityClaimed *float64
	// ClaimType is quality or quantity; required when the quantity is not 0.
	ClaimType    *string
	ClaimComment *string
}

// Claim is the producer's whole claim on a delivery: lines absent from it
// carry no claim.
type Claim struct {
	Lines []LineClaim
}

// line is a delivery line with its product.
type line struct {
	orders.Line
	Unit string `db:"unit"`
	Name string `db:"name"`
}

// target is a delivery locked for change, with its order and lines.
type target struct {
	order    orders.Order
	delivery orders.Delivery
	lines    []line
}

// lockTarget reads the delivery (locking its row) and its order, and checks
// that partyID is the party the operation belongs to. Anything else — a
// missing order or delivery, a delivery of another order, another user's
// order — is core.ErrNotFound.
func lockTarget(ctx context.Context, q store.Q, orderID, deliveryID, partyID string, shop bool) (target, error) {
	var t target
	notFound := fmt.Errorf("delivery: %s/%s: %w", orderID, deliveryID, core.ErrNotFound)
	err := store.Get(ctx, q, &t.delivery, `SELECT id, order_id, producer_id, status, date, chrono, claim_status, claim_by,
			claim_sent_at, claim_reviewed_at,
			(SELECT s.sent_at FROM sends s WHERE s.message_key = 'note-' || deliveries.id) AS note_sent_at, created_at, updated_at
		FROM deliveries WHERE id = ? AND order_id = ?`+store.ForUpdate(q), deliveryID, orderID)
	if store.IsNotFound(err) {
		return t, notFound
	}
	if err != nil {
		return t, fmt.Errorf("delivery: lock %s: %w", deliveryID, err)
	}
	if err := store.Get(ctx, q, &t.order, `SELECT id, producer_id, distributor_id, month, created_at, updated_at
		FROM orders WHERE id = ?`, orderID); err != nil {
		return t, fmt.Errorf("delivery: order %s: %w", orderID, err)
	}
	if (shop && t.order.DistributorID != partyID) || (!shop && t.order.ProducerID != partyID) {
		return t, notFound
	}
	if err := store.Select(ctx, q, &t.lines, `SELECT l.id, l.delivery_id, l.need_id, l.product_id, l.price,
			l.quantity_expected, l.quantity_sent, l.quantity_claimed, l.claim_type, l.claim_comment, p.unit, p.name
		FROM delivery_lines l JOIN products p ON p.id = l.product_id
		WHERE l.delivery_id = ? ORDER BY p.name, l.id`, deliveryID); err != nil {
		return t, fmt.Errorf("delivery: lines of %s: %w", deliveryID, err)
	}
	return t, nil
}

func (t target) lineIndex(id string) int {
	for i, l := range t.lines {
		if l.ID == id {
			return i
		}
	}
	return -1
}

// checkEditable refuses a change unless the delivery is planned and before
// its lock.
func (r Rules) checkEditable(t target, now time.Time) error {
	if t.delivery.Status != orders.Planned {
		return core.Refuse(core.ErrConflict, MsgNotPlanned)
	}
	if r.Locked(t.delivery.Date, now) {
		return core.Refuse(core.ErrConflict, r.MsgLocked())
	}
	return nil
}

// quantity checks a quantity of a product in unit: at most two decimals for
// kg, whole pieces. neg is the message for a negative value (empty allows
// it); bad the message for a malformed one.
func quantity(f float64, unit, neg, bad string) (decimal.Dec, string) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, bad
	}
	if neg != "" && f < 0 {
		return 0, neg
	}
	d, ok := decimal.FromFloat(f)
	if !ok {
		if catalog.Whole(unit) {
			return 0, MsgPieces
		}
		return 0, bad
	}
	if !catalog.Fits(d, unit) {
		return 0, MsgPieces
	}
	return d, ""
}

// ClaimAboveMessage is MsgClaimAboveOrdered for a line ordered in that
// quantity and unit, written the French way: "(2,5kg)", "(12un)".
func ClaimAboveMessage(ordered decimal.Dec, unit string) string {
	return fmt.Sprintf(MsgClaimAboveOrdered, strings.ReplaceAll(ordered.String(), ".", ","), unit)
}

// ClaimCeiling is the most a line may be billed once a claim is accepted:
// the quantity ordered for it (quantityExpected), or the quantity the shop
// noted as sent when that is more (a claim may always reduce).
func ClaimCeiling(l orders.Line) decimal.Dec {
	return max(l.QuantityExpected, l.Sent())
}

// CheckClaim is the rule of a claimed quantity on a line of a done
// delivery (PRODUCT §16), the one the API applies and the claim form
// mirrors: f is the signed adjustment to the sent quantity, with at most
// two decimals by core/decimal's exact rule (whole for pieces), and the
// line then bills between zero and what was ordered: 0 ≤ sent + claimed ≤
// ClaimCeiling(l). It returns the claimed quantity, or the French message
// of the refusal.
func CheckClaim(l orders.Line, unit string, f float64) (decimal.Dec, string) {
	if math.IsInf(f, 0) || math.Abs(f) > decimal.Max.Float() {
		// Beyond what any quantity can be: say which bound it breaks.
		if f < 0 {
			return 0, MsgClaimExceeds
		}
		return 0, ClaimAboveMessage(l.QuantityExpected, unit)
	}
	qty, msg := quantity(f, unit, "", MsgNotNumber)
	switch {
	case msg != "":
		return 0, msg
	case l.Sent()+qty < 0:
		return 0, MsgClaimExceeds
	case l.Sent()+qty > ClaimCeiling(l):
		return 0, ClaimAboveMessage(l.QuantityExpected, unit)
	}
	return qty, ""
}

// Update applies the shop's change to a planned delivery before its lock:
// a new date (tomorrow at the earliest, in the month of the order or of
// the delivery's current date) and sent quantities (positive, two decimals
// for kg, whole pieces). It returns the order.
func (r Rules) Update(ctx context.Context, q store.Q, shopID, orderID, deliveryID string, c Change, now time.Time) (orders.Full, error) {
	t, err := lockTarget(ctx, q, orderID, deliveryID, shopID, true)
	if err != nil {
		return orders.Full{}, err
	}
	if err := r.checkEditable(t, now); err != nil {
		return orders.Full{}, err
	}
	if err := r.change(ctx, q, t, c, now); err != nil {
		return orders.Full{}, err
	}
	return orders.Get(ctx, q, orderID)
}

// change checks and writes the shop's change c of t, a planned delivery
// locked and editable, and tells the producer: the one write of the
// shop's date and sent quantities (a reception writes none: what it
// counts otherwise is the shop's claim, Receive).
func (r Rules) change(ctx context.Context, q store.Q, t target, c Change, now time.Time) error {
	date, sent, err := r.validateChange(t, c, now)
	if err != nil {
		return err
	}
	for id, d := range sent {
		if _, err := store.Exec(ctx, q, `UPDATE delivery_lines SET quantity_sent = ? WHERE id = ?`, d, id); err != nil {
			return fmt.Errorf("delivery: set sent quantity: %w", err)
		}
	}
	if _, err := store.Exec(ctx, q, `UPDATE deliveries SET date = ?, updated_at = ? WHERE id = ?`,
		date, now.UnixMilli(), t.delivery.ID); err != nil {
		return fmt.Errorf("delivery: update %s: %w", t.delivery.ID, err)
	}
	return tell(ctx, q, t, func(shop, _ string) error {
		return notify.DeliveryChanged(ctx, q, t.order.ProducerID, shop, t.delivery.Date, false, now)
	})
}

// validateChange checks the shop's change of a delivery and returns the
// date it will have and the sent quantity per line id to write.
func (r Rules) validateChange(t target, c Change, now time.Time) (string, map[string]decimal.Dec, error) {
	v := &core.ValidationError{}
	date := t.delivery.Date
	if c.Date != nil {
		date = strings.TrimSpace(*c.Date)
		if !r.validDate(t, date, now) {
			v.Add("date", MsgDate)
		}
	}
	sent := map[string]decimal.Dec{}
	for i, ls := range c.Lines {
		field := fmt.Sprintf("deliveryLines[%d].quantitySent", i)
		k := t.lineIndex(ls.ID)
		switch {
		case k < 0:
			v.Add(fmt.Sprintf("deliveryLines[%d]._id", i), MsgUnknownLine)
			continue
		case ls.QuantitySent == nil:
			continue
		}
		if _, dup := sent[ls.ID]; dup {
			v.Add(field, MsgDuplicate)
			continue
		}
		d, msg := quantity(*ls.QuantitySent, t.lines[k].Unit, MsgNegative, MsgWeight)
		if msg != "" {
			v.Add(field, msg)
			continue
		}
		sent[ls.ID] = d
	}
	if err := v.Err(); err != nil {
		return "", nil, err
	}
	return date, sent, nil
}

// validDate: a real date, tomorrow at the earliest, in the month of the
// order or of the delivery's current date (an order is billed once its
// month is over, so a delivery cannot wander to later months).
func (r Rules) validDate(t target, date string, now time.Time) bool {
	if _, ok := calendar.ParseDate(date); !ok {
		return false
	}
	if date <= r.Today(now) {
		return false
	}
	m := calendar.MonthKey(date)
	return m == t.order.Month || m == calendar.MonthKey(t.delivery.Date)
}

// Cancel cancels a planned delivery before its lock (shop). A cancelled
// delivery counts nowhere: stock, risk, invoices.
func (r Rules) Cancel(ctx context.Context, q store.Q, shopID, orderID, deliveryID string, now time.Time) (orders.Full, error) {
	t, err := lockTarget(ctx, q, orderID, deliveryID, shopID, true)
	if err != nil {
		return orders.Full{}, err
	}
	if err := r.checkEditable(t, now); err != nil {
		return orders.Full{}, err
	}
	if _, err := store.Exec(ctx, q, `UPDATE deliveries SET status = ?, updated_at = ? WHERE id = ?`,
		orders.Cancelled, now.UnixMilli(), deliveryID); err != nil {
		return orders.Full{}, fmt.Errorf("delivery: cancel %s: %w", deliveryID, err)
	}
	if err := tell(ctx, q, t, func(shop, _ string) error {
		return notify.DeliveryChanged(ctx, q, t.order.ProducerID, shop, t.delivery.Date, true, now)
	}); err != nil {
		return orders.Full{}, err
	}
	return orders.Get(ctx, q, orderID)
}

// claimLine is a validated claim on one line.
type claimLine struct {
	qty     decimal.Dec
	kind    string
	comment string
}

// SendClaim records or modifies the producer's claim on a done delivery,
// until the end of the second working day after its date (ClaimDeadline)
// and while the shop has not reviewed it, before or after the order's
// invoice: a claim accepted once the order is invoiced is settled by a
// credit note or a complementary invoice (core/billing SettleOrder). A planned delivery already past its lock is locked first,
// as the deliveries job would. The claim (re)starts the review delay and
// records a claim:request event for the shop.
func (r Rules) SendClaim(ctx context.Context, q store.Q, producerID, orderID, deliveryID string, c Claim, now time.Time) (orders.Full, error) {
	t, err := lockTarget(ctx, q, orderID, deliveryID, producerID, false)
	if err != nil {
		return orders.Full{}, err
	}
	if t.delivery.Status == orders.Planned && r.Locked(t.delivery.Date, now) {
		if err := lockOne(ctx, q, deliveryID, now); err != nil {
			return orders.Full{}, err
		}
		if t, err = lockTarget(ctx, q, orderID, deliveryID, producerID, false); err != nil {
			return orders.Full{}, err
		}
	}
	if err := r.checkClaimable(t, now); err != nil {
		return orders.Full{}, err
	}
	claims, err := validateClaim(t, c)
	if err != nil {
		return orders.Full{}, err
	}
	if t.delivery.ClaimStatus == orders.ClaimSent && sameClaim(t, claims) {
		return orders.Full{}, core.Invalid("deliveryLines", MsgNoChange)
	}
	if err := r.send(ctx, q, t, orders.ByProducer, claims, now); err != nil {
		return orders.Full{}, err
	}
	return orders.Get(ctx, q, orderID)
}

// send writes the claim of a party (by: orders.ByProducer or ByShop) on
// t's delivery, locked and done: each line's claimed quantity, type and
// comment (lines absent from claims claim nothing), the delivery's claim
// sent at now and waiting for the other party's answer — which restarts
// the review delay —, a claim:request event from the author to the other
// party and its notification: the one write of a claim, the producer's
// (SendClaim) and the shop's at its reception (Receive) alike.
func (r Rules) send(ctx context.Context, q store.Q, t target, by string, claims map[string]claimLine, now time.Time) error {
	for _, l := range t.lines {
		cl := claims[l.ID]
		if _, err := store.Exec(ctx, q, `UPDATE delivery_lines SET quantity_claimed = ?, claim_type = ?, claim_comment = ?
			WHERE id = ?`, cl.qty, cl.kind, cl.comment, l.ID); err != nil {
			return fmt.Errorf("delivery: claim line %s: %w", l.ID, err)
		}
	}
	ms := now.UnixMilli()
	if _, err := store.Exec(ctx, q, `UPDATE deliveries SET claim_status = ?, claim_by = ?, claim_sent_at = ?, claim_reviewed_at = NULL,
		updated_at = ? WHERE id = ?`, orders.ClaimSent, by, ms, ms, t.delivery.ID); err != nil {
		return fmt.Errorf("delivery: claim %s: %w", t.delivery.ID, err)
	}
	if err := activity.Record(ctx, q, claimRequest(t, by, claims, now)); err != nil {
		return err
	}
	return tell(ctx, q, t, func(shop, producer string) error {
		if by == orders.ByShop {
			return notify.ShopClaim(ctx, q, t.order.ProducerID, shop, t.delivery.Date, now)
		}
		return notify.ClaimRequest(ctx, q, t.order.DistributorID, producer, t.delivery.Date, now)
	})
}

// checkClaimable refuses a claim at now unless the delivery is done, its
// claim not yet reviewed, and its window open: today, in the business time
// zone, is at the latest its ClaimDeadline. Whether the order is invoiced
// does not matter.
func (r Rules) checkClaimable(t target, now time.Time) error {
	switch {
	case t.delivery.Status != orders.Done:
		return core.Refuse(core.ErrConflict, MsgNotDone)
	case t.delivery.ClaimStatus != orders.ClaimVoid && t.delivery.ClaimStatus != orders.ClaimSent:
		return core.Refuse(core.ErrConflict, MsgClaimReviewed)
	case t.delivery.ClaimStatus == orders.ClaimSent && t.delivery.ClaimBy == orders.ByShop:
		return core.Refuse(core.ErrConflict, MsgShopClaimPending)
	}
	deadline, ok := ClaimDeadlineOf(t.delivery.Date)
	if !ok {
		return fmt.Errorf("delivery: %s: date %q", t.delivery.ID, t.delivery.Date)
	}
	if calendar.DateOf(now.In(r.Location)) > deadline {
		return core.Refuse(core.ErrConflict, ClaimClosedMessage(deadline))
	}
	return nil
}

// claimRequest is the claim:request event of a claim sent at now by one
// party (orders.ByProducer or ByShop), for the other: the delivery's date,
// and the product and quantity when one line alone is claimed.
func claimRequest(t target, by string, claims map[string]claimLine, now time.Time) activity.Event {
	data := activity.Data{Date: t.delivery.Date}
	var only *line
	n := 0
	for i, l := range t.lines {
		if claims[l.ID].qty != 0 {
			n++
			only = &t.lines[i]
		}
	}
	if n == 1 {
		qty := claims[only.ID].qty
		data.Product = &activity.Product{Name: only.Name, Unit: only.Unit}
		data.Quantity = &qty
	}
	author, other := t.parties(by)
	return activity.Event{
		CreatedAt: now, Type: activity.ClaimRequest, Data: data,
		OriginID: author, TargetID: other,
	}
}

// parties are the author of a claim sent by one party (orders.ByProducer
// or ByShop) and the other party, who answers it.
func (t target) parties(by string) (author, other string) {
	if by == orders.ByShop {
		return t.order.DistributorID, t.order.ProducerID
	}
	return t.order.ProducerID, t.order.DistributorID
}

// claimReview is the claim:review event of the answer at now, from the
// party answering to the claim's author.
func claimReview(t target, accepted bool, now time.Time) activity.Event {
	author, other := t.parties(t.delivery.ClaimBy)
	return activity.Event{
		CreatedAt: now, Type: activity.ClaimReview, Data: activity.Data{Date: t.delivery.Date, Outcome: &accepted},
		OriginID: other, TargetID: author,
	}
}

// validateClaim checks every line of the claim and returns the claim per
// line id (absent lines claim nothing).
func validateClaim(t target, c Claim) (map[string]claimLine, error) {
	v := &core.ValidationError{}
	out := map[string]claimLine{}
	seen := map[string]bool{}
	for i, lc := range c.Lines {
		field := func(name string) string { return fmt.Sprintf("deliveryLines[%d].%s", i, name) }
		k := t.lineIndex(lc.ID)
		if k < 0 {
			v.Add(field("_id"), MsgUnknownLine)
			continue
		}
		if seen[lc.ID] {
			v.Add(field("quantityClaimed"), MsgDuplicate)
			continue
		}
		seen[lc.ID] = true
		if lc.QuantityClaimed == nil {
			continue
		}
		l := t.lines[k]
		qty, msg := CheckClaim(l.Line, l.Unit, *lc.QuantityClaimed)
		if msg != "" {
			v.Add(field("quantityClaimed"), msg)
			continue
		}
		if qty == 0 {
			continue
		}
		cl := claimLine{qty: qty}
		if lc.ClaimType != nil {
			cl.kind = *lc.ClaimType
		}
		if cl.kind != orders.ClaimQuality && cl.kind != orders.ClaimQuantity {
			v.Add(field("claimType"), MsgClaimType)
			continue
		}
		if lc.ClaimComment != nil {
			cl.comment = strings.TrimSpace(*lc.ClaimComment)
		}
		if utf8.RuneCountInString(cl.comment) > maxComment || !utf8.ValidString(cl.comment) {
			v.Add(field("claimComment"), MsgTooLong)
			continue
		}
		out[lc.ID] = cl
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, core.Invalid("deliveryLines", MsgNoQuantity)
	}
	return out, nil
}

func sameClaim(t target, claims map[string]claimLine) bool {
	for _, l := range t.lines {
		cl := claims[l.ID]
		if l.QuantityClaimed != cl.qty || l.ClaimType != cl.kind || l.ClaimComment != cl.comment {
			return false
		}
	}
	return true
}

// Review records the shop's answer to the producer's pending claim and a
// claim:review event for the producer.
func (r Rules) Review(ctx context.Context, q store.Q, shopID, orderID, deliveryID string, accepted bool, now time.Time) (orders.Full, error) {
	return r.review(ctx, q, shopID, orderID, deliveryID, orders.ByProducer, accepted, now)
}

// ReviewAsProducer records the producer's answer to the shop's pending
// claim — the differences of its reception — and a claim:review event for
// the shop. Accepted, it is settled as a producer's claim the shop
// accepts: billed sent + claimed, by a credit note (core/billing).
func (r Rules) ReviewAsProducer(ctx context.Context, q store.Q, producerID, orderID, deliveryID string, accepted bool, now time.Time) (orders.Full, error) {
	return r.review(ctx, q, producerID, orderID, deliveryID, orders.ByShop, accepted, now)
}

// review records the answer of partyID to the pending claim of the other
// party (by, its author): anything else waits for no answer of it.
func (r Rules) review(ctx context.Context, q store.Q, partyID, orderID, deliveryID, by string, accepted bool, now time.Time) (orders.Full, error) {
	t, err := lockTarget(ctx, q, orderID, deliveryID, partyID, by == orders.ByProducer)
	if err != nil {
		return orders.Full{}, err
	}
	if err := checkReviewable(t, by); err != nil {
		return orders.Full{}, err
	}
	status := orders.ClaimRejected
	if accepted {
		status = orders.ClaimAccepted
	}
	ms := now.UnixMilli()
	if _, err := store.Exec(ctx, q, `UPDATE deliveries SET claim_status = ?, claim_reviewed_at = ?, updated_at = ?
		WHERE id = ?`, status, ms, ms, deliveryID); err != nil {
		return orders.Full{}, fmt.Errorf("delivery: review %s: %w", deliveryID, err)
	}
	if err := activity.Record(ctx, q, claimReview(t, accepted, now)); err != nil {
		return orders.Full{}, err
	}
	if err := tell(ctx, q, t, func(shop, producer string) error {
		if by == orders.ByShop {
			return notify.ShopClaimReview(ctx, q, t.order.DistributorID, producer, t.delivery.Date, accepted, now)
		}
		return notify.ClaimReview(ctx, q, t.order.ProducerID, shop, t.delivery.Date, accepted, now)
	}); err != nil {
		return orders.Full{}, err
	}
	return orders.Get(ctx, q, orderID)
}

// tell queues a notification about t's delivery (core/notify), given the
// names of its shop and producer.
func tell(ctx context.Context, q store.Q, t target, queue func(shop, producer string) error) error {
	var names struct {
		Shop     string `db:"shop"`
		Producer string `db:"producer"`
	}
	if err := store.Get(ctx, q, &names, `SELECT s.name AS shop, p.name AS producer FROM users s, users p
		WHERE s.id = ? AND p.id = ?`, t.order.DistributorID, t.order.ProducerID); err != nil {
		return fmt.Errorf("delivery: names of %s: %w", t.order.ID, err)
	}
	return queue(names.Shop, names.Producer)
}

// checkReviewable refuses an answer unless a claim of the other party
// (by, its author) waits for it: a party never answers its own. An
// invoiced order's claim is answered all the same: the invoice billed what
// was sent, and the answer is settled by a credit note (core/billing
// SettleOrder, which the caller runs in the same transaction). So is a
// claim past its window: it was sent in time, and a claim that raises the
// amount waits for this answer alone (AcceptedBySilence).
func checkReviewable(t target, by string) error {
	if t.delivery.ClaimStatus != orders.ClaimSent || t.delivery.ClaimBy != by {
		return core.Refuse(core.ErrConflict, MsgNoClaim)
	}
	return nil
}
