// Package notify queues the notifications of PRODUCT §16 "Notifications":
// what one side did that needs the other's attention — a proposal or
// counter-proposal to answer, an answer, a correction, a claim to review, a
// delivery the shop changed or cancelled, a delivery note — and gathers
// them into digests, one email per user at most every hour, or once a day
// at 7h, as each user chose per kind. The jobs package emails the digests.
//
// A notification is queued in the transaction of what it tells (Queue), as
// one French line and a path into the app; a digest (Gather) takes the
// pending lines of a user under a conditional update of the user's row, so
// that two replicas never gather the same lines nor make two digests
// within the hour.
package notify

import (
	"context"
	"fmt"
	"time"

	"primeur/core"
	"primeur/core/activity"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/grammar"
	"primeur/core/printable"
	"primeur/core/store"
)

// Kinds of notification.
const (
	Proposal   = "proposal"
	Answer     = "answer"
	Correction = "correction"
	Claim      = "claim"
	Delivery   = "delivery"
	Note       = "note"
)

// Modes of a kind: gathered into a digest at most every hour, into the
// daily digest at DailyHour, or not emailed.
const (
	Immediate = "immediate"
	Daily     = "daily"
	None      = "none"
)

// DailyHour is the local hour of the daily digest.
const DailyHour = 7

// Every is the least time between two digests of a user.
const Every = time.Hour

// Kind is a kind of notification as the profile lists it.
type Kind struct {
	Kind  string
	Label string
	// Producer and Shop tell which kinds of organisation receive it.
	Producer, Shop bool
	// Roles are the members' roles it concerns beside the owners, who
	// hear of every kind (audience.go).
	Roles []string
}

// Kinds lists the kinds, in the profile's order.
var Kinds = []Kind{
	{Proposal, "Propositions et contre-propositions à examiner", true, true, negotiators},
	{Answer, "Réponses à mes propositions, corrections et réclamations", true, true, answered},
	{Correction, "Corrections demandées sur un engagement", true, true, negotiators},
	{Claim, "Réclamations à examiner", true, true, claimants},
	{Delivery, "Livraisons modifiées ou annulées par le magasin", true, false, deliverers},
	{Note, "Bons de livraison disponibles", false, true, receivers},
}

func kindOf(kind string) (Kind, bool) {
	for _, k := range Kinds {
		if k.Kind == kind {
			return k, true
		}
	}
	return Kind{}, false
}

// Label is the French name of a kind, "" for an unknown one.
func Label(kind string) string {
	k, _ := kindOf(kind)
	return k.Label
}

// Pref is a user's choice for one kind, as the profile shows it.
type Pref struct {
	Kind  string `json:"kind"`
	Label string `json:"label"`
	Mode  string `json:"mode" enum:"immediate,daily,none"`
}

// Prefs returns the choices of a person in an organisation (of type
// producer, else a shop) where they have role: one per kind the
// organisation receives and the role concerns, Immediate where they chose
// nothing.
func Prefs(ctx context.Context, q store.Q, personID, orgID, role string, producer bool) ([]Pref, error) {
	modes, err := modesOf(ctx, q, personID, orgID)
	if err != nil {
		return nil, err
	}
	out := []Pref{}
	for _, k := range Kinds {
		if (producer && !k.Producer) || (!producer && !k.Shop) || !k.concerns(role) {
			continue
		}
		mode := modes[k.Kind]
		if mode == "" {
			mode = Immediate
		}
		out = append(out, Pref{Kind: k.Kind, Label: k.Label, Mode: mode})
	}
	return out, nil
}

func modesOf(ctx context.Context, q store.Q, personID, orgID string) (map[string]string, error) {
	var rows []struct {
		Kind string `db:"kind"`
		Mode string `db:"mode"`
	}
	if err := store.Select(ctx, q, &rows, `SELECT kind, mode FROM member_prefs WHERE person_id = ? AND org_id = ?`, personID, orgID); err != nil {
		return nil, fmt.Errorf("notify: preferences: %w", err)
	}
	modes := make(map[string]string, len(rows))
	for _, r := range rows {
		modes[r.Kind] = r.Mode
	}
	return modes, nil
}

