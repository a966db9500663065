package notify_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/notify"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
)

// TestLinesAgreeWithPluralNames: the lines of the digests put the verb in
// the plural after a plural name ("Les Jardins d'Alby vous proposent",
// "… ont accepté"), the singular otherwise (core/grammar, the same rule as
// the interface's feed).
func TestLinesAgreeWithPluralNames(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		w := tradetest.New(t, db)
		at := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
		lines := func() []string {
			t.Helper()
			var out []string
			if err := store.Select(ctx, db, &out, `SELECT line FROM notifications`); err != nil {
				t.Fatal(err)
			}
			if _, err := store.Exec(ctx, db, `DELETE FROM notifications`); err != nil {
				t.Fatal(err)
			}
			slices.Sort(out)
			return out
		}
		yes := true
		for _, c := range []struct {
			name string
			want []string
		}{
			{"Les Jardins d'Alby", []string{
				"Les Jardins d'Alby ont accepté votre réclamation sur la livraison du 3 décembre 2026.",
				"Les Jardins d'Alby ont accepté votre proposition : Tomate.",
				"Les Jardins d'Alby ont annulé la livraison du 3 décembre 2026.",
				"Les Jardins d'Alby ont déclaré une réclamation sur la livraison du 3 décembre 2026.",
				"Les Jardins d'Alby vous proposent Tomate.",
			}},
			{"Épicerie du Lac", []string{
				"Épicerie du Lac a accepté votre réclamation sur la livraison du 3 décembre 2026.",
				"Épicerie du Lac a accepté votre proposition : Tomate.",
				"Épicerie du Lac a annulé la livraison du 3 décembre 2026.",
				"Épicerie du Lac a déclaré une réclamation sur la livraison du 3 décembre 2026.",
				"Épicerie du Lac vous propose Tomate.",
			}},
		} {
			product := &activity.Product{Name: "Tomate", Unit: "kg"}
			steps := []func() error{
				func() error { return notify.ClaimReview(ctx, db, w.Farm.ID, c.name, "2026-12-03", true, at) },
				func() error {
					return notify.Trade(ctx, db, activity.Event{Type: activity.ProposalReview, TargetID: w.Farm.ID, CreatedAt: at,
						Data: activity.Data{Product: product, Outcome: &yes}}, c.name, w.Shop.ID)
				},
				func() error { return notify.DeliveryChanged(ctx, db, w.Farm.ID, c.name, "2026-12-03", true, at) },
				func() error { return notify.ClaimRequest(ctx, db, w.Shop.ID, c.name, "2026-12-03", at) },
				func() error {
					return notify.Trade(ctx, db, activity.Event{Type: activity.ProposalRequest, TargetID: w.Shop.ID, CreatedAt: at,
						Data: activity.Data{Product: product}}, c.name, w.Shop.ID)
				},
			}
			for _, step := range steps {
				if err := step(); err != nil {
					t.Fatal(err)
				}
			}
			got := lines()
			slices.Sort(c.want)
			if len(got) != len(c.want) {
				t.Fatalf("%s: %q", c.name, got)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("%s: line %d = %q, want %q", c.name, i, got[i], c.want[i])
				}
			}
		}
	})
}

// TestUnconfirmedUsersDoNotHoldTheOthersBack: users who never confirm
// their email keep their lines pending, and there may be more of them than
// one gathering takes (MaxUsersPerRun): they are not taken at all, so the
// user who confirmed gets its digest on the first run, whatever its place
// in the order; one who confirms is taken by the next.
func TestUnconfirmedUsersDoNotHoldTheOthersBack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		at := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
		var users []accounts.User
		for i := range notify.MaxUsersPerRun + 2 {
			id := fmt.Sprintf("u%04d", i) // the confirmed one, last, sorts after the others
			users = append(users, accounts.User{ID: id, Type: accounts.Distributor, Email: id + "@magasin.fr", EmailKey: id + "@magasin.fr",
				Name: "Magasin " + id, PasswordHash: "x", DeliveryDays: "0000000"})
		}
		confirmed := users[len(users)-1].ID
		if err := db.Tx(ctx, func(tx *sqlx.Tx) error { return accounts.InsertAll(ctx, tx, users) }); err != nil {
			t.Fatal(err)
		}
		if _, err := store.Exec(ctx, db, `UPDATE people SET email_confirmed = '' WHERE id <> ?`, confirmed); err != nil {
			t.Fatal(err)
		}
		for _, u := range users {
			if err := notify.Queue(ctx, db, notify.Item{UserID: u.ID, Kind: notify.Claim, Line: "Une réclamation.", Link: "/x", At: at}); err != nil {
				t.Fatal(err)
			}
		}
		digestsOf := func(step string, now time.Time, want ...string) {
			t.Helper()
			if got := gatheredFor(t, db, now, time.UTC); !slices.Equal(got, want) {
				t.Fatalf("%s: digests of %v, want %v", step, got, want)
			}
		}
		digestsOf("the first run", at.Add(time.Minute), confirmed)
		if _, err := store.Exec(ctx, db, `UPDATE people SET email_confirmed = email_key WHERE id = ?`, users[0].ID); err != nil {
			t.Fatal(err)
		}
		digestsOf("once one more confirmed", at.Add(6*time.Minute), users[0].ID)
	})
}

