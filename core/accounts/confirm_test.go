package accounts_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/limit"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// tc is the time of the confirmation tests.
var tc = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// signUp registers a visitor's account from client (password "motdepasse1")
// and returns it with its confirmation link.
func signUp(t *testing.T, db *store.DB, email string, shop bool, client string) (accounts.User, accounts.Confirmation) {
	t.Helper()
	u, _, c, err := accounts.SignUp(context.Background(), db, accounts.Registration{
		Email: email, Password: "motdepasse1", Name: "Entreprise " + email, Distributor: shop,
	}, client, 0, tc)
	if err != nil {
		t.Fatal(err)
	}
	return u, c
}

// wantInvalid fails unless err is a core.ValidationError carrying msg on
// field.
func wantInvalid(t *testing.T, step string, err error, field, msg string) {
	t.Helper()
	var v *core.ValidationError
	if !errors.As(err, &v) || !slices.Contains(v.Fields, core.FieldError{Field: field, Message: msg}) {
		t.Fatalf("%s: %v, want %s: %s", step, err, field, msg)
	}
}

// reload reads u's row again.
func reload(t *testing.T, db *store.DB, id string) accounts.User {
	t.Helper()
	u, err := accounts.ByID(context.Background(), db, id)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// registered is an account made by Register (password "motdepasse1"),
// as stored: Register returns the user before Insert completes it (its
// confirmed addresses, its default terms).
func registered(t *testing.T, db *store.DB, email string, shop bool) accounts.User {
	t.Helper()
	return reload(t, db, register(t, db, email, shop).ID)
}

// unchanged fails when the users row of before changed.
func unchanged(t *testing.T, db *store.DB, step string, before accounts.User) {
	t.Helper()
	if after := reload(t, db, before.ID); !reflect.DeepEqual(after, before) {
		t.Fatalf("%s changed the account:\n%+v\nwas\n%+v", step, after, before)
	}
}

// links counts the email_confirmations rows of a user.
func links(t *testing.T, db *store.DB, userID string) int {
	t.Helper()
	var n int
	if err := store.Get(context.Background(), db, &n, `SELECT COUNT(*) FROM email_confirmations WHERE user_id = ?`, userID); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSignUpConfirmation: a visitor's login email is unconfirmed until its
// link is opened, the link is to the address typed and the table keeps
// only its token's SHA-256; accounts made by Register or Insert (the admin
// command, the demo) count as confirmed.
func TestSignUpConfirmation(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		u, c := signUp(t, db, "  Ferme@Aravis.fr ", false, "10.0.0.1")
		if u.EmailConfirmed() || u.EmailConfirmedKey != "" {
			t.Fatalf("a signed-up account is confirmed: %+v", u)
		}
		if got := reload(t, db, u.ID); got.EmailConfirmed() || got.EmailConfirmedKey != "" || got.EmailKey != "ferme@aravis.fr" {
			t.Fatalf("stored as confirmed: %+v", got)
		}
		if c.Purpose != accounts.ConfirmAccount || c.Email != "Ferme@Aravis.fr" || c.User.ID != u.ID || len(c.Token) < 40 {
			t.Fatalf("confirmation = %+v", c)
		}

		var rows []struct {
			TokenHash string `db:"token_hash"`
			UserID    string `db:"user_id"`
			Purpose   string `db:"purpose"`
			Email     string `db:"email"`
			CreatedAt int64  `db:"created_at"`
			ExpiresAt int64  `db:"expires_at"`
			UsedAt    *int64 `db:"used_at"`
		}
		if err := store.Select(ctx, db, &rows, `SELECT token_hash, user_id, purpose, email, created_at, expires_at, used_at FROM email_confirmations`); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(c.Token))
		if len(rows) != 1 {
			t.Fatalf("%d links stored", len(rows))
		}
		r := rows[0]
		if r.TokenHash != hex.EncodeToString(sum[:]) || r.UserID != u.ID || r.Purpose != accounts.ConfirmAccount ||
			r.Email != "Ferme@Aravis.fr" || r.UsedAt != nil || r.ExpiresAt != tc.Add(accounts.ConfirmValid).UnixMilli() {
			t.Fatalf("stored link %+v", r)
		}
		if strings.Contains(r.TokenHash+r.UserID+r.Purpose+r.Email, c.Token) {
			t.Fatalf("the token itself is stored: %+v", r)
		}

		// Register (the admin command, tests) and Insert (the demo).
		p := register(t, db, "Producteur@Aravis.fr", false)
		s := register(t, db, "magasin@aravis.fr", true)
		demo := accounts.User{
			ID: core.NewID(), Type: accounts.Distributor, Email: "Demo@Aravis.fr", EmailKey: "demo@aravis.fr",
			Name: "Démo", DeliveryDays: "0000000",
			CreatedAt: tc.UnixMilli(), UpdatedAt: tc.UnixMilli(),
		}
		if err := accounts.Insert(ctx, db, demo); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{p.ID, s.ID, demo.ID} {
			got := reload(t, db, id)
			if !got.EmailConfirmed() {
				t.Fatalf("%s: not confirmed", got.Email)
			}
			if n := links(t, db, id); n != 0 {
				t.Fatalf("%s: %d links", got.Email, n)
			}
		}
	})
}

