package daemon_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"primeur/core/accounts"
	"primeur/core/mail/mailtest"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

// resetLink finds the reset link emailed to email: the token after
// /landing/reset#. It waits for the email, sent after the answer.
func resetLink(t *testing.T, dir, email string) (link, token string) {
	t.Helper()
	re := regexp.MustCompile(`(http://[^\s]+/landing/reset)#([A-Za-z0-9_-]{40,})`)
	m := re.FindStringSubmatch(emailed(t, dir, "reset-*.eml", email))
	if m == nil {
		t.Fatalf("no reset link to %s", email)
	}
	return m[1], m[2]
}

// TestPasswordResetThroughTheAPI: asking for a known and an unknown email
// answers the same; the known one gets its link by email; the link sets the
// password, once, and logs every session out; the new password logs in.
func TestPasswordResetThroughTheAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		s.Config.Addr = "primeur.test:8080"
		shop, _ := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		shop.Do("GET", "/api/user", nil).Expect(t, http.StatusOK)

		anon := s.Client()
		known := anon.Do("POST", "/auth/password/forgot", map[string]any{"email": "Epicerie@lac.fr"}).Expect(t, http.StatusOK)
		unknown := anon.Do("POST", "/auth/password/forgot", map[string]any{"email": "personne@lac.fr"}).Expect(t, http.StatusOK)
		if string(known.Body) != string(unknown.Body) || !strings.Contains(string(known.Body), accounts.MsgResetSent) {
			t.Fatalf("answers differ:\n%s\n%s", known.Body, unknown.Body)
		}
		if p := anon.Do("POST", "/auth/password/forgot", map[string]any{}).Expect(t, http.StatusUnprocessableEntity).Problem(t); p.Detail != accounts.MsgEmailRequired {
			t.Fatalf("no email: %+v", p)
		}

		link, token := resetLink(t, s.Config.DataDir, "epicerie@lac.fr")
		if link != "http://primeur.test:8080/landing/reset" {
			t.Fatalf("link %s", link)
		}
		anon.Do("POST", "/auth/password/reset", map[string]any{"token": token, "password": "court"}).Expect(t, http.StatusUnprocessableEntity)
		done := anon.Do("POST", "/auth/password/reset", map[string]any{"token": token, "password": "nouveau123", "password2": "nouveau123"}).
			Expect(t, http.StatusOK)
		if !strings.Contains(string(done.Body), "Votre mot de passe a été modifié") {
			t.Fatalf("answer %s", done.Body)
		}
		again := anon.Do("POST", "/auth/password/reset", map[string]any{"token": token, "password": "encore789"}).
			Expect(t, http.StatusUnprocessableEntity)
		if !strings.Contains(string(again.Body), accounts.MsgResetInvalid) {
			t.Fatalf("the link twice: %s", again.Body)
		}
		shop.Do("GET", "/api/user", nil).Expect(t, http.StatusUnauthorized)
		s.Client().Do("POST", "/auth/login", map[string]any{"email": "epicerie@lac.fr", "password": daemontest.Password}).
			Expect(t, http.StatusUnauthorized)
		s.Client().Do("POST", "/auth/login", map[string]any{"email": "epicerie@lac.fr", "password": "nouveau123"}).
			Expect(t, http.StatusOK)
	})
}

// TestChangePassword: from the profile, with the current password; a wrong
// one is refused and changes nothing; the other sessions end, this one
// stays; the new password logs in.
func TestChangePassword(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		here, _ := s.Register("ferme@aravis.fr", "Ferme des Aravis", false)
		there := s.Client()
		there.Do("POST", "/auth/login", map[string]any{"email": "ferme@aravis.fr", "password": daemontest.Password}).Expect(t, http.StatusOK)

		wrong := here.Do("PUT", "/api/user/password", map[string]any{"current": "pas-le-bon1", "password": "nouveau123"}).
			Expect(t, http.StatusUnprocessableEntity)
		if !strings.Contains(string(wrong.Body), accounts.MsgCurrentWrong) {
			t.Fatalf("wrong current password: %s", wrong.Body)
		}
		here.Do("PUT", "/api/user/password", map[string]any{"current": daemontest.Password, "password": "court"}).
			Expect(t, http.StatusUnprocessableEntity)
		there.Do("GET", "/api/user", nil).Expect(t, http.StatusOK) // nothing changed yet

		done := here.Do("PUT", "/api/user/password", map[string]any{"current": daemontest.Password, "password": "nouveau123", "password2": "nouveau123"}).
			Expect(t, http.StatusOK)
		if !strings.Contains(string(done.Body), "Votre mot de passe a été modifié") {
			t.Fatalf("answer %s", done.Body)
		}
		here.Do("GET", "/api/user", nil).Expect(t, http.StatusOK)
		there.Do("GET", "/api/user", nil).Expect(t, http.StatusUnauthorized)
		s.Client().Do("POST", "/auth/login", map[string]any{"email": "ferme@aravis.fr", "password": "nouveau123"}).Expect(t, http.StatusOK)
		s.Client().Do("POST", "/auth/login", map[string]any{"email": "ferme@aravis.fr", "password": daemontest.Password}).
			Expect(t, http.StatusUnauthorized)
	})
}

