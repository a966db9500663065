package config

import (
	"strings"
	"testing"
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