// TestConfirmAccount: the link confirms the login email once, within
// ConfirmValid; a used, expired, unknown or empty link is refused with
// MsgConfirmInvalid on "token" and changes nothing.
func TestConfirmAccount(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		u, c := signUp(t, db, "Ferme@Aravis.fr", false, "10.0.0.1")
		before := reload(t, db, u.ID)
		for _, bad := range []struct {
			name, token string
			at          time.Time
		}{
			{"an unknown token", "pas-un-jeton", tc},
			{"an empty token", "", tc},
			{"a link expired", c.Token, tc.Add(accounts.ConfirmValid + time.Second)},
			{"a link at its expiry", c.Token, tc.Add(accounts.ConfirmValid)},
		} {
			_, err := accounts.Confirm(ctx, db, bad.token, bad.at)
			wantInvalid(t, bad.name, err, "token", accounts.MsgConfirmInvalid)
			unchanged(t, db, bad.name, before)
		}

		at := tc.Add(accounts.ConfirmValid - time.Second)
		got, err := accounts.Confirm(ctx, db, c.Token, at)
		if err != nil {
			t.Fatal(err)
		}
		if got.Purpose != accounts.ConfirmAccount || got.Message() != accounts.MsgConfirmedAccount || got.OldEmail != "" ||
			got.User.ID != u.ID || !got.User.EmailConfirmed() || got.User.Email != "Ferme@Aravis.fr" {
			t.Fatalf("confirmed = %+v", got)
		}
		stored := reload(t, db, u.ID)
		if !stored.EmailConfirmed() || stored.EmailConfirmedKey != "ferme@aravis.fr" || stored.UpdatedAt != at.UnixMilli() {
			t.Fatalf("stored = %+v", stored)
		}
		var used *int64
		if err := store.Get(ctx, db, &used, `SELECT used_at FROM email_confirmations WHERE user_id = ?`, u.ID); err != nil || used == nil || *used != at.UnixMilli() {
			t.Fatalf("used_at = %v (%v)", used, err)
		}

		_, err = accounts.Confirm(ctx, db, c.Token, at)
		wantInvalid(t, "the link again", err, "token", accounts.MsgConfirmInvalid)
		unchanged(t, db, "the link again", stored)

		// A link to an address that is no longer the login email (changed
		// otherwise than by a change link) confirms nothing.
		v, vc := signUp(t, db, "ancienne@aravis.fr", false, "10.0.0.1")
		if _, err := store.Exec(ctx, db, `UPDATE users SET email = ?, email_key = ? WHERE id = ?`, "autre@aravis.fr", "autre@aravis.fr", v.ID); err != nil {
			t.Fatal(err)
		}
		moved := reload(t, db, v.ID)
		_, err = accounts.Confirm(ctx, db, vc.Token, tc)
		wantInvalid(t, "a link to a former login email", err, "token", accounts.MsgConfirmInvalid)
		unchanged(t, db, "a link to a former login email", moved)
	})
}

