package delivery

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"primeur/core/activity"
	"primeur/core/decimal"
	"primeur/core/orders"
)

// Product is what Settle needs of a line's product: its name (events) and
// its unit (quantities).
type Product struct {
	Name string
	Unit string
}

// Outcome is what became of a delivery after trade planned it, as writers
// of past trade in bulk (trade.Bulk: the load bench, test fixtures, the
// browser tests' seeders) state it. Settle applies it by the rules of the
// operations that would have produced it, so that a world written in bulk
// is one the API and the jobs could have left.
type Outcome struct {
	// Status is where the delivery ends: orders.Planned (or empty), Done —
	// locked at its lock time, as LockDue locks it — or Cancelled by the
	// shop at ChangedAt, before the lock, as Cancel does.
	Status string
	// Sent are the quantities the shop noted as sent (Update) at ChangedAt,
	// per product id.
	Sent map[string]decimal.Dec
	// ChangedAt is when the shop noted Sent or cancelled; zero: the moment
	// the delivery was planned.
	ChangedAt time.Time
	// NoteSentAt is when the delivery note of a done delivery was emailed
	// (NoteDelay after the lock at the earliest); zero: not yet.
	NoteSentAt time.Time
	// Claim is the producer's claim on a done delivery; nil: none.
	Claim *ClaimOutcome
}

// ClaimOutcome is a claim the producer sent at SentAt (SendClaim) and the
// shop's answer (Review): Status orders.ClaimSent (no answer yet; empty
// means the same), ClaimAccepted or ClaimRejected at ReviewedAt.
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

