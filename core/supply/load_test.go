package supply_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/supply"
	"primeur/core/trade/tradetest"
)

// countingQ counts the queries run through it.
type countingQ struct {
	store.Q
	n int
}

func (c *countingQ) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	c.n++
	return c.Q.QueryContext(ctx, q, args...)
}

func (c *countingQ) QueryxContext(ctx context.Context, q string, args ...any) (*sqlx.Rows, error) {
	c.n++
	return c.Q.QueryxContext(ctx, q, args...)
}

func (c *countingQ) QueryRowxContext(ctx context.Context, q string, args ...any) *sqlx.Row {
	c.n++
	return c.Q.QueryRowxContext(ctx, q, args...)
}

func day(t *testing.T, s string) calendar.Date {
	t.Helper()
	d, ok := calendar.ParseDate(s)
	if !ok {
		t.Fatalf("bad date %s", s)
	}
	return d
}

func TestLoad(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
		mk := func(email, name string, shop bool) accounts.User {
			u, err := accounts.Register(ctx, db, accounts.Registration{Email: email, Password: "motdepasse1", Name: name, Distributor: shop}, now)
			if err != nil {
				t.Fatal(err)
			}
			return u
		}
		shop, other := mk("shop@x.fr", "Épicerie", true), mk("other@x.fr", "Autre", true)
		saules, alpage := mk("saules@x.fr", "Ferme des Saules", false), mk("alpage@x.fr", "Alpage", false)
		w := tradetest.On(t, db)
		w.Need(shop.ID, "tomate", "2026-11-01", 25000)
		w.Need(shop.ID, "tomate", "2026-10-01", 99999) // before the look-back's month: ignored
		w.Need(other.ID, "tomate", "2026-11-01", 99900)
		w.Need(other.ID, "poire", "2026-11-01", 99900)
		// The hand-computed case "deliveries by several producers" of
		// supply_test.go, stored as orders, deliveries and lines.
		w.Deliver(saules.ID, shop.ID, "2026-11-12", supply.Done, tradetest.L{Product: "tomate", Price: 250, Expected: 3200, Sent: tradetest.Dec(3000)})
		w.Deliver(alpage.ID, shop.ID, "2026-11-16", supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 2550, Sent: tradetest.Dec(9900)})
		w.Deliver(saules.ID, shop.ID, "2026-11-17", supply.Cancelled, tradetest.L{Product: "tomate", Price: 250, Expected: 10000})
		w.Deliver(saules.ID, shop.ID, "2026-11-19", supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 2000})
		w.Deliver(alpage.ID, shop.ID, "2026-11-19", supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 525}, tradetest.L{Product: "ail", Price: 250, Expected: 100})
		// Another shop's deliveries and deliveries far away never count.
		w.Deliver(saules.ID, other.ID, "2026-11-16", supply.Planned, tradetest.L{Product: "tomate", Price: 250, Expected: 77700})
		w.Deliver(saules.ID, shop.ID, "2026-10-01", supply.Done, tradetest.L{Product: "poire", Price: 250, Expected: 77700})
		w.Deliver(saules.ID, shop.ID, "2026-12-01", supply.Planned, tradetest.L{Product: "poire", Price: 250, Expected: 77700})

		win := supply.Window{Start: day(t, "2026-11-16"), Days: 5}
		cq := &countingQ{Q: db}
		got, err := supply.Load(ctx, cq, shop.ID, win, day(t, "2026-11-20"))
		if err != nil {
			t.Fatal(err)
		}
		if cq.n != 2 {
			t.Fatalf("%d queries, want 2", cq.n)
		}
		if len(got.Products) != 2 || got.Products[0].Name != "Ail" || got.Products[1].Name != "Tomate" || got.Products[1].Unit != "kg" {
			t.Fatalf("rows %+v", got.Products)
		}
		tomato := got.Products[1]
		var morning []float64
		for _, d := range tomato.Days {
			morning = append(morning, d.MorningStock.Float())
		}
		if !reflect.DeepEqual(morning, []float64{0, 16, 6, 0, 15}) || tomato.DeliveredLast7Days != 5075 || !tomato.AtRisk || !got.HasDeliveries {
			t.Fatalf("tomato: morning %v, last 7 days %v, at risk %v", morning, tomato.DeliveredLast7Days, tomato.AtRisk)
		}
		thu := tomato.Days[3]
		if len(thu.Deliveries) != 2 || thu.Delivered != 2525 {
			t.Fatalf("thursday = %+v", thu)
		}
		if !reflect.DeepEqual(got.Producers, []supply.Producer{{ID: alpage.ID, Name: "Alpage"}, {ID: saules.ID, Name: "Ferme des Saules"}}) {
			t.Fatalf("producers = %+v", got.Producers)
		}

		// More products and days: still two queries.
		for i := 0; i < 30; i++ {
			id := fmt.Sprintf("bench-%02d", i)
			w.Product(id, "kg")
			w.Need(shop.ID, id, "2026-11-01", 1000)
			w.Deliver(saules.ID, shop.ID, "2026-11-18", supply.Planned, tradetest.L{Product: id, Price: 250, Expected: 100})
		}
		cq.n = 0
		big, err := supply.Load(ctx, cq, shop.ID, supply.Window{Start: day(t, "2026-11-02"), Days: supply.MaxDays}, day(t, "2026-11-20"))
		if err != nil || cq.n != 2 || len(big.Products) != 33 {
			t.Fatalf("%d queries, %d rows, %v", cq.n, len(big.Products), err)
		}

		// A shop without needs or deliveries gets an empty grid.
		empty, err := supply.Load(ctx, db, mk("new@x.fr", "Nouveau", true).ID, win, day(t, "2026-11-20"))
		if err != nil || len(empty.Products) != 0 || empty.Products == nil || empty.HasDeliveries || len(empty.Dates) != 5 {
			t.Fatalf("empty = %+v, %v", empty, err)
		}
	})
}