// TestResendConfirmation: a new link for an unconfirmed address ends the
// earlier one; a confirmed address or an unknown choice (the accounting
// email's among them, retired: issue 41) are refused; past MaxConfirmationsPerAccount in
// ConfirmWindow, the account is throttled.
func TestResendConfirmation(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		u, first := signUp(t, db, "ferme@aravis.fr", false, "10.0.0.1")
		second, err := accounts.ResendConfirmation(ctx, db, u, accounts.ConfirmAccount, tc.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if second.Purpose != accounts.ConfirmAccount || second.Email != "ferme@aravis.fr" || second.Token == first.Token {
			t.Fatalf("second link = %+v", second)
		}
		_, err = accounts.Confirm(ctx, db, first.Token, tc.Add(2*time.Minute))
		wantInvalid(t, "the earlier link", err, "token", accounts.MsgConfirmInvalid)
		if reload(t, db, u.ID).EmailConfirmed() {
			t.Fatal("the earlier link confirmed the account")
		}
		if _, err := accounts.Confirm(ctx, db, second.Token, tc.Add(2*time.Minute)); err != nil {
			t.Fatalf("the new link: %v", err)
		}
		confirmed := reload(t, db, u.ID)
		if !confirmed.EmailConfirmed() {
			t.Fatal("the new link did not confirm")
		}

		producer := registered(t, db, "producteur@aravis.fr", false)
		shop := registered(t, db, "magasin@aravis.fr", true)
		for _, bad := range []struct {
			name  string
			u     accounts.User
			which string
			msg   string
		}{
			{"a confirmed login email", confirmed, accounts.ConfirmAccount, accounts.MsgAlreadyConfirmed},
			{"a registered account", producer, accounts.ConfirmAccount, accounts.MsgAlreadyConfirmed},
			{"a shop's accounting email, retired", shop, "accounting", "Choisissez l'adresse à confirmer."},
			{"no choice", u, "", "Choisissez l'adresse à confirmer."},
			{"an unknown choice", u, "login", "Choisissez l'adresse à confirmer."},
			{"a change", u, accounts.ConfirmChange, "Choisissez l'adresse à confirmer."},
		} {
			before := links(t, db, bad.u.ID)
			_, err := accounts.ResendConfirmation(ctx, db, bad.u, bad.which, tc)
			wantInvalid(t, bad.name, err, "which", bad.msg)
			if n := links(t, db, bad.u.ID); n != before {
				t.Fatalf("%s: %d links, was %d", bad.name, n, before)
			}
		}

		// Throttled per account.
		v, _ := signUp(t, db, "boutique@aravis.fr", true, "10.0.0.2")
		var last accounts.Confirmation
		for i := range accounts.MaxConfirmationsPerAccount {
			if last, err = accounts.ResendConfirmation(ctx, db, v, accounts.ConfirmAccount, tc.Add(time.Duration(i)*time.Minute)); err != nil {
				t.Fatalf("link %d: %v", i+1, err)
			}
		}
		_, err = accounts.ResendConfirmation(ctx, db, v, accounts.ConfirmAccount, tc.Add(10*time.Minute))
		var refusal *core.Refusal
		var later *limit.Later
		if !errors.Is(err, core.ErrThrottled) || !errors.As(err, &refusal) || refusal.Message != accounts.MsgConfirmThrottled ||
			!errors.As(err, &later) || later.After <= 0 || later.After > accounts.ConfirmWindow {
			t.Fatalf("link %d: %v", accounts.MaxConfirmationsPerAccount+1, err)
		}
		// The refused request made no link and ended none; the other
		// account is not concerned.
		if n := links(t, db, v.ID); n != 1+accounts.MaxConfirmationsPerAccount {
			t.Fatalf("%d links after the refusal", n)
		}
		w, _ := signUp(t, db, "epicerie@aravis.fr", true, "10.0.0.2")
		if _, err := accounts.ResendConfirmation(ctx, db, w, accounts.ConfirmAccount, tc.Add(10*time.Minute)); err != nil {
			t.Fatalf("another account: %v", err)
		}
		again, err := accounts.ResendConfirmation(ctx, db, v, accounts.ConfirmAccount, tc.Add(accounts.ConfirmWindow))
		if err != nil {
			t.Fatalf("a window later: %v", err)
		}
		_, err = accounts.Confirm(ctx, db, last.Token, tc.Add(accounts.ConfirmWindow))
		wantInvalid(t, "the link before the window", err, "token", accounts.MsgConfirmInvalid)
		if _, err := accounts.Confirm(ctx, db, again.Token, tc.Add(accounts.ConfirmWindow)); err != nil {
			t.Fatalf("the link after the window: %v", err)
		}
	})
}

