package daemon_test

import (
	"context"
	"io"
	"mime/quotedprintable"
	"strings"
	"testing"
	"time"

	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/core/trade/tradetest"
	"primeur/daemon/daemontest"
)

// TestBankChangeThroughTheAPI (issue 32, finding 13a): a session alone
// does not change a producer's IBAN; with the current password it does,
// the confirmed login address is told (the new IBAN hidden but its last 4
// characters), and for 30 days the shop preparing a transfer reads the day
// it changed.
func TestBankChangeThroughTheAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		dw := newDeliveriesWorld(t, db)
		s := dw.s
		s.Client().Do("POST", "/auth/email/confirm", map[string]any{"token": confirmToken(t, s.Config.DataDir, "ferme@aravis.fr")}).Expect(t, 200)
		invoices(t, s, tradetest.At(2026, 12, 1, 6, 0))
		s.Clock.Set(tradetest.At(2026, 12, 3, 9, 0))
		const iban = "FR7630006000011234567890189"

		s.Refuses(t, []daemontest.Refused{
			{Name: "an IBAN without the password", Client: dw.farm, Method: "PUT", Path: "/api/user",
				Body: map[string]any{"iban": iban}, Status: 422, Detail: accounts.MsgBankPassword, Location: "body.currentPassword"},
			{Name: "an IBAN with an empty password", Client: dw.farm, Method: "PUT", Path: "/api/user",
				Body: map[string]any{"iban": iban, "currentPassword": ""}, Status: 422, Detail: accounts.MsgBankPassword, Location: "body.currentPassword"},
			{Name: "an IBAN and a delivery day, a wrong password: nothing changes", Client: dw.farm, Method: "PUT", Path: "/api/user",
				Body:   map[string]any{"iban": iban, "currentPassword": "mauvais123", "defaultDeliveryDays": []bool{true, true, false, false, false, false, false}},
				Status: 422, Detail: accounts.MsgCurrentWrong, Location: "body.currentPassword"},
			{Name: "a BIC alone without the password", Client: dw.farm, Method: "PUT", Path: "/api/user",
				Body: map[string]any{"bic": "AGRIFRPP882"}, Status: 422, Detail: accounts.MsgBankPassword, Location: "body.currentPassword"},
			{Name: "a shop's IBAN without the password", Client: dw.shop, Method: "PUT", Path: "/api/user",
				Body: map[string]any{"iban": "FR7610107001011234567890129"}, Status: 422, Detail: accounts.MsgBankPassword, Location: "body.currentPassword"},
			{Name: "an invalid IBAN: its field first", Client: dw.farm, Method: "PUT", Path: "/api/user",
				Body: map[string]any{"iban": "FR7630006000011234567890180", "currentPassword": "mauvais123"}, Status: 422, Detail: accounts.MsgIBAN, Location: "body.iban"},
		})
		var p struct {
			Accounts []struct {
				PartnerID     string `json:"partnerId"`
				IBANChangedOn string `json:"ibanChangedOn"`
			} `json:"accounts"`
		}
		changedOn := func(c *daemontest.Client) string {
			t.Helper()
			p.Accounts = nil
			c.Do("GET", "/api/payments", nil).Expect(t, 200).JSON(t, &p)
			if len(p.Accounts) != 1 {
				t.Fatalf("accounts %+v", p.Accounts)
			}
			return p.Accounts[0].IBANChangedOn
		}
		if got := changedOn(dw.shop); got != "" {
			t.Fatalf("before any change: ibanChangedOn %q", got)
		}

		// With the password: stored, emailed, told to the shop.
		dw.farm.Do("PUT", "/api/user", map[string]any{"iban": "FR76 3000 6000 0112 3456 7890 189", "bic": "AGRIFRPP882",
			"currentPassword": daemontest.Password}).Expect(t, 200)
		var load struct{ User accounts.Profile }
		dw.farm.Do("GET", "/api/user", nil).Expect(t, 200).JSON(t, &load)
		if load.User.IBAN != iban || load.User.BIC != "AGRIFRPP882" {
			t.Fatalf("stored %q %q", load.User.IBAN, load.User.BIC)
		}
		raw, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(emailed(t, s.Config.DataDir, "bank-changed-*.eml", "ferme@aravis.fr"))))
		if err != nil {
			t.Fatal(err)
		}
		mail := string(raw)
		for _, want := range []string{"**** **** **** **** **** ***0 189", "3 décembre 2026 à 09 h 00", "AGRIFRPP882",
			"Si vous n'êtes pas à l'origine de cette modification", "changez sans attendre votre mot de passe"} {
			if !strings.Contains(mail, want) {
				t.Errorf("the email lacks %q:\n%s", want, mail)
			}
		}
		if strings.Contains(mail, iban) || strings.Contains(mail, "30006000011234567890") {
			t.Errorf("the email shows the IBAN:\n%s", mail)
		}
		if got := changedOn(dw.shop); got != "2026-12-03" || p.Accounts[0].PartnerID != dw.farmID {
			t.Fatalf("the shop's notice: %+v", p.Accounts)
		}
		if got := changedOn(dw.farm); got != "" {
			t.Fatalf("the producer's own view carries %q", got)
		}
		// The same IBAN typed otherwise and another field: no password.
		dw.farm.Do("PUT", "/api/user", map[string]any{"iban": iban, "tel": "0450000000"}).Expect(t, 200)

		// Told for 30 days (a session of that day: the first has ended).
		shopOn := func(at time.Time) *daemontest.Client {
			t.Helper()
			s.Clock.Set(at)
			c := s.Client()
			c.Do("POST", "/auth/login", map[string]any{"email": "epicerie@lac.fr", "password": daemontest.Password}).Expect(t, 200)
			return c
		}
		if got := changedOn(shopOn(tradetest.At(2026, 12, 3, 9, 0).Add(accounts.IBANNoticeFor - time.Minute))); got != "2026-12-03" {
			t.Fatalf("on the 30th day: %q", got)
		}
		if got := changedOn(shopOn(tradetest.At(2026, 12, 3, 9, 0).Add(accounts.IBANNoticeFor + time.Minute))); got != "" {
			t.Fatalf("after 30 days: %q", got)
		}
	})
}

