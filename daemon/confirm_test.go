package daemon_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"primeur/core/accounts"
	"primeur/core/notify"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

// emailed waits for the email whose outbox file matches glob, sent to
// email, and returns its text, quoted-printable line breaks undone.
func emailed(t *testing.T, dir, glob, email string) string {
	t.Helper()
	for range 500 {
		files, _ := filepath.Glob(filepath.Join(dir, "outbox", glob))
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			if text := strings.ReplaceAll(string(raw), "=\r\n", ""); strings.Contains(text, "To: <"+email+">") {
				return text
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no %s email to %s", glob, email)
	return ""
}

var confirmLink = regexp.MustCompile(`/landing/confirm#([A-Za-z0-9_-]{40,})`)

// confirmToken is the token of the confirmation link last emailed to email.
func confirmToken(t *testing.T, dir, email string) string {
	t.Helper()
	m := confirmLink.FindStringSubmatch(emailed(t, dir, "confirm-*.eml", email))
	if m == nil {
		t.Fatalf("no confirmation link to %s", email)
	}
	return m[1]
}

type profile struct {
	User struct {
		Email          string `json:"email"`
		EmailConfirmed bool   `json:"emailConfirmed"`
		EmailPending   string `json:"emailPending"`
		Notifications  []struct {
			Kind, Mode string
		} `json:"notifications"`
	} `json:"user"`
}

// TestEmailConfirmationThroughTheAPI: a visitor's registration emails a
// confirmation link; the link, opened without login, confirms the
// address, once. A new login email replaces the old one only when its
// link is opened; the old address is then told, and the new one logs in.
func TestEmailConfirmationThroughTheAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, _ := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		var p profile
		shop.Do("GET", "/api/user", nil).Expect(t, http.StatusOK).JSON(t, &p)
		shopKinds := 0
		for _, k := range notify.Kinds {
			if k.Shop {
				shopKinds++
			}
		}
		if p.User.EmailConfirmed || len(p.User.Notifications) != shopKinds {
			t.Fatalf("after registration: %+v", p.User)
		}
		token := confirmToken(t, s.Config.DataDir, "epicerie@lac.fr")
		anon := s.Client()
		ok := anon.Do("POST", "/auth/email/confirm", map[string]any{"token": token}).Expect(t, http.StatusOK)
		if !strings.Contains(string(ok.Body), accounts.MsgConfirmedAccount) {
			t.Fatalf("confirm: %s", ok.Body)
		}
		if p := anon.Do("POST", "/auth/email/confirm", map[string]any{"token": token}).Expect(t, http.StatusUnprocessableEntity).Problem(t); p.Detail != accounts.MsgConfirmInvalid {
			t.Fatalf("the link twice: %+v", p)
		}
		shop.Do("GET", "/api/user", nil).Expect(t, http.StatusOK).JSON(t, &p)
		if !p.User.EmailConfirmed {
			t.Fatalf("after the link: %+v", p.User)
		}

		// A new login email: pending until its link is opened.
		shop.Do("PUT", "/api/user/email", map[string]any{"current": "mauvais123", "email": "achats@lac.fr"}).Expect(t, http.StatusUnprocessableEntity)
		shop.Do("PUT", "/api/user/email", map[string]any{"current": daemontest.Password, "email": "achats@lac.fr"}).Expect(t, http.StatusOK).JSON(t, &p)
		if p.User.Email != "epicerie@lac.fr" || p.User.EmailPending != "achats@lac.fr" {
			t.Fatalf("after asking: %+v", p.User)
		}
		anon.Do("POST", "/auth/email/confirm", map[string]any{"token": confirmToken(t, s.Config.DataDir, "achats@lac.fr")}).Expect(t, http.StatusOK)
		p = profile{}
		shop.Do("GET", "/api/user", nil).Expect(t, http.StatusOK).JSON(t, &p)
		if p.User.Email != "achats@lac.fr" || !p.User.EmailConfirmed || p.User.EmailPending != "" {
			t.Fatalf("after confirming: %+v", p.User)
		}
		if told := emailed(t, s.Config.DataDir, "email-changed-*.eml", "epicerie@lac.fr"); !strings.Contains(told, "achats@lac.fr") {
			t.Fatalf("the old address was told:\n%s", told)
		}
		s.Client().Do("POST", "/auth/login", map[string]any{"email": "epicerie@lac.fr", "password": daemontest.Password}).Expect(t, http.StatusUnauthorized)
		s.Client().Do("POST", "/auth/login", map[string]any{"email": "achats@lac.fr", "password": daemontest.Password}).Expect(t, http.StatusOK)
	})
}

// TestOneClickUnsubscribe: a mail client posting RFC 8058's form to the
// List-Unsubscribe address, without any session, turns the digest's kinds
// off; a forged token changes nothing.
func TestOneClickUnsubscribe(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		shop, id := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		token, err := notify.UnsubscribeToken(context.Background(), db, id, id, []string{notify.Proposal}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		anon := s.Client()
		forged := strings.Replace(token, token[:2], "QU", 1)
		anon.Send("POST", "/auth/unsubscribe/one-click?t="+forged, "application/x-www-form-urlencoded",
			strings.NewReader("List-Unsubscribe=One-Click")).Expect(t, http.StatusUnprocessableEntity)
		anon.Send("POST", "/auth/unsubscribe/one-click?t="+token, "application/x-www-form-urlencoded",
			strings.NewReader("List-Unsubscribe=One-Click")).Expect(t, http.StatusOK)
		var p profile
		shop.Do("GET", "/api/user", nil).Expect(t, http.StatusOK).JSON(t, &p)
		for _, n := range p.User.Notifications {
			if want := map[bool]string{true: "none", false: "immediate"}[n.Kind == notify.Proposal]; n.Mode != want {
				t.Fatalf("after unsubscribing: %+v", p.User.Notifications)
			}
		}
	})
}
