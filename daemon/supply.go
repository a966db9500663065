package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core/calendar"
	"primeur/core/supply"
)

// SupplyInput is the window of the stock grid.
type SupplyInput struct {
	Start string `query:"start" maxLength:"40" doc:"First day, YYYY-MM-DD; the Monday of the current week (Europe/Paris) when absent" example:"2026-11-16"`
	Days  string `query:"days" maxLength:"40" doc:"Number of days, a whole number from 1 to 31; 5 when absent" example:"5"`
}

// SupplyOutput is the stock grid with its advice.
type SupplyOutput struct {
	Body supply.Projection
}

func (d *Daemon) registerSupply(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "get-supply", Method: http.MethodGet, Path: "/supply", Tags: []string{"Supply"},
		Summary: "Stock evolution and supply advice (shops)",
		Description: "Per product and day of the window: need, deliveries by producer, morning stock, risk level " +
			"(0 covered, 1 partly, 2 empty; 0 on Saturdays), the platform order proposed for the next day and the " +
			"chart series (current, and baseline without the window's deliveries); per product the average daily " +
			"sales and the at-risk flag. The stock is simulated from 14 days before the window, starting empty; " +
			"cancelled deliveries count for nothing (PRODUCT §18).",
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity},
	}, d.getSupply)
}

func (d *Daemon) getSupply(ctx context.Context, in *SupplyInput) (*SupplyOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	today := calendar.DateOf(d.now())
	w, err := supply.ParseWindow(in.Start, in.Days, today)
	if err != nil {
		return nil, inQuery(err)
	}
	p, err := supply.Load(ctx, d.db, u.ID, w, today)
	if err != nil {
		return nil, err
	}
	return &SupplyOutput{Body: p}, nil
}
