package daemontest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"primeur/core/store/storetest"
	"primeur/daemon"
)

// NoContentType, as a Refused call's ContentType, sends its body without
// a Content-Type header.
const NoContentType = "none"

// Refused is one call the daemon must refuse, a row of the table that
// Server.Refuses runs: who sends what, and the problem it must answer.
type Refused struct {
	Name   string
	Client *Client
	Method string
	// Path is sent as written: dot segments, escapes and bytes that are
	// not UTF-8 reach the daemon as they are.
	Path string
	// Body is sent as Client.Do sends it: a string or []byte as is,
	// anything else as JSON; nil sends no body.
	Body any
	// ContentType is the body's Content-Type; empty means JSON when
	// there is a body, NoContentType none at all.
	ContentType string
	// Send, when set, makes a call that the fields above cannot describe
	// (an upload, a body without length); Client, Method, Path, Body and
	// ContentType are then unused.
	Send func() *Response

	Status int
	// Detail is the problem's detail, the French text a person reads;
	// empty only where the answer is huma's own (a malformed body, a
	// field of the wrong type), which is then not checked.
	Detail string
	// Location, when set, is where the problem's one field error points
	// ("body.quantity"); its message must be Detail.
	Location string
}

// Refuses runs each call as a subtest of t and checks its answer: the
// status, a problem with the detail and field error of the row and a
// request id, Retry-After on a 503, and the database as it was before
// the first call — every column of every table but storetest.Bookkeeping
// (sessions and throttling, which any request may write). The database
// is compared after every refusedPerSnapshot calls and after the last.
func (s *Server) Refuses(t *testing.T, calls []Refused) {
	t.Helper()
	before := storetest.SnapshotExcept(t, s.DB, storetest.Bookkeeping...)
	for i, call := range calls {
		t.Run(call.Name, func(t *testing.T) {
			t.Helper()
			var res *Response
			if call.Send != nil {
				res = call.Send()
			} else {
				res = call.Client.Raw(call.request(t))
			}
			if res.Status != call.Status {
				t.Fatalf("status %d, want %d: %.500s", res.Status, call.Status, res.Body)
			}
			p := res.Problem(t)
			if call.Detail != "" && p.Detail != call.Detail {
				t.Fatalf("detail %q, want %q", p.Detail, call.Detail)
			}
			if call.Location != "" && (len(p.Errors) != 1 || p.Errors[0].Location != call.Location || p.Errors[0].Message != call.Detail) {
				t.Fatalf("errors %+v, want one at %s: %q", p.Errors, call.Location, call.Detail)
			}
			if res.Header.Get(daemon.RequestIDHeader) == "" {
				t.Fatal("no request id")
			}
			if res.Status == http.StatusServiceUnavailable && res.Header.Get("Retry-After") == "" {
				t.Fatal("a 503 without Retry-After")
			}
			if (i+1)%refusedPerSnapshot != 0 && i+1 != len(calls) {
				return
			}
			if after := storetest.SnapshotExcept(t, s.DB, storetest.Bookkeeping...); after != before {
				from := i / refusedPerSnapshot * refusedPerSnapshot
				var names []string
				for _, c := range calls[from : i+1] {
					names = append(names, c.Name)
				}
				changes := storetest.Changes(before, after)
				before = after // the next batches are not blamed for it
				t.Fatalf("a refused call among these changed the database (%s):\n%s",
					strings.Join(names, "; "), changes)
			}
		})
	}
}

// refusedPerSnapshot is how many refused calls Refuses makes between two
// comparisons of the database. A snapshot reads every row of every table
// (the catalogue's hundreds of types among them): one per call was the
// largest part of the authorization matrices' time, about 2.7 ms each
// under the race detector for some 700 calls (issue 35). A change is
// still found, named with the rows that differ and the calls that may
// have made it; an earlier batch found clean is not blamed.
const refusedPerSnapshot = 16

// request builds the call's request, its path as written.
func (call Refused) request(t *testing.T) *http.Request {
	t.Helper()
	var body io.Reader
	switch b := call.Body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	case []byte:
		body = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("daemontest: encode body: %v", err)
		}
		body = bytes.NewReader(data)
	}
	req, err := http.NewRequest(call.Method, call.Client.base+call.Path, body)
	if err != nil {
		t.Fatalf("daemontest: %v", err)
	}
	path, _, _ := strings.Cut(call.Path, "?")
	req.URL.Opaque = "//" + req.URL.Host + path // the query stays in RawQuery
	switch {
	case call.ContentType == NoContentType:
	case call.ContentType != "":
		req.Header.Set("Content-Type", call.ContentType)
	case call.Body != nil:
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}
