package daemon_test

import (
	"fmt"
	"net/http"
	"testing"

	"primeur/core/accounts"
	"primeur/core/store"
	"primeur/core/store/storetest"
	"primeur/daemon/daemontest"
)

// TestColleaguesDoNotLockEachOtherOut (docs/SECURITY.md "Login
// throttling", the lockout decision): behind the office's one address,
// which the shop logged in from before, five colleagues mistyping the
// shop's password do not lock out the sixth who types it right; only the
// address's own limit (20 failures in 15 minutes) would. From addresses
// the account does not know, an attacker still gets 5 tries per address,
// then 429 even with the right password, while the office still gets in.
func TestColleaguesDoNotLockEachOtherOut(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := daemontest.New(t, db)
		const email = "magasin@example.fr"
		s.Register(email, "Épicerie", true)
		const office = "127.0.7.1"
		login(s.ClientFrom(office), email, daemontest.Password).Expect(t, http.StatusOK) // last week's login

		for i := range 5 {
			login(s.ClientFrom(office), email, fmt.Sprintf("mauvais%d", i+10)).Expect(t, http.StatusUnauthorized)
		}
		sixth := s.ClientFrom(office)
		login(sixth, email, daemontest.Password).Expect(t, http.StatusOK)
		sixth.Do("GET", "/api/user", nil).Expect(t, http.StatusOK)

		// An attacker hammers the account from three addresses it does not
		// know, at once: 5 tries each, then 429 even with the right
		// password (the account's ceiling of 100 an hour over every
		// address: core/accounts TestAccountCeiling).
		hashed := accounts.Hashing.Stats().Done
		burst(3, func(a int) *daemontest.Response {
			attacker := s.ClientFrom(fmt.Sprintf("127.0.8.%d", a+1))
			for range accounts.MaxLoginFailuresPerPair {
				if res := login(attacker, email, "mauvais12"); res.Status != http.StatusUnauthorized {
					t.Errorf("attacker %d: %d", a, res.Status)
				}
			}
			if res := login(attacker, email, daemontest.Password); res.Status != http.StatusTooManyRequests {
				t.Errorf("attacker %d with the right password: %d", a, res.Status)
			}
			return nil
		})
		if checked := accounts.Hashing.Stats().Done - hashed; checked != 3*accounts.MaxLoginFailuresPerPair {
			t.Errorf("%d passwords checked for the attacker, want %d", checked, 3*accounts.MaxLoginFailuresPerPair)
		}
		// Meanwhile the office still gets in.
		login(s.ClientFrom(office), email, daemontest.Password).Expect(t, http.StatusOK)
	})
}