// Settle applies out to d, a delivery of order o that trade planned at
// planned, in memory: each change is checked as the operation that makes
// it checks it at its time — the shop's sent quantities and cancellation
// as Update and Cancel (checkEditable, validateChange), the lock as LockDue
// (sent defaults to expected), the claim and its answer as SendClaim and
// Review (checkClaimable, validateClaim, checkReviewable) — and applied as
// it applies it. products gives each line's product. It returns the events
// those operations record; the caller writes d and the events. A claim
// is checked against its window (ClaimDeadline) as SendClaim checks it;
// whether the order is invoiced does not matter to a claim.
func (r Rules) Settle(o orders.Order, d *orders.FullDelivery, products map[string]Product, out Outcome, planned time.Time) ([]activity.Event, error) {
	if (out.Status == "" || out.Status == orders.Planned) && len(out.Sent) == 0 && out.NoteSentAt.IsZero() && out.Claim == nil {
		return nil, nil // still planned, as trade planned it
	}
	fail := func(err error) error {
		return fmt.Errorf("delivery: settle the delivery of %s to %s on %s: %w", o.ProducerID, o.DistributorID, d.Date, err)
	}
	t := target{order: o, delivery: d.Delivery, lines: make([]line, 0, len(d.Lines))}
	for _, l := range d.Lines {
		p, ok := products[l.ProductID]
		if !ok {
			return nil, fail(fmt.Errorf("unknown product %s", l.ProductID))
		}
		t.lines = append(t.lines, line{Line: l, Unit: p.Unit, Name: p.Name})
	}
	// The order lockTarget reads the lines in.
	slices.SortStableFunc(t.lines, func(x, y line) int {
		if c := strings.Compare(x.Name, y.Name); c != 0 {
			return c
		}
		return strings.Compare(x.ID, y.ID)
	})
	byProduct := func(product string) (int, error) {
		for i, l := range t.lines {
			if l.ProductID == product {
				return i, nil
			}
		}
		return 0, fail(fmt.Errorf("no line of %s", product))
	}

	at := out.ChangedAt
	if at.IsZero() {
		at = planned
	}
	if at.Before(planned) {
		return nil, fail(fmt.Errorf("changed at %s, before it was planned at %s", at, planned))
	}
	if len(out.Sent) > 0 {
		if err := r.checkEditable(t, at); err != nil {
			return nil, fail(err)
		}
		var c Change
		for product, qty := range out.Sent {
			k, err := byProduct(product)
			if err != nil {
				return nil, err
			}
			f := qty.Float()
			c.Lines = append(c.Lines, LineSent{ID: t.lines[k].ID, QuantitySent: &f})
		}
		_, sent, err := r.validateChange(t, c, at)
		if err != nil {
			return nil, fail(err)
		}
		for i := range t.lines {
			if v, ok := sent[t.lines[i].ID]; ok {
				t.lines[i].QuantitySent = &v
			}
		}
		t.delivery.UpdatedAt = at.UnixMilli()
	}

	lock := r.LockTime(t.delivery.Date)
	switch out.Status {
	case "", orders.Planned:
	case orders.Cancelled:
		if err := r.checkEditable(t, at); err != nil {
			return nil, fail(err)
		}
		t.delivery.Status = orders.Cancelled
		t.delivery.UpdatedAt = at.UnixMilli()
	case orders.Done:
		if lock.Before(at) {
			return nil, fail(fmt.Errorf("changed at %s, after the lock", at))
		}
		t.delivery.Status = orders.Done
		for i := range t.lines {
			if t.lines[i].QuantitySent == nil {
				v := t.lines[i].QuantityExpected
				t.lines[i].QuantitySent = &v
			}
		}
		t.delivery.UpdatedAt = lock.UnixMilli()
	default:
		return nil, fail(fmt.Errorf("unknown status %q", out.Status))
	}

	if !out.NoteSentAt.IsZero() {
		if t.delivery.Status != orders.Done || out.NoteSentAt.Before(lock.Add(NoteDelay)) {
			return nil, fail(fmt.Errorf("a note emailed at %s", out.NoteSentAt))
		}
		ms := out.NoteSentAt.UnixMilli()
		t.delivery.NoteSentAt = &ms
	}

	var events []activity.Event
	if cl := out.Claim; cl != nil {
		if cl.SentAt.Before(lock) {
			return nil, fail(fmt.Errorf("a claim sent at %s, before the lock", cl.SentAt))
		}
		if err := r.checkClaimable(t, cl.SentAt); err != nil {
			return nil, fail(err)
		}
		var c Claim
		for product, l := range cl.Lines {
			k, err := byProduct(product)
			if err != nil {
				return nil, err
			}
			f, kind, comment := l.Quantity.Float(), l.Type, l.Comment
			c.Lines = append(c.Lines, LineClaim{ID: t.lines[k].ID, QuantityClaimed: &f, ClaimType: &kind, ClaimComment: &comment})
		}
		claims, err := validateClaim(t, c)
		if err != nil {
			return nil, fail(err)
		}
		for i := range t.lines {
			got := claims[t.lines[i].ID]
			t.lines[i].QuantityClaimed, t.lines[i].ClaimType, t.lines[i].ClaimComment = got.qty, got.kind, got.comment
		}
		sent := cl.SentAt.UnixMilli()
		t.delivery.ClaimStatus, t.delivery.ClaimSentAt, t.delivery.ClaimReviewedAt = orders.ClaimSent, &sent, nil
		t.delivery.UpdatedAt = sent
		events = append(events, claimRequest(t, claims, cl.SentAt))
		switch cl.Status {
		case "", orders.ClaimSent:
		case orders.ClaimAccepted, orders.ClaimRejected:
			if cl.ReviewedAt.Before(cl.SentAt) {
				return nil, fail(fmt.Errorf("a claim answered at %s, before it was sent", cl.ReviewedAt))
			}
			if err := checkReviewable(t); err != nil {
				return nil, fail(err)
			}
			reviewed := cl.ReviewedAt.UnixMilli()
			t.delivery.ClaimStatus, t.delivery.ClaimReviewedAt, t.delivery.UpdatedAt = cl.Status, &reviewed, reviewed
			events = append(events, claimReview(t, cl.Status == orders.ClaimAccepted, cl.ReviewedAt))
		default:
			return nil, fail(fmt.Errorf("unknown claim status %q", cl.Status))
		}
	}

	d.Delivery = t.delivery
	for i := range d.Lines {
		for _, l := range t.lines {
			if l.ID == d.Lines[i].ID {
				d.Lines[i] = l.Line
			}
		}
	}
	return events, nil
}
