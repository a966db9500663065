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

// liveLinks are the purposes and addresses of a user's live confirmation
// links, sorted.
func liveLinks(t *testing.T, db *store.DB, userID string, now time.Time) []string {
	t.Helper()
	var live []string
	if err := store.Select(context.Background(), db, &live, `SELECT purpose || ' ' || email FROM email_confirmations
		WHERE user_id = ? AND used_at IS NULL AND expires_at > ? ORDER BY purpose, email`, userID, now.UnixMilli()); err != nil {
		t.Fatal(err)
	}
	return live
}

// sessionsOf counts a user's sessions.
func sessionsOf(t *testing.T, db *store.DB, userID string) int {
	t.Helper()
	var n int
	if err := store.Get(context.Background(), db, &n, `SELECT COUNT(*) FROM sessions WHERE user_id = ?`, userID); err != nil {
		t.Fatal(err)
	}
	return n
}

// changeEmail asks for and confirms a new login email for u at now,
// returning what the confirmation did.
func changeEmail(t *testing.T, db *store.DB, u accounts.User, password, email string, now time.Time) accounts.Confirmed {
	t.Helper()
	ctx := context.Background()
	c, err := accounts.RequestEmailChange(ctx, db, u, password, email, "10.0.9.9", now)
	if err != nil || c.Taken {
		t.Fatalf("change to %s: %+v (%v)", email, c, err)
	}
	got, err := accounts.Confirm(ctx, db, c.Token, now)
	if err != nil {
		t.Fatalf("confirm %s: %v", email, err)
	}
	return got
}

// TestNewPasswordEndsTheSideDoors: whichever way a password is set — a
// reset link, the profile, the administrator — the account's sessions end
// (but the profile's own), and its links: a pending change of the login
// email (the takeover of issue 33: the link cannot be opened after) and
// reset links. The way back of an earlier change stays.
func TestNewPasswordEndsTheSideDoors(t *testing.T) {
	ctx := context.Background()
	for _, way := range []struct {
		name string
		// set sets "nouveau123" for u, keeping the session of keep when it
		// can, and returns the sessions it keeps.
		set func(t *testing.T, db *store.DB, u accounts.User, keep string, now time.Time) int
	}{
		{"a reset link", func(t *testing.T, db *store.DB, u accounts.User, _ string, now time.Time) int {
			r, ok, err := requestReset(ctx, db, u.Email, "10.0.0.5", now)
			if !ok || err != nil {
				t.Fatalf("reset link: %v %v", ok, err)
			}
			if _, err := accounts.ResetPassword(ctx, db, r.Token, "nouveau123", nil, now); err != nil {
				t.Fatal(err)
			}
			return 0
		}},
		{"the profile", func(t *testing.T, db *store.DB, u accounts.User, keep string, now time.Time) int {
			if err := accounts.ChangePassword(ctx, db, u, "motdepasse1", "nouveau123", nil, "10.0.0.5", keep, now); err != nil {
				t.Fatal(err)
			}
			return 1
		}},
		{"the administrator", func(t *testing.T, db *store.DB, u accounts.User, _ string, now time.Time) int {
			if err := accounts.SetPassword(ctx, db, u.Email, "nouveau123", now); err != nil {
				t.Fatal(err)
			}
			return 0
		}},
	} {
		t.Run(way.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				// An account whose email changed once: a way back to the
				// first address.
				first := registered(t, db, "premiere@aravis.fr", true)
				changeEmail(t, db, first, "motdepasse1", "proprio@aravis.fr", tc)
				u := reload(t, db, first.ID)
				at := tc.Add(time.Hour)
				keep, err := accounts.NewSession(ctx, db, u.ID, at)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := accounts.NewSession(ctx, db, u.ID, at); err != nil {
					t.Fatal(err)
				}
				// Whoever learnt the password asks for their own address,
				// and an earlier reset link waits.
				taking, err := accounts.RequestEmailChange(ctx, db, u, "motdepasse1", "pirate@exemple.fr", "10.6.6.6", at)
				if err != nil {
					t.Fatal(err)
				}
				earlier, _, err := requestReset(ctx, db, u.Email, "10.0.0.4", at)
				if err != nil {
					t.Fatal(err)
				}
				if got := liveLinks(t, db, u.ID, at); len(got) != 2 || got[0] != "change pirate@exemple.fr" || got[1] != "revert premiere@aravis.fr" {
					t.Fatalf("links before: %v", got)
				}

				kept := way.set(t, db, u, keep, at.Add(time.Minute))

				then := at.Add(2 * time.Minute)
				if got := liveLinks(t, db, u.ID, then); len(got) != 1 || got[0] != "revert premiere@aravis.fr" {
					t.Fatalf("links after: %v, want the way back alone", got)
				}
				if pending, err := accounts.PendingEmail(ctx, db, u.ID, then); err != nil || pending != "" {
					t.Fatalf("pending after: %q (%v)", pending, err)
				}
				if n := sessionsOf(t, db, u.ID); n != kept {
					t.Fatalf("%d sessions after, want %d", n, kept)
				}
				if kept == 1 {
					if _, err := accounts.SessionUser(ctx, db, keep, then); err != nil {
						t.Fatalf("the profile's own session: %v", err)
					}
				}
				before := reload(t, db, u.ID)
				_, err = accounts.Confirm(ctx, db, taking.Token, then)
				wantInvalid(t, "the pending change's link", err, "token", accounts.MsgConfirmInvalid)
				unchanged(t, db, "the pending change's link", before)
				_, err = accounts.ResetPassword(ctx, db, earlier.Token, "pirate123", nil, then)
				wantInvalid(t, "the earlier reset link", err, "token", accounts.MsgResetInvalid)
				unchanged(t, db, "the earlier reset link", before)
				if got, _, err := accounts.Login(ctx, db, "proprio@aravis.fr", "nouveau123", "10.0.0.1", then); err != nil || got.ID != u.ID {
					t.Fatalf("the owner's new password: %v", err)
				}
			})
		})
	}
}

