package config

import (
	"fmt"
	"net/netip"
	"strings"
)

// ParseProxies reads trusted-proxies: addresses and CIDRs separated by
// commas (spaces around them allowed), each as a prefix (an address is a
// prefix of its full length; a CIDR is masked, 10.1.2.3/8 being 10.0.0.0/8).
// Refused, with one line naming the key: anything else, an empty item, a
// zone (fe80::1%eth0), and a prefix of length 0, which would believe any
// client's headers.
func ParseProxies(list string) ([]netip.Prefix, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	var out []netip.Prefix
	for item := range strings.SplitSeq(list, ",") {
		item = strings.TrimSpace(item)
		p, err := parseProxy(item)
		if err != nil {
			return nil, fmt.Errorf("config: %s %q %s", KeyTrustedProxies, item, err)
		}
		out = append(out, p)
	}
	return out, nil
}

func parseProxy(item string) (netip.Prefix, error) {
	bad := fmt.Errorf("is not an IP address or CIDR (127.0.0.1, 10.0.0.0/8, ::1)")
	if item == "" {
		return netip.Prefix{}, bad
	}
	if strings.Contains(item, "/") {
		p, err := netip.ParsePrefix(item)
		if err != nil {
			return netip.Prefix{}, bad
		}
		if p.Bits() == 0 {
			return netip.Prefix{}, fmt.Errorf("would believe every client's forwarding headers: list the proxies")
		}
		if p.Addr().Is4In6() {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
			if p.Bits() < 0 {
				return netip.Prefix{}, bad
			}
		}
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(item)
	if err != nil {
		return netip.Prefix{}, bad
	}
	if a.Zone() != "" {
		return netip.Prefix{}, fmt.Errorf("has a zone: list the address without it")
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}
