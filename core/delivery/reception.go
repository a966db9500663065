package delivery

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/images"
	"primeur/core/orders"
	"primeur/core/store"
)

// French refusals of a reception (PRODUCT §16 "Reception").
const (
	MsgReceptionKey      = "La réception n'a pas de clé valide : rechargez la page et saisissez-la à nouveau."
	MsgReceptionKeyUsed  = "Cette réception a déjà été envoyée pour une autre livraison."
	MsgReceivedBy        = "Saisissez le nom de la personne qui réceptionne"
	MsgReceptionLine     = "Pointez chaque ligne de la livraison : reçue, ou la quantité reçue"
	MsgReceptionReason   = "Indiquez pourquoi la quantité reçue diffère : quantité manquante ou qualité refusée"
	MsgAlreadyReceived   = "Cette livraison a déjà été réceptionnée le %s par %s."
	MsgReceptionNotOwned = "Cette image n'appartient pas à la réception."
	// MsgReceptionCancelled refuses the reception of a cancelled delivery.
	MsgReceptionCancelled = "Cette livraison a été annulée : elle ne peut pas être réceptionnée."
	// MsgReceptionClosed refuses a reception past the claim window, with
	// its last day.
	MsgReceptionClosed = "Le délai de réception est dépassé : elle était possible jusqu'au %s, deux jours ouvrés après la livraison."
	// MsgReceptionClaimed refuses the differences of a reception when a
	// claim is already on the delivery: it has one claim.
	MsgReceptionClaimed = "Une demande d'avoir est déjà en cours sur cette livraison : la réception ne peut pas en faire une autre. Pointez chaque ligne comme reçue, et répondez à cette demande depuis vos livraisons."
)

// maxReceivedBy bounds the name typed, in characters.
const maxReceivedBy = 100

