package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core/catalogadmin"
)

// A producer suggests a product type the catalogue lacks (issue 39,
// PRODUCT §3 "Suggesting a type"); administrators answer from the CLI
// (primeur catalogue suggestions, accept, merge-suggestion).

// SuggestTypeInput is a producer's suggestion.
type SuggestTypeInput struct {
	Body struct {
		Name   string `json:"name" required:"false" maxLength:"1000" doc:"The type's name, 80 characters at most. Needed" example:"Tomme de brebis"`
		Family string `json:"family" required:"false" maxLength:"100" doc:"Its family (GET /api/catalogue's families). Needed" example:"fromages"`
		Unit   string `json:"unit" required:"false" maxLength:"20" doc:"Its unit of need: kg, l, un, douzaine, botte, barquette, bouteille, pot. Needed" example:"kg"`
		Note   string `json:"note" required:"false" maxLength:"2000" doc:"A note for the administrator, 300 characters at most" example:""`
	}
}

// SuggestionOutput is one suggestion.
type SuggestionOutput struct {
	Body catalogadmin.Suggestion
}

// SuggestionsOutput is the producer's suggestions.
type SuggestionsOutput struct {
	Body []catalogadmin.Suggestion
}

func (d *Daemon) registerSuggestions(api huma.API) {
	tags := []string{"Products"}
	errs := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity}
	huma.Register(api, huma.Operation{
		OperationID: "list-type-suggestions", Method: http.MethodGet, Path: "/type-suggestions", Tags: tags,
		Summary:     "The producer's suggestions of product types, newest first (producers)",
		Description: "Each with its status: pending, accepted (the type created) or merged (an existing type stands for it).",
		Errors:      errs,
	}, d.listSuggestions)
	huma.Register(api, huma.Operation{
		OperationID: "suggest-type", Method: http.MethodPost, Path: "/type-suggestions", Tags: tags,
		Summary: "Suggest a product type the catalogue lacks (producers)",
		Description: "Its name, family and unit, and a note; an administrator accepts or merges it. Each rule refuses " +
			"in French (422); 409 past 20 suggestions waiting.",
		DefaultStatus: http.StatusCreated,
		Errors:        append(errs, http.StatusConflict),
	}, d.suggestType)
}

func (d *Daemon) listSuggestions(ctx context.Context, _ *struct{}) (*SuggestionsOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	ss, err := catalogadmin.Suggestions(ctx, d.db, u.ID, false)
	if err != nil {
		return nil, err
	}
	return &SuggestionsOutput{Body: ss}, nil
}

func (d *Daemon) suggestType(ctx context.Context, in *SuggestTypeInput) (*SuggestionOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	s, err := inTx(ctx, d, func(tx *sqlx.Tx) (catalogadmin.Suggestion, error) {
		return catalogadmin.Suggest(ctx, tx, u.ID, catalogadmin.SuggestionInput{Name: in.Body.Name, Family: in.Body.Family,
			Unit: in.Body.Unit, Note: in.Body.Note}, d.now())
	})
	if err != nil {
		return nil, err
	}
	return &SuggestionOutput{Body: s}, nil
}