// MsgBadKind and MsgBadMode refuse a choice the profile does not offer.
const (
	MsgBadKind = "Type de notification inconnu."
	MsgBadMode = "Choisissez « au plus une par heure », « résumé quotidien » ou « aucune »."
)

// SetPref records the mode for kind of a person, member of an
// organisation.
func SetPref(ctx context.Context, q store.Q, personID, orgID, kind, mode string) error {
	if _, ok := kindOf(kind); !ok {
		return core.Invalid("kind", MsgBadKind)
	}
	if mode != Immediate && mode != Daily && mode != None {
		return core.Invalid("mode", MsgBadMode)
	}
	if _, err := store.Exec(ctx, q, `INSERT INTO member_prefs (person_id, org_id, kind, mode) VALUES (?, ?, ?, ?)
		ON CONFLICT (person_id, org_id, kind) DO UPDATE SET mode = excluded.mode`, personID, orgID, kind, mode); err != nil {
		return fmt.Errorf("notify: set preference: %w", err)
	}
	return nil
}

// Item is one notification: for which organisation, of which kind, its
// French line and the path of the app that shows it.
type Item struct {
	// UserID is the organisation: the line goes to each of its members
	// the kind concerns (audience.go).
	UserID string
	Kind   string
	Line   string
	Link   string
	At     time.Time
}

// Queue records it, pending its digest, once for each member of the
// organisation the kind concerns (the owners and Kind.Roles). An item
// without recipient, or of an unknown kind, is an error of the caller.
func Queue(ctx context.Context, q store.Q, it Item) error {
	if it.UserID == "" {
		return fmt.Errorf("notify: %s without recipient", it.Kind)
	}
	k, ok := kindOf(it.Kind)
	if !ok {
		return fmt.Errorf("notify: unknown kind %q", it.Kind)
	}
	// One statement, whatever the team: a line per member concerned, its
	// id the item's and the person's.
	if _, err := store.ExecIn(ctx, q, `INSERT INTO notifications (id, user_id, person_id, kind, line, link, created_at)
		SELECT CAST(? AS TEXT) || '-' || m.person_id, m.org_id, m.person_id, CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT)
		FROM members m JOIN people p ON p.id = m.person_id AND p.closed_at IS NULL
		WHERE m.org_id = ? AND m.role IN (?)`, core.NewID(), it.Kind, printable.Line(it.Line), it.Link, it.At.UnixMilli(),
		it.UserID, audienceRoles(k.Roles)); err != nil {
		return fmt.Errorf("notify: queue: %w", err)
	}
	return nil
}

// NeedLink is the path that opens a need in the planner of its
// recipient: the shop's own, or the producer's view of that shop.
func NeedLink(needID, shopID string, toProducer bool) string {
	if toProducer {
		return "/prod/needs/" + shopID + "?need=" + needID
	}
	return "/dis/needs?need=" + needID
}

// DeliveriesLink is the deliveries screen of a producer or a shop.
func DeliveriesLink(toProducer bool) string {
	if toProducer {
		return "/prod/deliveries"
	}
	return "/dis/deliveries"
}

