package config

import (
	"strings"
	"testing"
)

// TestTrustedProxies: trusted-proxies reads addresses and CIDRs, and
// refuses anything else with one line naming the key.
func TestTrustedProxies(t *testing.T) {
	tests := []struct {
		list    string
		want    []string // the prefixes, when accepted
		wantErr string   // a part of the one-line error, when refused
	}{
		{list: "", want: nil},
		{list: "  ", want: nil},
		{list: "127.0.0.1", want: []string{"127.0.0.1/32"}},
		{list: "127.0.0.1, ::1", want: []string{"127.0.0.1/32", "::1/128"}},
		{list: "10.0.0.0/8,192.168.1.7/24", want: []string{"10.0.0.0/8", "192.168.1.0/24"}},
		{list: "::ffff:10.1.2.3", want: []string{"10.1.2.3/32"}},
		{list: "::ffff:10.0.0.0/104", want: []string{"10.0.0.0/8"}},
		{list: "2001:db8::/32", want: []string{"2001:db8::/32"}},
		{list: "nginx", wantErr: `trusted-proxies "nginx" is not an IP address or CIDR`},
		{list: "127.0.0.1,", wantErr: `trusted-proxies "" is not an IP address or CIDR`},
		{list: "127.0.0.1;10.0.0.1", wantErr: `trusted-proxies "127.0.0.1;10.0.0.1" is not`},
		{list: "10.0.0.0/33", wantErr: `trusted-proxies "10.0.0.0/33" is not`},
		{list: "0.0.0.0/0", wantErr: `trusted-proxies "0.0.0.0/0" would believe every client`},
		{list: "::/0", wantErr: `trusted-proxies "::/0" would believe every client`},
		{list: "fe80::1%eth0", wantErr: `trusted-proxies "fe80::1%eth0" has a zone`},
		{list: "127.0.0.1:8080", wantErr: `is not an IP address or CIDR`},
	}
	for _, tt := range tests {
		t.Run(tt.list, func(t *testing.T) {
			c := Defaults()
			c.TrustedProxies = tt.list
			err := c.Validate()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %v, want one line with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range c.Proxies {
				got = append(got, p.String())
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("prefixes %v, want %v", got, tt.want)
			}
			for _, p := range c.Proxies {
				if !p.IsValid() || p != p.Masked() || (p.Addr().Is6() && p.Addr().Is4In6()) {
					t.Errorf("prefix %v not canonical", p)
				}
			}
		})
	}
}