func TestParseWindow(t *testing.T) {
	today := day(t, "2026-11-20") // a Friday
	tests := []struct {
		start, days string
		want        string
		n           int
		fields      []string
	}{
		{"", "", "2026-11-16", 5, nil},
		{"2026-12-31", "31", "2026-12-31", 31, nil},
		{" 2026-11-18 ", "1", "2026-11-18", 1, nil},
		{"2026-11-31", "", "", 0, []string{"start"}},
		{"18/11/2026", "5", "", 0, []string{"start"}},
		{"2026-11-18", "0", "", 0, []string{"days"}},
		{"2026-11-18", "32", "", 0, []string{"days"}},
		{"2026-11-18", "2.5", "", 0, []string{"days"}},
		{"2026-11-18", "99999999999999999999", "", 0, []string{"days"}},
		{"hier", "cinq", "", 0, []string{"start", "days"}},
	}
	for _, tt := range tests {
		w, err := supply.ParseWindow(tt.start, tt.days, today)
		var invalid *core.ValidationError
		switch {
		case tt.fields == nil && (err != nil || w.Start.String() != tt.want || w.Days != tt.n):
			t.Errorf("%q %q: %v %v", tt.start, tt.days, w, err)
		case tt.fields != nil && !errors.As(err, &invalid):
			t.Errorf("%q %q: accepted", tt.start, tt.days)
		case tt.fields != nil:
			var fields []string
			for _, f := range invalid.Fields {
				fields = append(fields, f.Field)
				if f.Message != supply.MsgBadStart && f.Message != supply.MsgBadDays {
					t.Errorf("message %q", f.Message)
				}
			}
			if !reflect.DeepEqual(fields, tt.fields) {
				t.Errorf("%q %q: fields %v", tt.start, tt.days, fields)
			}
		}
	}
}