// TestRevertEmail: a confirmed change sends the replaced address a way
// back. While it lives the address is held: no other account registers it
// or changes to it. Whoever took the account can chain changes and reset
// the password: the owner's way back still works, restores the address
// (confirmed), voids the password, ends every session and link — the
// taker's later ways back with them — and gives a reset link to the
// restored address. It works once; the taker's own way back cannot undo
// the owner's; a way back is no confirmation link.
func TestRevertEmail(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		u := registered(t, db, "Proprio@Aravis.fr", true)
		taken := changeEmail(t, db, u, "motdepasse1", "pirate@exemple.fr", tc)
		if taken.OldEmail != "Proprio@Aravis.fr" || len(taken.Revert) < 40 {
			t.Fatalf("confirmed: %+v", taken)
		}

		// The old address is held.
		if _, err := accounts.Register(ctx, db, accounts.Registration{Email: "proprio@aravis.fr", Password: "motdepasse1", Name: "Autre"}, tc); !errors.Is(err, core.ErrConflict) {
			t.Fatalf("registering the held address: %v", err)
		}
		if _, _, _, err := accounts.SignUp(ctx, db, accounts.Registration{Email: "PROPRIO@aravis.fr", Password: "motdepasse1", Name: "Autre"}, "10.0.0.7", 0, tc); !errors.Is(err, core.ErrConflict) {
			t.Fatalf("signing up with the held address: %v", err)
		}
		other := registered(t, db, "complice@exemple.fr", false)
		if c, err := accounts.RequestEmailChange(ctx, db, other, "motdepasse1", "proprio@aravis.fr", "10.6.6.7", tc); err != nil || !c.Taken {
			t.Fatalf("another account changing to the held address: %+v (%v)", c, err)
		}

		// The taker chains a second change and resets the password.
		at := tc.Add(time.Hour)
		second := changeEmail(t, db, reload(t, db, u.ID), "motdepasse1", "pirate2@exemple.fr", at)
		r, ok, err := requestReset(ctx, db, "pirate2@exemple.fr", "10.6.6.6", at)
		if err != nil || !ok {
			t.Fatalf("the taker's reset: %v %v", ok, err)
		}
		if _, err := accounts.ResetPassword(ctx, db, r.Token, "pirate123", nil, at); err != nil {
			t.Fatal(err)
		}
		if got := liveLinks(t, db, u.ID, at); len(got) != 2 || got[0] != "revert Proprio@Aravis.fr" || got[1] != "revert pirate@exemple.fr" {
			t.Fatalf("ways back after the taker's reset: %v", got)
		}
		taker, err := accounts.NewSession(ctx, db, u.ID, at)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := accounts.RequestEmailChange(ctx, db, reload(t, db, u.ID), "pirate123", "pirate3@exemple.fr", "10.6.6.6", at); err != nil {
			t.Fatal(err)
		}

		// A way back is no confirmation link; a forged one is refused.
		before := reload(t, db, u.ID)
		_, err = accounts.Confirm(ctx, db, taken.Revert, at)
		wantInvalid(t, "the way back as a confirmation", err, "token", accounts.MsgConfirmInvalid)
		for _, bad := range []string{"", "pas-un-jeton"} {
			_, err = accounts.RevertEmail(ctx, db, bad, at)
			wantInvalid(t, "a forged way back", err, "token", accounts.MsgRevertInvalid)
		}
		unchanged(t, db, "refused ways back", before)

		// The owner's way back.
		back := at.Add(time.Minute)
		got, err := accounts.RevertEmail(ctx, db, taken.Revert, back)
		if err != nil {
			t.Fatal(err)
		}
		if got.User.ID != u.ID || got.User.Email != "Proprio@Aravis.fr" || got.User.EmailKey != "proprio@aravis.fr" || !got.User.EmailConfirmed() ||
			got.Reset.User.Email != "Proprio@Aravis.fr" || len(got.Reset.Token) < 40 || got.Message() == "" {
			t.Fatalf("reverted: %+v", got)
		}
		if n := sessionsOf(t, db, u.ID); n != 0 {
			t.Fatalf("%d sessions after the way back", n)
		}
		if _, err := accounts.SessionUser(ctx, db, taker, back); !errors.Is(err, core.ErrUnauthenticated) {
			t.Fatalf("the taker's session: %v", err)
		}
		if got := liveLinks(t, db, u.ID, back); len(got) != 0 {
			t.Fatalf("links after the way back: %v", got)
		}
		for _, password := range []string{"motdepasse1", "pirate123"} {
			if _, _, err := accounts.Login(ctx, db, "proprio@aravis.fr", password, "10.0.0.1", back); !errors.Is(err, core.ErrUnauthenticated) {
				t.Fatalf("%s still logs in: %v", password, err)
			}
		}
		restored := reload(t, db, u.ID)
		_, err = accounts.RevertEmail(ctx, db, taken.Revert, back)
		wantInvalid(t, "the way back again", err, "token", accounts.MsgRevertInvalid)
		_, err = accounts.RevertEmail(ctx, db, second.Revert, back)
		wantInvalid(t, "the taker's way back", err, "token", accounts.MsgRevertInvalid)
		unchanged(t, db, "used ways back", restored)

		if _, err := accounts.ResetPassword(ctx, db, got.Reset.Token, "retrouve123", nil, back); err != nil {
			t.Fatal(err)
		}
		if got, _, err := accounts.Login(ctx, db, "proprio@aravis.fr", "retrouve123", "10.0.0.1", back); err != nil || got.ID != u.ID {
			t.Fatalf("the owner's new password: %v", err)
		}
		// The taker's addresses are free again.
		if _, err := accounts.Register(ctx, db, accounts.Registration{Email: "pirate@exemple.fr", Password: "motdepasse1", Name: "Autre"}, back); err != nil {
			t.Fatalf("the taker's address: %v", err)
		}
	})
}

