package config

import (
	"strings"
	"testing"
	"time"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(*Config)
		wantErr string
	}{
		{"defaults", func(*Config) {}, ""},
		{"bad addr", func(c *Config) { c.Addr = "8080" }, "addr"},
		{"empty data dir", func(c *Config) { c.DataDir = " " }, "data-dir"},
		{"mysql url", func(c *Config) { c.DatabaseURL = "mysql://x" }, "database-url"},
		{"postgres url", func(c *Config) { c.DatabaseURL = "postgres://u@h/db" }, ""},
		{"relative base url", func(c *Config) { c.BaseURL = "example.org" }, "base-url"},
		{"bad timezone", func(c *Config) { c.Timezone = "Mars/Olympus" }, "timezone"},
		{"bad level", func(c *Config) { c.LogLevel = "loud" }, "log-level"},
		{"bad log format", func(c *Config) { c.LogFormat = "logfmt" }, "log-format"},
		{"no registration allowed", func(c *Config) { c.RegistrationsPerHour = 0 }, "registrations-per-hour"},
		{"many registrations", func(c *Config) { c.RegistrationsPerHour = 1000 }, ""},
		{"smtp port zero", func(c *Config) { c.SMTP.Port = 0 }, "smtp.port"},
		{"smtp port too high", func(c *Config) { c.SMTP.Port = 70000 }, "smtp.port"},
		{"smtp from not an address", func(c *Config) { c.SMTP.From = "primeur" }, "smtp.from"},
		{"smtp from with name", func(c *Config) { c.SMTP.From = "Primeur <factures@primeur.fr>" }, ""},
		{"smtp tls unknown", func(c *Config) { c.SMTP.TLS = "ssl" }, "smtp.tls"},
		{"smtp tls none", func(c *Config) { c.SMTP.TLS = "none" }, ""},
		{"lock not a time", func(c *Config) { c.Delivery.Lock = "midi" }, "delivery.lock"},
		{"lock out of range", func(c *Config) { c.Delivery.Lock = "25:00" }, "delivery.lock"},
		{"lock short form", func(c *Config) { c.Delivery.Lock = "7:00" }, "delivery.lock"},
		{"lock at seven", func(c *Config) { c.Delivery.Lock = "07:00" }, ""},
		{"autovalidate not a duration", func(c *Config) { c.Claims.AutovalidateAfter = "2 jours" }, "claims.autovalidate-after"},
		{"autovalidate negative", func(c *Config) { c.Claims.AutovalidateAfter = "-1h" }, "claims.autovalidate-after"},
		{"ecb rate", func(c *Config) { c.Payments.ECBRate = "3.5" }, ""},
		{"ecb rate empty", func(c *Config) { c.Payments.ECBRate = " " }, ""},
		{"ecb rates", func(c *Config) { c.Payments.ECBRates = "2026-S2=2.15, 2027-S1=2.4" }, ""},
		{"ecb rates replacing a known one", func(c *Config) { c.Payments.ECBRates = "2025-S2=2.16" }, ""},
		{"ecb rates in french", func(c *Config) { c.Payments.ECBRates = "2026-S2=2,15" }, "payments.ecb-rates"},
		{"ecb rates without a semester", func(c *Config) { c.Payments.ECBRates = "2.15" }, "payments.ecb-rates"},
		{"ecb rates semester 3", func(c *Config) { c.Payments.ECBRates = "2026-S3=2.15" }, "payments.ecb-rates"},
		{"ecb rates twice", func(c *Config) { c.Payments.ECBRates = "2026-S2=2.15,2026-S2=2.40" }, "payments.ecb-rates"},
		{"ecb rates too precise", func(c *Config) { c.Payments.ECBRates = "2026-S2=2.155" }, "payments.ecb-rates"},
		{"ecb rates negative", func(c *Config) { c.Payments.ECBRates = "2026-S2=-0.5" }, "payments.ecb-rates"},
		{"ecb rates trailing comma", func(c *Config) { c.Payments.ECBRates = "2026-S2=2.15," }, "payments.ecb-rates"},
		{"ecb rate in french", func(c *Config) { c.Payments.ECBRate = "2,15" }, "payments.ecb-rate"},
		{"ecb rate too precise", func(c *Config) { c.Payments.ECBRate = "2.155" }, "payments.ecb-rate"},
		{"ecb rate negative", func(c *Config) { c.Payments.ECBRate = "-1" }, "payments.ecb-rate"},
		{"ecb rate absurd", func(c *Config) { c.Payments.ECBRate = "25" }, "payments.ecb-rate"},
		{"metrics token short", func(c *Config) { c.Metrics.Token = "court" }, "metrics.token"},
		{"metrics token with a space", func(c *Config) { c.Metrics.Token = "un jeton de métriques" }, "metrics.token"},
		{"metrics token non-ASCII", func(c *Config) { c.Metrics.Token = "jetondemétriques1234" }, "metrics.token"},
		{"metrics token", func(c *Config) { c.Metrics.Token = "Zq4-_fT8pL0m.Kx9wR2s" }, ""},
		{"accessibility contact not an address", func(c *Config) { c.Accessibility.Contact = "accessibilité" }, "accessibility.contact"},
		{"accessibility contact a URL", func(c *Config) { c.Accessibility.Contact = "https://primeur.example/contact" }, "accessibility.contact"},
		{"accessibility contact", func(c *Config) { c.Accessibility.Contact = "accessibilite@primeur.example" }, ""},
		{"accessibility contact with name", func(c *Config) { c.Accessibility.Contact = "Primeur <aide@primeur.example>" }, ""},
		{"accessibility contact blank", func(c *Config) { c.Accessibility.Contact = "  " }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Defaults()
			tt.mutate(c)
			err := c.Validate()
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error = %v, want mention of %q", err, tt.wantErr)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error must be one line: %q", err)
			}
		})
	}
}