// TestWaitingUsersDoNotHoldTheOthersBack: users whose lines are not due
// yet — a digest sent less than Every ago, or a daily kind before the
// DailyHour (local time, here Paris) — may be more than one gathering takes
// (MaxUsersPerRun) before a user whose lines are due: they are not taken
// while they wait, so that user gets its digest on the first run; once
// their time has come they are taken, in id order, MaxUsersPerRun a run.
func TestWaitingUsersDoNotHoldTheOthersBack(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		// wait makes every user but due wait, at queued, until later.
		wait          func(ctx context.Context, db *store.DB, due string) error
		queued, first time.Time
		later         time.Time
	}{
		{
			name: "a digest sent less than an hour ago",
			wait: func(ctx context.Context, db *store.DB, due string) error {
				_, err := store.Exec(ctx, db, `UPDATE members SET digest_at = ? WHERE org_id <> ?`,
					time.Date(2026, 11, 26, 9, 30, 0, 0, paris).UnixMilli(), due)
				return err
			},
			queued: time.Date(2026, 11, 26, 9, 45, 0, 0, paris),
			first:  time.Date(2026, 11, 26, 10, 0, 0, 0, paris),
			later:  time.Date(2026, 11, 26, 10, 31, 0, 0, paris),
		},
		{
			name: "a daily kind before 7h",
			wait: func(ctx context.Context, db *store.DB, due string) error {
				_, err := store.Exec(ctx, db, `INSERT INTO member_prefs (person_id, org_id, kind, mode)
					SELECT person_id, org_id, ?, ? FROM members WHERE org_id <> ?`, notify.Claim, notify.Daily, due)
				return err
			},
			queued: time.Date(2026, 11, 26, 9, 0, 0, 0, paris),
			first:  time.Date(2026, 11, 27, 6, 55, 0, 0, paris), // 5h55 UTC
			later:  time.Date(2026, 11, 27, 7, 0, 0, 0, paris),  // 6h UTC
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				ctx := context.Background()
				var users []accounts.User
				var waiting []string
				for i := range notify.MaxUsersPerRun + 2 {
					id := fmt.Sprintf("u%04d", i) // the due one, last, sorts after the others
					users = append(users, accounts.User{ID: id, Type: accounts.Distributor, Email: id + "@magasin.fr", EmailKey: id + "@magasin.fr",
						Name: "Magasin " + id, PasswordHash: "x", DeliveryDays: "0000000"})
					waiting = append(waiting, id)
				}
				due := waiting[len(waiting)-1]
				waiting = waiting[:len(waiting)-1]
				if err := db.Tx(ctx, func(tx *sqlx.Tx) error { return accounts.InsertAll(ctx, tx, users) }); err != nil {
					t.Fatal(err)
				}
				if err := c.wait(ctx, db, due); err != nil {
					t.Fatal(err)
				}
				for _, u := range users {
					if err := notify.Queue(ctx, db, notify.Item{UserID: u.ID, Kind: notify.Claim, Line: "Une réclamation.", Link: "/x", At: c.queued}); err != nil {
						t.Fatal(err)
					}
				}
				digestsOf := func(step string, now time.Time, want ...string) {
					t.Helper()
					if got := gatheredFor(t, db, now, paris); !slices.Equal(got, want) {
						t.Fatalf("%s: %d digests %v, want %d %v", step, len(got), got, len(want), want)
					}
				}
				digestsOf("while the others wait", c.first, due)
				digestsOf("still waiting", c.first.Add(time.Minute))
				digestsOf("once due", c.later, waiting[:notify.MaxUsersPerRun]...)
				digestsOf("the run after", c.later.Add(5*time.Minute), waiting[notify.MaxUsersPerRun:]...)
			})
		})
	}
}

// gatheredFor runs notify.Gather at now and returns the users of the
// digests it made, sorted.
func gatheredFor(t *testing.T, db *store.DB, now time.Time, loc *time.Location) []string {
	t.Helper()
	ctx := context.Background()
	made, err := notify.Gather(ctx, db, now, loc)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := store.SelectIn(ctx, db, &got, `SELECT user_id FROM digests WHERE id IN (?) ORDER BY user_id`, append(made, "")); err != nil {
		t.Fatal(err)
	}
	return got
}
