package accounts_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

var t0 = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

func register(t *testing.T, db *store.DB, email string, shop bool) accounts.User {
	t.Helper()
	u, err := accounts.Register(context.Background(), db, accounts.Registration{
		Email: email, Password: "motdepasse1", Name: "Entreprise " + email, Distributor: shop,
	}, t0)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestRegister(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		p := register(t, db, "Ferme@Example.fr", false)
		if p.Type != accounts.Producer || p.BillingMandateAt == nil || p.HasDeliveryDays() {
			t.Fatalf("producer = %+v", p)
		}
		s := register(t, db, "shop@example.fr", true)
		if s.Type != accounts.Distributor || s.BillingMandateAt != nil {
			t.Fatalf("shop = %+v", s)
		}
		_, err := accounts.Register(ctx, db, accounts.Registration{Email: "ferme@example.FR", Password: "motdepasse1", Name: "x"}, t0)
		var r *core.Refusal
		if !errors.As(err, &r) || !errors.Is(err, core.ErrConflict) || r.Message != accounts.MsgEmailTaken {
			t.Fatalf("duplicate email (other case): %v", err)
		}
		got, err := accounts.ByEmail(ctx, db, "FERME@example.fr")
		if err != nil || got.ID != p.ID || got.Email != "Ferme@Example.fr" {
			t.Fatalf("ByEmail = %+v, %v", got, err)
		}
		if _, err := accounts.Register(ctx, db, accounts.Registration{Email: "x", Password: "short", Name: ""}, t0); err == nil {
			t.Fatal("invalid registration accepted")
		}
		all, err := accounts.List(ctx, db)
		if err != nil || len(all) != 2 {
			t.Fatalf("List = %d users, %v", len(all), err)
		}
	})
}

func TestLoginSessionsAndThrottling(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := register(t, db, "ferme@example.fr", false)

		_, token, err := accounts.Login(ctx, db, "FERME@example.fr", "motdepasse1", "10.0.0.1", t0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := accounts.SessionUser(ctx, db, token, t0.Add(time.Hour))
		if err != nil || got.ID != u.ID {
			t.Fatalf("SessionUser = %v, %v", got.ID, err)
		}
		// A second login gets a new token; both stay valid until logout.
		_, token2, err := accounts.Login(ctx, db, "ferme@example.fr", "motdepasse1", "10.0.0.1", t0)
		if err != nil || token2 == token {
			t.Fatalf("second login token %q (%v)", token2, err)
		}
		if err := accounts.EndSession(ctx, db, token); err != nil {
			t.Fatal(err)
		}
		if _, err := accounts.SessionUser(ctx, db, token, t0); !errors.Is(err, core.ErrUnauthenticated) {
			t.Fatalf("ended session still valid: %v", err)
		}
		// Idle expiry: used within 14 days it lives on; unused past it, it dies.
		if _, err := accounts.SessionUser(ctx, db, token2, t0.Add(13*24*time.Hour)); err != nil {
			t.Fatalf("session used on day 13: %v", err)
		}
		if _, err := accounts.SessionUser(ctx, db, token2, t0.Add(26*24*time.Hour)); err != nil {
			t.Fatalf("session extended on day 13 should live until day 27: %v", err)
		}
		if _, err := accounts.SessionUser(ctx, db, token2, t0.Add(41*24*time.Hour)); !errors.Is(err, core.ErrUnauthenticated) {
			t.Fatalf("idle session should have expired: %v", err)
		}
		// Used every 10 days, a session still ends 30 days after the login.
		_, token3, err := accounts.Login(ctx, db, "ferme@example.fr", "motdepasse1", "10.0.0.1", t0)
		if err != nil {
			t.Fatal(err)
		}
		for _, day := range []int{10, 20, 29} {
			if _, err := accounts.SessionUser(ctx, db, token3, t0.Add(time.Duration(day)*24*time.Hour)); err != nil {
				t.Fatalf("session used on day %d: %v", day, err)
			}
		}
		if _, err := accounts.SessionUser(ctx, db, token3, t0.Add(accounts.SessionMax)); !errors.Is(err, core.ErrUnauthenticated) {
			t.Fatalf("session past its maximum lifetime: %v", err)
		}
		if _, err := accounts.SessionUser(ctx, db, "forged", t0); !errors.Is(err, core.ErrUnauthenticated) {
			t.Fatalf("forged token: %v", err)
		}

		// Wrong password and unknown email read the same.
		_, _, errWrong := accounts.Login(ctx, db, "ferme@example.fr", "mauvais12", "10.0.0.2", t0)
		_, _, errUnknown := accounts.Login(ctx, db, "inconnu@example.fr", "mauvais12", "10.0.0.2", t0)
		for _, err := range []error{errWrong, errUnknown} {
			if !errors.Is(err, core.ErrUnauthenticated) || err.Error() != accounts.MsgBadCredentials {
				t.Fatalf("bad credentials: %v", err)
			}
		}
		if sessions, counts, err := accounts.PurgeSessions(ctx, db, t0.Add(90*24*time.Hour)); err != nil || sessions == 0 || counts == 0 {
			t.Fatalf("purge: %d sessions, %d counts, %v", sessions, counts, err)
		}
		var left int
		if err := store.Get(ctx, db, &left, `SELECT COUNT(*) FROM throttle`); err != nil || left != 0 {
			t.Fatalf("%d throttle rows left after their windows (%v)", left, err)
		}
	})
}

