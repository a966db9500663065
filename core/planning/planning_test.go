package planning_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

var now = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

type fixture struct {
	db         *store.DB
	shop, farm accounts.User
	other      accounts.User
}

func setup(t *testing.T, db *store.DB) fixture {
	t.Helper()
	mk := func(email string, shop bool) accounts.User {
		u, err := accounts.Register(context.Background(), db, accounts.Registration{Email: email, Password: "motdepasse1", Name: email, Distributor: shop}, now)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	// The world of the fixture files: the first catalogue's 60 fruit and
	// vegetables ("Kumquat", "Banane" unknown), the types of migration 48
	// taken out (TestImportOfEveryUnit works with them).
	if _, err := db.ExecContext(context.Background(), `DELETE FROM products WHERE share = 0`); err != nil {
		t.Fatal(err)
	}
	return fixture{db: db, shop: mk("shop@x.fr", true), farm: mk("farm@x.fr", false), other: mk("other@x.fr", true)}
}

// propose inserts a proposal row as the trade package would.
func (f fixture) propose(t *testing.T, needID, status string, qty decimal.Dec) {
	t.Helper()
	_, err := store.Exec(context.Background(), f.db, `INSERT INTO proposals (id, need_id, producer_id, status, origin, quantity, price, created_at, updated_at)
		VALUES (?, ?, ?, ?, 'producer', ?, 150, 0, 0)`, core.NewID(), needID, f.farm.ID, status, qty)
	if err != nil {
		t.Fatal(err)
	}
}

func refusalMessage(err error) string {
	var r *core.Refusal
	var v *core.ValidationError
	switch {
	case errors.As(err, &r):
		return r.Message
	case errors.As(err, &v):
		return v.Fields[0].Message
	}
	return ""
}

func TestParseQuantity(t *testing.T) {
	tests := []struct {
		unit string
		in   float64
		want decimal.Dec
		msg  string
	}{
		{"kg", 12.5, 1250, ""}, {"kg", 0, 0, ""}, {"kg", 0.01, 1, ""},
		{"kg", 1.234, 0, planning.MsgBadWeight}, {"kg", -1, 0, planning.MsgNegative},
		{"kg", math.NaN(), 0, planning.MsgBadWeight}, {"kg", math.Inf(1), 0, planning.MsgBadWeight},
		{"kg", 2e6, 0, planning.MsgTooLarge}, {"kg", 1e15, 0, planning.MsgTooLarge},
		{"un", 3, 300, ""}, {"un", 2.5, 0, planning.MsgBadPieces}, {"un", -2, 0, planning.MsgNegative},
		// core/decimal's exact rule at every magnitude: refused, never rounded.
		{"kg", 12345.675, 0, planning.MsgBadWeight}, {"kg", 99999.995, 0, planning.MsgBadWeight},
		{"un", 5000.004, 0, planning.MsgBadPieces}, {"kg", 2.505, 0, planning.MsgBadWeight},
		{"kg", 0.1, 10, ""}, {"kg", 12345.67, 1234567, ""}, {"kg", 1e6, 100000000, ""},
		{"kg", 1e6 + 0.01, 0, planning.MsgTooLarge}, {"kg", math.Copysign(0, -1), 0, ""},
		{"kg", 1e2, 10000, ""}, {"un", 1.5e1, 1500, ""},
	}
	for _, tt := range tests {
		got, err := planning.ParseQuantity("quantity", tt.unit, tt.in)
		if refusalMessage(err) != tt.msg || (tt.msg == "" && got != tt.want) {
			t.Errorf("ParseQuantity(%s, %v) = %v, %v; want %v, %q", tt.unit, tt.in, got, err, tt.want, tt.msg)
		}
	}
}

func TestParseMonth(t *testing.T) {
	tests := map[string]string{
		"2026-12": "2026-12-01", "2026-12-01": "2026-12-01", "2026-12-17": "2026-12-01", " 2027-01 ": "2027-01-01",
		"2026-13": "", "12/2026": "", "": "", "1999-12": "", "2026-02-30": "", "2026-1": "",
	}
	for in, want := range tests {
		got, err := planning.ParseMonth("date", in)
		if got != want || (want == "" && refusalMessage(err) != planning.MsgBadMonth) {
			t.Errorf("ParseMonth(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if calendar.AddMonthsTo("2026-12-01", 1) != "2027-01-01" || calendar.AddMonthsTo("2026-01-01", -2) != "2025-11-01" {
		t.Error("AddMonths")
	}
}

func TestTotals(t *testing.T) {
	p := func(producer, status string, q decimal.Dec) planning.Proposal {
		return planning.Proposal{Producer: producer, Status: status, Quantity: q}
	}
	tests := []struct {
		name     string
		ps       []planning.Proposal
		accepted decimal.Dec
		proposed decimal.Dec
	}{
		{"none", nil, 0, 0},
		{"one proposal", []planning.Proposal{p("a", "proposed", 500)}, 0, 500},
		{"rejected counts nothing", []planning.Proposal{p("a", "rejected", 500)}, 0, 0},
		{"commitment", []planning.Proposal{p("a", "accepted", 800)}, 800, 0},
		{"correction upwards counts the increase", []planning.Proposal{p("a", "accepted", 800), p("a", "proposed", 900)}, 800, 100},
		{"correction downwards counts nothing more", []planning.Proposal{p("a", "accepted", 800), p("a", "proposed", 300)}, 800, 0},
		{"two producers", []planning.Proposal{p("a", "accepted", 800), p("b", "proposed", 200)}, 800, 200},
	}
	for _, tt := range tests {
		a, pr := planning.Totals(tt.ps)
		if a != tt.accepted || pr != tt.proposed {
			t.Errorf("%s: %v %v, want %v %v", tt.name, a, pr, tt.accepted, tt.proposed)
		}
	}
}

func TestCreateUpdateDelete(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := setup(t, db)

		v, err := planning.Create(ctx, db, f.shop.ID, planning.NeedInput{ProductID: "tomate", Date: "2026-12", Quantity: 120.5}, now)
		if err != nil || v.Quantity != 12050 || v.Date != "2026-12-01" || v.QuantityAvailable != 12050 || len(v.Proposals) != 0 {
			t.Fatalf("create = %+v, %v", v, err)
		}
		refusals := []struct {
			name string
			in   planning.NeedInput
			msg  string
		}{
			{"duplicate", planning.NeedInput{ProductID: "tomate", Date: "2026-12-01", Quantity: 3}, planning.MsgNeedExists},
			{"unknown product", planning.NeedInput{ProductID: "banane", Date: "2026-12", Quantity: 3}, planning.MsgUnknownProd},
			{"pieces not whole", planning.NeedInput{ProductID: "melon", Date: "2026-12", Quantity: 2.5}, planning.MsgBadPieces},
			{"zero", planning.NeedInput{ProductID: "carotte", Date: "2026-12", Quantity: 0}, planning.MsgNegative},
			{"negative", planning.NeedInput{ProductID: "carotte", Date: "2026-12", Quantity: -4}, planning.MsgNegative},
			{"past month", planning.NeedInput{ProductID: "carotte", Date: "2026-10", Quantity: 4}, planning.MsgPastMonth},
			{"bad month", planning.NeedInput{ProductID: "carotte", Date: "décembre", Quantity: 4}, planning.MsgBadMonth},
		}
		for _, r := range refusals {
			if _, err := planning.Create(ctx, db, f.shop.ID, r.in, now); refusalMessage(err) != r.msg {
				t.Errorf("%s: %v, want %q", r.name, err, r.msg)
			}
		}
		// The current month can still be planned.
		if _, err := planning.Create(ctx, db, f.shop.ID, planning.NeedInput{ProductID: "carotte", Date: "2026-11", Quantity: 4}, now); err != nil {
			t.Fatalf("current month: %v", err)
		}

		// Commitments and pending proposals hold the quantity up.
		f.propose(t, v.ID, planning.StatusAccepted, 5000)
		f.propose(t, v.ID, planning.StatusProposed, 6000) // a correction: +10 kg
		if _, err := planning.Update(ctx, db, f.shop.ID, v.ID, 59.99, now); refusalMessage(err) != planning.MsgBelowReserved {
			t.Fatalf("update under reserved: %v", err)
		}
		u, err := planning.Update(ctx, db, f.shop.ID, v.ID, 60, now)
		if err != nil || u.Quantity != 6000 || u.QuantityAccepted != 5000 || u.QuantityProposed != 1000 || u.QuantityAvailable != 0 {
			t.Fatalf("update to reserved = %+v, %v", u, err)
		}
		if _, err := planning.Update(ctx, db, f.other.ID, v.ID, 100, now); !errors.Is(err, core.ErrNotFound) {
			t.Fatalf("another shop's update: %v", err)
		}
		if _, err := planning.Delete(ctx, db, f.shop.ID, v.ID, now); refusalMessage(err) != planning.MsgBelowReserved {
			t.Fatalf("delete with commitments: %v", err)
		}
		if _, err := planning.Delete(ctx, db, f.other.ID, v.ID, now); !errors.Is(err, core.ErrNotFound) {
			t.Fatalf("another shop's delete: %v", err)
		}
		list, _ := planning.List(ctx, db, planning.Filter{DistributorID: f.shop.ID})
		if len(list) != 2 || list[1].Quantity != 6000 {
			t.Fatalf("list = %+v", list)
		}

		// A need with only rejected proposals can go.
		w, _ := planning.Create(ctx, db, f.shop.ID, planning.NeedInput{ProductID: "poire", Date: "2027-01", Quantity: 10}, now)
		f.propose(t, w.ID, planning.StatusRejected, 500)
		d, err := planning.Delete(ctx, db, f.shop.ID, w.ID, now)
		if err != nil || d.ID != w.ID {
			t.Fatalf("delete = %+v, %v", d, err)
		}
		if _, _, err := planning.Get(ctx, db, w.ID); !errors.Is(err, core.ErrNotFound) {
			t.Fatalf("deleted need still there: %v", err)
		}

		feed, _ := activity.Feed(ctx, db, f.shop.ID, "", 0)
		types := []string{}
		for _, e := range feed {
			types = append(types, e.Type)
		}
		want := []string{activity.NeedDelete, activity.NeedCreate, activity.NeedUpdate, activity.NeedCreate, activity.NeedCreate}
		if len(types) != len(want) {
			t.Fatalf("events = %v, want %v", types, want)
		}
		for i := range want {
			if types[i] != want[i] {
				t.Fatalf("events = %v, want %v", types, want)
			}
		}
		upd := feed[2].Data
		if upd.Product.Name != "Tomate" || *upd.Quantity != 6000 || *upd.Delta != 6050 || *upd.Vector {
			t.Fatalf("need:update data = %+v", upd)
		}
	})
}

func TestBulkAndWrite(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := setup(t, db)

		needs, ev, err := planning.Bulk(ctx, db, f.shop.ID, "melon", []float64{10, 20, 0}, []string{"2026-12", "2027-01", "2027-02"}, now)
		if err != nil || len(needs) != 2 || ev.Type != activity.NeedCreateBulk || len(ev.Data.Dates) != 3 || *ev.Data.Count != 2 {
			t.Fatalf("bulk = %+v %+v %v", needs, ev, err)
		}
		if ev.Origin.Email != "shop@x.fr" || ev.Data.Product.Unit != "un" {
			t.Fatalf("event parties = %+v", ev)
		}
		refusals := []struct {
			name  string
			prod  string
			qs    []float64
			dates []string
			msg   string
		}{
			{"lengths differ", "melon", []float64{1}, []string{"2026-12", "2027-01"}, planning.MsgBulkShape},
			{"empty", "melon", nil, nil, planning.MsgBulkShape},
			{"repeated month", "melon", []float64{1, 2}, []string{"2026-12", "2026-12-01"}, planning.MsgBulkShape},
			{"unknown product", "kumquat", []float64{1}, []string{"2026-12"}, planning.MsgUnknownProd},
			{"pieces", "melon", []float64{1.5}, []string{"2026-12"}, planning.MsgBadPieces},
		}
		for _, r := range refusals {
			if _, _, err := planning.Bulk(ctx, db, f.shop.ID, r.prod, r.qs, r.dates, now); refusalMessage(err) != r.msg {
				t.Errorf("%s: %v, want %q", r.name, err, r.msg)
			}
		}
		// All or nothing: one month under its commitments refuses the bulk.
		f.propose(t, needs[1].ID, planning.StatusAccepted, 1500)
		if _, _, err := planning.Bulk(ctx, db, f.shop.ID, "melon", []float64{30, 14}, []string{"2026-12", "2027-01"}, now); refusalMessage(err) != planning.MsgBelowReserved {
			t.Fatalf("bulk under commitments: %v", err)
		}
		list, _ := planning.List(ctx, db, planning.Filter{DistributorID: f.shop.ID})
		if len(list) != 2 || list[0].Quantity != 1000 {
			t.Fatalf("refused bulk changed needs: %+v", list)
		}

		// Write (the import path) applies what it can and lists the rest.
		res, err := planning.Write(ctx, db, f.shop.ID, []planning.Cell{
			{ProductID: "melon", Month: "2026-12-01", Quantity: 1200},
			{ProductID: "melon", Month: "2027-01-01", Quantity: 1400},
			{ProductID: "tomate", Month: "2027-01-01", Quantity: 0},
			{ProductID: "tomate", Month: "2027-02-01", Quantity: 700},
			{ProductID: "carotte", Month: "2026-01-01", Quantity: 700},
		}, now)
		if err != nil || res.Created != 1 || res.Updated != 1 || res.Unchanged != 1 || len(res.Refused) != 2 {
			t.Fatalf("write = %+v, %v", res, err)
		}
		if res.Refused[0].Reserved != 1500 || res.Refused[0].Message != planning.MsgBelowReserved || res.Refused[1].Message != planning.MsgPastMonth {
			t.Fatalf("refused = %+v", res.Refused)
		}
		if _, err := planning.Write(ctx, db, f.shop.ID, []planning.Cell{{ProductID: "melon", Month: "2026-12-01"}, {ProductID: "melon", Month: "2026-12-01"}}, now); err == nil {
			t.Fatal("a repeated cell must be an error")
		}

		// Producers see only their own proposals, with the full totals.
		own, _ := planning.List(ctx, db, planning.Filter{DistributorID: f.shop.ID, OnlyProposalsOf: "someone-else"})
		for _, v := range own {
			if v.Product == "melon" && v.Date == "2027-01-01" && (len(v.Proposals) != 0 || v.QuantityAccepted != 1500) {
				t.Fatalf("filtered view = %+v", v)
			}
		}
		traded, _ := planning.List(ctx, db, planning.Filter{TradedBy: f.farm.ID})
		if len(traded) != 1 || traded[0].ID != needs[1].ID {
			t.Fatalf("traded = %+v", traded)
		}
		ranged, _ := planning.List(ctx, db, planning.Filter{DistributorID: f.shop.ID, From: "2027-01-01", To: "2027-01-01"})
		if len(ranged) != 1 {
			t.Fatalf("ranged = %+v", ranged)
		}
	})
}

func TestLargeWrite(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := setup(t, db)
		var cells []planning.Cell
		for m := 0; m < 24; m++ {
			for _, p := range []string{"tomate", "carotte", "pomme", "poire", "melon", "laitue", "courgette", "oignon", "ail", "kiwi"} {
				for rep := 0; rep < 1; rep++ {
					cells = append(cells, planning.Cell{ProductID: p, Month: calendar.AddMonthsTo("2026-12-01", m), Quantity: decimal.Dec(100 * (m + 1))})
				}
			}
		}
		res, err := planning.Write(ctx, db, f.shop.ID, cells, now)
		if err != nil || res.Created != len(cells) || len(res.Needs) != len(cells) {
			t.Fatalf("large write: %d created, %v", res.Created, err)
		}
	})
}
