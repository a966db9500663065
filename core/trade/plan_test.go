package trade_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/trade"
)

// qty reads a quantity of a test table ("11.11").
func qty(t *testing.T, s string) decimal.Dec {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("quantity %q: %v", s, err)
	}
	d, ok := decimal.FromFloat(f)
	if !ok {
		t.Fatalf("quantity %q", s)
	}
	return d
}

// dl is a delivery of a planner table: its lines are "product=expected",
// or "product=expected/sent" for a line with a sent quantity.
type dl struct {
	id, status, date string
	lines            []string
}

func (d dl) full(t *testing.T, chrono int64) orders.FullDelivery {
	t.Helper()
	fd := orders.FullDelivery{Delivery: orders.Delivery{ID: d.id, Status: d.status, Date: d.date, Chrono: chrono}}
	for _, l := range d.lines {
		product, amounts, _ := strings.Cut(l, "=")
		expected, sent, hasSent := strings.Cut(amounts, "/")
		line := orders.Line{ID: d.id + "-" + product, DeliveryID: d.id, ProductID: product, NeedID: "need-" + product,
			QuantityExpected: qty(t, expected)}
		if hasSent {
			s := qty(t, sent)
			line.QuantitySent = &s
		}
		fd.Lines = append(fd.Lines, line)
	}
	return fd
}

// commitments reads "product=quantity unit" texts: each commitment is on
// the need "need-<product>", at a price of its own (a euro per letter of
// the product's name) so that a line at the wrong price shows.
func commitments(t *testing.T, cs ...string) []trade.Commitment {
	t.Helper()
	var out []trade.Commitment
	for _, c := range cs {
		product, rest, _ := strings.Cut(c, "=")
		amount, unit, _ := strings.Cut(rest, " ")
		out = append(out, trade.Commitment{NeedID: "need-" + product, ProductID: product, Unit: unit,
			Quantity: qty(t, amount), Price: decimal.FromInt(int64(len(product)))})
	}
	return out
}

// describe renders a plan as one line per change: "keep d4 2026-12-14
// melon=1 tomate=8.89", "move d4 2026-12-14>2026-12-15 …", "new
// 2026-12-29 …", "delete d7", "delete order".
func describe(p trade.Plan) []string {
	var out []string
	for _, d := range p.Deliveries {
		var ls []string
		for _, l := range d.Lines {
			ls = append(ls, fmt.Sprintf("%s=%s", l.ProductID, l.Quantity))
		}
		var s string
		switch {
		case d.ID == "":
			s = "new " + d.Date
		case d.From != d.Date:
			s = fmt.Sprintf("move %s %s>%s", d.ID, d.From, d.Date)
		default:
			s = fmt.Sprintf("keep %s %s", d.ID, d.Date)
		}
		out = append(out, s+" "+strings.Join(ls, " "))
	}
	for _, id := range p.Delete {
		out = append(out, "delete "+id)
	}
	if p.DeleteOrder {
		out = append(out, "delete order")
	}
	return out
}

// weekdays reads delivery days as "1001000" (Monday first).
func weekdays(s string) [7]bool {
	var d [7]bool
	for i := range d {
		d[i] = s[i] == '1'
	}
	return d
}

