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

func sp(s string) *string { return &s }

// TestProfileIdentifiersAgainstTheAccount: a SIRET or VAT number stored
// before the checks blocks no other change, nor itself sent back as
// stored; a new one is checked, and the VAT number the account will hold
// must carry the SIRET's SIREN — the refusal on the field sent.
func TestProfileIdentifiersAgainstTheAccount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := registered(t, db, "ferme@example.fr", false)
		// Stored before the checks existed: issue 32's invalid SIRET and a
		// VAT number of the wrong key.
		if _, err := store.Exec(ctx, db, `UPDATE users SET siret = '11111111111111', tvaintracom = 'FR00732829320' WHERE id = ?`, u.ID); err != nil {
			t.Fatal(err)
		}
		u = reload(t, db, u.ID)

		tests := []struct {
			name       string
			p          accounts.ProfileUpdate
			field, msg string // the refusal, "" when accepted
			siret, vat string // stored after
		}{
			{"another field: accepted, the identifiers kept", accounts.ProfileUpdate{Tel: sp("0450000000")}, "", "", "11111111111111", "FR00732829320"},
			{"the stored SIRET sent back with spaces: accepted", accounts.ProfileUpdate{SIRET: sp("111 111 111 11111"), Tel: sp("0450000001")}, "", "", "11111111111111", "FR00732829320"},
			{"a new invalid SIRET: refused", accounts.ProfileUpdate{SIRET: sp("11111111111112")}, "siret", accounts.MsgSIRET, "11111111111111", "FR00732829320"},
			{"a new VAT number, key wrong: refused", accounts.ProfileUpdate{TVAIntracom: sp("FR01732829320")}, "tvaintracom", accounts.MsgTVA, "11111111111111", "FR00732829320"},
			{"a valid SIRET, the stored VAT number invalid: accepted", accounts.ProfileUpdate{SIRET: sp("84261530400016")}, "", "", "84261530400016", "FR00732829320"},
			{"a valid VAT number of another company: refused on it", accounts.ProfileUpdate{TVAIntracom: sp("FR44732829320")}, "tvaintracom", accounts.MsgVATSIRET, "84261530400016", "FR00732829320"},
			{"both, of one company: accepted", accounts.ProfileUpdate{SIRET: sp("73282932000074"), TVAIntracom: sp("fr 44 732 829 320")}, "", "", "73282932000074", "FR44732829320"},
			{"a SIRET of another company than the VAT number: refused on it", accounts.ProfileUpdate{SIRET: sp("84261530400016")}, "siret", accounts.MsgVATSIRET, "73282932000074", "FR44732829320"},
			{"a foreign VAT number: never compared", accounts.ProfileUpdate{TVAIntracom: sp("DE123456789")}, "", "", "73282932000074", "DE123456789"},
			{"both emptied: accepted", accounts.ProfileUpdate{SIRET: sp(""), TVAIntracom: sp("")}, "", "", "", ""},
		}
		for _, tt := range tests {
			before := storetest.Snapshot(t, db)
			stored := reload(t, db, u.ID)
			_, _, err := accounts.UpdateProfile(ctx, db, stored, tt.p, t0)
			if tt.field != "" {
				wantInvalid(t, tt.name, err, tt.field, tt.msg)
				if after := storetest.Snapshot(t, db); after != before {
					t.Fatalf("%s: a refused update changed:\n%s", tt.name, storetest.Changes(before, after))
				}
			} else if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if got := reload(t, db, u.ID); got.SIRET != tt.siret || got.TVAIntracom != tt.vat {
				t.Fatalf("%s: stored %q %q, want %q %q", tt.name, got.SIRET, got.TVAIntracom, tt.siret, tt.vat)
			}
		}
	})
}

