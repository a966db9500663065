package delivery_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"primeur/core/activity"
	"primeur/core/delivery"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

func TestLockDue(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fx := newFixture(t, db)
		w := fx.w
		yesterday := fx.planned("2026-11-19")
		// The shop already said 8 kg of tomatoes for today.
		today := w.Delivery(fx.order, "2026-11-20", orders.Planned,
			tradetest.L{Product: "tomate", Price: 250, Expected: 1000, Sent: tradetest.Dec(800)},
			tradetest.L{Product: "laitue", Price: 90, Expected: 2000})
		tomorrow := fx.planned("2026-11-21")
		cancelled := w.Delivery(fx.order, "2026-11-19", orders.Cancelled, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})

		ids, err := rules.LockDue(ctx, db, at(2026, 11, 20, 11, 59))
		if err != nil || !slices.Equal(ids, []string{yesterday}) {
			t.Fatalf("before noon: %v, %v", ids, err)
		}
		ids, err = rules.LockDue(ctx, db, at(2026, 11, 20, 12, 0))
		if err != nil || !slices.Equal(ids, []string{today}) {
			t.Fatalf("at noon: %v, %v", ids, err)
		}
		if ids, err = rules.LockDue(ctx, db, at(2026, 11, 20, 12, 5)); err != nil || len(ids) != 0 {
			t.Fatalf("second run: %v, %v", ids, err)
		}
		for id, want := range map[string]string{yesterday: orders.Done, today: orders.Done, tomorrow: orders.Planned, cancelled: orders.Cancelled} {
			if got := w.Get(id); got.Status != want {
				t.Errorf("%s: %s, want %s", id, got.Status, want)
			}
		}
		got := w.Get(today)
		sent := map[string]int64{}
		for _, l := range got.Lines {
			sent[l.ProductID] = int64(*l.QuantitySent)
		}
		if sent["tomate"] != 800 || sent["laitue"] != 2000 {
			t.Fatalf("sent quantities after the lock: %v", sent)
		}
		for _, l := range w.Get(tomorrow).Lines {
			if l.QuantitySent != nil {
				t.Fatalf("a planned delivery got a sent quantity: %+v", l)
			}
		}
	})
}

func TestLockDueConcurrently(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fx := newFixture(t, db)
		var want []string
		for d := 1; d <= 19; d++ {
			want = append(want, fx.planned(time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC).Format("2006-01-02")))
		}
		const procs = 4
		var (
			wg  sync.WaitGroup
			mu  sync.Mutex
			got []string
		)
		for range procs {
			h := tradetest.Handle(t, db)
			wg.Add(1)
			go func() {
				defer wg.Done()
				ids, err := rules.LockDue(ctx, h, now)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				got = append(got, ids...)
				mu.Unlock()
			}()
		}
		wg.Wait()
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("locked %d deliveries in all, want each of %d once: %v", len(got), len(want), got)
		}
	})
}

func TestNotesDue(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fx := newFixture(t, db)
		w := fx.w
		old := fx.done("2026-11-19")
		today := fx.done("2026-11-20")
		w.Emailed(fx.order, "2026-11-18",
			tradetest.L{Product: "tomate", Price: 250, Expected: 1200, Sent: tradetest.Dec(1000)},
			tradetest.L{Product: "laitue", Price: 90, Expected: 2000, Sent: tradetest.Dec(2000)})
		fx.planned("2026-11-20")
		w.Delivery(fx.order, "2026-11-19", orders.Cancelled, tradetest.L{Product: "tomate", Price: 250, Expected: 1000})
		for _, tt := range []struct {
			now  time.Time
			want []string
		}{
			{at(2026, 11, 20, 12, 29), []string{old}},
			{at(2026, 11, 20, 12, 30), []string{old, today}},
		} {
			ids, err := rules.NotesDue(ctx, db, tt.now)
			if err != nil || !slices.Equal(ids, tt.want) {
				t.Fatalf("at %v: %v, %v; want %v", tt.now, ids, err, tt.want)
			}
		}

		// Neither party confirmed: the notes wait, unlisted; listed again
		// once a member the note concerns (an owner, a shop's receiver, a
		// farm's delivery: notify.NoteRoles) has a confirmed login, whoever
		// founded the organisation (issue 41). A buyer's login is no
		// recipient of notes; an organisation's own row (users) is not
		// read, its founder's person is.
		for _, m := range []struct{ id, role string }{{"remi", "receiver"}, {"marie", "buyer"}} {
			w.Exec(`INSERT INTO people (id, email, email_key, email_confirmed, name, password_hash, created_at, updated_at)
				VALUES (?, ?, ?, '', ?, '', 0, 0)`, m.id, m.id+"@lac.fr", m.id+"@lac.fr", m.id)
			w.Exec(`INSERT INTO members (person_id, org_id, role, created_at, updated_at) VALUES (?, ?, ?, 0, 0)`, m.id, w.Shop.ID, m.role)
		}
		w.Exec(`UPDATE people SET email_confirmed = ''`)
		for _, tt := range []struct {
			step, confirm string
			args          []any
			want          []string
		}{
			{"nobody confirmed", `UPDATE users SET email_confirmed = '', accounting_confirmed = ''`, nil, nil},
			{"the shop's buyer confirmed", `UPDATE people SET email_confirmed = email_key WHERE id = 'marie'`, nil, nil},
			{"the shop's receiver confirmed", `UPDATE people SET email_confirmed = email_key WHERE id = 'remi'`, nil, []string{old, today}},
			{"no more", `UPDATE people SET email_confirmed = ''`, nil, nil},
			{"the shop's row confirmed, not its person", `UPDATE users SET email_confirmed = email_key WHERE id = ?`, []any{w.Shop.ID}, nil},
			{"the farm's founder confirmed", `UPDATE people SET email_confirmed = email_key WHERE id = ?`,
				[]any{w.Farm.ID}, []string{old, today}},
			{"the farm's founder closed", `UPDATE people SET closed_at = 1 WHERE id = ?`, []any{w.Farm.ID}, nil},
		} {
			w.Exec(tt.confirm, tt.args...)
			ids, err := rules.NotesDue(ctx, db, at(2026, 11, 20, 12, 30))
			if err != nil || !slices.Equal(ids, tt.want) {
				t.Fatalf("%s: %v, %v; want %v", tt.step, ids, err, tt.want)
			}
		}
	})
}

