// Package activity records the events of PRODUCT §3 (need changes, proposals,
// claims…) and reads each user's feed: the events it emitted or is the
// target of, newest first.
package activity

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"primeur/core"
	"primeur/core/decimal"
	"primeur/core/store"
)

// Event types of PRODUCT §4. Record refuses any other.
const (
	NeedUpdate        = "need:update"
	NeedDelete        = "need:delete"
	NeedCreate        = "need:create"
	NeedCreateBulk    = "need:create:bulk"
	NeedImport        = "need:import"
	ProposalRequest   = "proposal:request"
	ProposalReview    = "proposal:review"
	FixRequest        = "fix:request"
	FixReview         = "fix:review"
	ClaimRequest      = "claim:request"
	ClaimReview       = "claim:review"
	ClaimAutovalidate = "claim:autovalidate"
	// Payments (PRODUCT §16 "Payments"): recorded by the producer, declared
	// by the shop, confirmed or refused by the producer, undone.
	PaymentRecord  = "payment:record"
	PaymentDeclare = "payment:declare"
	PaymentConfirm = "payment:confirm"
	PaymentUndo    = "payment:undo"
	// InvoiceStatus: a status of a document on the producer's approved
	// platform (PRODUCT §16 "Electronic invoicing through an approved
	// platform"): deposited, rejected, refused, cashed. Origin the
	// producer, target the shop.
	InvoiceStatus = "invoice:status"
)

// Types lists every event type, in PRODUCT order.
var Types = []string{
	NeedUpdate, NeedDelete, NeedCreate, NeedCreateBulk, NeedImport,
	ProposalRequest, ProposalReview, FixRequest, FixReview,
	ClaimRequest, ClaimReview, ClaimAutovalidate,
	PaymentRecord, PaymentDeclare, PaymentConfirm, PaymentUndo,
	InvoiceStatus,
}

// ValidType reports whether t is one of Types.
func ValidType(t string) bool {
	for _, x := range Types {
		if x == t {
			return true
		}
	}
	return false
}

// Product names a product in event data.
type Product struct {
	Name string `json:"name"`
	Unit string `json:"unit" enum:"kg,l,un,douzaine,botte,barquette,bouteille,pot"`
}

// Data is the payload of an event (PRODUCT §3); each type fills what it needs.
type Data struct {
	Product  *Product     `json:"product,omitempty"`
	Need     string       `json:"need,omitempty" doc:"The need concerned (trade events)"`
	Date     string       `json:"date,omitempty" doc:"Month (YYYY-MM-01) or day (YYYY-MM-DD) concerned"`
	Dates    []string     `json:"dates,omitempty"`
	Quantity *decimal.Dec `json:"quantity,omitempty"`
	Price    *decimal.Dec `json:"price,omitempty" doc:"Unit price HT in EUR (proposals and their reviews)"`
	Delta    *decimal.Dec `json:"delta,omitempty" doc:"Size of the change"`
	Vector   *bool        `json:"vector,omitempty" doc:"true when the change is an increase"`
	Outcome  *bool        `json:"outcome,omitempty" doc:"true when accepted"`
	Count    *int         `json:"count,omitempty" doc:"Number of needs written by an import or bulk add"`
	Amount   *decimal.Dec `json:"amount,omitempty" doc:"Amount TTC in EUR (payments)"`
	Number   string       `json:"number,omitempty" doc:"The document's number (invoice:status)"`
	Status   string       `json:"status,omitempty" doc:"The document's status on the approved platform: 200, 210, 212, 213, irrecevable (invoice:status)"`
	Reason   string       `json:"reason,omitempty" doc:"The motive of a rejection or refusal (invoice:status)"`
}

// Event is one recorded action. OriginID made it; TargetID, when set, is the
// other party concerned.
type Event struct {
	ID        string
	CreatedAt time.Time
	Type      string
	Data      Data
	OriginID  string
	TargetID  string
}

// Record stores an event. An unknown type is an error: the feed only ever
// holds the types the UI knows how to word.
func Record(ctx context.Context, q store.Q, e Event) error {
	row, err := e.row()
	if err != nil {
		return err
	}
	return insert(ctx, q, e.Type, row)
}

// personKey holds, in a request's context, the person acting for the
// origin organisation (teams, issue 41): WithPerson.
type personKey struct{}

// WithPerson returns ctx naming the person who acts (a member of the
// session's organisation): the events recorded under it name them
// (events.person_id), and the feed shows their name beside the
// organisation's.
func WithPerson(ctx context.Context, personID string) context.Context {
	return context.WithValue(ctx, personKey{}, personID)
}

