package activity_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/decimal"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

func TestFeed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
		shop, farm, other := register(t, db, "shop@x.fr", "shop@x.fr", true, t0),
			register(t, db, "farm@x.fr", "farm@x.fr", false, t0), register(t, db, "other@x.fr", "other@x.fr", true, t0)

		q := decimal.Dec(1250)
		yes := true
		events := []activity.Event{
			{Type: activity.NeedCreate, OriginID: shop.ID, Data: activity.Data{Product: &activity.Product{Name: "Tomate", Unit: "kg"}, Date: "2026-12-01", Quantity: &q}},
			{Type: activity.ProposalRequest, OriginID: farm.ID, TargetID: shop.ID},
			{Type: activity.ProposalReview, OriginID: shop.ID, TargetID: farm.ID, Data: activity.Data{Outcome: &yes}},
			{Type: activity.NeedCreate, OriginID: other.ID},
		}
		for i, e := range events {
			e.ID = core.NewID()
			e.CreatedAt = t0.Add(time.Duration(i) * time.Minute)
			if err := activity.Record(ctx, db, e); err != nil {
				t.Fatal(err)
			}
		}
		if err := activity.Record(ctx, db, activity.Event{ID: "x", Type: "need:explode", OriginID: shop.ID, CreatedAt: t0}); err == nil {
			t.Fatal("unknown event type recorded")
		}

		feed, err := activity.Feed(ctx, db, shop.ID, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(feed) != 3 || feed[0].Type != activity.ProposalReview || feed[2].Type != activity.NeedCreate {
			t.Fatalf("shop feed = %+v", feed)
		}
		if feed[0].Target == nil || feed[0].Target.Name != "farm@x.fr" || feed[0].Origin.Email != "shop@x.fr" {
			t.Fatalf("parties = %+v %+v", feed[0].Origin, feed[0].Target)
		}
		if feed[2].Data.Product.Name != "Tomate" || *feed[2].Data.Quantity != 1250 || feed[2].Data.Date != "2026-12-01" {
			t.Fatalf("data = %+v", feed[2].Data)
		}
		farmFeed, _ := activity.Feed(ctx, db, farm.ID, "", 0)
		if len(farmFeed) != 2 {
			t.Fatalf("farm sees %d events, want 2", len(farmFeed))
		}
		// Another user's email is its login: the farm reads the shop's name.
		for _, e := range farmFeed {
			wantEmail := map[string]string{activity.ProposalReview: "", activity.ProposalRequest: "farm@x.fr"}[e.Type]
			if e.Origin.Email != wantEmail {
				t.Fatalf("farm's feed: %s from %+v, want email %q", e.Type, e.Origin, wantEmail)
			}
		}
		if farmFeed[0].Origin.Name != "shop@x.fr" {
			t.Fatalf("farm's feed names the shop %q", farmFeed[0].Origin.Name)
		}
		page1, _ := activity.Feed(ctx, db, shop.ID, "", 2)
		page2, _ := activity.Feed(ctx, db, shop.ID, page1[1].ID, 2)
		if len(page1) != 2 || len(page2) != 1 || page2[0].ID != feed[2].ID {
			t.Fatalf("paging: %d then %d", len(page1), len(page2))
		}
	})
}

// TestRecordAsIsRecordView: an event recorded with the names its caller
// knows is shown as the one read back after its insert, with and without
// a target, data of every kind included.
func TestRecordAsIsRecordView(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 20, 9, 0, 30, 0, time.UTC)
		shop := register(t, db, "Epicerie@x.fr", "Épicerie « Chez Léa »", true, t0)
		farm := register(t, db, "ferme@x.fr", "Ferme des Prés", false, t0)
		q, price, delta, yes, up := decimal.Dec(1250), decimal.Dec(235), decimal.Dec(-40), true, false
		full := activity.Data{Product: &activity.Product{Name: "Pomme de terre", Unit: "kg"}, Need: "n1", Date: "2026-12",
			Quantity: &q, Price: &price, Outcome: &yes, Delta: &delta, Vector: &up}
		for name, e := range map[string]activity.Event{
			"with a target":    {Type: activity.FixReview, OriginID: shop.ID, TargetID: farm.ID, CreatedAt: t0, Data: full},
			"without a target": {Type: activity.NeedCreate, OriginID: shop.ID, CreatedAt: t0.Add(time.Millisecond), Data: activity.Data{Date: "2026-12"}},
		} {
			t.Run(name, func(t *testing.T) {
				read, err := activity.RecordView(ctx, db, e)
				if err != nil {
					t.Fatal(err)
				}
				known, err := activity.RecordAs(ctx, db, e, activity.Party{Email: shop.Email, Name: shop.Name}, farm.Name)
				if err != nil {
					t.Fatal(err)
				}
				if known.ID == read.ID {
					t.Fatal("both events have the same id")
				}
				known.ID = read.ID
				if !reflect.DeepEqual(known, read) {
					t.Fatalf("RecordAs:\n %+v\nRecordView:\n %+v", known, read)
				}
			})
		}
	})
}

// TestFeedPagesThroughTies: paging back gives every event once, newest
// first, events of the same instant by id, whatever the page size — the
// cursor's two halves (older instant, or same instant and smaller id).
func TestFeedPagesThroughTies(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
		shop := register(t, db, "shop@x.fr", "Shop", true, t0)
		farm := register(t, db, "farm@x.fr", "Farm", false, t0)
		// 11 events over 4 instants, 3 to 4 at each, emitted and received.
		const events = 11
		for i := range events {
			e := activity.Event{ID: fmt.Sprintf("ev-%02d", (i*7)%11), Type: activity.ProposalRequest,
				OriginID: farm.ID, TargetID: shop.ID, CreatedAt: t0.Add(time.Duration(i/3) * time.Minute)}
			if i%2 == 1 {
				e.Type, e.OriginID, e.TargetID = activity.NeedCreate, shop.ID, ""
			}
			if err := activity.Record(ctx, db, e); err != nil {
				t.Fatal(err)
			}
		}
		all, err := activity.Feed(ctx, db, shop.ID, "", 50)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != events {
			t.Fatalf("feed has %d events, want %d", len(all), events)
		}
		var wantOrder []string
		for i, e := range all {
			if i > 0 {
				a := all[i-1]
				if a.CreatedAt < e.CreatedAt || (a.CreatedAt == e.CreatedAt && a.ID <= e.ID) {
					t.Fatalf("feed out of order at %d: %s %s then %s %s", i, a.CreatedAt, a.ID, e.CreatedAt, e.ID)
				}
			}
			wantOrder = append(wantOrder, e.ID)
		}
		for _, size := range []int{1, 2, 3, 4} {
			var got []string
			before := ""
			for range events + 1 {
				page, err := activity.Feed(ctx, db, shop.ID, before, size)
				if err != nil {
					t.Fatal(err)
				}
				if len(page) == 0 {
					break
				}
				for _, e := range page {
					got = append(got, e.ID)
				}
				before = page[len(page)-1].ID
			}
			if !slices.Equal(got, wantOrder) {
				t.Fatalf("pages of %d: %v, want %v", size, got, wantOrder)
			}
		}
	})
}

// register opens an account (a shop when shop is set) named name.
func register(t *testing.T, db *store.DB, email, name string, shop bool, at time.Time) accounts.User {
	t.Helper()
	u, err := accounts.Register(context.Background(), db,
		accounts.Registration{Email: email, Password: "motdepasse1", Name: name, Distributor: shop}, at)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