// keyPattern is an idempotency key the phone makes (a UUID, or any token
// of 8 to 100 letters, digits, dashes and underscores).
var keyPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{8,100}$`)

// ReceivedLine is what the shop's reception says of one line.
type ReceivedLine struct {
	ID string
	// Received is the quantity received; required.
	Received *float64
	// Reason is quality (refused) or quantity (missing); required when
	// Received differs from the note's quantity.
	Reason  *string
	Comment *string
	// Photo is the photo of the problem, already made by images.Process.
	Photo *images.Image
}

// Reception is the shop's reception of a delivery, typed on its phone.
type Reception struct {
	// Key is made by the phone when the reception is typed: sent again
	// (a queue drained twice), the same reception changes nothing.
	Key string
	// By is the name of who received it, typed.
	By string
	// At is when the phone says it was typed; kept when it falls on the
	// delivery's date and not after now, else now is.
	At *time.Time
	// Signature is the drawn signature, already made by images.Process.
	Signature *images.Image
	Lines     []ReceivedLine
}

// Receive records the shop's reception of a delivery (PRODUCT §16
// "Reception"): who received it, when, the signature, and what each line
// received. Receiving is not a change of the order: the note's quantities
// stay what was sent — what the invoice bills — and the lines received
// otherwise (a quantity short, a quality refused) become the shop's claim
// on the delivery, received minus sent per line with its reason, comment
// and photo, which the producer accepts or refuses (ReviewAsProducer)
// and billing settles as any accepted claim. A planned delivery is done
// once received (locked as at delivery.lock). A delivery may be received
// from when it is planned until the end of its claim window — typed
// offline before the lock and sent after it, the reception is taken as
// it was typed —, never once cancelled, and its differences only while
// no claim is on it. A reception whose key was already recorded for this
// delivery answers the order and changes nothing, whatever the time; a
// delivery received once is not received again.
func (r Rules) Receive(ctx context.Context, q store.Q, shopID, orderID, deliveryID string, rc Reception, now time.Time) (orders.Full, error) {
	if !keyPattern.MatchString(rc.Key) {
		return orders.Full{}, core.Invalid("key", MsgReceptionKey)
	}
	t, err := lockTarget(ctx, q, orderID, deliveryID, shopID, true)
	if err != nil {
		return orders.Full{}, err
	}
	var prior struct {
		DeliveryID string `db:"delivery_id"`
		Key        string `db:"idem_key"`
		At         int64  `db:"received_at"`
		By         string `db:"received_by"`
	}
	err = store.Get(ctx, q, &prior, `SELECT delivery_id, idem_key, received_at, received_by FROM receptions
		WHERE idem_key = ? OR delivery_id = ?`, rc.Key, deliveryID)
	switch {
	case err == nil && prior.Key == rc.Key && prior.DeliveryID == deliveryID:
		return orders.Get(ctx, q, orderID) // sent again: already recorded
	case err == nil && prior.Key == rc.Key:
		return orders.Full{}, core.Refuse(core.ErrConflict, MsgReceptionKeyUsed)
	case err == nil:
		when := time.UnixMilli(prior.At).In(r.Location).Format("02/01/2006 à 15h04")
		return orders.Full{}, core.Refuse(core.ErrConflict, fmt.Sprintf(MsgAlreadyReceived, when, prior.By))
	case !store.IsNotFound(err):
		return orders.Full{}, fmt.Errorf("delivery: reception of %s: %w", deliveryID, err)
	}
	if err := r.checkReceivable(t, now); err != nil {
		return orders.Full{}, err
	}
	by, kept, claims, err := validateReception(t, rc)
	if err != nil {
		return orders.Full{}, err
	}
	if len(claims) > 0 && t.delivery.ClaimStatus != orders.ClaimVoid {
		return orders.Full{}, core.Refuse(core.ErrConflict, MsgReceptionClaimed)
	}
	if t.delivery.Status == orders.Planned {
		// Received: nothing of it changes any more, as at its lock.
		if err := lockOne(ctx, q, deliveryID, now); err != nil {
			return orders.Full{}, err
		}
		if err := notesAvailable(ctx, q, []string{deliveryID}, now); err != nil {
			return orders.Full{}, err
		}
	}
	at := now
	if rc.At != nil && !rc.At.After(now) && calendar.DateOf(rc.At.In(r.Location)).String() == t.delivery.Date {
		at = *rc.At
	}
	var signature *string
	if rc.Signature != nil {
		img, err := images.Insert(ctx, q, shopID, *rc.Signature, now)
		if err != nil {
			return orders.Full{}, err
		}
		signature = &img.ID
	}
	if _, err := store.Exec(ctx, q, `INSERT INTO receptions (delivery_id, idem_key, received_at, received_by, signature_id, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, deliveryID, rc.Key, at.UnixMilli(), by, signature, now.UnixMilli()); err != nil {
		return orders.Full{}, fmt.Errorf("delivery: reception of %s: %w", deliveryID, err)
	}
	for _, k := range kept {
		var photo *string
		if k.photo != nil {
			img, err := images.Insert(ctx, q, shopID, *k.photo, now)
			if err != nil {
				return orders.Full{}, err
			}
			photo = &img.ID
		}
		if _, err := store.Exec(ctx, q, `INSERT INTO reception_lines (line_id, delivery_id, received, reason, comment, photo_id)
			VALUES (?, ?, ?, ?, ?, ?)`, k.id, deliveryID, k.received, k.reason, k.comment, photo); err != nil {
			return orders.Full{}, fmt.Errorf("delivery: reception line %s: %w", k.id, err)
		}
	}
	if len(claims) > 0 {
		if err := r.send(ctx, q, t, orders.ByShop, claims, now); err != nil {
			return orders.Full{}, err
		}
	}
	return orders.Get(ctx, q, orderID)
}

// checkReceivable refuses a reception of a cancelled delivery, or of a
// done one past its claim window (ClaimDeadline): the shop's differences
// are its claim, sent within the window the producer's claims keep.
func (r Rules) checkReceivable(t target, now time.Time) error {
	switch t.delivery.Status {
	case orders.Cancelled:
		return core.Refuse(core.ErrConflict, MsgReceptionCancelled)
	case orders.Planned:
		return nil
	}
	deadline, ok := ClaimDeadlineOf(t.delivery.Date)
	if !ok {
		return fmt.Errorf("delivery: %s: date %q", t.delivery.ID, t.delivery.Date)
	}
	if calendar.DateOf(now.In(r.Location)) > deadline {
		return core.Refuse(core.ErrConflict, fmt.Sprintf(MsgReceptionClosed, LongDay(deadline)))
	}
	return nil
}