func TestAutovalidate(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fx := newFixture(t, db)
		w := fx.w
		var claims []string
		send := func(day string, lines ...delivery.LineClaim) string {
			id := fx.done(day)
			if _, err := tx(db, func(q store.Q) (orders.Full, error) {
				return rules.SendClaim(ctx, q, w.Farm.ID, fx.order, id, claimOf(w, id, lines...), now)
			}); err != nil {
				t.Fatal(err)
			}
			return id
		}
		for _, day := range []string{"2026-11-18", "2026-11-19", "2026-11-20"} {
			claims = append(claims, send(day, delivery.LineClaim{ID: "tomate", QuantityClaimed: f(-1), ClaimType: s("quantity")}))
		}
		// Two claims raise the amount — one line up, or one up and one
		// down: silence never accepts them (AcceptedBySilence).
		up := send("2026-11-19", delivery.LineClaim{ID: "tomate", QuantityClaimed: f(2), ClaimType: s("quantity")})
		mixed := send("2026-11-19", delivery.LineClaim{ID: "tomate", QuantityClaimed: f(0.5), ClaimType: s("quantity")},
			delivery.LineClaim{ID: "laitue", QuantityClaimed: f(-10), ClaimType: s("quality")})
		// One is refused by the shop in time: it stays refused.
		if _, err := tx(db, func(q store.Q) (orders.Full, error) {
			return rules.Review(ctx, q, w.Shop.ID, fx.order, claims[2], false, now.Add(time.Hour))
		}); err != nil {
			t.Fatal(err)
		}
		if n, err := rules.Autovalidate(ctx, db, now.Add(48*time.Hour-time.Minute)); err != nil || n != 0 {
			t.Fatalf("before 48 h: %d, %v", n, err)
		}
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			total int
		)
		for range 3 {
			h := tradetest.Handle(t, db)
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, err := rules.Autovalidate(ctx, h, now.Add(48*time.Hour))
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				total += n
				mu.Unlock()
			}()
		}
		wg.Wait()
		if total != 2 {
			t.Fatalf("accepted %d claims in all, want 2", total)
		}
		for i, want := range []string{orders.ClaimAccepted, orders.ClaimAccepted, orders.ClaimRejected} {
			if got := w.Get(claims[i]); got.ClaimStatus != want {
				t.Errorf("claim %d: %s, want %s", i, got.ClaimStatus, want)
			}
		}
		// A month later, the claims that raise the amount still wait for
		// the shop, untouched; its answer alone accepts them.
		before := storetest.Snapshot(t, db)
		if n, err := rules.Autovalidate(ctx, db, now.Add(30*24*time.Hour)); err != nil || n != 0 {
			t.Fatalf("a month later: %d, %v", n, err)
		}
		if after := storetest.Snapshot(t, db); after != before {
			t.Fatalf("the claims that raise the amount changed:\n%s", storetest.Changes(before, after))
		}
		for _, id := range []string{up, mixed} {
			if got := w.Get(id); got.ClaimStatus != orders.ClaimSent || got.ClaimReviewedAt != nil {
				t.Errorf("a claim raising the amount: %+v", got.Delivery)
			}
		}
		if _, err := tx(db, func(q store.Q) (orders.Full, error) {
			return rules.Review(ctx, q, w.Shop.ID, fx.order, up, true, now.Add(30*24*time.Hour))
		}); err != nil || w.Get(up).ClaimStatus != orders.ClaimAccepted {
			t.Fatalf("the shop's answer after the window: %v", err)
		}
		feed, err := activity.Feed(ctx, db, w.Shop.ID, "", 50)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range feed {
			if e.Type == activity.ClaimAutovalidate {
				n++
				if e.Origin.Name != w.Farm.Name || e.Target == nil || e.Target.Name != w.Shop.Name || e.Data.Outcome == nil || !*e.Data.Outcome {
					t.Errorf("event %+v", e)
				}
			}
		}
		if n != 2 {
			t.Fatalf("%d claim:autovalidate events, want 2", n)
		}
	})
}