// TestPlanOrder: the re-plan of an order, computed by hand. December 2026
// starts on a Tuesday: its Mondays are the 7th, 14th, 21st and 28th, its
// Thursdays the 3rd, 10th, 17th, 24th and 31st, its Tuesdays the 1st, 8th,
// 15th, 22nd and 29th. The farm delivers on Mondays and Thursdays
// ("1001000"); on Friday 20 November the first date to plan is 1 December.
func TestPlanOrder(t *testing.T) {
	t.Parallel()
	nov20 := at(2026, 11, 20, 10)
	dec10 := at(2026, 12, 10, 13) // Thursday, after the day's lock
	// The order of 10 December: two deliveries done (the first short of
	// 3.33 kg), today's planned (locked at noon, the job not yet run),
	// six to come.
	december := []dl{
		{"d1", orders.Done, "2026-12-03", []string{"melon=1", "tomate=13.33/10"}},
		{"d2", orders.Done, "2026-12-07", []string{"melon=1", "tomate=13.33"}},
		{"d3", orders.Planned, "2026-12-10", []string{"melon=1", "tomate=13.33"}},
		{"d4", orders.Planned, "2026-12-14", []string{"melon=1", "tomate=13.33"}},
		{"d5", orders.Planned, "2026-12-17", []string{"melon=1", "tomate=13.33"}},
		{"d6", orders.Planned, "2026-12-21", []string{"melon=1", "tomate=13.33"}},
		{"d7", orders.Planned, "2026-12-24", []string{"melon=1", "tomate=13.33"}},
		{"d8", orders.Planned, "2026-12-28", []string{"melon=1", "tomate=13.33"}},
		{"d9", orders.Planned, "2026-12-31", []string{"melon=2", "tomate=13.36"}},
	}
	// Four deliveries to come, planned in November for December.
	four := []dl{
		{"d1", orders.Planned, "2026-12-03", []string{"melon=1"}},
		{"d2", orders.Planned, "2026-12-07", []string{"melon=1"}},
		{"d3", orders.Planned, "2026-12-10", []string{"melon=1"}},
		{"d4", orders.Planned, "2026-12-14", []string{"melon=1"}},
	}
	tests := []struct {
		name        string
		month       string
		days        string
		now         time.Time
		newDays     bool
		commitments []string
		deliveries  []dl
		want        []string
	}{
		{
			name: "first plan: every delivery day of the month, kg to the hundredth and pieces whole, the remainder on the last",
			// 100 kg / 9 = 11.11 (8 × 11.11 = 88.88, 11.12 last);
			// 10 pieces / 9 = 1 (8 × 1, 2 last).
			month: "2026-12-01", days: "1001000", now: nov20,
			commitments: []string{"tomate=100 kg", "melon=10 un"},
			want: []string{
				"new 2026-12-03 melon=1 tomate=11.11", "new 2026-12-07 melon=1 tomate=11.11", "new 2026-12-10 melon=1 tomate=11.11",
				"new 2026-12-14 melon=1 tomate=11.11", "new 2026-12-17 melon=1 tomate=11.11", "new 2026-12-21 melon=1 tomate=11.11",
				"new 2026-12-24 melon=1 tomate=11.11", "new 2026-12-28 melon=1 tomate=11.11", "new 2026-12-31 melon=2 tomate=11.12",
			},
		},
		{
			name: "fewer pieces than deliveries: all on the last, the others keep their kilograms",
			// 3 pieces / 4 = 0 each, 3 on the last; 4 kg / 4 = 1 kg each.
			month: "2026-12-01", days: "1001000", now: nov20,
			commitments: []string{"melon=3 un", "tomate=4 kg"},
			deliveries:  four,
			want: []string{
				"keep d1 2026-12-03 tomate=1", "keep d2 2026-12-07 tomate=1", "keep d3 2026-12-10 tomate=1",
				"keep d4 2026-12-14 melon=3 tomate=1",
			},
		},
		{
			name: "fewer hundredths than deliveries: a delivery left without any line goes",
			// 0.03 kg / 4 = 0, 0.03 on the last.
			month: "2026-12-01", days: "1001000", now: nov20,
			commitments: []string{"tomate=0.03 kg"},
			deliveries:  four,
			want:        []string{"keep d4 2026-12-14 tomate=0.03", "delete d1", "delete d2", "delete d3"},
		},
		{
			name: "a correction: done counts what was sent, today's delivery stays as it is, the rest is shared",
			// tomato: 90 − (10 sent + 13.33 + 13.33 of today) = 53.34 over
			// 6 = 8.89 each; melon: 10 − 3 = 7 over 6 = 1 each, 2 last.
			month: "2026-12-01", days: "1001000", now: dec10,
			commitments: []string{"tomate=90 kg", "melon=10 un"},
			deliveries:  december,
			want: []string{
				"keep d4 2026-12-14 melon=1 tomate=8.89", "keep d5 2026-12-17 melon=1 tomate=8.89", "keep d6 2026-12-21 melon=1 tomate=8.89",
				"keep d7 2026-12-24 melon=1 tomate=8.89", "keep d8 2026-12-28 melon=1 tomate=8.89", "keep d9 2026-12-31 melon=2 tomate=8.89",
			},
		},
		{
			name: "new delivery days: the deliveries to come move to them in date order, the ones left over go",
			// Tuesdays after 10 December: 15, 22, 29. tomato 53.34 / 3 =
			// 17.78; melon 7 / 3 = 2, 3 last.
			month: "2026-12-01", days: "0100000", now: dec10, newDays: true,
			commitments: []string{"tomate=90 kg", "melon=10 un"},
			deliveries:  december,
			want: []string{
				"move d4 2026-12-14>2026-12-15 melon=2 tomate=17.78", "move d5 2026-12-17>2026-12-22 melon=2 tomate=17.78",
				"move d6 2026-12-21>2026-12-29 melon=3 tomate=17.78", "delete d7", "delete d8", "delete d9",
			},
		},
		{
			name: "new delivery days with more dates than deliveries: new ones are created",
			// Tuesdays and Fridays of December: 1, 4, 8, 11, 15, 18, 22,
			// 25, 29. 10 kg / 9 = 1.11, 1.12 last.
			month: "2026-12-01", days: "0100100", now: nov20, newDays: true,
			commitments: []string{"tomate=10 kg"},
			deliveries: []dl{
				{"d1", orders.Planned, "2026-12-03", []string{"tomate=5"}},
				{"d2", orders.Planned, "2026-12-07", []string{"tomate=5"}},
			},
			want: []string{
				"move d1 2026-12-03>2026-12-01 tomate=1.11", "move d2 2026-12-07>2026-12-04 tomate=1.11",
				"new 2026-12-08 tomate=1.11", "new 2026-12-11 tomate=1.11", "new 2026-12-15 tomate=1.11", "new 2026-12-18 tomate=1.11",
				"new 2026-12-22 tomate=1.11", "new 2026-12-25 tomate=1.11", "new 2026-12-29 tomate=1.12",
			},
		},
		{
			name: "the same delivery days: the deliveries to come keep the dates the shop gave them",
			// 30 kg / 2 = 15; the 5th is a Saturday.
			month: "2026-12-01", days: "1001000", now: nov20,
			commitments: []string{"tomate=30 kg"},
			deliveries: []dl{
				{"d1", orders.Planned, "2026-12-05", []string{"tomate=10"}},
				{"d2", orders.Planned, "2026-12-07", []string{"tomate=10"}},
			},
			want: []string{"keep d1 2026-12-05 tomate=15", "keep d2 2026-12-07 tomate=15"},
		},
		{
			name: "a cancelled delivery stays declined: its quantity is not planned again",
			// 120 − 10 cancelled = 110 over the 8 others = 13.75.
			month: "2026-12-01", days: "1001000", now: nov20,
			commitments: []string{"tomate=120 kg"},
			deliveries: []dl{
				{"d1", orders.Planned, "2026-12-03", []string{"tomate=10"}},
				{"d2", orders.Planned, "2026-12-07", []string{"tomate=10"}},
				{"d3", orders.Cancelled, "2026-12-10", []string{"tomate=10"}},
				{"d4", orders.Planned, "2026-12-14", []string{"tomate=10"}},
				{"d5", orders.Planned, "2026-12-17", []string{"tomate=10"}},
				{"d6", orders.Planned, "2026-12-21", []string{"tomate=10"}},
				{"d7", orders.Planned, "2026-12-24", []string{"tomate=10"}},
				{"d8", orders.Planned, "2026-12-28", []string{"tomate=10"}},
				{"d9", orders.Planned, "2026-12-31", []string{"tomate=10"}},
			},
			want: []string{
				"keep d1 2026-12-03 tomate=13.75", "keep d2 2026-12-07 tomate=13.75", "keep d4 2026-12-14 tomate=13.75",
				"keep d5 2026-12-17 tomate=13.75", "keep d6 2026-12-21 tomate=13.75", "keep d7 2026-12-24 tomate=13.75",
				"keep d8 2026-12-28 tomate=13.75", "keep d9 2026-12-31 tomate=13.75",
			},
		},
		{
			name: "a commitment raised once every delivery is done: new deliveries from tomorrow",
			// 40 − 10 done = 30 over the 6 Mondays and Thursdays after
			// 10 December (14, 17, 21, 24, 28, 31) = 5.
			month: "2026-12-01", days: "1001000", now: dec10,
			commitments: []string{"tomate=40 kg"},
			deliveries:  []dl{{"d1", orders.Done, "2026-12-03", []string{"tomate=10"}}},
			want: []string{
				"new 2026-12-14 tomate=5", "new 2026-12-17 tomate=5", "new 2026-12-21 tomate=5",
				"new 2026-12-24 tomate=5", "new 2026-12-28 tomate=5", "new 2026-12-31 tomate=5",
			},
		},
		{
			name: "a commitment lowered under what is done: its product leaves the deliveries to come",
			// tomato 8 < 10 sent: nothing left to plan; melon 5 − 1 = 4.
			month: "2026-12-01", days: "1001000", now: dec10,
			commitments: []string{"tomate=8 kg", "melon=5 un"},
			deliveries: []dl{
				{"d1", orders.Done, "2026-12-03", []string{"melon=1", "tomate=13.33/10"}},
				{"d2", orders.Planned, "2026-12-14", []string{"melon=1", "tomate=13.33"}},
			},
			want: []string{"keep d2 2026-12-14 melon=4"},
		},
		{
			name:  "every commitment covered by what is done: the deliveries to come go, the order stays",
			month: "2026-12-01", days: "1001000", now: dec10,
			commitments: []string{"tomate=10 kg"},
			deliveries: []dl{
				{"d1", orders.Done, "2026-12-03", []string{"tomate=13.33/10"}},
				{"d2", orders.Planned, "2026-12-14", []string{"tomate=13.33"}},
			},
			want: []string{"delete d2"},
		},
		{
			name:  "the last commitment ended: the deliveries to come go, the order stays for what is done",
			month: "2026-12-01", days: "1001000", now: dec10,
			deliveries: []dl{
				{"d1", orders.Done, "2026-12-03", []string{"tomate=10"}},
				{"d2", orders.Planned, "2026-12-14", []string{"tomate=10"}},
				{"d3", orders.Planned, "2026-12-17", []string{"tomate=10"}},
			},
			want: []string{"delete d2", "delete d3"},
		},
		{
			name:  "the last commitment ended before any delivery: the order goes",
			month: "2027-01-01", days: "1001000", now: dec10,
			deliveries: []dl{
				{"d1", orders.Planned, "2027-01-04", []string{"tomate=5"}},
				{"d2", orders.Planned, "2027-01-07", []string{"tomate=5"}},
			},
			want: []string{"delete d1", "delete d2", "delete order"},
		},
		{
			name:  "an order without commitment nor delivery goes",
			month: "2027-01-01", days: "1001000", now: dec10,
			want: []string{"delete order"},
		},
		{
			name: "no delivery day left in the month: the next one carries everything",
			// Monday 30 November, delivering on Tuesdays and Fridays.
			month: "2026-11-01", days: "0100100", now: at(2026, 11, 30, 10),
			commitments: []string{"courgette=30 kg"},
			want:        []string{"new 2026-12-01 courgette=30"},
		},
		{
			name:  "no delivery day left in the month, new days: the delivery moves to the new next one",
			month: "2026-11-01", days: "0010000", now: at(2026, 11, 30, 10), newDays: true,
			commitments: []string{"courgette=30 kg"},
			deliveries:  []dl{{"d1", orders.Planned, "2026-12-01", []string{"courgette=30"}}},
			want:        []string{"move d1 2026-12-01>2026-12-02 courgette=30"},
		},
		{
			name: "no delivery day at all: nothing can be planned, the deliveries to come go",
			// The profile rules (PRODUCT §5) keep a producer from it.
			month: "2026-12-01", days: "0000000", now: nov20, newDays: true,
			commitments: []string{"tomate=20 kg"},
			deliveries: []dl{
				{"d1", orders.Planned, "2026-12-03", []string{"tomate=10"}},
				{"d2", orders.Planned, "2026-12-07", []string{"tomate=10"}},
			},
			want: []string{"delete d1", "delete d2"},
		},
		{
			name:  "a re-plan of a planned order plans the same",
			month: "2026-12-01", days: "1001000", now: nov20,
			commitments: []string{"tomate=20 kg"},
			deliveries: []dl{
				{"d2", orders.Planned, "2026-12-07", []string{"tomate=10"}},
				{"d1", orders.Planned, "2026-12-03", []string{"tomate=10"}},
			},
			want: []string{"keep d1 2026-12-03 tomate=10", "keep d2 2026-12-07 tomate=10"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := trade.PlanInput{Month: tt.month, Days: weekdays(tt.days), Now: tt.now, NewDays: tt.newDays,
				Commitments: commitments(t, tt.commitments...)}
			for i, d := range tt.deliveries {
				in.Deliveries = append(in.Deliveries, d.full(t, int64(i+1)))
			}
			p := trade.PlanOrder(in)
			if got := describe(p); !slices.Equal(got, tt.want) {
				t.Fatalf("plan:\n got %q\nwant %q", got, tt.want)
			}
			// Every line comes from its product's commitment, and what is
			// fixed plus what is planned equals each commitment, or what is
			// fixed when that is more (without a delivery day nothing is
			// planned).
			byProduct := map[string]trade.Commitment{}
			for _, c := range in.Commitments {
				byProduct[c.ProductID] = c
			}
			fixed, planned := map[string]decimal.Dec{}, map[string]decimal.Dec{}
			for _, d := range in.Deliveries {
				if d.Status == orders.Planned && trade.Replannable(d.Date, tt.now) {
					continue
				}
				for _, l := range d.Lines {
					if d.Status == orders.Done {
						fixed[l.ProductID] += l.Sent()
					} else {
						fixed[l.ProductID] += l.QuantityExpected
					}
				}
			}
			for _, d := range p.Deliveries {
				for _, l := range d.Lines {
					if c := byProduct[l.ProductID]; l.NeedID != c.NeedID || l.Price != c.Price {
						t.Fatalf("line %+v, from commitment %+v", l, c)
					}
					planned[l.ProductID] += l.Quantity
				}
			}
			for _, c := range in.Commitments {
				got, want := fixed[c.ProductID]+planned[c.ProductID], max(c.Quantity, fixed[c.ProductID])
				if got != want && tt.days != "0000000" {
					t.Fatalf("%s: %v fixed + %v planned for a commitment of %v", c.ProductID, fixed[c.ProductID], planned[c.ProductID], c.Quantity)
				}
			}
		})
	}
}
