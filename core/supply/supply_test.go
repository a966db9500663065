package supply

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	"primeur/core/calendar"
	"primeur/core/decimal"
)

func date(t testing.TB, s string) calendar.Date {
	t.Helper()
	d, ok := calendar.ParseDate(s)
	if !ok {
		t.Fatalf("bad date %q", s)
	}
	return d
}

func dec(f float64) decimal.Dec { return decimal.Round(f) }

func sent(f float64) *decimal.Dec { d := dec(f); return &d }

var tomato = Product{ID: "tomate", Name: "Tomate", Unit: "kg"}

// dayWant is the hand-computed expectation of one cell.
type dayWant struct {
	need, delivered, morning float64
	risk                     int
	order, baseline          float64
}

func checkDays(t *testing.T, p ProductProjection, want []dayWant) {
	t.Helper()
	if len(p.Days) != len(want) {
		t.Fatalf("%s: %d days, want %d", p.Product, len(p.Days), len(want))
	}
	for i, w := range want {
		d := p.Days[i]
		if d.Need != dec(w.need) || d.Delivered != dec(w.delivered) || d.MorningStock != dec(w.morning) ||
			d.Current != d.MorningStock || d.Risk != w.risk || d.ProposedOrder != dec(w.order) || d.Baseline != dec(w.baseline) {
			t.Errorf("%s %s: need %v delivered %v morning %v (current %v) risk %d order %v baseline %v; want %+v",
				p.Product, d.Date, d.Need, d.Delivered, d.MorningStock, d.Current, d.Risk, d.ProposedOrder, d.Baseline, w)
		}
	}
}

