package catalogadmin

import (
	"context"
	"fmt"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/catalog"
	"primeur/core/printable"
	"primeur/core/store"
)

// A producer suggests a product type the catalogue lacks (PRODUCT §3
// "Suggesting a type"); an administrator accepts it, creating the type
// (AcceptSuggestion), or merges it into an existing one
// (MergeSuggestion), from the CLI. The producer reads the outcome in its
// list (Suggestions).

// Suggestion statuses.
const (
	Pending    = "pending"
	Accepted   = "accepted"
	MergedInto = "merged"
)

// Bounds of a suggestion.
const (
	MaxSuggestionName = 80
	MaxSuggestionNote = 300
	// MaxPending bounds a producer's suggestions waiting for an answer.
	MaxPending = 20
)

// French refusals of a producer's suggestion (422 on the field, 409 past
// MaxPending), and of the administrator's answers (as the CLI prints them).
const (
	MsgSuggestName     = "Nommez le type de produit (80 caractères au plus)."
	MsgSuggestExists   = "Ce type est déjà au catalogue : « %s »."
	MsgSuggestFamily   = "Choisissez la famille dans la liste."
	MsgSuggestUnit     = "Choisissez l'unité dans la liste."
	MsgSuggestNote     = "La remarque s'écrit en 300 caractères au plus."
	MsgSuggestTwice    = "Vous avez déjà suggéré ce type : un administrateur l'examine."
	MsgSuggestTooMany  = "Vous avez déjà 20 suggestions en attente : attendez la réponse d'un administrateur."
	MsgSuggestUnknown  = "suggestion inconnue « %s »"
	MsgSuggestAnswered = "la suggestion « %s » a déjà reçu une réponse (%s)"
)

// SuggestionInput is what a producer sends.
type SuggestionInput struct {
	Name, Family, Unit, Note string
}

// Suggestion is a suggested type as its producer and the CLI see it.
type Suggestion struct {
	ID       string `json:"_id" db:"id"`
	Producer string `json:"producer" db:"producer_id"`
	// ProducerName is the producer's name (the CLI's list).
	ProducerName string `json:"producerName" db:"producer_name"`
	Name         string `json:"name" db:"name" example:"Tomme de brebis"`
	Family       string `json:"family" db:"family_id" example:"fromages"`
	Unit         string `json:"unit" db:"unit" enum:"kg,l,un,douzaine,botte,barquette,bouteille,pot"`
	Note         string `json:"note" db:"note"`
	Status       string `json:"status" db:"status" enum:"pending,accepted,merged" doc:"pending: waiting for an administrator; accepted: the type was created; merged: an existing type stands for it"`
	// ProductType is the type it became or was merged into, "" while
	// pending.
	ProductType     string `json:"productType" db:"product_id" doc:"The catalogue type it became or was merged into; empty while pending"`
	ProductTypeName string `json:"productTypeName" db:"product_name"`
	CreatedAt       int64  `json:"createdAt" db:"created_at" doc:"Unix milliseconds"`
}

const suggestionColumns = `s.id, s.producer_id, u.name AS producer_name, s.name, s.family_id, s.unit, s.note, s.status,
	COALESCE(s.product_id, '') AS product_id, COALESCE(p.name, '') AS product_name, s.created_at`

const suggestionFrom = ` FROM type_suggestions s JOIN users u ON u.id = s.producer_id
	LEFT JOIN products p ON p.id = s.product_id`