// TestTakersWayBackCannotUndoTheOwners: the way back of a later change
// (sent to the taker's first address) restores that address, and leaves
// the owner's way back, of the earlier change, working.
func TestTakersWayBackCannotUndoTheOwners(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		u := registered(t, db, "proprio@aravis.fr", false)
		owners := changeEmail(t, db, u, "motdepasse1", "pirate@exemple.fr", tc)
		takers := changeEmail(t, db, reload(t, db, u.ID), "motdepasse1", "pirate2@exemple.fr", tc.Add(time.Minute))
		if _, err := accounts.RevertEmail(ctx, db, takers.Revert, tc.Add(2*time.Minute)); err != nil {
			t.Fatal(err)
		}
		got, err := accounts.RevertEmail(ctx, db, owners.Revert, tc.Add(3*time.Minute))
		if err != nil || got.User.Email != "proprio@aravis.fr" {
			t.Fatalf("the owner's way back after the taker's: %+v (%v)", got.User, err)
		}
	})
}

// TestWayBackExpires: past RevertValid the way back is refused and the
// old address is free.
func TestWayBackExpires(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		u := registered(t, db, "proprio@aravis.fr", false)
		c := changeEmail(t, db, u, "motdepasse1", "nouvelle@aravis.fr", tc)
		moved := reload(t, db, u.ID)
		late := tc.Add(accounts.RevertValid)
		_, err := accounts.RevertEmail(ctx, db, c.Revert, late)
		wantInvalid(t, "an expired way back", err, "token", accounts.MsgRevertInvalid)
		unchanged(t, db, "an expired way back", moved)
		if _, err := accounts.Register(ctx, db, accounts.Registration{Email: "proprio@aravis.fr", Password: "motdepasse1", Name: "Autre"}, late); err != nil {
			t.Fatalf("the old address once free: %v", err)
		}
	})
}