// The cases below are computed by hand in their comments. November 2026 has
// 25 non-Sunday days (Sundays 1, 8, 15, 22, 29), December 2026 has 27
// (Sundays 6, 13, 20, 27).
func TestProjectHandComputed(t *testing.T) {
	tests := []struct {
		name       string
		start      string
		days       int
		today      string
		needs      []Need
		deliveries []Delivery
		avg        float64
		last7      float64
		atRisk     bool
		want       []dayWant
		has        bool
	}{
		{
			// need = 250 / 25 = 10 a day. Nothing is ever delivered: every
			// morning is 0, available 0 < 10 → risk 2; the order is
			// 0 (morning 0) + need(d+1) 10 − 0 = 10, Friday's included
			// (Saturday the 21st needs 10). Average: 17 non-Sunday days
			// from Nov 2 to Nov 20 (Sundays 8 and 15), all 10 → 10.
			// At risk: 0 delivered from Nov 13 to 19 < 7 × 10.
			name: "no delivery", start: "2026-11-16", days: 5, today: "2026-11-20",
			needs: []Need{{"tomate", "2026-11-01", dec(250)}},
			avg:   10, last7: 0, atRisk: true,
			want: []dayWant{
				{10, 0, 0, 2, 10, 0}, {10, 0, 0, 2, 10, 0}, {10, 0, 0, 2, 10, 0}, {10, 0, 0, 2, 10, 0}, {10, 0, 0, 2, 10, 0},
			},
		},
		{
			// need 10 a day. Look-back from Nov 2: 0 until Thursday 12,
			// which brings 30 (done: sent 30, not the expected 32):
			// morning(13) = 30 − 10 = 20, (14) = 10, (15) = 0 (Saturday
			// eats 10), (16) = 0 (Sunday needs nothing).
			// Mon 16: morning 0 + 25.5 (planned: the expected quantity,
			//   not the 99 typed as sent) ≥ 10 → risk 0;
			//   order = 0 + 10 − 0 − 25.5 − 0 < 0 → 0; morning(17) = round(15.5) = 16.
			// Tue 17: the 100 cancelled count for nothing; 16 ≥ 10 → 0;
			//   order = 10 + 10 − 16 − 0 − 0 = 4; morning(18) = 6.
			// Wed 18: 6 < 10, > 0 → risk 1; order = 10 + 10 − 6 − 0 − 25.25 < 0 → 0;
			//   morning(19) = max(0, −4) = 0.
			// Thu 19: 0 + 20 + 5.25 ≥ 10 → 0; order = 0 + 10 − 25.25 < 0 → 0;
			//   morning(20) = round(15.25) = 15.
			// Fri 20: 15 ≥ 10 → 0; order = 10 + 10 (Saturday) − 15 = 5.
			// Baseline (no delivery from the 16th): 0 every morning.
			// Average 10 (as above). Last 7 days (13–19): 25.5 + 25.25 =
			// 50.75 < 70 → at risk.
			name: "deliveries by several producers", start: "2026-11-16", days: 5, today: "2026-11-20",
			needs: []Need{{"tomate", "2026-11-01", dec(250)}},
			deliveries: []Delivery{
				{ProductID: "tomate", ProducerID: "a", Date: date(t, "2026-11-12"), Status: Done, Expected: dec(32), Sent: sent(30)},
				{ProductID: "tomate", ProducerID: "b", Date: date(t, "2026-11-16"), Status: Planned, Expected: dec(25.5), Sent: sent(99)},
				{ProductID: "tomate", ProducerID: "a", Date: date(t, "2026-11-17"), Status: Cancelled, Expected: dec(100)},
				{ProductID: "tomate", ProducerID: "a", Date: date(t, "2026-11-19"), Status: Planned, Expected: dec(20)},
				{ProductID: "tomate", ProducerID: "b", Date: date(t, "2026-11-19"), Status: Planned, Expected: dec(5.25)},
			},
			avg: 10, last7: 50.75, atRisk: true, has: true,
			want: []dayWant{
				{10, 25.5, 0, 0, 0, 0}, {10, 0, 16, 0, 4, 0}, {10, 0, 6, 1, 0, 0}, {10, 25.25, 0, 0, 0, 0}, {10, 0, 15, 0, 5, 0},
			},
		},
		{
			// A window over two months: November 10 a day, December
			// 540 / 27 = 20 a day. Look-back from Nov 16 has no delivery.
			// Mon Nov 30: 0 → risk 2; order = 0 + 20 (Dec 1) − 50 (Dec 1) < 0 → 0.
			// Tue Dec 1: 0 + 50 ≥ 20 → 0; order = 0 + 20 − 50 < 0 → 0; morning(2) = 30.
			// Wed 2: 30 ≥ 20 → 0; order = 20 + 20 − 30 = 10; morning(3) = 10.
			// Thu 3: 10 < 20 → 1; order = 20 + 20 − 10 = 30; morning(4) = 0.
			// Fri 4: 0 → 2; order = 0 + 20 (Saturday 5) = 20.
			// Baseline: 0 throughout (the only delivery is in the window).
			// Average: Nov 16–30 has 13 non-Sunday days (22, 29 off) at
			// 10, Dec 1–4 has 4 at 20: 210 / 17 = 12.3529… → 12.35.
			// Last 7 days before Dec 3 (Nov 26 – Dec 2): 50 < 86.47 → at risk.
			name: "window across a month boundary", start: "2026-11-30", days: 5, today: "2026-12-03",
			needs: []Need{{"tomate", "2026-11-01", dec(250)}, {"tomate", "2026-12-01", dec(540)}, {"tomate", "2027-01-01", dec(9999)}},
			deliveries: []Delivery{
				{ProductID: "tomate", ProducerID: "a", Date: date(t, "2026-12-01"), Status: Planned, Expected: dec(50)},
			},
			avg: 12.35, last7: 50, atRisk: true, has: true,
			want: []dayWant{
				{10, 0, 0, 2, 0, 0}, {20, 50, 0, 0, 0, 0}, {20, 0, 30, 0, 10, 0}, {20, 0, 10, 1, 30, 0}, {20, 0, 0, 2, 20, 0},
			},
		},
		{
			// December only: 100 / 27 = 3.7037… a day; no November need.
			// Done on Tue Dec 1 with no sent quantity recorded: the
			// expected 20 counts. morning(2) = round(20 − 3.7037) = 16,
			// (3) = round(12.2963) = 12, (4) = 8, (5) = 4, (6) = round(0.2963) = 0,
			// (7) = 0 (Sunday).
			// Mon 7 to Fri 11: morning 0 → risk 2, order = 3.7037 → 3.70.
			// Average: Nov 23–30 has 7 non-Sunday days at 0, Dec 1–11 has 10
			// at 3.7037: 1000/27 / 17 = 2.1786… → 2.18.
			// Last 7 days before Dec 7 (Nov 30 – Dec 6): 20 ≥ 7 × 2.1786 = 15.25 → not at risk.
			name: "uneven daily need and rounding", start: "2026-12-07", days: 5, today: "2026-12-07",
			needs: []Need{{"tomate", "2026-12-01", dec(100)}},
			deliveries: []Delivery{
				{ProductID: "tomate", ProducerID: "a", Date: date(t, "2026-12-01"), Status: Done, Expected: dec(20)},
			},
			avg: 2.18, last7: 20, atRisk: false,
			want: []dayWant{
				{3.70, 0, 0, 2, 3.70, 0}, {3.70, 0, 0, 2, 3.70, 0}, {3.70, 0, 0, 2, 3.70, 0}, {3.70, 0, 0, 2, 3.70, 0}, {3.70, 0, 0, 2, 3.70, 0},
			},
		},
		{
			// Saturdays and Sundays. need 10 on working days. Window Thu
			// Nov 19 – Mon 23, look-back from Nov 5.
			// Delivery of 35 on Thu 19: 0 + 35 ≥ 10 → 0; order = 0 + 10 − 35 < 0 → 0; morning(20) = 25.
			// Fri 20: 25 → 0; order = 10 + 10 − 25 < 0 → 0; morning(21) = 15.
			// Sat 21: 15 ≥ 10, and Saturdays are 0 anyway; order = 10 + 0 (Sunday) − 15 < 0 → 0; morning(22) = 5.
			// Sun 22: need 0 → 0; order = 5 > 0 so + 0, + 10 (Monday) − 5 = 5; morning(23) = 5.
			// Mon 23: 5 < 10 → 1; order = 10 + 10 − 5 = 15.
			// Baseline: 0 in the morning of the 19th and after.
			// Average: Nov 5–23 has 16 non-Sunday days (8, 15, 22 off), all 10 → 10.
			name: "weekend", start: "2026-11-19", days: 5, today: "2026-11-19",
			needs: []Need{{"tomate", "2026-11-01", dec(250)}},
			deliveries: []Delivery{
				{ProductID: "tomate", ProducerID: "a", Date: date(t, "2026-11-19"), Status: Planned, Expected: dec(35)},
			},
			avg: 10, last7: 0, atRisk: true, has: true,
			want: []dayWant{
				{10, 35, 0, 0, 0, 0}, {10, 0, 25, 0, 0, 0}, {10, 0, 15, 0, 0, 0}, {0, 0, 5, 0, 5, 0}, {10, 0, 5, 1, 15, 0},
			},
		},
		{
			// A Saturday with nothing in stock is still risk 0. Window Sat
			// Nov 14 – Sun 15, no delivery, need 10: Saturday 0 (rule),
			// Sunday 0 (need 0 ≤ 0 available). Orders: Saturday 0 + 0
			// (Sunday) = 0, Sunday 0 + 10 (Monday) = 10.
			// Average: Oct 31 – Nov 15 has 13 non-Sunday days (Nov 1, 8, 15
			// off); October has no need here, so Oct 31 is at 0 and Nov 2–14
			// gives 12 days at 10: 120 / 13 = 9.2307… → 9.23.
			name: "empty Saturday", start: "2026-11-14", days: 2, today: "2026-11-14",
			needs: []Need{{"tomate", "2026-11-01", dec(250)}},
			avg:   9.23, last7: 0, atRisk: true,
			want: []dayWant{{10, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 10, 0}},
		},
		{
			// Exact arithmetic: 7.5 / 25 = 0.3 a day. 2.8 delivered on
			// Mon 2 (look-back): morning(3) = round(2.8 − 0.3) = round(2.5)
			// = 3 (half up; floating point would give 2.4999… → 2).
			// Window Tue 3 – Wed 4: Tue 3 ≥ 0.3 → 0, order = 0.3 + 0.3 − 3 < 0 → 0,
			// morning(4) = round(2.7) = 3; Wed 4 the same.
			// Baseline = current: no delivery inside the window.
			// Average: Oct 20 – Nov 4: 14 non-Sunday days, October without
			// need, Nov 2–4 three days at 0.3: 0.9 / 14 = 0.0643 → 0.06.
			// Last 7 days before Nov 4 (Oct 28 – Nov 3): 2.8 ≥ 7 × 0.0643 → not at risk.
			name: "exact half rounding", start: "2026-11-03", days: 2, today: "2026-11-04",
			needs: []Need{{"tomate", "2026-11-01", dec(7.5)}},
			deliveries: []Delivery{
				{ProductID: "tomate", ProducerID: "a", Date: date(t, "2026-11-02"), Status: Done, Expected: dec(2.8), Sent: sent(2.8)},
			},
			avg: 0.06, last7: 2.8, atRisk: false,
			want: []dayWant{{0.3, 0, 3, 0, 0, 3}, {0.3, 0, 3, 0, 0, 3}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Project(Input{
				Window: Window{Start: date(t, tt.start), Days: tt.days}, Today: date(t, tt.today),
				Products: []Product{tomato}, Needs: tt.needs, Deliveries: tt.deliveries,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Products) != 1 || p.Products[0].Name != "Tomate" || p.Products[0].Unit != "kg" {
				t.Fatalf("products = %+v", p.Products)
			}
			got := p.Products[0]
			if got.AverageDailySales != dec(tt.avg) || got.DeliveredLast7Days != dec(tt.last7) || got.AtRisk != tt.atRisk {
				t.Errorf("average %v, last 7 days %v, at risk %v; want %v, %v, %v", got.AverageDailySales, got.DeliveredLast7Days, got.AtRisk, tt.avg, tt.last7, tt.atRisk)
			}
			if p.HasDeliveries != tt.has {
				t.Errorf("hasDeliveries = %v", p.HasDeliveries)
			}
			if p.Start != tt.start || len(p.Dates) != tt.days || p.Dates[0] != tt.start || p.End != p.Dates[tt.days-1] || p.Today != tt.today {
				t.Errorf("window %s–%s %v today %s", p.Start, p.End, p.Dates, p.Today)
			}
			checkDays(t, got, tt.want)
		})
	}
}

func TestProducersOfADay(t *testing.T) {
	// Two producers on Thursday the 19th, one of them twice (two lines
	// of two deliveries); Wednesday's next-day list shows the same.
	p, err := Project(Input{
		Window: Window{Start: date(t, "2026-11-16"), Days: 5}, Today: date(t, "2026-11-20"),
		Products: []Product{tomato},
		Needs:    []Need{{"tomate", "2026-11-01", dec(250)}},
		Deliveries: []Delivery{
			{ProductID: "tomate", ProducerID: "b", Date: date(t, "2026-11-19"), Status: Planned, Expected: dec(5.25)},
			{ProductID: "tomate", ProducerID: "a", Date: date(t, "2026-11-19"), Status: Planned, Expected: dec(12)},
			{ProductID: "tomate", ProducerID: "a", Date: date(t, "2026-11-19"), Status: Planned, Expected: dec(8)},
			{ProductID: "tomate", ProducerID: "c", Date: date(t, "2026-11-19"), Status: Cancelled, Expected: dec(8)},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	wed, thu := p.Products[0].Days[2], p.Products[0].Days[3]
	want := []Incoming{{"a", dec(20)}, {"b", dec(5.25)}}
	if !reflect.DeepEqual(thu.Deliveries, want) || !reflect.DeepEqual(wed.NextDeliveries, want) || thu.Delivered != dec(25.25) {
		t.Fatalf("thursday %+v, wednesday's next %+v", thu.Deliveries, wed.NextDeliveries)
	}
	if wed.NextDate != "2026-11-19" || wed.NextNeed != dec(10) || len(wed.Deliveries) != 0 || wed.Deliveries == nil {
		t.Fatalf("wednesday = %+v", wed)
	}
}

func TestRowsAndOrder(t *testing.T) {
	p, err := Project(Input{
		Window: Window{Start: date(t, "2026-11-16"), Days: 3}, Today: date(t, "2026-11-16"),
		Products: []Product{
			{ID: "poire", Name: "Poire", Unit: "kg"}, {ID: "ail", Name: "Ail", Unit: "kg"},
			{ID: "echalote", Name: "Échalote", Unit: "kg"}, {ID: "melon", Name: "Melon", Unit: "un"},
		},
		Needs: []Need{
			{"poire", "2026-11-01", dec(10)},
			{"echalote", "2026-11-01", dec(10)},
			{"melon", "2027-03-01", dec(10)}, // no need in the simulated months: no row
		},
		Deliveries: []Delivery{
			{ProductID: "ail", ProducerID: "a", Date: date(t, "2026-11-10"), Status: Done, Expected: dec(3)},        // delivered in the look-back: a row
			{ProductID: "melon", ProducerID: "a", Date: date(t, "2026-10-01"), Status: Done, Expected: dec(3)},      // long before: no row
			{ProductID: "inconnu", ProducerID: "a", Date: date(t, "2026-11-17"), Status: Planned, Expected: dec(3)}, // not in Products: named by id
			{ProductID: "chou", ProducerID: "a", Date: date(t, "2026-11-17"), Status: Cancelled, Expected: dec(3)},  // cancelled: no row
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range p.Products {
		names = append(names, r.Name)
	}
	if strings.Join(names, ",") != "Ail,Échalote,inconnu,Poire" {
		t.Fatalf("rows = %v", names)
	}
	if p.Products[0].AverageDailySales != 0 || p.Products[0].AtRisk || p.Products[0].Days[0].MorningStock != dec(3) {
		t.Fatalf("ail = %+v", p.Products[0])
	}
}

func TestProjectRefusesBadInput(t *testing.T) {
	ok := Input{Window: Window{Start: date(t, "2026-11-16"), Days: 5}, Today: date(t, "2026-11-16")}
	for _, tt := range []struct {
		name string
		edit func(*Input)
	}{
		{"no day", func(in *Input) { in.Window.Days = 0 }},
		{"too many days", func(in *Input) { in.Window.Days = MaxDays + 1 }},
		{"two needs for one month", func(in *Input) {
			in.Needs = []Need{{"tomate", "2026-11-01", 1}, {"tomate", "2026-11-01", 2}}
		}},
		{"need not on a month", func(in *Input) { in.Needs = []Need{{"tomate", "2026-11-02", 1}} }},
		{"unknown status", func(in *Input) {
			in.Deliveries = []Delivery{{ProductID: "tomate", Date: date(t, "2026-11-16"), Status: "lost"}}
		}},
	} {
		in := ok
		tt.edit(&in)
		if _, err := Project(in); err == nil {
			t.Errorf("%s: accepted", tt.name)
		}
	}
	in := ok
	in.Window.Days = MaxDays
	if _, err := Project(in); err != nil {
		t.Fatal(err)
	}
}

func TestAtRiskBoundary(t *testing.T) {
	// need 10 a day, average 10 (window Nov 16–20): the flag is strict,
	// 70 delivered in the 7 days before today is enough, 69.99 is not.
	for _, tt := range []struct {
		delivered float64
		atRisk    bool
	}{{70, false}, {69.99, true}, {0, true}, {200, false}} {
		p, err := Project(Input{
			Window: Window{Start: date(t, "2026-11-16"), Days: 5}, Today: date(t, "2026-11-20"),
			Needs: []Need{{"tomate", "2026-11-01", dec(250)}},
			Deliveries: []Delivery{
				{ProductID: "tomate", ProducerID: "a", Date: date(t, "2026-11-13"), Status: Done, Expected: dec(tt.delivered)},
				{ProductID: "tomate", ProducerID: "a", Date: date(t, "2026-11-12"), Status: Done, Expected: dec(500)},    // 8 days before: outside
				{ProductID: "tomate", ProducerID: "a", Date: date(t, "2026-11-20"), Status: Planned, Expected: dec(500)}, // today: outside
				{ProductID: "tomate", ProducerID: "a", Date: date(t, "2026-11-14"), Status: Cancelled, Expected: dec(500)},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Products[0]; got.AtRisk != tt.atRisk || got.DeliveredLast7Days != dec(tt.delivered) {
			t.Errorf("%v delivered: at risk %v (%v)", tt.delivered, got.AtRisk, got.DeliveredLast7Days)
		}
	}
}

// randomInput builds a shop with a few products, needs over four months and
// deliveries of every status around a random window.
func randomInput(r *rand.Rand) Input {
	start := calendar.Date(20_400 + r.Intn(400)) // 2025-11 to 2026-12
	in := Input{
		Window: Window{Start: start, Days: 1 + r.Intn(MaxDays)},
		Today:  start.AddDays(r.Intn(30) - 15),
	}
	ids := []string{"a", "b", "c"}
	for _, id := range ids {
		in.Products = append(in.Products, Product{ID: id, Name: strings.ToUpper(id), Unit: "kg"})
		first := start.AddDays(-40).Month()
		for m := first; m < first+4; m++ {
			if r.Intn(4) > 0 {
				in.Needs = append(in.Needs, Need{ProductID: id, Month: m.String(), Quantity: decimal.Dec(r.Int63n(500_00))})
			}
		}
	}
	statuses := []string{Planned, Done, Cancelled}
	for n := r.Intn(40); n > 0; n-- {
		d := Delivery{
			ProductID: ids[r.Intn(len(ids))], ProducerID: ids[r.Intn(len(ids))],
			Date:   start.AddDays(r.Intn(LookBack+MaxDays+20) - LookBack - 10),
			Status: statuses[r.Intn(3)], Expected: decimal.Dec(r.Int63n(60_00)),
		}
		if r.Intn(2) == 0 {
			s := decimal.Dec(r.Int63n(60_00))
			d.Sent = &s
		}
		in.Deliveries = append(in.Deliveries, d)
	}
	return in
}

func TestProperties(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for n := 0; n < 500; n++ {
		in := randomInput(r)
		p, err := Project(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range p.Products {
			for _, d := range row.Days {
				day, _ := calendar.ParseDate(d.Date)
				if d.MorningStock < 0 || d.Baseline < 0 || d.ProposedOrder < 0 || d.Need < 0 || !d.MorningStock.IsWhole() || !d.Baseline.IsWhole() {
					t.Fatalf("case %d %s %s: negative or fractional figures %+v", n, row.Product, d.Date, d)
				}
				if d.Baseline > d.Current {
					t.Fatalf("case %d %s %s: baseline %v above current %v", n, row.Product, d.Date, d.Baseline, d.Current)
				}
				if d.Risk < RiskNone || d.Risk > RiskEmpty || (day.Weekday() == time.Saturday && d.Risk != RiskNone) ||
					(day.Weekday() == time.Sunday && (d.Need != 0 || d.Risk != RiskNone)) {
					t.Fatalf("case %d %s %s: risk %d need %v", n, row.Product, d.Date, d.Risk, d.Need)
				}
			}
		}

		// Adding a delivery never raises a risk level nor lowers a stock.
		more := in
		more.Deliveries = append(append([]Delivery{}, in.Deliveries...), Delivery{
			ProductID: in.Products[r.Intn(3)].ID, ProducerID: "x",
			Date:   in.Window.Start.AddDays(r.Intn(LookBack+in.Window.Days+1) - LookBack),
			Status: []string{Planned, Done}[r.Intn(2)], Expected: decimal.Dec(1 + r.Int63n(40_00)),
		})
		q, err := Project(more)
		if err != nil {
			t.Fatal(err)
		}
		before := map[string]ProductProjection{}
		for _, row := range p.Products {
			before[row.Product] = row
		}
		for _, row := range q.Products {
			old, ok := before[row.Product]
			if !ok {
				continue // the delivery made the row: nothing to compare
			}
			for i, d := range row.Days {
				if d.Risk > old.Days[i].Risk || d.MorningStock < old.Days[i].MorningStock {
					t.Fatalf("case %d %s %s: risk %d→%d, stock %v→%v after adding a delivery",
						n, row.Product, d.Date, old.Days[i].Risk, d.Risk, old.Days[i].MorningStock, d.MorningStock)
				}
			}
		}

		// A cancelled delivery changes nothing, and the order of the
		// input does not matter.
		same := in
		same.Deliveries = append([]Delivery{{ProductID: "a", ProducerID: "x", Date: in.Window.Start, Status: Cancelled, Expected: 100_00}}, in.Deliveries...)
		r.Shuffle(len(same.Deliveries), func(i, j int) { same.Deliveries[i], same.Deliveries[j] = same.Deliveries[j], same.Deliveries[i] })
		same.Needs = append([]Need{}, in.Needs...)
		r.Shuffle(len(same.Needs), func(i, j int) { same.Needs[i], same.Needs[j] = same.Needs[j], same.Needs[i] })
		s, err := Project(same)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(s, p) {
			t.Fatalf("case %d: a cancelled delivery or the input order changed the projection", n)
		}
	}
}

func TestHugeQuantitiesSaturate(t *testing.T) {
	// Absurd stored quantities must not overflow into negative stock.
	in := Input{Window: Window{Start: date(t, "2026-11-16"), Days: MaxDays}, Today: date(t, "2026-12-01"),
		Needs: []Need{{"tomate", "2026-11-01", 1 << 62}}}
	for d := -LookBack; d <= MaxDays; d++ {
		for k := 0; k < 50; k++ {
			in.Deliveries = append(in.Deliveries, Delivery{ProductID: "tomate", ProducerID: "a",
				Date: date(t, "2026-11-16").AddDays(d), Status: Planned, Expected: 1 << 62})
		}
	}
	p, err := Project(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range p.Products[0].Days {
		if d.MorningStock < 0 || d.ProposedOrder < 0 || d.Baseline < 0 || d.Delivered < 0 {
			t.Fatalf("overflow: %+v", d)
		}
	}
}
