// Package supply projects a shop's stock and advises its orders (PRODUCT §2
// supply screen, §4 supply risk, §9; PRODUCT §18). Project is the one pure
// function behind the API (GET /api/supply), the CLI (primeur simulate
// supply) and the terminal viewer (primeur supply); Load reads its inputs
// from the database in a fixed number of queries.
//
// For a product p and a day d:
//
//	need(p, d)       = 0 on Sundays, else the month's need / the month's non-Sunday days
//	deliveries(p, d) = non-cancelled quantities that day (sent if done, else expected)
//	morning(first)   = 0, first = 14 days before the window
//	morning(d+1)     = round(max(0, morning(d) + deliveries(d) − need(d)))
//	risk(d)          = 0 on Saturdays; else with available = morning(d) + deliveries(d):
//	                   0 if available ≥ need(d), 2 if available = 0, 1 otherwise
//	proposedOrder(d) = max(0, (need(d) if morning(d) > 0 else 0) + need(d+1)
//	                   − morning(d) − deliveries(d) − deliveries(d+1)), to 2 decimals
//	averageDailySales(p) = mean need over the non-Sunday days from first to the window's end
//	atRisk(p)        = deliveries of the 7 days before today < 7 × averageDailySales(p)
//	current(d)       = morning(d); baseline(d) = morning(d) without deliveries inside the window
//
// Arithmetic is exact: quantities are held in 1/7,020,000 of the unit (see
// amount), so a month's need spread over its working days carries no
// rounding error and the comparisons of the risk rule are exact.
package supply

import (
	"fmt"
	"sort"
	"time"

	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
)

// Constants of PRODUCT §9 and PRODUCT §18.
const (
	// LookBack is the number of days simulated before the window, starting
	// from an empty stock.
	LookBack = 14
	// RiskLookBack is the number of days before today whose deliveries
	// decide the at-risk flag.
	RiskLookBack = 7
	// MaxDays is the longest window served.
	MaxDays = 31
	// DefaultDays is the window of a normal-density screen (PRODUCT §9).
	DefaultDays = 5
)

// Delivery statuses (PRODUCT §3); cancelled deliveries count nowhere.
const (
	Planned   = "planned"
	Done      = "done"
	Cancelled = "cancelled"
)

// Risk levels (PRODUCT §4).
const (
	RiskNone    = 0 // the stock and the day's deliveries cover the need
	RiskPartial = 1 // they cover part of it
	RiskEmpty   = 2 // nothing is available
)

// Product names a product of the projection.
type Product struct {
	ID   string
	Name string
	Unit string
}

// Need is a shop's need for one product and month ("2026-12-01").
type Need struct {
	ProductID string
	Month     string
	Quantity  decimal.Dec
}

// Delivery is one delivery line of the shop: a product brought by a
// producer on a day.
type Delivery struct {
	ProductID  string
	ProducerID string
	Date       calendar.Date
	Status     string
	Expected   decimal.Dec
	// Sent is the sent quantity once known; it counts only for done
	// deliveries, and a done line without it counts as expected.
	Sent *decimal.Dec
}

// quantity is what the delivery brings to the stock.
func (d Delivery) quantity() decimal.Dec {
	if d.Status == Done && d.Sent != nil {
		return *d.Sent
	}
	return d.Expected
}

// Window is the days shown: Days days from Start.
type Window struct {
	Start calendar.Date
	Days  int
}

// End is the window's last day.
func (w Window) End() calendar.Date { return w.Start.AddDays(w.Days - 1) }

// Input is everything the projection reads.
type Input struct {
	Window Window
	// Today is the current day in the business time zone.
	Today calendar.Date
	// Products gives names and units; rows come by name (a product missing
	// from it is named by its id).
	Products []Product
	// Needs holds at most one need per product and month.
	Needs []Need
	// Deliveries may hold any line of the shop; those outside the simulated
	// days and the risk look-back are ignored.
	Deliveries []Delivery
}

