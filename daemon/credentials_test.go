package daemon_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

var revertLink = regexp.MustCompile(`/landing/revert#([A-Za-z0-9_-]{40,})`)

// revertToken is the token of the way back emailed to the replaced
// address email.
func revertToken(t *testing.T, dir, email string) string {
	t.Helper()
	m := revertLink.FindStringSubmatch(emailed(t, dir, "email-changed-*.eml", email))
	if m == nil {
		t.Fatalf("no way back to %s", email)
	}
	return m[1]
}

// TestPendingEmailChangeDiesWithANewPassword is issue 33's takeover:
// whoever learnt the password asks for their own address as the login
// email; the owner sets a new password — through "Mot de passe oublié" or
// from the profile —; the taker's confirmation link is then refused and
// changes nothing, the taker's session is over, the owner logs in with the
// new password and the address it had.
func TestPendingEmailChangeDiesWithANewPassword(t *testing.T) {
	t.Parallel()
	for _, way := range []struct {
		name string
		set  func(t *testing.T, s *daemontest.Server, owner *daemontest.Client)
	}{
		{"a reset link", func(t *testing.T, s *daemontest.Server, _ *daemontest.Client) {
			anon := s.Client()
			anon.Do("POST", "/auth/password/forgot", map[string]any{"email": "proprio@aravis.fr"}).Expect(t, http.StatusOK)
			_, token := resetLink(t, s.Config.DataDir, "proprio@aravis.fr")
			anon.Do("POST", "/auth/password/reset", map[string]any{"token": token, "password": "nouveau123"}).Expect(t, http.StatusOK)
		}},
		{"the profile", func(t *testing.T, _ *daemontest.Server, owner *daemontest.Client) {
			owner.Do("PUT", "/api/user/password", map[string]any{"current": daemontest.Password, "password": "nouveau123"}).
				Expect(t, http.StatusOK)
			owner.Do("GET", "/api/user", nil).Expect(t, http.StatusOK)
		}},
	} {
		t.Run(way.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				s := daemontest.New(t, db)
				owner, _ := s.Register("proprio@aravis.fr", "Ferme des Aravis", false)
				taker := s.ClientFrom("127.0.0.66")
				taker.Do("POST", "/auth/login", map[string]any{"email": "proprio@aravis.fr", "password": daemontest.Password}).
					Expect(t, http.StatusOK)
				taker.Do("PUT", "/api/user/email", map[string]any{"current": daemontest.Password, "email": "pirate@exemple.fr"}).
					Expect(t, http.StatusOK)
				link := confirmToken(t, s.Config.DataDir, "pirate@exemple.fr")

				way.set(t, s, owner)

				s.Refuses(t, []daemontest.Refused{{
					Name: "the taker's confirmation link", Client: s.ClientFrom("127.0.0.66"),
					Method: "POST", Path: "/auth/email/confirm", Body: map[string]any{"token": link},
					Status: http.StatusUnprocessableEntity, Detail: accounts.MsgConfirmInvalid, Location: "body.token",
				}})
				taker.Do("GET", "/api/user", nil).Expect(t, http.StatusUnauthorized)
				var p profile
				s.Client().Do("POST", "/auth/login", map[string]any{"email": "proprio@aravis.fr", "password": "nouveau123"}).
					Expect(t, http.StatusOK).JSON(t, &p)
				if p.User.Email != "proprio@aravis.fr" || p.User.EmailPending != "" {
					t.Fatalf("the owner's account: %+v", p.User)
				}
			})
		})
	}
}

// TestWayBackRestoresTheLoginEmail: the taker confirms its address before
// the owner notices; the old address is told, with a way back. Opened, it
// restores the address, ends every session (the taker's too), voids the
// password and emails the restored address a reset link, with which the
// owner gets the account back. It works once.
func TestWayBackRestoresTheLoginEmail(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		s.Config.Addr = "primeur.test:8080"
		owner, _ := s.Register("proprio@aravis.fr", "Ferme des Aravis", false)
		taker := s.ClientFrom("127.0.0.66")
		taker.Do("POST", "/auth/login", map[string]any{"email": "proprio@aravis.fr", "password": daemontest.Password}).
			Expect(t, http.StatusOK)
		taker.Do("PUT", "/api/user/email", map[string]any{"current": daemontest.Password, "email": "pirate@exemple.fr"}).
			Expect(t, http.StatusOK)
		taker.Do("POST", "/auth/email/confirm", map[string]any{"token": confirmToken(t, s.Config.DataDir, "pirate@exemple.fr")}).
			Expect(t, http.StatusOK)
		told := emailed(t, s.Config.DataDir, "email-changed-*.eml", "proprio@aravis.fr")
		if !strings.Contains(told, "http://primeur.test:8080/landing/revert#") || !strings.Contains(told, "valable 7 jours") {
			t.Fatalf("the old address's email:\n%s", told)
		}
		token := revertToken(t, s.Config.DataDir, "proprio@aravis.fr")
		// The old address is held: nobody registers it meanwhile.
		if p := s.Client().Do("POST", "/auth/register", map[string]any{"email": "proprio@aravis.fr", "password": daemontest.Password, "name": "Autre"}).
			Expect(t, http.StatusConflict).Problem(t); p.Detail != accounts.MsgEmailTaken {
			t.Fatalf("registering the held address: %+v", p)
		}

		anon := s.Client()
		var done struct{ Message string }
		anon.Do("POST", "/auth/email/revert", map[string]any{"token": token}).Expect(t, http.StatusOK).JSON(t, &done)
		if done.Message != fmt.Sprintf(accounts.MsgReverted, "proprio@aravis.fr") {
			t.Fatalf("answer %q", done.Message)
		}
		taker.Do("GET", "/api/user", nil).Expect(t, http.StatusUnauthorized)
		owner.Do("GET", "/api/user", nil).Expect(t, http.StatusUnauthorized)
		for _, email := range []string{"proprio@aravis.fr", "pirate@exemple.fr"} {
			s.Client().Do("POST", "/auth/login", map[string]any{"email": email, "password": daemontest.Password}).
				Expect(t, http.StatusUnauthorized)
		}
		s.Refuses(t, []daemontest.Refused{
			{Name: "the way back again", Client: anon, Method: "POST", Path: "/auth/email/revert", Body: map[string]any{"token": token},
				Status: http.StatusUnprocessableEntity, Detail: accounts.MsgRevertInvalid, Location: "body.token"},
			{Name: "a way back as a confirmation", Client: anon, Method: "POST", Path: "/auth/email/confirm", Body: map[string]any{"token": token},
				Status: http.StatusUnprocessableEntity, Detail: accounts.MsgConfirmInvalid, Location: "body.token"},
			{Name: "a forged way back", Client: anon, Method: "POST", Path: "/auth/email/revert", Body: map[string]any{"token": "pas-un-jeton"},
				Status: http.StatusUnprocessableEntity, Detail: accounts.MsgRevertInvalid, Location: "body.token"},
		})

		_, reset := resetLink(t, s.Config.DataDir, "proprio@aravis.fr")
		anon.Do("POST", "/auth/password/reset", map[string]any{"token": reset, "password": "retrouve123"}).Expect(t, http.StatusOK)
		var p profile
		s.Client().Do("POST", "/auth/login", map[string]any{"email": "proprio@aravis.fr", "password": "retrouve123"}).
			Expect(t, http.StatusOK).JSON(t, &p)
		if p.User.Email != "proprio@aravis.fr" || !p.User.EmailConfirmed || p.User.EmailPending != "" {
			t.Fatalf("the owner's account: %+v", p.User)
		}
	})
}