// TestBankChangeNeedsThePassword: a change of IBAN or BIC — set, replaced
// or cleared — goes through only with the current password, checked and
// throttled as a login attempt; a refusal changes nothing. The time of an
// IBAN change is kept, and read back for the shops' notice.
func TestBankChangeNeedsThePassword(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := registered(t, db, "ferme@example.fr", false)
		const iban, iban2 = "FR7630006000011234567890189", "FR7610107001011234567890129"
		at := func(d time.Duration) time.Time { return t0.Add(d) }

		// UpdateProfile alone never changes bank details.
		before := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...)
		_, _, err := accounts.UpdateProfile(ctx, db, u, accounts.ProfileUpdate{IBAN: sp(iban)}, t0)
		wantInvalid(t, "without CheckBankChange", err, accounts.FieldCurrentPassword, accounts.MsgBankPassword)

		refusals := []struct {
			name, current string
			p             accounts.ProfileUpdate
			field, msg    string
		}{
			{"no password", "", accounts.ProfileUpdate{IBAN: sp(iban)}, accounts.FieldCurrentPassword, accounts.MsgBankPassword},
			{"a wrong password", "mauvais123", accounts.ProfileUpdate{IBAN: sp(iban), Tel: sp("0450000000")}, accounts.FieldCurrentPassword, accounts.MsgCurrentWrong},
			{"a wrong password, the BIC alone", "mauvais123", accounts.ProfileUpdate{BIC: sp("AGRIFRPP882")}, accounts.FieldCurrentPassword, accounts.MsgCurrentWrong},
			{"an invalid field first, whatever the password", "mauvais123", accounts.ProfileUpdate{IBAN: sp("FR76"), Tel: sp("12")}, "iban", accounts.MsgIBAN},
		}
		for _, r := range refusals {
			_, err := accounts.CheckBankChange(ctx, db, u, r.p, r.current, "10.0.0.1", t0)
			wantInvalid(t, r.name, err, r.field, r.msg)
		}
		if after := storetest.SnapshotExcept(t, db, storetest.Bookkeeping...); after != before {
			t.Fatalf("refusals changed:\n%s", storetest.Changes(before, after))
		}
		var failures int
		if err := store.Get(ctx, db, &failures, `SELECT attempts FROM throttle WHERE key LIKE 'login:address:%'`); err != nil || failures != 2 {
			t.Fatalf("%d failures counted as login attempts, want the 2 wrong passwords (%v)", failures, err)
		}

		// The right password: the IBAN is set, and timed.
		p, err := accounts.CheckBankChange(ctx, db, u, accounts.ProfileUpdate{IBAN: sp("fr76 3000 6000 0112 3456 7890 189"), BIC: sp("agrifrpp882")}, "motdepasse1", "10.0.0.1", at(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := accounts.UpdateProfile(ctx, db, reload(t, db, u.ID), p, at(time.Hour))
		if err != nil || got.IBAN != iban || got.BIC != "AGRIFRPP882" || !accounts.BankChanged(u, got) {
			t.Fatalf("with the password: %+v, %v", got, err)
		}
		changes := func(since time.Time) map[string]int64 {
			t.Helper()
			m, err := accounts.IBANChanges(ctx, db, []string{u.ID, "nobody"}, since)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		if m := changes(t0); m[u.ID] != at(time.Hour).UnixMilli() || len(m) != 1 {
			t.Fatalf("IBAN changes = %v", m)
		}
		if m := changes(at(2 * time.Hour)); len(m) != 0 {
			t.Fatalf("IBAN changes since after it = %v", m)
		}

		// The same IBAN typed otherwise, and other fields: no password asked,
		// the time kept. A BIC alone needs the password, and keeps the time
		// of the IBAN.
		stored := reload(t, db, u.ID)
		same := accounts.ProfileUpdate{IBAN: sp(" FR76 3000 6000 0112 3456 7890 189 "), Tel: sp("0450000000")}
		if p, err = accounts.CheckBankChange(ctx, db, stored, same, "", "10.0.0.1", at(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, _, err := accounts.UpdateProfile(ctx, db, stored, p, at(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, err := accounts.CheckBankChange(ctx, db, stored, accounts.ProfileUpdate{BIC: sp("CCBPFRPPANN")}, "", "10.0.0.1", at(3*time.Hour)); err == nil {
			t.Fatal("a BIC changed without the password")
		}
		p, err = accounts.CheckBankChange(ctx, db, stored, accounts.ProfileUpdate{BIC: sp("CCBPFRPPANN")}, "motdepasse1", "10.0.0.1", at(3*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := accounts.UpdateProfile(ctx, db, reload(t, db, u.ID), p, at(3*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if m := changes(t0); m[u.ID] != at(time.Hour).UnixMilli() {
			t.Fatalf("a BIC change moved the IBAN's time: %v", m)
		}

		// Replaced, then cleared: each with the password, each timed.
		for i, next := range []string{iban2, ""} {
			when := at(time.Duration(4+i) * time.Hour)
			p, err := accounts.CheckBankChange(ctx, db, reload(t, db, u.ID), accounts.ProfileUpdate{IBAN: sp(next)}, "motdepasse1", "10.0.0.1", when)
			if err != nil {
				t.Fatal(err)
			}
			if got, _, err := accounts.UpdateProfile(ctx, db, reload(t, db, u.ID), p, when); err != nil || got.IBAN != next {
				t.Fatalf("IBAN %q: %+v %v", next, got, err)
			}
			if m := changes(t0); m[u.ID] != when.UnixMilli() {
				t.Fatalf("IBAN %q: changes %v", next, m)
			}
		}

		// The password proof is for the bank details it was given for: an
		// IBAN changed meanwhile by another request is refused in the
		// transaction.
		p, err = accounts.CheckBankChange(ctx, db, reload(t, db, u.ID), accounts.ProfileUpdate{Tel: sp("0450000002"), IBAN: sp("")}, "", "10.0.0.1", at(6*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.Exec(ctx, db, `UPDATE users SET iban = ? WHERE id = ?`, iban, u.ID); err != nil {
			t.Fatal(err)
		}
		_, _, err = accounts.UpdateProfile(ctx, db, reload(t, db, u.ID), p, at(6*time.Hour))
		wantInvalid(t, "changed meanwhile", err, accounts.FieldCurrentPassword, accounts.MsgBankPassword)
	})
}

// TestBankChangeIsThrottledAsALogin: past the failures a client may make
// on an account, even the right password is refused for a while.
func TestBankChangeIsThrottledAsALogin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := registered(t, db, "ferme@example.fr", false)
		change := accounts.ProfileUpdate{IBAN: sp("FR7630006000011234567890189")}
		for i := 0; i < accounts.MaxLoginFailuresPerPair; i++ {
			if _, err := accounts.CheckBankChange(ctx, db, u, change, "mauvais123", "10.0.0.1", t0); err == nil {
				t.Fatal("a wrong password accepted")
			}
		}
		if _, err := accounts.CheckBankChange(ctx, db, u, change, "motdepasse1", "10.0.0.1", t0); !errors.Is(err, core.ErrThrottled) {
			t.Fatalf("past the limit: %v, want throttled", err)
		}
		if _, err := accounts.CheckBankChange(ctx, db, u, change, "motdepasse1", "10.0.0.1", t0.Add(accounts.LoginWindow)); err != nil {
			t.Fatalf("after the window: %v", err)
		}
	})
}