// TestIdentifiersThroughTheAPI (issue 32, finding 3): the profile refuses
// a SIRET or VAT number that is not one, or two of different companies,
// changing nothing; identifiers stored before the checks are told to
// their owner in the user load and block no other change.
func TestIdentifiersThroughTheAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		farm, farmID := s.Producer("ferme@aravis.fr", "Ferme des Aravis")
		put := func(body map[string]any) daemontest.Refused {
			return daemontest.Refused{Client: farm, Method: "PUT", Path: "/api/user", Body: body, Status: 422}
		}
		rows := []struct {
			name       string
			body       map[string]any
			field, msg string
		}{
			{"SIRET 11111111111111", map[string]any{"siret": "11111111111111"}, "siret", accounts.MsgSIRET},
			{"SIRET of a wrong key", map[string]any{"siret": "732 829 320 00075"}, "siret", accounts.MsgSIRET},
			{"VAT number of a wrong key", map[string]any{"tvaintracom": "FR00487231556"}, "tvaintracom", accounts.MsgTVA},
			{"VAT number on no SIREN", map[string]any{"tvaintracom": "FR31111111111"}, "tvaintracom", accounts.MsgTVA},
			{"VAT number of another company than the SIRET", map[string]any{"siret": "84261530400016", "tvaintracom": "FR44732829320"}, "tvaintracom", accounts.MsgVATSIRET},
		}
		var calls []daemontest.Refused
		for _, r := range rows {
			c := put(r.body)
			c.Name, c.Detail, c.Location = r.name, r.msg, "body."+r.field
			calls = append(calls, c)
		}
		s.Refuses(t, calls)

		var load struct{ User accounts.Profile }
		farm.Do("PUT", "/api/user", map[string]any{"siret": "732 829 320 00074", "tvaintracom": "FR 44 732 829 320"}).Expect(t, 200).JSON(t, &load)
		if load.User.SIRET != "73282932000074" || load.User.TVAIntracom != "FR44732829320" || len(load.User.IdentifierIssues) != 0 {
			t.Fatalf("valid identifiers: %+v", load.User)
		}
		// A SIRET of another company than the VAT number stored: refused on it.
		s.Refuses(t, []daemontest.Refused{{Name: "SIRET of another company than the VAT number", Client: farm, Method: "PUT", Path: "/api/user",
			Body: map[string]any{"siret": "84261530400016"}, Status: 422, Detail: accounts.MsgVATSIRET, Location: "body.siret"}})

		// Stored before the checks: told, and no block to other changes.
		if _, err := store.Exec(context.Background(), db, `UPDATE users SET siret = '11111111111111', tvaintracom = 'FR00487231556' WHERE id = ?`, farmID); err != nil {
			t.Fatal(err)
		}
		want := []accounts.IdentifierIssue{{Field: "siret", Message: accounts.MsgStoredSIRET}, {Field: "tvaintracom", Message: accounts.MsgStoredTVA}}
		farm.Do("GET", "/api/user", nil).Expect(t, 200).JSON(t, &load)
		if !sameIssues(load.User.IdentifierIssues, want) {
			t.Fatalf("issues %+v, want %+v", load.User.IdentifierIssues, want)
		}
		farm.Do("PUT", "/api/user", map[string]any{"tel": "04 50 00 00 00", "siret": "11111111111111"}).Expect(t, 200).JSON(t, &load)
		if load.User.Tel != "0450000000" || !sameIssues(load.User.IdentifierIssues, want) {
			t.Fatalf("another change: %+v", load.User)
		}
		farm.Do("PUT", "/api/user", map[string]any{"siret": "73282932000074"}).Expect(t, 200).JSON(t, &load)
		if want = want[1:]; !sameIssues(load.User.IdentifierIssues, want) {
			t.Fatalf("SIRET corrected: %+v", load.User.IdentifierIssues)
		}
	})
}

func sameIssues(a, b []accounts.IdentifierIssue) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
