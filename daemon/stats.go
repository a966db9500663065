package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core/calendar"
	"primeur/core/stats"
)

// ProgressionOutput is a user's monthly values per product.
type ProgressionOutput struct {
	Body stats.Progression
}

func (d *Daemon) registerStats(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "get-progression", Method: http.MethodGet, Path: "/stats/progression", Tags: []string{"Statistics"},
		Summary: "Monthly purchases (shops) or sales (producers) per product, for the progression statistics",
		Description: "Per product, the value HT of the user's done deliveries in each of the 25 months ending with the " +
			"current one (Europe/Paris): a shop's purchases, a producer's sales, each line as it is invoiced " +
			"((sent + claimed when the claim was accepted) × price, rounded to the cent). Planned and cancelled " +
			"deliveries count for nothing. The browser computes the month-over-month and year-over-year changes " +
			"(PRODUCT §2 \"Statistics\").",
		Errors: []int{http.StatusUnauthorized},
	}, d.getProgression)
}

func (d *Daemon) getProgression(ctx context.Context, _ *struct{}) (*ProgressionOutput, error) {
	p, err := stats.Monthly(ctx, d.db, currentUser(ctx), calendar.MonthOf(d.now()))
	if err != nil {
		return nil, err
	}
	return &ProgressionOutput{Body: p}, nil
}