// TestChangeEmailTellsNothing: asking for another account's address as
// the login email answers as asking for a free one — the status, the
// sentence, the pending address —; the free address gets its link, the
// taken one an email saying it is already used and no link. Every request
// counts: past 5 an hour for the account, 429 with Retry-After, nothing
// changed.
func TestChangeEmailTellsNothing(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		s.Register("prise@lac.fr", "Autre magasin", true)

		ask := func(email string) (int, string, profile) {
			t.Helper()
			res := shop.Do("PUT", "/api/user/email", map[string]any{"current": daemontest.Password, "email": email})
			var out struct {
				Message string `json:"message"`
				profile
			}
			res.JSON(t, &out)
			return res.Status, strings.ReplaceAll(out.Message, email, "ADRESSE"), out.profile
		}
		takenStatus, takenMessage, takenProfile := ask("prise@lac.fr")
		freeStatus, freeMessage, freeProfile := ask("libre@lac.fr")
		if takenStatus != http.StatusOK || freeStatus != takenStatus || takenMessage != freeMessage ||
			takenProfile.User.EmailPending != "prise@lac.fr" || freeProfile.User.EmailPending != "libre@lac.fr" {
			t.Fatalf("taken: %d %q %+v\nfree: %d %q %+v", takenStatus, takenMessage, takenProfile.User, freeStatus, freeMessage, freeProfile.User)
		}
		if takenMessage != fmt.Sprintf(daemon.MsgChangeSent, "ADRESSE") {
			t.Fatalf("answer %q", takenMessage)
		}
		told := emailed(t, s.Config.DataDir, "email-taken-*.eml", "prise@lac.fr")
		if !strings.Contains(told, "prise@lac.fr comme adresse de connexion") || strings.Contains(told, "/landing/confirm#") {
			t.Fatalf("the taken address got a link:\n%s", told)
		}
		confirmToken(t, s.Config.DataDir, "libre@lac.fr")
		// The registration's own confirmation went to prise@lac.fr: no
		// other confirmation email may name it.
		files, _ := filepath.Glob(filepath.Join(s.Config.DataDir, "outbox", "confirm-*.eml"))
		for _, f := range files {
			raw, _ := os.ReadFile(f)
			if strings.Contains(string(raw), "To: <prise@lac.fr>") && strings.Contains(string(raw), "comme adresse de connexion") {
				t.Fatalf("a change link to the taken address:\n%s", raw)
			}
		}

		for range accounts.MaxConfirmationsPerAccount - 2 {
			if status, _, _ := ask("prise@lac.fr"); status != http.StatusOK {
				t.Fatalf("status %d", status)
			}
		}
		s.Refuses(t, []daemontest.Refused{
			{Name: "a taken address past the limit", Client: shop, Method: "PUT", Path: "/api/user/email",
				Body:   map[string]any{"current": daemontest.Password, "email": "prise@lac.fr"},
				Status: http.StatusTooManyRequests, Detail: accounts.MsgConfirmThrottled},
			{Name: "a free address past the limit", Client: shop, Method: "PUT", Path: "/api/user/email",
				Body:   map[string]any{"current": daemontest.Password, "email": "autre@lac.fr"},
				Status: http.StatusTooManyRequests, Detail: accounts.MsgConfirmThrottled},
		})
		res := shop.Do("PUT", "/api/user/email", map[string]any{"current": daemontest.Password, "email": "prise@lac.fr"}).
			Expect(t, http.StatusTooManyRequests)
		if res.Header.Get("Retry-After") == "" {
			t.Fatalf("no Retry-After: %v", res.Header)
		}
	})
}