// PersonOf is the person WithPerson put in ctx, NULL (nil) when none: the
// platform's jobs, the administrator's commands.
func PersonOf(ctx context.Context) any {
	if id, _ := ctx.Value(personKey{}).(string); id != "" {
		return id
	}
	return nil
}

// insert writes an event's row (Event.row), with the person of ctx.
func insert(ctx context.Context, q store.Q, typ string, row []any) error {
	_, err := store.Exec(ctx, q, `INSERT INTO events (id, created_at, type, data, origin_id, target_id, person_id)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, append(row, PersonOf(ctx))...)
	if err != nil {
		return fmt.Errorf("activity: record %s: %w", typ, err)
	}
	return nil
}

// RecordAll stores many events at once (store.Insert), by the rules of
// Record, for writers of trade in bulk.
func RecordAll(ctx context.Context, q store.Q, es []Event) error {
	for _, e := range es {
		if !ValidType(e.Type) {
			return fmt.Errorf("activity: unknown event type %q", e.Type)
		}
	}
	var failed error
	person := PersonOf(ctx)
	if err := store.Insert(ctx, q, "events", []string{"id", "created_at", "type", "data", "origin_id", "target_id", "person_id"}, len(es),
		func(i int, dst []any) {
			row, err := es[i].row()
			if err != nil && failed == nil {
				failed = err
			}
			copy(dst, append(row, person))
		}); err != nil {
		return fmt.Errorf("activity: record: %w", err)
	}
	return failed
}

// row is the event as stored, in the column order of Record, with a new
// id when it has none.
func (e Event) row() ([]any, error) {
	if e.ID == "" {
		e.ID = core.NewID()
	}
	if !ValidType(e.Type) {
		return make([]any, 6), fmt.Errorf("activity: unknown event type %q", e.Type)
	}
	data, err := json.Marshal(e.Data)
	if err != nil {
		return make([]any, 6), fmt.Errorf("activity: encode data: %w", err)
	}
	var target any
	if e.TargetID != "" {
		target = e.TargetID
	}
	return []any{e.ID, e.CreatedAt.UnixMilli(), e.Type, string(data), e.OriginID, target}, nil
}

// Party is the emitter or target of an event as the feed shows it. Email
// is the emitter's, given only to the emitter itself.
type Party struct {
	Email string `json:"email,omitempty" doc:"The emitter's email, only in the emitter's own feed"`
	Name  string `json:"name"`
}

// View is an event as PRODUCT §3 gives it to the UI.
type View struct {
	ID        string `json:"_id"`
	CreatedAt string `json:"createdAt" doc:"RFC 3339"`
	Type      string `json:"type" enum:"need:update,need:delete,need:create,need:create:bulk,need:import,proposal:request,proposal:review,fix:request,fix:review,claim:request,claim:review,claim:autovalidate,payment:record,payment:declare,payment:confirm,payment:undo,invoice:status"`
	Data      Data   `json:"data"`
	Origin    Party  `json:"origin"`
	Target    *Party `json:"target,omitempty"`
	// Person is who did it in the origin's team, when another than its
	// founder (teams, issue 41): "Marie (Épicerie du Lac) a accepté…".
	Person string `json:"person,omitempty" doc:"The name of the member of the origin's team who did it, when not its founder"`
}

// DefaultPage is how many events a feed page holds.
const DefaultPage = 50

// Feed returns up to limit events that userID emitted or is the target of,
// newest first, older than the event `before` when it is set (paging back).
func Feed(ctx context.Context, q store.Q, userID, before string, limit int) ([]View, error) {
	if limit <= 0 || limit > 200 {
		limit = DefaultPage
	}
	// The cursor: events strictly older than `before` in (created_at, id) order.
	curAt, curID := int64(math.MaxInt64), ""
	if before != "" {
		err := store.Get(ctx, q, &curAt, `SELECT created_at FROM events WHERE id = ?`, before)
		if store.IsNotFound(err) {
			return []View{}, nil
		}
		if err != nil {
			return nil, fmt.Errorf("activity: feed cursor: %w", err)
		}
		curID = before
	}
	// Two indexed halves (emitted, targeted) rather than an OR, so the feed's
	// cost follows the user's own events, not the table's size.
	// The instant's bound stands alone, before the OR: SQLite then walks
	// the index (user, created_at) down from the cursor and stops at the
	// page, instead of reading every older event of the user through the
	// OR (a page deep in a history of 10,000 events: 1.7 -> 1.2 ms).
	const older = `created_at <= ? AND (created_at < ? OR id < ?)`
	// An emitter's email is its login: the feed gives it to the emitter
	// alone (to say "vous"), every other reader has its name
	// (docs/SECURITY.md "Contact data").
	query := `SELECT e.id, e.created_at, e.type, e.data,
			CASE WHEN e.origin_id = ? THEN o.email ELSE '' END AS origin_email,
			o.name AS origin_name, t.name AS target_name, pp.name AS person_name
		FROM events e
		JOIN users o ON o.id = e.origin_id
		LEFT JOIN users t ON t.id = e.target_id
		LEFT JOIN people pp ON pp.id = e.person_id AND e.person_id <> e.origin_id
		WHERE e.id IN (
			SELECT id FROM (SELECT id FROM events WHERE origin_id = ? AND ` + older + `
				ORDER BY created_at DESC, id DESC LIMIT ?) a
			UNION
			SELECT id FROM (SELECT id FROM events WHERE target_id = ? AND ` + older + `
				ORDER BY created_at DESC, id DESC LIMIT ?) b
		)
		ORDER BY e.created_at DESC, e.id DESC LIMIT ?`
	args := []any{userID, userID, curAt, curAt, curID, limit, userID, curAt, curAt, curID, limit, limit}
	out := make([]View, 0, limit)
	var r viewRow
	var bad error
	err := store.Each(ctx, q, query, args,
		[]any{&r.ID, (*store.Int64)(&r.CreatedAt), &r.Type, &r.Data, &r.OriginEmail, &r.OriginName, &r.TargetName, &r.PersonName}, func() {
			v, err := r.view()
			if err != nil {
				bad = cmp.Or(bad, err)
				return
			}
			out = append(out, v)
		})
	if err != nil {
		return nil, fmt.Errorf("activity: feed: %w", err)
	}
	if bad != nil {
		return nil, bad
	}
	return out, nil
}

type viewRow struct {
	ID          string  `db:"id"`
	CreatedAt   int64   `db:"created_at"`
	Type        string  `db:"type"`
	Data        string  `db:"data"`
	OriginEmail string  `db:"origin_email"`
	OriginName  string  `db:"origin_name"`
	TargetName  *string `db:"target_name"`
	PersonName  *string `db:"person_name"`
}

func (r viewRow) view() (View, error) {
	v := View{
		ID:        r.ID,
		CreatedAt: time.UnixMilli(r.CreatedAt).UTC().Format(time.RFC3339),
		Type:      r.Type,
		Origin:    Party{Email: r.OriginEmail, Name: r.OriginName},
	}
	if err := json.Unmarshal([]byte(r.Data), &v.Data); err != nil {
		return View{}, fmt.Errorf("activity: decode event %s: %w", r.ID, err)
	}
	if r.TargetName != nil {
		v.Target = &Party{Name: *r.TargetName}
	}
	if r.PersonName != nil {
		v.Person = *r.PersonName
	}
	return v, nil
}

// RecordView records e (given a new id when it has none) and returns it as
// the feed shows it, for answers that carry the event they wrote.
func RecordView(ctx context.Context, q store.Q, e Event) (View, error) {
	if e.ID == "" {
		e.ID = core.NewID()
	}
	if err := Record(ctx, q, e); err != nil {
		return View{}, err
	}
	var r viewRow
	err := store.Get(ctx, q, &r, `SELECT e.id, e.created_at, e.type, e.data, o.email AS origin_email,
			o.name AS origin_name, t.name AS target_name, pp.name AS person_name
		FROM events e JOIN users o ON o.id = e.origin_id LEFT JOIN users t ON t.id = e.target_id
		LEFT JOIN people pp ON pp.id = e.person_id AND e.person_id <> e.origin_id
		WHERE e.id = ?`, e.ID)
	if err != nil {
		return View{}, fmt.Errorf("activity: read event %s: %w", e.ID, err)
	}
	return r.view()
}

// RecordAs is RecordView for a caller that knows the names the feed shows:
// origin is the origin's email and name, targetName the target's name
// (unused when e has no target). It reads nothing back: the round-trip of
// a proposal records an event on each request. The data is shown as the
// feed reads it (decoded from what was stored).
func RecordAs(ctx context.Context, q store.Q, e Event, origin Party, targetName string) (View, error) {
	if e.ID == "" {
		e.ID = core.NewID()
	}
	row, err := e.row()
	if err != nil {
		return View{}, err
	}
	if err := insert(ctx, q, e.Type, row); err != nil {
		return View{}, err
	}
	r := viewRow{ID: e.ID, CreatedAt: row[1].(int64), Type: e.Type, Data: row[3].(string),
		OriginEmail: origin.Email, OriginName: origin.Name}
	if e.TargetID != "" {
		r.TargetName = &targetName
	}
	return r.view()
}