// Projection is the stock grid of a shop over a window.
type Projection struct {
	Start string   `json:"start" doc:"First day of the window" example:"2026-11-16"`
	End   string   `json:"end" doc:"Last day of the window" example:"2026-11-20"`
	Days  int      `json:"days" doc:"Number of days in the window" example:"5"`
	Today string   `json:"today" doc:"Today in Europe/Paris; the at-risk flag looks at the 7 days before it" example:"2026-11-20"`
	Dates []string `json:"dates" doc:"The window's days, in order"`
	// HasDeliveries tells whether any delivery is expected or done inside
	// the window.
	HasDeliveries bool                `json:"hasDeliveries" doc:"Whether any non-cancelled delivery falls inside the window"`
	Products      []ProductProjection `json:"products" doc:"Products with a need or a delivery in the simulated days, by name"`
	Producers     []Producer          `json:"producers" doc:"Names of the producers delivering in the projection"`
}

// Producer names a producer of the projection's deliveries.
type Producer struct {
	ID   string `json:"_id"`
	Name string `json:"name"`
}

// ProductProjection is one row of the grid.
type ProductProjection struct {
	Product           string      `json:"product" doc:"Product id" example:"tomate"`
	Name              string      `json:"name" example:"Tomate"`
	Unit              string      `json:"unit" enum:"kg,l,un,douzaine,botte,barquette,bouteille,pot"`
	AverageDailySales decimal.Dec `json:"averageDailySales" doc:"Mean daily need over the non-Sunday simulated days, 2 decimals"`
	// DeliveredLast7Days is what the at-risk flag compares with 7 ×
	// AverageDailySales.
	DeliveredLast7Days decimal.Dec     `json:"deliveredLast7Days" doc:"Deliveries of the 7 days before today"`
	AtRisk             bool            `json:"atRisk" doc:"Deliveries of the 7 days before today are under 7 × the average daily sales"`
	Days               []DayProjection `json:"days"`
}

// DayProjection is one cell of the grid with the assumptions of its advice.
type DayProjection struct {
	Date           string      `json:"date" example:"2026-11-18"`
	Need           decimal.Dec `json:"need" doc:"Need of the day, 2 decimals"`
	Deliveries     []Incoming  `json:"deliveries" doc:"Deliveries of the day by producer"`
	Delivered      decimal.Dec `json:"delivered" doc:"Sum of the day's deliveries"`
	MorningStock   decimal.Dec `json:"morningStock" doc:"Local stock left in the morning, whole units"`
	Risk           int         `json:"risk" enum:"0,1,2" doc:"0 covered, 1 partly covered, 2 nothing available"`
	ProposedOrder  decimal.Dec `json:"proposedOrder" doc:"Platform order proposed for the next day, 2 decimals"`
	NextDate       string      `json:"nextDate" doc:"The next day"`
	NextNeed       decimal.Dec `json:"nextNeed" doc:"Need of the next day, 2 decimals"`
	NextDeliveries []Incoming  `json:"nextDeliveries" doc:"Deliveries of the next day by producer"`
	Current        decimal.Dec `json:"current" doc:"Chart series: morning stock with the planned deliveries"`
	Baseline       decimal.Dec `json:"baseline" doc:"Chart series: morning stock without any delivery inside the window"`
}

// Incoming is what one producer brings on a day.
type Incoming struct {
	Producer string      `json:"producer" doc:"Producer id"`
	Quantity decimal.Dec `json:"quantity"`
}

// amount is a quantity in 1/7,020,000 of the unit: hundredths × 70,200,
// the least common multiple of 24, 25, 26 and 27 — every possible number of
// non-Sunday days in a month — so that need(p, d) is an exact amount.
type amount int64

const (
	perHundredth amount = 70_200
	perUnit             = 100 * perHundredth
	// ceiling saturates sums: about 14 billion units, far above any real
	// stock, and low enough that no product of the rules overflows int64.
	ceiling amount = 1e17
	// maxLine bounds one input quantity (a billion units).
	maxLine decimal.Dec = 1e11
)

