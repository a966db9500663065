package daemon

import (
	"context"
	"errors"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/dayplan"
	"primeur/core/documents"
)

// DayPath names a producer's delivery day.
type DayPath struct {
	Date string `path:"date" maxLength:"40" doc:"The delivery date, YYYY-MM-DD" example:"2026-11-24"`
}

// DayOutput is a producer's delivery day.
type DayOutput struct {
	Body dayplan.Day
}

// SetRoundInput is the producer's order of its day's stops.
type SetRoundInput struct {
	DayPath
	Body struct {
		Stops []string `json:"stops" required:"true" maxItems:"500" doc:"The shop ids of the day's stops, each once, in the order of the round; an empty list goes back to the computed order"`
	}
}

func (d *Daemon) registerDayPlan(api huma.API) {
	tags := []string{"Deliveries"}
	errs := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity}
	huma.Register(api, huma.Operation{
		OperationID: "get-delivery-day", Method: http.MethodGet, Path: "/deliveries/day/{date}", Tags: tags,
		Summary: "The producer's delivery day: pick sheet, packing sheets and round (producers)",
		Description: "From the producer's planned and done deliveries of the date (cancelled ones excepted): the pick " +
			"sheet (each product's total, each shop's part), one packing sheet per shop (lines, delivery note numbers, " +
			"address) and the round — the stops from the farm by nearest neighbour improved by 2-opt on great-circle " +
			"distances × 1.3, or in the producer's own order (a shop delivered later that day at the end), with each " +
			"stop's geo: link and the day's distance back to the farm. A date without deliveries is an empty day.",
		Errors: errs,
	}, d.deliveryDay)
	huma.Register(api, huma.Operation{
		OperationID: "set-delivery-round", Method: http.MethodPut, Path: "/deliveries/day/{date}/round", Tags: tags,
		Summary:     "Reorder the stops of the producer's round for a date (producers)",
		Description: "Kept for the date; every stop of the day once, or none to go back to the computed order. Answers the day.",
		Errors:      errs,
	}, d.setDeliveryRound)
}

func (d *Daemon) deliveryDay(ctx context.Context, in *DayPath) (*DayOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	day, err := dayplan.Load(ctx, d.db, u.ID, in.Date)
	if err != nil {
		return nil, err
	}
	return &DayOutput{Body: day}, nil
}

func (d *Daemon) setDeliveryRound(ctx context.Context, in *SetRoundInput) (*DayOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	day, err := inTx(ctx, d, func(tx *sqlx.Tx) (dayplan.Day, error) {
		return dayplan.SetOrder(ctx, tx, u.ID, in.Date, in.Body.Stops, d.now())
	})
	if err != nil {
		return nil, err
	}
	return &DayOutput{Body: day}, nil
}

// printDay serves GET /print/day/{date}: the producer's pick and packing
// sheets of the date (documents.DaySheets). Producers only, their own
// deliveries only.
func (d *Daemon) printDay(w http.ResponseWriter, r *http.Request) {
	u, err := d.requestUser(r)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	if !u.IsProducer() {
		writeJSONProblem(w, http.StatusForbidden, MsgProducersOnly)
		return
	}
	date := r.PathValue("date")
	day, err := dayplan.Load(r.Context(), d.db, u.ID, date)
	var invalid *core.ValidationError
	if errors.As(err, &invalid) {
		writeJSONProblem(w, http.StatusBadRequest, invalid.Fields[0].Message)
		return
	}
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	pdf, err := documents.DaySheets(day, d.now())
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	writePDF(w, documents.DayFileName(date), pdf)
}

// dayPrintRoute describes printDay.
func (d *Daemon) dayPrintRoute(problem func(string) *huma.Response, documentErrors map[string]*huma.Response) plainRoute {
	responses := map[string]*huma.Response{
		"200": fileResponse("application/pdf", "journee-YYYY-MM-DD.pdf: the pick sheet and the round, then a packing sheet per shop"),
		"400": problem("The date is not YYYY-MM-DD: `detail` says so in French"),
		"403": problem("The user is not a producer"),
	}
	for code, r := range documentErrors {
		responses[code] = r
	}
	return plainRoute{handler: d.printDay, op: &huma.Operation{
		OperationID: "print-delivery-day", Method: http.MethodGet, Path: "/print/day/{date}",
		Tags: []string{"Documents"}, Summary: "The producer's pick and packing sheets of a date (PDF, producers)",
		Description: "A4 in large type: the pick sheet with each shop's part and the round's stops, then one packing " +
			"sheet per shop in round order, from the producer's own planned and done deliveries of the date.",
		Security:   sessionSecurity,
		Parameters: []*huma.Param{pathParam("date", "The delivery date, YYYY-MM-DD")},
		Responses:  responses,
	}}
}
