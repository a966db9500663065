package orders_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/decimal"
	"primeur/core/demo"
	"primeur/core/orders"
	"primeur/core/planning"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

func TestLoadAndViews(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
		mk := func(email string, shop bool) accounts.User {
			u, err := accounts.Register(ctx, db, accounts.Registration{Email: email, Password: "motdepasse1", Name: email, Distributor: shop}, now)
			if err != nil {
				t.Fatal(err)
			}
			return u
		}
		shop, farm := mk("shop@x.fr", true), mk("farm@x.fr", false)
		if _, err := planning.Create(ctx, db, shop.ID, planning.NeedInput{ProductID: "tomate", Date: "2026-12", Quantity: 100}, now); err != nil {
			t.Fatal(err)
		}
		w := tradetest.On(t, db)
		o1 := w.OrderOf(farm.ID, shop.ID, "2026-12-01")
		d2 := w.Delivery(o1, "2026-12-10", orders.Planned, tradetest.L{Product: "tomate", Price: 150, Expected: 5000})
		d1 := w.Played(o1, "2026-12-03", tradetest.Outcome{Status: orders.Done, Sent: map[string]decimal.Dec{"tomate": 4800},
			Claim: &tradetest.ClaimOutcome{Lines: map[string]tradetest.ClaimedLine{"tomate": {Quantity: -300, Type: orders.ClaimQuality}},
				SentAt: tradetest.At(2026, 12, 3, 15, 0)}}, tradetest.L{Product: "tomate", Price: 150, Expected: 5000})
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := store.Exec(ctx, db, q, args...); err != nil {
				t.Fatal(err)
			}
		}

		full, err := orders.Get(ctx, db, o1)
		if err != nil || len(full.Deliveries) != 2 || full.Deliveries[0].ID != d1 || full.Deliveries[1].ID != d2 {
			t.Fatalf("Get = %+v, %v", full, err)
		}
		pv := full.ViewFor(farm.ID)
		sv := full.ViewFor(shop.ID)
		if pv.Distributor != shop.ID || pv.Producer != "" || sv.Producer != farm.ID || sv.Distributor != "" {
			t.Fatalf("counterparts: %+v / %+v", pv, sv)
		}
		v1, v2 := pv.Deliveries[0], pv.Deliveries[1]
		if v1.DeliveryLines[0].QuantitySent != 4800 || v1.DeliveryLines[0].QuantityClaimed != -300 || v1.ClaimSentAt == "" || v1.ClaimStatus != "sent" {
			t.Fatalf("done delivery = %+v", v1)
		}
		if v2.DeliveryLines[0].QuantitySent != 5000 || v2.ClaimStatus != "void" || v2.DeliveryLines[0].ClaimType != "" {
			t.Fatalf("planned delivery defaults sent to expected: %+v", v2)
		}
		if fs, _ := orders.Load(ctx, db, orders.Filter{DistributorID: farm.ID}); len(fs) != 0 {
			t.Fatal("filter by distributor ignored")
		}
		// The months bound the orders in SQL, From and To inclusive (the
		// screens' reads of a period, GET /api/orders?from=&to=).
		for _, r := range []struct {
			from, to string
			want     int
		}{
			{"2027-01-01", "", 0}, {"2026-12-01", "", 1}, {"", "2026-11-01", 0}, {"", "2026-12-01", 1},
			{"2026-12-01", "2026-12-01", 1}, {"2026-10-01", "2026-11-01", 0},
		} {
			f := orders.Filter{ProducerID: farm.ID, From: r.from, To: r.to}
			fs, err := orders.Load(ctx, db, f)
			vs, err2 := orders.LoadViews(ctx, db, f, farm.ID)
			if err != nil || err2 != nil || len(fs) != r.want || len(vs) != r.want {
				t.Fatalf("from %q to %q: %d orders, %d views (%v, %v), want %d", r.from, r.to, len(fs), len(vs), err, err2, r.want)
			}
		}
		if _, err := orders.Get(ctx, db, "nope"); !errors.Is(err, core.ErrNotFound) {
			t.Fatalf("missing order: %v", err)
		}
		if pv.Invoice != nil {
			t.Fatalf("invoice before issue: %+v", pv.Invoice)
		}
		exec(`INSERT INTO documents (id, kind, series, order_id, producer_id, distributor_id, month, year, seq, number, issued_at,
				issue_date, due_date, seller, buyer, notes, vat_rate, vat_exempt, vat_regime, discount, discount_until, total_ht,
				total_vat, total_ttc, terms, mail_seller_key, mail_buyer_key, mail_accounting_key)
			VALUES ('i1', 'invoice', 'FA', ?, ?, ?, '2026-12-01', 2027, 1, 'FA-2027-000001', 1798779600000, '2027-01-01', '2027-01-30',
				'{}', '{}', '[]', 550, FALSE, 'normal', 0, '', 720, 40, 760, '[]', '', '', '')`, o1, farm.ID, shop.ID)
		full, err = orders.Get(ctx, db, o1)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []orders.View{full.ViewFor(farm.ID), full.ViewFor(shop.ID)} {
			if v.Invoice == nil || v.Invoice.ID != "i1" || v.Invoice.Number != "FA-2027-000001" || v.Invoice.IssuedAt != "2027-01-01T05:00:00Z" {
				t.Fatalf("invoice ref = %+v", v.Invoice)
			}
		}
	})
}

// TestLoadViewsMatchesLoad: the user load's loader gives what Load then
// Views give, from both sides, on the demo world (done, planned and
// cancelled deliveries, claims, invoices), with and without a month bound.
func TestLoadViewsMatchesLoad(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		paris, err := time.LoadLocation("Europe/Paris")
		if err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 11, 20, 10, 0, 0, 0, paris)
		if _, err := demo.Seed(ctx, db, now); err != nil {
			t.Fatal(err)
		}
		users, err := accounts.List(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		compared := 0
		for _, u := range users {
			for _, from := range []string{"", "2026-10-01"} {
				f := orders.Filter{ProducerID: u.ID, From: from}
				if u.IsDistributor() {
					f = orders.Filter{DistributorID: u.ID, From: from}
				}
				fs, err := orders.Load(ctx, db, f)
				if err != nil {
					t.Fatal(err)
				}
				vs, err := orders.LoadViews(ctx, db, f, u.ID)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := json.Marshal(orders.Views(fs, u.ID))
				got, _ := json.Marshal(vs)
				if string(got) != string(want) {
					t.Fatalf("%s from %q:\n got %s\nwant %s", u.Email, from, got, want)
				}
				compared += len(vs)
			}
		}
		if compared == 0 {
			t.Fatal("the demo world has no order")
		}
	})
}