func amountOf(d decimal.Dec) amount {
	if d < 0 {
		d = 0
	}
	if d > maxLine {
		d = maxLine
	}
	return amount(d) * perHundredth
}

// add is a + b, saturated at ceiling (both are non-negative).
func (a amount) add(b amount) amount {
	if s := a + b; s < ceiling {
		return s
	}
	return ceiling
}

// roundUnit rounds a non-negative amount to whole units, half up.
func (a amount) roundUnit() amount { return (a + perUnit/2) / perUnit * perUnit }

// dec rounds a non-negative amount to hundredths, half up.
func (a amount) dec() decimal.Dec { return decimal.Dec((a + perHundredth/2) / perHundredth) }

// valid checks a window's length.
func (w Window) valid() error {
	if w.Days < 1 || w.Days > MaxDays {
		return fmt.Errorf("supply: window of %d days (1 to %d)", w.Days, MaxDays)
	}
	return nil
}

// series is one product's day-by-day figures over the simulated days: index
// 0 is LookBack days before the window, the last index the day after it.
type series struct {
	need, delivered []amount
	byProducer      []map[string]amount
	last7           amount
}

// Project computes the stock grid and the advice of PRODUCT §18.
func Project(in Input) (Projection, error) {
	w := in.Window
	if err := w.valid(); err != nil {
		return Projection{}, err
	}
	first := w.Start.AddDays(-LookBack)
	after := w.End().AddDays(1)
	span := int(after-first) + 1 // simulated days plus the day after the window
	riskFrom, riskTo := in.Today.AddDays(-RiskLookBack), in.Today.AddDays(-1)

	// Month needs spread over working days, per product and month.
	type key struct{ product, month string }
	daily := map[key]amount{}
	touched := map[string]bool{}
	months := make([]string, span) // the month of each simulated day
	for i := range months {
		months[i] = first.AddDays(i).Month().String()
		touched[months[i]] = true
	}
	rows := map[string]*series{}
	row := func(id string) *series {
		s := rows[id]
		if s == nil {
			s = &series{need: make([]amount, span), delivered: make([]amount, span), byProducer: make([]map[string]amount, span)}
			rows[id] = s
		}
		return s
	}
	for _, n := range in.Needs {
		k := key{n.ProductID, n.Month}
		if _, dup := daily[k]; dup {
			return Projection{}, fmt.Errorf("supply: two needs for %s in %s", n.ProductID, n.Month)
		}
		m, ok := calendar.ParseMonth(n.Month)
		if !ok || m.String() != n.Month {
			return Projection{}, fmt.Errorf("supply: need month %q", n.Month)
		}
		daily[k] = amountOf(n.Quantity) / amount(m.WorkingDays())
		if touched[n.Month] {
			row(n.ProductID)
		}
	}
	hasDeliveries := false
	last7 := map[string]amount{}
	for _, d := range in.Deliveries {
		switch d.Status {
		case Cancelled:
			continue
		case Planned, Done:
		default:
			return Projection{}, fmt.Errorf("supply: delivery status %q", d.Status)
		}
		q := amountOf(d.quantity())
		inSim := d.Date >= first && d.Date <= after
		inRisk := d.Date >= riskFrom && d.Date <= riskTo
		if !inSim && !inRisk {
			continue
		}
		if inRisk {
			last7[d.ProductID] = last7[d.ProductID].add(q)
		}
		if inSim {
			s := row(d.ProductID)
			i := int(d.Date - first)
			s.delivered[i] = s.delivered[i].add(q)
			if s.byProducer[i] == nil {
				s.byProducer[i] = map[string]amount{}
			}
			s.byProducer[i][d.ProducerID] = s.byProducer[i][d.ProducerID].add(q)
			if d.Date >= w.Start && d.Date <= w.End() {
				hasDeliveries = true
			}
		}
	}

	out := Projection{
		Start: w.Start.String(), End: w.End().String(), Days: w.Days, Today: in.Today.String(),
		Dates: make([]string, w.Days), HasDeliveries: hasDeliveries,
		Products: make([]ProductProjection, 0, len(rows)), Producers: []Producer{},
	}
	for i := range out.Dates {
		out.Dates[i] = w.Start.AddDays(i).String()
	}
	for _, p := range products(in.Products, rows) {
		s := rows[p.ID]
		s.last7 = last7[p.ID]
		for i := 0; i < span; i++ {
			if first.AddDays(i).Weekday() != time.Sunday {
				s.need[i] = daily[key{p.ID, months[i]}]
			}
		}
		out.Products = append(out.Products, s.project(p, w, first))
	}
	return out, nil
}