func TestUpdateProfileAndPassword(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := register(t, db, "ferme@example.fr", false)
		days := []bool{true, false, true, false, false, false, false}
		tel := "06 12 34 56 78"
		got, changed, err := accounts.UpdateProfile(ctx, db, u, accounts.ProfileUpdate{DefaultDeliveryDays: days, Tel: &tel}, t0.Add(time.Hour))
		if err != nil || !changed || got.DeliveryDays != "1010000" || got.Tel != "0612345678" {
			t.Fatalf("update = %+v changed=%v err=%v", got, changed, err)
		}
		stored, _ := accounts.ByID(ctx, db, u.ID)
		if stored.DeliveryDays != "1010000" || stored.Tel != "0612345678" || stored.UpdatedAt != t0.Add(time.Hour).UnixMilli() {
			t.Fatalf("stored = %+v", stored)
		}
		_, changed, err = accounts.UpdateProfile(ctx, db, stored, accounts.ProfileUpdate{DefaultDeliveryDays: days}, t0)
		if err != nil || changed {
			t.Fatalf("same days reported as changed=%v (%v)", changed, err)
		}
		bad := "abc"
		if _, _, err := accounts.UpdateProfile(ctx, db, stored, accounts.ProfileUpdate{SIRET: &bad, Tel: &tel}, t0); err == nil {
			t.Fatal("invalid SIRET accepted")
		}
		after, _ := accounts.ByID(ctx, db, u.ID)
		if after.SIRET != "" {
			t.Fatal("a refused update changed the profile")
		}

		_, token, _ := accounts.Login(ctx, db, "ferme@example.fr", "motdepasse1", "c", t0)
		if err := accounts.SetPassword(ctx, db, "ferme@example.fr", "short", t0); err == nil {
			t.Fatal("weak password accepted")
		}
		if err := accounts.SetPassword(ctx, db, "ferme@example.fr", "nouveau123", t0); err != nil {
			t.Fatal(err)
		}
		if _, err := accounts.SessionUser(ctx, db, token, t0); !errors.Is(err, core.ErrUnauthenticated) {
			t.Fatal("sessions must end when the password changes")
		}
		if _, _, err := accounts.Login(ctx, db, "ferme@example.fr", "nouveau123", "c", t0); err != nil {
			t.Fatal(err)
		}
	})
}