// Trade queues the notification of a trade event e (PRODUCT §4) for its
// target, made by originName, on a need of shopID: proposals and
// counter-proposals, corrections, and the answers to them.
func Trade(ctx context.Context, q store.Q, e activity.Event, originName, shopID string) error {
	if e.TargetID == "" {
		return nil
	}
	toProducer := e.TargetID != shopID
	who := printable.Line(originName)
	what, month := "", ""
	if p := e.Data.Product; p != nil {
		what = printable.Line(p.Name)
		if e.Data.Quantity != nil {
			what = grammar.Quantity(*e.Data.Quantity, p.Unit) + " " + grammar.De(what)
		}
	}
	if e.Data.Date != "" {
		month = " pour " + monthWords(e.Data.Date)
	}
	price := ""
	if e.Data.Price != nil && e.Data.Product != nil {
		price = " à " + euros(*e.Data.Price) + " / " + catalog.UnitLabel(e.Data.Product.Unit)
	}
	var kind, line string
	switch e.Type {
	case activity.ProposalRequest:
		kind = Proposal
		if toProducer {
			line = fmt.Sprintf("%s vous %s une contre-proposition : %s%s%s.", who, grammar.Agree(who, "fait", "font"), what, price, month)
		} else {
			line = fmt.Sprintf("%s vous %s %s%s%s.", who, grammar.Agree(who, "propose", "proposent"), what, price, month)
		}
	case activity.FixRequest:
		kind = Correction
		line = fmt.Sprintf("%s %s une correction de l'engagement : %s%s%s.", who, grammar.Agree(who, "demande", "demandent"), what, price, month)
	case activity.ProposalReview, activity.FixReview:
		kind = Answer
		verb, object := "refusé", "votre proposition"
		if e.Data.Outcome != nil && *e.Data.Outcome {
			verb = "accepté"
		}
		if e.Type == activity.FixReview {
			object = "votre correction"
		}
		line = fmt.Sprintf("%s %s %s %s : %s%s%s.", who, grammar.Avoir(who), verb, object, what, price, month)
	default:
		return nil
	}
	return Queue(ctx, q, Item{UserID: e.TargetID, Kind: kind, Line: line, Link: NeedLink(e.Data.Need, shopID, toProducer), At: e.CreatedAt})
}

// euros is a unit price in a sentence: "2,50 €".
func euros(d decimal.Dec) string { return d.French() + "\u00a0€" }

// monthWords is "2027-01-01" in a sentence: "janvier 2027".
func monthWords(month string) string {
	if m, ok := calendar.ParseMonth(month); ok {
		return m.French()
	}
	return month
}

// dayWords is "2027-01-15" in a sentence: "15 janvier 2027".
func dayWords(day string) string {
	if d, ok := calendar.ParseDate(day); ok {
		return d.French()
	}
	return day
}

// ClaimRequest queues, for the shop, a claim to review on the delivery of
// day from producerName.
func ClaimRequest(ctx context.Context, q store.Q, shopID, producerName, day string, at time.Time) error {
	return Queue(ctx, q, Item{UserID: shopID, Kind: Claim, At: at, Link: DeliveriesLink(false),
		Line: fmt.Sprintf("%s %s déclaré une réclamation sur la livraison du %s.", printable.Line(producerName), grammar.Avoir(printable.Line(producerName)), dayWords(day))})
}

// ClaimReview queues, for the producer, the shop's answer to its claim.
func ClaimReview(ctx context.Context, q store.Q, producerID, shopName, day string, accepted bool, at time.Time) error {
	verb := "refusé"
	if accepted {
		verb = "accepté"
	}
	return Queue(ctx, q, Item{UserID: producerID, Kind: Answer, At: at, Link: DeliveriesLink(true),
		Line: fmt.Sprintf("%s %s %s votre réclamation sur la livraison du %s.", printable.Line(shopName), grammar.Avoir(printable.Line(shopName)), verb, dayWords(day))})
}

// DeliveryChanged queues, for the producer, a delivery the shop changed
// (moved or its quantities) or, when cancelled, cancelled.
func DeliveryChanged(ctx context.Context, q store.Q, producerID, shopName, day string, cancelled bool, at time.Time) error {
	verb := "modifié"
	if cancelled {
		verb = "annulé"
	}
	return Queue(ctx, q, Item{UserID: producerID, Kind: Delivery, At: at, Link: DeliveriesLink(true),
		Line: fmt.Sprintf("%s %s %s la livraison du %s.", printable.Line(shopName), grammar.Avoir(printable.Line(shopName)), verb, dayWords(day))})
}

// NoteAvailable queues, for the shop, the delivery note of a delivery
// just locked.
func NoteAvailable(ctx context.Context, q store.Q, shopID, producerName, day string, at time.Time) error {
	return Queue(ctx, q, Item{UserID: shopID, Kind: Note, At: at, Link: DeliveriesLink(false),
		Line: fmt.Sprintf("Le bon de livraison %s pour la livraison du %s est disponible.", grammar.De(printable.Line(producerName)), dayWords(day))})
}
