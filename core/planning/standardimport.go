package planning

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/activity"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/store"
)

// Bounds of the standard import (PRODUCT §7 "importstd").
const (
	// MaxTurnover bounds the annual turnover, in euros.
	MaxTurnover = 1e9
	// MaxStandardMonths bounds the months of one standard import.
	MaxStandardMonths = 36
	// PreviewMonths is how many months the simulation returns.
	PreviewMonths = 3
)

// French messages of the standard import.
const (
	MsgTurnover         = "Le chiffre d'affaires doit être un nombre supérieur à zéro."
	MsgTurnoverTooLarge = "Le chiffre d'affaires saisi est trop grand."
	MsgStandardMonths   = "Indiquez de 1 à 36 mois, chacun une seule fois."
)

// CheckStandard validates a standard import's turnover and months: a finite
// turnover above zero and at most MaxTurnover; 1 to 36 distinct months, none
// past. It returns the months read.
func CheckStandard(turnover float64, months []string, now time.Time) ([]calendar.Month, error) {
	v := &core.ValidationError{}
	switch {
	case math.IsNaN(turnover) || math.IsInf(turnover, 0) || turnover <= 0:
		v.Add("turnover", MsgTurnover)
	case turnover > MaxTurnover:
		v.Add("turnover", MsgTurnoverTooLarge)
	}
	if len(months) == 0 || len(months) > MaxStandardMonths {
		v.Add("months", MsgStandardMonths)
		return nil, v
	}
	out := make([]calendar.Month, len(months))
	seen := map[calendar.Month]bool{}
	for i, m := range months {
		field := fmt.Sprintf("months[%d]", i)
		month, ok := calendar.ParseMonth(strings.TrimSpace(m))
		switch {
		case !ok:
			v.Add(field, MsgBadMonth)
		case month < calendar.MonthOf(now):
			v.Add(field, MsgPastMonth)
		case seen[month]:
			v.Add(field, MsgStandardMonths)
		}
		seen[month] = true
		out[i] = month
	}
	return out, v.Err()
}

// StandardLines simulates the shop's needs over months (already checked)
// for every catalogue product in use (see Standard): a type an
// administrator retired or merged takes no new need, so it is not
// simulated. A turnover that would give a product more than MaxQuantity
// in a month is refused as too large.
func StandardLines(ctx context.Context, q store.Q, turnover float64, months []calendar.Month) ([]StandardLine, error) {
	products, err := catalog.All(ctx, q)
	if err != nil {
		return nil, err
	}
	lines := Standard(catalog.InUse(products), turnover, months)
	for _, l := range lines {
		for _, qty := range l.Quantities {
			if qty > MaxQuantity {
				return nil, core.Invalid("turnover", MsgTurnoverTooLarge)
			}
		}
	}
	return lines, nil
}

// MonthQuantity is one month of a simulated product.
type MonthQuantity struct {
	Date     string      `json:"date" example:"2026-12-01"`
	Quantity decimal.Dec `json:"quantity" example:"617.72"`
}

// StandardPreview is one product of a simulation, as the preview table
// shows it.
type StandardPreview struct {
	ID     string          `json:"_id" doc:"Product id" example:"carotte"`
	Name   string          `json:"name" example:"Carotte"`
	Unit   string          `json:"unit" enum:"kg,l,un,douzaine,botte,barquette,bouteille,pot"`
	Values []MonthQuantity `json:"values" doc:"Quantities of the first months asked (3 at most)"`
}

// SimulateStandard checks a standard import and returns, per product, the
// quantities of its first PreviewMonths months. It writes nothing.
func SimulateStandard(ctx context.Context, q store.Q, turnover float64, months []string, now time.Time) ([]StandardPreview, error) {
	checked, err := CheckStandard(turnover, months, now)
	if err != nil {
		return nil, err
	}
	preview := checked[:min(PreviewMonths, len(checked))]
	lines, err := StandardLines(ctx, q, turnover, preview)
	if err != nil {
		return nil, err
	}
	out := make([]StandardPreview, len(lines))
	for i, l := range lines {
		out[i] = StandardPreview{ID: l.Product.ID, Name: l.Product.Name, Unit: l.Product.Unit, Values: make([]MonthQuantity, len(preview))}
		for m, qty := range l.Quantities {
			out[i].Values[m] = MonthQuantity{Date: preview[m].String(), Quantity: qty}
		}
	}
	return out, nil
}

// StandardResult is what a standard import wrote.
type StandardResult struct {
	Needs       []View        `json:"needs" doc:"Needs created or changed"`
	Event       activity.View `json:"event" doc:"The need:import event recorded"`
	DBErrors    []ImportError `json:"dbErrors" doc:"Needs left as they were because commitments and pending proposals hold more than the simulation"`
	DBSuccesses int           `json:"dbSuccesses" doc:"Quantities applied"`
}

// ImportStandard writes a standard import for the distributor inside q (a
// transaction): every month of every simulated product, zero quantities
// left out, through Write. It is lenient as the file import is: a need
// whose commitments and pending proposals exceed the simulated quantity
// keeps its quantity and is reported in DBErrors; the rest is written. One
// need:import event is recorded.
func ImportStandard(ctx context.Context, q store.Q, distributorID string, turnover float64, months []string, now time.Time, progress ProgressFunc) (StandardResult, error) {
	checked, err := CheckStandard(turnover, months, now)
	if err != nil {
		return StandardResult{}, err
	}
	lines, err := StandardLines(ctx, q, turnover, checked)
	if err != nil {
		return StandardResult{}, err
	}
	months = make([]string, len(checked))
	for i, m := range checked {
		months[i] = m.String()
	}
	cells := make([][]sourcedCell, len(months))
	for _, l := range lines {
		for m, qty := range l.Quantities {
			if qty > 0 {
				cells[m] = append(cells[m], sourcedCell{
					Cell: Cell{ProductID: l.Product.ID, Month: months[m], Quantity: qty}, name: l.Product.Name,
				})
			}
		}
	}
	var res StandardResult
	res.Needs, res.DBErrors, res.DBSuccesses, _, err = applyMonths(ctx, q, distributorID, months, cells, now, progress)
	if err != nil {
		return StandardResult{}, err
	}
	res.Event, err = recordImport(ctx, q, distributorID, months, res.DBSuccesses, now)
	return res, err
}