// TestEmailChangeTakenAnswersAlike: a change to another account's address
// answers as one to a free address — a link recorded, the address pending
// — marked Taken for the caller to tell that address instead; the link is
// never valid. Every request counts against the account's links, taken
// addresses too: past MaxConfirmationsPerAccount an hour, throttled.
func TestEmailChangeTakenAnswersAlike(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		u := registered(t, db, "ferme@aravis.fr", false)
		registered(t, db, "prise@aravis.fr", true)
		free, err := accounts.RequestEmailChange(ctx, db, u, "motdepasse1", "libre@aravis.fr", "10.0.0.1", tc)
		if err != nil || free.Taken || free.Email != "libre@aravis.fr" {
			t.Fatalf("a free address: %+v (%v)", free, err)
		}
		taken, err := accounts.RequestEmailChange(ctx, db, u, "motdepasse1", " Prise@Aravis.FR ", "10.0.0.1", tc)
		if err != nil || !taken.Taken || taken.Email != "Prise@Aravis.FR" || taken.Purpose != accounts.ConfirmChange {
			t.Fatalf("a taken address: %+v (%v)", taken, err)
		}
		if pending, err := accounts.PendingEmail(ctx, db, u.ID, tc); err != nil || pending != "Prise@Aravis.FR" {
			t.Fatalf("pending: %q (%v)", pending, err)
		}
		before := reload(t, db, u.ID)
		_, err = accounts.Confirm(ctx, db, taken.Token, tc)
		wantInvalid(t, "the taken address's link", err, "token", accounts.MsgEmailTaken)
		unchanged(t, db, "the taken address's link", before)

		for i := 2; i < accounts.MaxConfirmationsPerAccount; i++ {
			if _, err := accounts.RequestEmailChange(ctx, db, u, "motdepasse1", "prise@aravis.fr", "10.0.0.1", tc); err != nil {
				t.Fatalf("request %d: %v", i+1, err)
			}
		}
		n := links(t, db, u.ID)
		_, err = accounts.RequestEmailChange(ctx, db, u, "motdepasse1", "prise@aravis.fr", "10.0.0.1", tc)
		if !errors.Is(err, core.ErrThrottled) {
			t.Fatalf("request %d: %v", accounts.MaxConfirmationsPerAccount+1, err)
		}
		if links(t, db, u.ID) != n {
			t.Fatal("a throttled request made a link")
		}
	})
}
