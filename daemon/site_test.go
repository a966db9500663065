package daemon_test

import (
	"net/http"
	"testing"

	"primeur/core/store/storetest"
	"primeur/daemon"
	"primeur/daemon/daemontest"
)

// The accessibility contact reaches every visitor from the daemon's
// settings: accessibility.contact, else smtp.from unless it is a no-reply
// address, else none.
func TestSiteGivesTheAccessibilityContact(t *testing.T) {
	t.Parallel()
	db := storetest.SQLite(t)
	tests := []struct {
		name       string
		contact    string
		from       string
		want       string
		wantSource string
	}{
		{"the setting", "Équipe Primeur <accessibilite@primeur.example>", "factures@primeur.example", "accessibilite@primeur.example", "setting"},
		{"the mail sender", "", "Primeur <contact@primeur.example>", "contact@primeur.example", "mail-sender"},
		{"none with the default sender", "", "", "", "none"},
		{"none with a no-reply sender", "", "Primeur <ne-pas-repondre@primeur.example>", "", "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := daemontest.New(t, db, func(o *daemon.Options) {
				o.Config.Accessibility.Contact = tt.contact
				if tt.from != "" {
					o.Config.SMTP.From = tt.from
				}
				if err := o.Config.Validate(); err != nil {
					t.Fatal(err)
				}
			})
			// A visitor without a session reads it; the answer is checked against the OpenAPI document.
			var got daemon.SiteView
			s.Client().Do(http.MethodGet, "/public/site", nil).Expect(t, http.StatusOK).JSON(t, &got)
			if got.AccessibilityContact != tt.want || got.AccessibilityContactSource != tt.wantSource {
				t.Fatalf("got %+v, want %q from %q", got, tt.want, tt.wantSource)
			}
		})
	}
}