// products lists the products of rows by name (ignoring case and accents,
// as the catalogue), naming unknown ones by their id.
func products(known []Product, rows map[string]*series) []Product {
	byID := make(map[string]Product, len(known))
	for _, p := range known {
		byID[p.ID] = p
	}
	out := make([]Product, 0, len(rows))
	for id := range rows {
		p, ok := byID[id]
		if !ok {
			p = Product{ID: id, Name: id}
		}
		out = append(out, p)
	}
	keys := make(map[string]string, len(out))
	for _, p := range out {
		keys[p.ID] = catalog.NameKey(p.Name)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := keys[out[i].ID], keys[out[j].ID]
		if a != b {
			return a < b
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// project runs the simulation of one product.
func (s *series) project(p Product, w Window, first calendar.Date) ProductProjection {
	out := ProductProjection{Product: p.ID, Name: p.Name, Unit: p.Unit, Days: make([]DayProjection, 0, w.Days)}
	var morning, baseline, needSum amount
	working := 0
	for i := 0; i < LookBack+w.Days; i++ {
		d := first.AddDays(i)
		inWindow := i >= LookBack
		need, del := s.need[i], s.delivered[i]
		if d.Weekday() != time.Sunday {
			needSum = needSum.add(need)
			working++
		}
		if inWindow {
			out.Days = append(out.Days, s.day(i, d, morning, baseline))
		}
		morning = step(morning, del, need)
		if inWindow {
			del = 0
		}
		baseline = step(baseline, del, need)
	}
	// mean = needSum / working, rounded to hundredths; atRisk compares
	// last7 < 7 × needSum / working without dividing.
	out.AverageDailySales = decimal.Dec((needSum + amount(working)*perHundredth/2) / (amount(working) * perHundredth))
	out.DeliveredLast7Days = s.last7.dec()
	out.AtRisk = s.last7*amount(working) < RiskLookBack*needSum
	return out
}

// step is morning(d+1) from morning(d).
func step(morning, delivered, need amount) amount {
	left := morning.add(delivered) - need
	if left < 0 {
		left = 0
	}
	return left.roundUnit()
}

// day is the cell of simulated day i.
func (s *series) day(i int, d calendar.Date, morning, baseline amount) DayProjection {
	need, del := s.need[i], s.delivered[i]
	nextNeed, nextDel := s.need[i+1], s.delivered[i+1]
	risk := RiskNone
	if d.Weekday() != time.Saturday {
		switch available := morning.add(del); {
		case available >= need:
			risk = RiskNone
		case available == 0:
			risk = RiskEmpty
		default:
			risk = RiskPartial
		}
	}
	order := nextNeed
	if morning > 0 {
		order += need
	}
	order -= morning + del + nextDel
	if order < 0 {
		order = 0
	}
	return DayProjection{
		Date: d.String(), Need: need.dec(), Deliveries: incoming(s.byProducer[i]), Delivered: del.dec(),
		MorningStock: morning.dec(), Risk: risk, ProposedOrder: order.dec(),
		NextDate: d.AddDays(1).String(), NextNeed: nextNeed.dec(), NextDeliveries: incoming(s.byProducer[i+1]),
		Current: morning.dec(), Baseline: baseline.dec(),
	}
}

// incoming lists a day's deliveries by producer id.
func incoming(m map[string]amount) []Incoming {
	out := make([]Incoming, 0, len(m))
	for id, q := range m {
		out = append(out, Incoming{Producer: id, Quantity: q.dec()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Producer < out[j].Producer })
	return out
}