// TestEmailChange: a new login email needs the current password and
// another valid address, and replaces the old one only once its link is
// opened; then the new one logs in, the old one no more, and the
// account's earlier links (reset, confirmation) are dead. (A taken
// address: TestEmailChangeTakenAnswersAlike, credentials_test.go.)
func TestEmailChange(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		u := registered(t, db, "Ancienne@Aravis.fr", false)
		reset, ok, err := requestReset(ctx, db, "ancienne@aravis.fr", "10.0.0.9", tc)
		if err != nil || !ok {
			t.Fatalf("reset: %v %v", ok, err)
		}

		for _, bad := range []struct {
			name, current, email string
			field, msg           string
		}{
			{"a wrong password", "mauvais123", "nouvelle@aravis.fr", "current", accounts.MsgCurrentWrong},
			{"no password", "", "nouvelle@aravis.fr", "current", accounts.MsgCurrentRequired},
			{"the same address", "motdepasse1", "ancienne@aravis.fr", "email", accounts.MsgEmailUnchanged},
			{"the same address in capitals", "motdepasse1", " ANCIENNE@ARAVIS.FR ", "email", accounts.MsgEmailUnchanged},
			{"an invalid address", "motdepasse1", "pas-une-adresse", "email", accounts.MsgEmailInvalid},
			{"no address", "motdepasse1", "  ", "email", accounts.MsgEmailRequired},
		} {
			_, err := accounts.RequestEmailChange(ctx, db, u, bad.current, bad.email, "10.0.0.1", tc)
			wantInvalid(t, bad.name, err, bad.field, bad.msg)
			unchanged(t, db, bad.name, u)
			if n := links(t, db, u.ID); n != 0 {
				t.Fatalf("%s: %d links", bad.name, n)
			}
		}

		// A first request, then a second: only the second link lives.
		first, err := accounts.RequestEmailChange(ctx, db, u, "motdepasse1", "premiere@aravis.fr", "10.0.0.1", tc)
		if err != nil {
			t.Fatal(err)
		}
		c, err := accounts.RequestEmailChange(ctx, db, u, "motdepasse1", " Nouvelle@Aravis.fr ", "10.0.0.1", tc.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if c.Purpose != accounts.ConfirmChange || c.Email != "Nouvelle@Aravis.fr" || c.User.ID != u.ID {
			t.Fatalf("change link = %+v", c)
		}
		unchanged(t, db, "a change not confirmed yet", u)
		if pending, err := accounts.PendingEmail(ctx, db, u.ID, tc.Add(2*time.Minute)); err != nil || pending != "Nouvelle@Aravis.fr" {
			t.Fatalf("pending = %q (%v)", pending, err)
		}
		if pending, err := accounts.PendingEmail(ctx, db, u.ID, tc.Add(time.Minute+accounts.ConfirmValid)); err != nil || pending != "" {
			t.Fatalf("pending once expired = %q (%v)", pending, err)
		}
		if _, _, err := accounts.Login(ctx, db, "nouvelle@aravis.fr", "motdepasse1", "10.0.0.1", tc.Add(time.Minute)); !errors.Is(err, core.ErrUnauthenticated) {
			t.Fatalf("the new email logs in before its confirmation: %v", err)
		}
		_, err = accounts.Confirm(ctx, db, first.Token, tc.Add(2*time.Minute))
		wantInvalid(t, "the first change link", err, "token", accounts.MsgConfirmInvalid)
		unchanged(t, db, "the first change link", u)

		at := tc.Add(3 * time.Minute)
		got, err := accounts.Confirm(ctx, db, c.Token, at)
		if err != nil {
			t.Fatal(err)
		}
		if got.Purpose != accounts.ConfirmChange || got.Message() != accounts.MsgConfirmedChange || got.OldEmail != "Ancienne@Aravis.fr" ||
			got.User.Email != "Nouvelle@Aravis.fr" || got.User.EmailKey != "nouvelle@aravis.fr" || !got.User.EmailConfirmed() {
			t.Fatalf("confirmed = %+v", got)
		}
		stored := reload(t, db, u.ID)
		if stored.Email != "Nouvelle@Aravis.fr" || stored.EmailKey != "nouvelle@aravis.fr" || !stored.EmailConfirmed() {
			t.Fatalf("stored = %+v", stored)
		}
		if pending, err := accounts.PendingEmail(ctx, db, u.ID, at); err != nil || pending != "" {
			t.Fatalf("pending after the confirmation = %q (%v)", pending, err)
		}
		if _, err := accounts.ByEmail(ctx, db, "ancienne@aravis.fr"); !errors.Is(err, core.ErrNotFound) {
			t.Fatalf("the old email still finds an account: %v", err)
		}
		if got, _, err := accounts.Login(ctx, db, "NOUVELLE@aravis.fr", "motdepasse1", "10.0.0.1", at); err != nil || got.ID != u.ID {
			t.Fatalf("login with the new email: %v", err)
		}
		if _, _, err := accounts.Login(ctx, db, "ancienne@aravis.fr", "motdepasse1", "10.0.0.1", at); !errors.Is(err, core.ErrUnauthenticated) {
			t.Fatalf("login with the old email: %v", err)
		}
		_, err = accounts.ResetPassword(ctx, db, reset.Token, "nouveau123", nil, at)
		wantInvalid(t, "a reset link asked before the change", err, "token", accounts.MsgResetInvalid)
		_, err = accounts.Confirm(ctx, db, c.Token, at)
		wantInvalid(t, "the change link again", err, "token", accounts.MsgConfirmInvalid)
		unchanged(t, db, "the change link again", stored)
	})
}