// receivedLine is a line of a reception, checked.
type receivedLine struct {
	id       string
	received decimal.Dec
	reason   string
	comment  string
	photo    *images.Image
}

// validateReception checks the reception of t: a name, and every line of
// the delivery once with its quantity received — positive, two decimals
// for kg, whole pieces, at most what a claim may bill (ClaimCeiling) — and
// a reason where it differs from the note. It returns the name, the lines
// to keep and the shop's claim: received minus sent, per line that differs.
func validateReception(t target, rc Reception) (string, []receivedLine, map[string]claimLine, error) {
	v := &core.ValidationError{}
	by := strings.TrimSpace(rc.By)
	switch {
	case by == "":
		v.Add("receivedBy", MsgReceivedBy)
	case utf8.RuneCountInString(by) > maxReceivedBy || !utf8.ValidString(by):
		v.Add("receivedBy", MsgTooLong)
	}
	var kept []receivedLine
	claims := map[string]claimLine{}
	seen := map[string]bool{}
	for i, rl := range rc.Lines {
		field := func(name string) string { return fmt.Sprintf("deliveryLines[%d].%s", i, name) }
		k := t.lineIndex(rl.ID)
		switch {
		case k < 0:
			v.Add(field("_id"), MsgUnknownLine)
			continue
		case seen[rl.ID]:
			v.Add(field("_id"), MsgDuplicate)
			continue
		}
		seen[rl.ID] = true
		if rl.Received == nil {
			v.Add(field("quantityReceived"), MsgReceptionLine)
			continue
		}
		l := t.lines[k]
		qty, msg := quantity(*rl.Received, l.Unit, MsgNegative, MsgWeight)
		if msg == "" && qty > ClaimCeiling(l.Line) {
			msg = ClaimAboveMessage(l.QuantityExpected, l.Unit)
		}
		if msg != "" {
			v.Add(field("quantityReceived"), msg)
			continue
		}
		kl := receivedLine{id: rl.ID, received: qty, photo: rl.Photo}
		if rl.Comment != nil {
			kl.comment = strings.TrimSpace(*rl.Comment)
		}
		if utf8.RuneCountInString(kl.comment) > maxComment || !utf8.ValidString(kl.comment) {
			v.Add(field("receptionComment"), MsgTooLong)
			continue
		}
		if qty != l.Sent() {
			if rl.Reason != nil {
				kl.reason = *rl.Reason
			}
			if kl.reason != orders.ClaimQuality && kl.reason != orders.ClaimQuantity {
				v.Add(field("receptionReason"), MsgReceptionReason)
				continue
			}
			claims[rl.ID] = claimLine{qty: qty - l.Sent(), kind: kl.reason, comment: kl.comment}
		}
		kept = append(kept, kl)
	}
	for _, l := range t.lines {
		if !seen[l.ID] {
			v.Add("deliveryLines", MsgReceptionLine)
			break
		}
	}
	if err := v.Err(); err != nil {
		return "", nil, nil, err
	}
	return by, kept, claims, nil
}

// ReceptionImage reads a picture of a reception — a line's photo or the
// signature — for userID, a party of its delivery's order: the shop that
// sent it or the producer. Any other picture, or another user's, is
// core.ErrNotFound.
func ReceptionImage(ctx context.Context, q store.Q, userID, imageID string) (images.Image, error) {
	var n int
	if err := store.Get(ctx, q, &n, `SELECT COUNT(*) FROM receptions r
		JOIN deliveries d ON d.id = r.delivery_id JOIN orders o ON o.id = d.order_id
		WHERE (o.producer_id = ? OR o.distributor_id = ?)
		AND (r.signature_id = ? OR EXISTS (SELECT 1 FROM reception_lines rl WHERE rl.delivery_id = r.delivery_id AND rl.photo_id = ?))`,
		userID, userID, imageID, imageID); err != nil {
		return images.Image{}, fmt.Errorf("delivery: image %s: %w", imageID, err)
	}
	if n == 0 {
		return images.Image{}, fmt.Errorf("delivery: image %s: %w", imageID, core.ErrNotFound)
	}
	return images.Get(ctx, q, imageID)
}