func TestAccessibilityContact(t *testing.T) {
	tests := []struct {
		name        string
		contact     string
		from        string
		wantAddress string
		wantSource  ContactSource
	}{
		{"the setting", "accessibilite@primeur.example", "Primeur <factures@primeur.example>", "accessibilite@primeur.example", ContactFromSetting},
		{"the setting's address without its name", " Équipe Primeur <aide@primeur.example> ", "", "aide@primeur.example", ContactFromSetting},
		{"the mail sender when unset", "", "Primeur <contact@primeur.example>", "contact@primeur.example", ContactFromMailSender},
		{"the bare mail sender", "", "factures@primeur.example", "factures@primeur.example", ContactFromMailSender},
		{"none for the default sender", "", "", "", ContactNone},
		{"none for a no-reply sender", "", "Primeur <noreply@primeur.example>", "", ContactNone},
		{"none for a do-not-reply sender", "", "do_not_reply@primeur.example", "", ContactNone},
		{"none for a French no-reply sender", "", "Primeur <ne-pas-repondre@primeur.example>", "", ContactNone},
		{"a reply address that only starts like one", "", "noreplyto-me@primeur.example", "noreplyto-me@primeur.example", ContactFromMailSender},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Defaults()
			c.Accessibility.Contact = tt.contact
			if tt.from != "" {
				c.SMTP.From = tt.from
			}
			if err := c.Validate(); err != nil {
				t.Fatal(err)
			}
			address, source := c.AccessibilityContact()
			if address != tt.wantAddress || source != tt.wantSource {
				t.Fatalf("got %q from %q, want %q from %q", address, source, tt.wantAddress, tt.wantSource)
			}
		})
	}
}

func TestHTTPSBaseURLImpliesSecureCookies(t *testing.T) {
	c := Defaults()
	c.BaseURL = "https://primeur.example/"
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if !c.SecureCookies || c.BaseURL != "https://primeur.example" {
		t.Fatalf("got secure=%v base=%q", c.SecureCookies, c.BaseURL)
	}
}

func TestDerivedDeliverySettings(t *testing.T) {
	c := Defaults()
	if c.Delivery.LockAt != 12*time.Hour {
		t.Fatalf("lock at %v, want 12h", c.Delivery.LockAt)
	}
	if c.Claims.AutovalidateDelay != 48*time.Hour {
		t.Fatalf("autovalidate after %v, want 48h", c.Claims.AutovalidateDelay)
	}
	if c.SMTP.Host != "" || c.SMTP.Port != 587 || c.SMTP.TLS != TLSStartTLS {
		t.Fatalf("smtp defaults %+v", c.SMTP)
	}
	c.Delivery.Lock = "07:30"
	if err := c.Validate(); err != nil || c.Delivery.LockAt != 7*time.Hour+30*time.Minute {
		t.Fatalf("lock 07:30 → %v, %v", c.Delivery.LockAt, err)
	}
}