// TestEmailChangeUnconfirmed: a visitor who changes the email before
// confirming it gets the new one confirmed by its link, and the link sent
// at registration, to the old address, dies.
func TestEmailChangeUnconfirmed(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		u, signup := signUp(t, db, "faute@aravis.fr", false, "10.0.0.1")
		c, err := accounts.RequestEmailChange(ctx, db, u, "motdepasse1", "juste@aravis.fr", "10.0.0.1", tc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := accounts.Confirm(ctx, db, c.Token, tc.Add(time.Minute))
		if err != nil || got.User.Email != "juste@aravis.fr" || !got.User.EmailConfirmed() || got.OldEmail != "faute@aravis.fr" {
			t.Fatalf("confirmed = %+v (%v)", got, err)
		}
		stored := reload(t, db, u.ID)
		var live []string
		if err := store.Select(ctx, db, &live, `SELECT purpose || ' ' || email FROM email_confirmations WHERE user_id = ? AND used_at IS NULL`, u.ID); err != nil ||
			len(live) != 1 || live[0] != accounts.ConfirmRevert+" faute@aravis.fr" {
			t.Fatalf("links still live after the change: %v (%v), want only the way back", live, err)
		}
		_, err = accounts.Confirm(ctx, db, signup.Token, tc.Add(time.Minute))
		wantInvalid(t, "the registration link to the old address", err, "token", accounts.MsgConfirmInvalid)
		unchanged(t, db, "the registration link to the old address", stored)
	})
}

