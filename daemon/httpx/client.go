package httpx

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// The client of a request (docs/SECURITY.md "Client address"): who the
// throttling counts, the request log names and /metrics admits, and the
// scheme the session cookie follows. It is resolved once, by the daemon's
// outermost handler (ResolveClient, then WithClient), before anything else
// reads the request, and read through ClientOf or ClientFrom: the daemon
// reads r.RemoteAddr nowhere else.
//
// Without trusted-proxies, or from a peer outside it, the client is the TCP
// peer and every forwarding header is ignored. From a trusted proxy:
//
//   - the address is the rightmost one of X-Forwarded-For (or Forwarded,
//     RFC 7239) that is not itself a trusted proxy. Each proxy appends the
//     address of its own peer, so reading from the right, every element is
//     written by a proxy of the list until the first that is not in it: the
//     client that reached the first trusted proxy. Whatever stands left of
//     it was sent by that client, who may write anything there; the leftmost
//     element, which many frameworks take, is the one a client forges.
//     When every element is a trusted proxy (a client on the proxy's own
//     machine or network) the leftmost one is the client. An unreadable
//     element met on the way (unknown, an obfuscated name, garbage) names
//     no client: the client stays the peer, the headers not believed.
//   - A request carrying both headers is believed only when they name the
//     same client: a proxy that maintains one passes the other through from
//     the client, who could otherwise choose it. Two that disagree leave the
//     client at the peer.
//   - The scheme is the rightmost X-Forwarded-Proto (the one the nearest
//     proxy set), else the proto of the rightmost Forwarded element.
//
// X-Real-IP is never believed (a single address the client may have sent);
// it only marks a request as forwarded, for /metrics.

// Client is who sent a request, as far as the daemon can tell.
type Client struct {
	// Addr is the client's address without port (IPv4, or IPv6 without
	// zone), the TCP peer's or the one a trusted proxy names; RemoteAddr as
	// it is when it is no IP address (a Unix socket).
	Addr string
	// HTTPS is the scheme the client used: TLS on this connection, or a
	// trusted proxy's X-Forwarded-Proto.
	HTTPS bool
	// Forwarded reports a forwarding header (Forwarded, X-Forwarded-For,
	// X-Real-IP) in the request, believed or not.
	Forwarded bool
	// Believed reports that Addr is the one a trusted proxy's header names.
	Believed bool
}

type clientKey struct{}

// WithClient is r carrying its resolved client.
func WithClient(r *http.Request, c Client) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), clientKey{}, c))
}

// ClientOf is the request's client: the one WithClient set, or the TCP peer
// of a request that did not come through it.
func ClientOf(r *http.Request) Client {
	if c, ok := r.Context().Value(clientKey{}).(Client); ok {
		return c
	}
	return ResolveClient(r, nil)
}

// ClientFrom is the client of the request whose context ctx is (huma's
// handlers see only the context); the zero client outside a request.
func ClientFrom(ctx context.Context) Client {
	c, _ := ctx.Value(clientKey{}).(Client)
	return c
}

// maxForwarded bounds the bytes of forwarding headers read from a trusted
// proxy (nginx's default header buffer is 8 KB): past it nothing is
// believed.
const maxForwarded = 8 << 10

// ResolveClient is the one rule of a request's client, proxies being the
// trusted proxies (config.Config.Proxies).
func ResolveClient(r *http.Request, proxies []netip.Prefix) Client {
	h := r.Header
	xff, fwd := h.Values("X-Forwarded-For"), h.Values("Forwarded")
	c := Client{Addr: r.RemoteAddr, HTTPS: r.TLS != nil,
		Forwarded: len(xff) > 0 || len(fwd) > 0 || h.Get("X-Real-Ip") != ""}
	peer, ok := peerAddr(r.RemoteAddr)
	if !ok {
		return c
	}
	c.Addr = peer.String()
	if !trusted(peer, proxies) {
		return c
	}
	if https, ok := forwardedScheme(h.Values("X-Forwarded-Proto"), fwd); ok {
		c.HTTPS = https
	}
	if !c.Forwarded || size(xff)+size(fwd) > maxForwarded {
		return c
	}
	var (
		fromXFF, fromFwd netip.Addr
		okXFF, okFwd     = len(xff) > 0, len(fwd) > 0
	)
	if okXFF {
		fromXFF, okXFF = rightmostUntrusted(xffHops(xff), peer, proxies)
	}
	if okFwd {
		fromFwd, okFwd = rightmostUntrusted(forwardedHops(fwd), peer, proxies)
	}
	switch {
	case len(xff) > 0 && len(fwd) > 0:
		if okXFF && okFwd && fromXFF == fromFwd {
			c.Addr, c.Believed = fromXFF.String(), true
		}
	case okXFF:
		c.Addr, c.Believed = fromXFF.String(), true
	case okFwd:
		c.Addr, c.Believed = fromFwd.String(), true
	}
	return c
}

