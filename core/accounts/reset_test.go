package accounts_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
)

// requestReset is "Mot de passe oublié" as the daemon does it: the counts
// before the answer (AskReset), the account's link after (IssueReset).
func requestReset(ctx context.Context, db *store.DB, email, client string, now time.Time) (accounts.Reset, bool, error) {
	if err := accounts.AskReset(ctx, db, email, client, now); err != nil {
		return accounts.Reset{}, false, err
	}
	return accounts.IssueReset(ctx, db, email, now)
}

// TestPasswordReset: a request for an unknown email and one for a known
// one answer alike (no error, only ok differs, for the caller to keep to
// itself); the table keeps the token's SHA-256 only; the link sets a
// password of PRODUCT §5's rule, once, within the hour; it ends every
// session and every other link of the account; the old password no longer
// logs in, the new one does.
func TestPasswordReset(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
		u, _, _, err := accounts.SignUp(ctx, db, accounts.Registration{Email: "Ferme@Aravis.fr", Password: "ancien123", Name: "Ferme"}, "10.0.0.1", 0, now)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := accounts.NewSession(ctx, db, u.ID, now); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := requestReset(ctx, db, "personne@aravis.fr", "10.0.0.2", now); ok || err != nil {
			t.Fatalf("unknown email: ok %v, %v", ok, err)
		}
		first, ok, err := requestReset(ctx, db, "  ferme@aravis.FR ", "10.0.0.2", now)
		if !ok || err != nil || first.User.ID != u.ID || len(first.Token) < 40 {
			t.Fatalf("known email: %+v ok %v, %v", first, ok, err)
		}
		second, _, err := requestReset(ctx, db, "ferme@aravis.fr", "10.0.0.2", now.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		var hashes []string
		if err := store.Select(ctx, db, &hashes, `SELECT token_hash FROM password_resets ORDER BY created_at`); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(first.Token))
		if len(hashes) != 2 || hashes[0] != hex.EncodeToString(sum[:]) || strings.Contains(strings.Join(hashes, ""), first.Token) {
			t.Fatalf("stored %v", hashes)
		}

		invalid := func(step string, err error, field, msg string) {
			t.Helper()
			var v *core.ValidationError
			if !errors.As(err, &v) || !slices.Contains(v.Fields, core.FieldError{Field: field, Message: msg}) {
				t.Fatalf("%s: %v, want %s: %s", step, err, field, msg)
			}
		}
		_, err = accounts.ResetPassword(ctx, db, first.Token, "court", nil, now)
		invalid("a weak password", err, "password", accounts.MsgPasswordInvalid)
		other := "nouveau456"
		_, err = accounts.ResetPassword(ctx, db, first.Token, "nouveau123", &other, now)
		invalid("passwords that differ", err, "password2", accounts.MsgPasswordsDiffer)
		_, err = accounts.ResetPassword(ctx, db, "pas-un-jeton", "nouveau123", nil, now)
		invalid("an unknown token", err, "token", accounts.MsgResetInvalid)
		_, err = accounts.ResetPassword(ctx, db, first.Token, "nouveau123", nil, now.Add(accounts.ResetValid))
		invalid("an hour later", err, "token", accounts.MsgResetInvalid)

		got, err := accounts.ResetPassword(ctx, db, first.Token, "nouveau123", nil, now.Add(59*time.Minute))
		if err != nil || got.ID != u.ID {
			t.Fatalf("reset: %+v, %v", got, err)
		}
		var sessions int
		if err := store.Get(ctx, db, &sessions, `SELECT COUNT(*) FROM sessions WHERE user_id = ?`, u.ID); err != nil || sessions != 0 {
			t.Fatalf("%d sessions left (%v)", sessions, err)
		}
		_, err = accounts.ResetPassword(ctx, db, first.Token, "encore789", nil, now.Add(59*time.Minute))
		invalid("the link again", err, "token", accounts.MsgResetInvalid)
		_, err = accounts.ResetPassword(ctx, db, second.Token, "encore789", nil, now.Add(59*time.Minute))
		invalid("the other link", err, "token", accounts.MsgResetInvalid)

		later := now.Add(2 * time.Hour)
		if _, _, err := accounts.Login(ctx, db, "ferme@aravis.fr", "ancien123", "10.0.0.3", later); err == nil {
			t.Fatal("the old password still logs in")
		}
		if _, _, err := accounts.Login(ctx, db, "ferme@aravis.fr", "nouveau123", "10.0.0.3", later); err != nil {
			t.Fatalf("the new password: %v", err)
		}
		// The hourly purge takes the expired links away.
		if _, _, err := accounts.PurgeSessions(ctx, db, later); err != nil {
			t.Fatal(err)
		}
		var links int
		if err := store.Get(ctx, db, &links, `SELECT COUNT(*) FROM password_resets`); err != nil || links != 0 {
			t.Fatalf("%d links after the purge (%v)", links, err)
		}
	})
}

// TestPasswordResetThrottled: at most 3 requests an hour for one email —
// known or not, whoever asks — and 10 from one client; past them, 429.
func TestPasswordResetThrottled(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
		for i := range accounts.MaxResetsPerEmail {
			if err := accounts.AskReset(ctx, db, "personne@aravis.fr", "10.0.1."+string(rune('1'+i)), now); err != nil {
				t.Fatal(err)
			}
		}
		if err := accounts.AskReset(ctx, db, "Personne@aravis.fr", "10.0.2.1", now); !errors.Is(err, core.ErrThrottled) {
			t.Fatalf("a fourth request for the email: %v", err)
		}
		if err := accounts.AskReset(ctx, db, "personne@aravis.fr", "10.0.2.1", now.Add(accounts.ResetWindow)); err != nil {
			t.Fatalf("an hour later: %v", err)
		}
		for i := range accounts.MaxResetsPerAddress {
			if err := accounts.AskReset(ctx, db, "x"+string(rune('a'+i))+"@aravis.fr", "10.0.3.1", now); err != nil {
				t.Fatal(err)
			}
		}
		if err := accounts.AskReset(ctx, db, "y@aravis.fr", "10.0.3.1", now); !errors.Is(err, core.ErrThrottled) {
			t.Fatalf("an eleventh request from the address: %v", err)
		}
	})
}