// Suggest records a producer's suggestion.
func Suggest(ctx context.Context, q store.Q, producerID string, in SuggestionInput, now time.Time) (Suggestion, error) {
	var v core.ValidationError
	name := strings.Join(strings.Fields(printable.Line(in.Name)), " ")
	key := catalog.NameKey(name)
	if key == "" || len([]rune(name)) > MaxSuggestionName {
		v.Add("name", MsgSuggestName)
	} else {
		var existing []string
		if err := store.Select(ctx, q, &existing, `SELECT name FROM products WHERE name_key = ? AND retired_at IS NULL`, key); err != nil {
			return Suggestion{}, fmt.Errorf("catalogadmin: suggest: %w", err)
		}
		if len(existing) > 0 {
			v.Add("name", fmt.Sprintf(MsgSuggestExists, existing[0]))
		}
	}
	fs, err := catalog.Families(ctx, q)
	if err != nil {
		return Suggestion{}, err
	}
	known := false
	for _, f := range fs {
		known = known || f.ID == in.Family
	}
	if !known {
		v.Add("family", MsgSuggestFamily)
	}
	if _, ok := catalog.UnitOf(in.Unit); !ok {
		v.Add("unit", MsgSuggestUnit)
	}
	note := strings.TrimSpace(printable.Line(in.Note))
	if len([]rune(note)) > MaxSuggestionNote {
		v.Add("note", MsgSuggestNote)
	}
	if err := v.Err(); err != nil {
		return Suggestion{}, err
	}
	var locked string
	if err := store.Get(ctx, q, &locked, `SELECT id FROM users WHERE id = ?`+store.ForUpdate(q), producerID); err != nil {
		return Suggestion{}, fmt.Errorf("catalogadmin: lock producer: %w", err)
	}
	var pending []string
	if err := store.Select(ctx, q, &pending, `SELECT name_key FROM type_suggestions WHERE producer_id = ? AND status = ?`,
		producerID, Pending); err != nil {
		return Suggestion{}, fmt.Errorf("catalogadmin: suggest: %w", err)
	}
	for _, k := range pending {
		if k == key {
			return Suggestion{}, core.Invalid("name", MsgSuggestTwice)
		}
	}
	if len(pending) >= MaxPending {
		return Suggestion{}, core.Refuse(core.ErrConflict, MsgSuggestTooMany)
	}
	id := core.NewID()
	if _, err := store.Exec(ctx, q, `INSERT INTO type_suggestions (id, producer_id, name, name_key, family_id, unit, note,
		status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, producerID, name, key, in.Family, in.Unit, note,
		Pending, now.UnixMilli()); err != nil {
		return Suggestion{}, fmt.Errorf("catalogadmin: suggest: %w", err)
	}
	return suggestion(ctx, q, id)
}

func suggestion(ctx context.Context, q store.Q, id string) (Suggestion, error) {
	var s Suggestion
	err := store.Get(ctx, q, &s, `SELECT `+suggestionColumns+suggestionFrom+` WHERE s.id = ?`, id)
	if store.IsNotFound(err) {
		return s, refuse(MsgSuggestUnknown, id)
	}
	if err != nil {
		return s, fmt.Errorf("catalogadmin: suggestion %s: %w", id, err)
	}
	return s, nil
}

// Suggestions lists a producer's suggestions, newest first ("" lists
// everyone's, for the CLI); pendingOnly keeps those waiting.
func Suggestions(ctx context.Context, q store.Q, producerID string, pendingOnly bool) ([]Suggestion, error) {
	var w store.Where
	w.And(producerID != "", "s.producer_id = ?", producerID).And(pendingOnly, "s.status = ?", Pending)
	out := []Suggestion{}
	if err := store.Select(ctx, q, &out, `SELECT `+suggestionColumns+suggestionFrom+` WHERE `+w.SQL()+
		` ORDER BY s.created_at DESC, s.id LIMIT 1000`, w.Args()...); err != nil {
		return nil, fmt.Errorf("catalogadmin: suggestions: %w", err)
	}
	return out, nil
}

// pendingSuggestion reads a suggestion still waiting, locked.
func pendingSuggestion(ctx context.Context, q store.Q, id string) (Suggestion, error) {
	var status string
	err := store.Get(ctx, q, &status, `SELECT status FROM type_suggestions WHERE id = ?`+store.ForUpdate(q), id)
	if store.IsNotFound(err) {
		return Suggestion{}, refuse(MsgSuggestUnknown, id)
	}
	if err != nil {
		return Suggestion{}, fmt.Errorf("catalogadmin: suggestion %s: %w", id, err)
	}
	s, err := suggestion(ctx, q, id)
	if err == nil && s.Status != Pending {
		err = refuse(MsgSuggestAnswered, id, s.Status)
	}
	return s, err
}

// AcceptSuggestion creates the suggested type (Add, with the suggestion's
// name, family and unit unless in sets them; its VAT rate, season and id
// from in) and answers the suggestion with it.
func AcceptSuggestion(ctx context.Context, q store.Q, id string, in AddInput, now time.Time) (Suggestion, catalog.Product, error) {
	s, err := pendingSuggestion(ctx, q, id)
	if err != nil {
		return s, catalog.Product{}, err
	}
	if in.Name == "" {
		in.Name = s.Name
	}
	if in.Family == "" {
		in.Family = s.Family
	}
	if in.Unit == "" {
		in.Unit = s.Unit
	}
	p, err := Add(ctx, q, in)
	if err != nil {
		return s, p, err
	}
	s, err = answer(ctx, q, id, Accepted, p.ID, now)
	return s, p, err
}

// MergeSuggestion answers a suggestion with an existing type in use that
// stands for it.
func MergeSuggestion(ctx context.Context, q store.Q, id, typeID string, now time.Time) (Suggestion, error) {
	s, err := pendingSuggestion(ctx, q, id)
	if err != nil {
		return s, err
	}
	p, err := get(ctx, q, typeID)
	if err != nil {
		return s, err
	}
	if p.Retired {
		return s, refuse(MsgRetiredInto, p.Name)
	}
	return answer(ctx, q, id, MergedInto, p.ID, now)
}

func answer(ctx context.Context, q store.Q, id, status, typeID string, now time.Time) (Suggestion, error) {
	if _, err := store.Exec(ctx, q, `UPDATE type_suggestions SET status = ?, product_id = ?, decided_at = ? WHERE id = ?`,
		status, typeID, now.UnixMilli(), id); err != nil {
		return Suggestion{}, fmt.Errorf("catalogadmin: answer %s: %w", id, err)
	}
	return suggestion(ctx, q, id)
}