// rightmostUntrusted walks the hops from the right (each as written):
// the first address outside the proxies is the client; every one inside
// them, the leftmost. ok is false when an unreadable hop comes first.
func rightmostUntrusted(hops []string, peer netip.Addr, proxies []netip.Prefix) (netip.Addr, bool) {
	last := peer
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := hopAddr(hops[i])
		if !ok {
			return netip.Addr{}, false
		}
		if !trusted(a, proxies) {
			return a, true
		}
		last = a
	}
	return last, true
}

// trusted reports whether a is one of the proxies.
func trusted(a netip.Addr, proxies []netip.Prefix) bool {
	for _, p := range proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// peerAddr is the address of a RemoteAddr ("192.0.2.1:1234",
// "[2001:db8::1]:1234"), unmapped and without zone.
func peerAddr(remote string) (netip.Addr, bool) {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	return plainAddr(host)
}

// hopAddr reads one hop as proxies write it: an address, with or without a
// port, IPv6 in brackets or not ("192.0.2.1", "192.0.2.1:80",
// "2001:db8::1", "[2001:db8::1]:80").
func hopAddr(s string) (netip.Addr, bool) {
	if a, ok := plainAddr(s); ok {
		return a, true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return plainAddr(ap.Addr().String())
	}
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		return plainAddr(s[1 : len(s)-1])
	}
	return netip.Addr{}, false
}

// plainAddr parses an address, unmapped and without zone; the unspecified
// addresses (0.0.0.0, ::) name nobody.
func plainAddr(s string) (netip.Addr, bool) {
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}, false
	}
	a = a.Unmap().WithZone("")
	if a.IsUnspecified() {
		return netip.Addr{}, false
	}
	return a, true
}

func size(values []string) int {
	n := 0
	for _, v := range values {
		n += len(v)
	}
	return n
}

// xffHops lists the elements of the X-Forwarded-For lines, in order.
func xffHops(lines []string) []string {
	var hops []string
	for _, line := range lines {
		for item := range strings.SplitSeq(line, ",") {
			hops = append(hops, strings.TrimSpace(item))
		}
	}
	return hops
}

// forwardedHops lists the for= node of each element of the Forwarded
// lines, in order ("" where an element has none).
func forwardedHops(lines []string) []string {
	var hops []string
	for _, e := range forwardedElements(lines) {
		hops = append(hops, e["for"])
	}
	return hops
}

// forwardedElements parses Forwarded (RFC 7239 §4): elements separated by
// commas, each of pairs name=value separated by semicolons, a value a
// token or a quoted string (with backslash escapes); names are
// case-insensitive. Commas and semicolons inside quotes are text.
func forwardedElements(lines []string) []map[string]string {
	var out []map[string]string
	for _, line := range lines {
		elem := map[string]string{}
		var pair strings.Builder
		quoted, escaped := false, false
		flush := func() {
			name, value, ok := strings.Cut(pair.String(), "=")
			if ok {
				elem[strings.ToLower(strings.TrimSpace(name))] = strings.TrimSpace(value)
			}
			pair.Reset()
		}
		for _, ch := range line {
			switch {
			case escaped:
				pair.WriteRune(ch)
				escaped = false
			case quoted && ch == '\\':
				escaped = true
			case ch == '"':
				quoted = !quoted
			case !quoted && ch == ';':
				flush()
			case !quoted && ch == ',':
				flush()
				out = append(out, elem)
				elem = map[string]string{}
			default:
				pair.WriteRune(ch)
			}
		}
		flush()
		out = append(out, elem)
	}
	return out
}

// forwardedScheme is the scheme a trusted proxy reports: the rightmost
// X-Forwarded-Proto value, else the proto of the rightmost Forwarded
// element; ok false when neither names http or https.
func forwardedScheme(proto, fwd []string) (https, ok bool) {
	if v := rightmost(proto); v != "" {
		return schemeOf(v)
	}
	if len(fwd) > 0 && size(fwd) <= maxForwarded {
		elems := forwardedElements(fwd)
		return schemeOf(elems[len(elems)-1]["proto"])
	}
	return false, false
}

func schemeOf(v string) (https, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "https":
		return true, true
	case "http":
		return false, true
	}
	return false, false
}

// rightmost is the last comma-separated value of the lines.
func rightmost(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	last := lines[len(lines)-1]
	if i := strings.LastIndexByte(last, ','); i >= 0 {
		last = last[i+1:]
	}
	return strings.TrimSpace(last)
}