// TestEmailChangeTaken: when another account takes the new address
// between the request and the link, the link is refused with
// MsgEmailTaken and neither account changes.
func TestEmailChangeTaken(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		u := registered(t, db, "ferme@aravis.fr", false)
		c, err := accounts.RequestEmailChange(ctx, db, u, "motdepasse1", "convoitee@aravis.fr", "10.0.0.1", tc)
		if err != nil {
			t.Fatal(err)
		}
		other := registered(t, db, "Convoitee@Aravis.FR", true)
		before := reload(t, db, u.ID)
		_, err = accounts.Confirm(ctx, db, c.Token, tc.Add(time.Minute))
		wantInvalid(t, "an address taken meanwhile", err, "token", accounts.MsgEmailTaken)
		unchanged(t, db, "an address taken meanwhile", before)
		unchanged(t, db, "an address taken meanwhile", other)
		if _, _, err := accounts.Login(ctx, db, "ferme@aravis.fr", "motdepasse1", "10.0.0.1", tc.Add(time.Minute)); err != nil {
			t.Fatalf("the old email no longer logs in: %v", err)
		}
	})
}

// TestAccountingLinksAreDead: a link of the shops' accounting email,
// retired with it (issue 41, migrations 72 and 74), confirms nothing:
// MsgConfirmInvalid, nothing changed.
func TestAccountingLinksAreDead(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		shop := registered(t, db, "magasin@aravis.fr", true)
		sum := sha256.Sum256([]byte("lien-de-la-comptabilite"))
		if _, err := store.Exec(ctx, db, `INSERT INTO email_confirmations (token_hash, user_id, purpose, email, email_key, created_at, expires_at)
			VALUES (?, ?, 'accounting', 'compta@aravis.fr', 'compta@aravis.fr', ?, ?)`,
			hex.EncodeToString(sum[:]), shop.ID, tc.UnixMilli(), tc.Add(accounts.ConfirmValid).UnixMilli()); err != nil {
			t.Fatal(err)
		}
		before := storetest.Snapshot(t, db)
		_, err := accounts.Confirm(ctx, db, "lien-de-la-comptabilite", tc.Add(time.Minute))
		wantInvalid(t, "an accounting link", err, "token", accounts.MsgConfirmInvalid)
		if after := storetest.Snapshot(t, db); after != before {
			t.Fatalf("an accounting link changed the database:\n%s", storetest.Changes(before, after))
		}
	})
}

// TestConfirmedAddresses: of the addresses given, those confirmed as a
// login, whatever their case, in the order given.
func TestConfirmedAddresses(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		registered(t, db, "Confirme@Aravis.fr", false)
		waiting, wc := signUp(t, db, "attente@aravis.fr", false, "10.0.0.1")
		registered(t, db, "magasin@aravis.fr", true)

		addrs := []string{"inconnu@aravis.fr", "attente@aravis.fr", " confirme@ARAVIS.fr", "", "magasin@aravis.fr"}
		check := func(step string, want []string) {
			t.Helper()
			got, err := accounts.ConfirmedAddresses(ctx, db, addrs)
			if err != nil || !slices.Equal(got, want) {
				t.Fatalf("%s: %q (%v), want %q", step, got, err, want)
			}
		}
		check("before the links", []string{" confirme@ARAVIS.fr", "magasin@aravis.fr"})
		if _, err := accounts.Confirm(ctx, db, wc.Token, tc.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		check("after the links", []string{"attente@aravis.fr", " confirme@ARAVIS.fr", "magasin@aravis.fr"})

		// A login email replaced is confirmed no more, its successor is.
		change, err := accounts.RequestEmailChange(ctx, db, reload(t, db, waiting.ID), "motdepasse1", "Partie@Aravis.fr", "10.0.0.1", tc.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := accounts.Confirm(ctx, db, change.Token, tc.Add(2*time.Minute)); err != nil {
			t.Fatal(err)
		}
		addrs = append(addrs, "partie@aravis.FR")
		check("after a change", []string{" confirme@ARAVIS.fr", "magasin@aravis.fr", "partie@aravis.FR"})

		for _, none := range [][]string{nil, {}, {"", "  "}, {"inconnu@aravis.fr"}} {
			if got, err := accounts.ConfirmedAddresses(ctx, db, none); err != nil || len(got) != 0 {
				t.Fatalf("%q: %q (%v)", none, got, err)
			}
		}
	})
}