// TestCloseAccountThroughTheAPI: with a wrong password nothing happens;
// while a commitment runs the closure is refused with what blocks it;
// then the account closes, its session ends and it cannot log in again.
func TestCloseAccountThroughTheAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		dw := newDeliveriesWorld(t, db)
		dw.shop.Do("POST", "/api/user/close", map[string]any{"current": "pas-le-bon1"}).Expect(t, http.StatusUnprocessableEntity)
		blocked := dw.shop.Do("POST", "/api/user/close", map[string]any{"current": daemontest.Password}).Expect(t, http.StatusConflict).Problem(t)
		if !strings.HasPrefix(blocked.Detail, "Votre compte ne peut pas encore être supprimé :") || !strings.Contains(blocked.Detail, "prévue") {
			t.Fatalf("blocked: %q", blocked.Detail)
		}
		dw.shop.Do("GET", "/api/user", nil).Expect(t, http.StatusOK)

		// A shop that never traded closes at once.
		fresh, _ := dw.s.Register("nouveau@magasin.fr", "Nouveau magasin", true)
		res := fresh.Do("POST", "/api/user/close", map[string]any{"current": daemontest.Password}).Expect(t, http.StatusOK)
		if !strings.Contains(string(res.Body), "Votre compte est supprimé") || !strings.Contains(res.Header.Get("Set-Cookie"), "Max-Age=0") {
			t.Fatalf("closed: %v %s", res.Header, res.Body)
		}
		fresh.Do("GET", "/api/user", nil).Expect(t, http.StatusUnauthorized)
		dw.s.Client().Do("POST", "/auth/login", map[string]any{"email": "nouveau@magasin.fr", "password": daemontest.Password}).
			Expect(t, http.StatusUnauthorized)
	})
}

// TestCutoffReminderSetting: a producer turns its reminder of the 25th off
// and on in its profile; a shop has none.
func TestCutoffReminderSetting(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		farm, _ := s.Producer("ferme@aravis.fr", "Ferme des Aravis")
		var out struct {
			User struct {
				CutoffReminder *bool `json:"cutoffReminder"`
			} `json:"user"`
		}
		farm.Do("GET", "/api/user", nil).Expect(t, http.StatusOK).JSON(t, &out)
		if out.User.CutoffReminder == nil || !*out.User.CutoffReminder {
			t.Fatalf("a new producer's reminder: %v", out.User.CutoffReminder)
		}
		farm.Do("PUT", "/api/user", map[string]any{"cutoffReminder": false}).Expect(t, http.StatusOK).JSON(t, &out)
		if out.User.CutoffReminder == nil || *out.User.CutoffReminder {
			t.Fatalf("turned off: %v", out.User.CutoffReminder)
		}
		var optout bool
		if err := db.Get(&optout, db.Rebind(`SELECT cutoff_optout FROM users WHERE email_key = 'ferme@aravis.fr'`)); err != nil || !optout {
			t.Fatalf("stored %v (%v)", optout, err)
		}
		shop, _ := s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
		shop.Do("PUT", "/api/user", map[string]any{"cutoffReminder": false}).Expect(t, http.StatusUnprocessableEntity)
	})
}

// TestForgotAnswersBeforeTheEmail: the timing class of "Mot de passe
// oublié" is the same whether the account exists or not, because the
// answer never waits for the email: with the mail server holding every
// message unanswered, the request for a known email is answered while its
// email is still held, with the very bytes an unknown email gets.
func TestForgotAnswersBeforeTheEmail(t *testing.T) {
	t.Parallel()
	db := storetest.SQLite(t)
	s := daemontest.New(t, db)
	// The mail server first, and the registration's confirmation delivered
	// before anything is held: set after the registration, the server could
	// still receive its confirmation, sent by a goroutine that reads the
	// configuration when it runs (a loaded machine: "2 held").
	srv := mailtest.Start(t, "", "")
	s.Config.SMTP = srv.Config()
	s.Register("epicerie@lac.fr", "Épicerie du Lac", true)
	for i := 0; len(srv.Messages(t)) == 0; i++ {
		if i == 1000 {
			t.Fatal("the registration's confirmation never reached the mail server")
		}
		time.Sleep(5 * time.Millisecond)
	}
	release := srv.Hold()
	defer release()

	anon := s.Client()
	known := anon.Do("POST", "/auth/password/forgot", map[string]any{"email": "epicerie@lac.fr"}).Expect(t, http.StatusOK)
	for i := 0; srv.Held() == 0; i++ {
		if i == 1000 {
			t.Fatal("the reset email never reached the mail server")
		}
		time.Sleep(5 * time.Millisecond)
	}
	unknown := anon.Do("POST", "/auth/password/forgot", map[string]any{"email": "personne@lac.fr"}).Expect(t, http.StatusOK)
	if string(known.Body) != string(unknown.Body) || srv.Held() != 1 {
		t.Fatalf("answers %s / %s, %d held", known.Body, unknown.Body, srv.Held())
	}
	release()
	for i := 0; len(srv.Messages(t)) < 2; i++ {
		if i == 1000 {
			t.Fatal("the reset email was not delivered once released")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if msgs := srv.Messages(t); len(msgs) != 2 || msgs[1].To[0] != "epicerie@lac.fr" ||
		msgs[1].Subject != "Primeur : choisir un nouveau mot de passe" {
		t.Fatalf("messages %+v", msgs)
	}
}
