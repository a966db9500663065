// Package daemontest starts a real daemon on a real database behind an
// httptest server, with a movable clock and cookie-keeping clients, for the
// API tests of every concern.
package daemontest

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"primeur/core/config"
	"primeur/core/store"
	"primeur/daemon"
)

// Clock is a settable time source.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Start is the default time of a test server's clock: a Friday morning in
// Paris, 2026-11-20 10:00.
var Start = time.Date(2026, 11, 20, 10, 0, 0, 0, mustParis())

func mustParis() *time.Location {
	loc, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		panic(err)
	}
	return loc
}

// Server is a running daemon.
type Server struct {
	t      testing.TB
	URL    string
	DB     *store.DB
	Clock  *Clock
	Config *config.Config
	Daemon *daemon.Daemon

	contractOnce sync.Once
	contract     *Contract
}

// Option changes the daemon's options before it starts.
type Option func(*daemon.Options)

// WithUI serves the given front end.
func WithUI(ui fs.FS) Option { return func(o *daemon.Options) { o.UI = ui } }

// New starts a daemon on db, stopped at the end of the test.
func New(t testing.TB, db *store.DB, opts ...Option) *Server {
	t.Helper()
	clock := &Clock{now: Start}
	cfg := config.Defaults()
	cfg.DataDir = t.TempDir()
	o := daemon.Options{Config: cfg, DB: db, Now: clock.Now}
	for _, opt := range opts {
		opt(&o)
	}
	d := daemon.New(o)
	ts := httptest.NewUnstartedServer(d.Handler())
	daemon.ConfigureServer(ts.Config)
	ts.Start()
	// The emails an answer sends in the background are written before the
	// data directory (t.TempDir) goes: its removal, a cleanup registered
	// earlier, runs after this one.
	t.Cleanup(func() {
		ts.Close()
		d.Wait()
	})
	return &Server{t: t, URL: ts.URL, DB: db, Clock: clock, Config: cfg, Daemon: d}
}

// Client is a browser-like client keeping its session cookie.
type Client struct {
	t    testing.TB
	base string
	http *http.Client
	// Header is added to every request.
	Header http.Header
	// contract, when set, checks every answer.
	contract *Contract
}

// Client returns a new client without session. Under a test (not a
// benchmark, which measures), every answer it reads is checked against the
// daemon's OpenAPI document (Contract): one the document does not allow
// fails the test.
func (s *Server) Client() *Client {
	jar, _ := cookiejar.New(nil)
	c := &Client{t: s.t, base: s.URL, http: &http.Client{Jar: jar}, Header: http.Header{}}
	if _, ok := s.t.(*testing.T); ok {
		c.contract = s.Contract()
	}
	return c
}

// Contract is the daemon's OpenAPI document, read once.
func (s *Server) Contract() *Contract {
	s.contractOnce.Do(func() { s.contract = NewContract(s.Daemon.OpenAPI()) })
	return s.contract
}

// ClientFrom returns a new client without session whose connections leave
// from the loopback address ip ("127.0.0.2", "127.0.0.3"…; Linux routes
// the whole of 127.0.0.0/8 to the loopback interface), so that the daemon
// sees it as another client address — for the tests of throttling.
func (s *Server) ClientFrom(ip string) *Client {
	c := s.Client()
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	c.http.Transport = &http.Transport{DialContext: dialer.DialContext, MaxIdleConnsPerHost: 64}
	return c
}

// Response is a finished exchange.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Problem is an RFC 9457 error body.
type Problem struct {
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Errors []struct {
		Location string `json:"location"`
		Message  string `json:"message"`
		Value    any    `json:"value"`
	} `json:"errors"`
}

// Do sends a request. body is sent as JSON unless it is a string or
// []byte, sent as is (with the Content-Type from Header or JSON).
func (c *Client) Do(method, path string, body any) *Response {
	c.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			c.t.Fatalf("daemontest: encode body: %v", err)
		}
		r = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, c.base+path, r)
	if err != nil {
		c.t.Fatalf("daemontest: %v", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return c.Raw(req)
}

// Raw sends a prepared request with the client's cookies and headers.
func (c *Client) Raw(req *http.Request) *Response {
	c.t.Helper()
	for k, v := range c.Header {
		req.Header[k] = v
	}
	return c.exchange(req)
}

// exchange sends req and reads the whole answer, checked against the
// document when the client has it.
func (c *Client) exchange(req *http.Request) *Response {
	c.t.Helper()
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("daemontest: %s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatalf("daemontest: read body: %v", err)
	}
	if c.contract != nil {
		// Errorf, not Fatalf: the client may be used from a subtest of the
		// test that made it.
		for _, p := range c.contract.Check(req, res.StatusCode, res.Header, data) {
			c.t.Errorf("daemontest: %s %s: %s", req.Method, req.URL.Path, p)
		}
	}
	return &Response{Status: res.StatusCode, Header: res.Header, Body: data}
}

// JSON decodes the response body into v.
func (r *Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("daemontest: decode %s: %v", r.Body, err)
	}
}

// Problem decodes an error body.
func (r *Response) Problem(t testing.TB) Problem {
	t.Helper()
	var p Problem
	r.JSON(t, &p)
	return p
}

// Expect fails the test unless the status is want.
func (r *Response) Expect(t testing.TB, want int) *Response {
	t.Helper()
	if r.Status != want {
		t.Fatalf("status %d, want %d: %s", r.Status, want, r.Body)
	}
	return r
}

// Password is the password Register uses.
const Password = "motdepasse1"

// Register creates an account through the API and returns its logged-in
// client and the user's id.
func (s *Server) Register(email, name string, shop bool) (*Client, string) {
	s.t.Helper()
	c := s.Client()
	res := c.Do("POST", "/auth/register", map[string]any{
		"email": email, "password": Password, "name": name, "distributor": shop,
	}).Expect(s.t, http.StatusCreated)
	var out struct {
		User struct {
			ID string `json:"_id"`
		} `json:"user"`
	}
	res.JSON(s.t, &out)
	return c, out.User.ID
}

// Producer registers a producer and gives it delivery days (Monday and
// Thursday), as it needs them to trade.
func (s *Server) Producer(email, name string) (*Client, string) {
	s.t.Helper()
	c, id := s.Register(email, name, false)
	c.Do("PUT", "/api/user", map[string]any{
		"defaultDeliveryDays": []bool{true, false, false, true, false, false, false},
	}).Expect(s.t, http.StatusOK)
	return c, id
}

// Send sends a request with a body of the given content type (none when
// contentType is empty). A body that is not a *bytes.Reader or
// *strings.Reader is sent without Content-Length (chunked).
func (c *Client) Send(method, path, contentType string, body io.Reader) *Response {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		c.t.Fatalf("daemontest: %v", err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, v := range c.Header {
		req.Header[k] = v
	}
	return c.exchange(req)
}

// Upload posts a multipart/form-data form with one file part, as a
// browser's file input sends it.
func (c *Client) Upload(path, field, filename string, data []byte) *Response {
	c.t.Helper()
	return c.UploadForm(path, field, filename, data, nil)
}

// UploadForm sends a file as Upload does, with text fields beside it.
func (c *Client) UploadForm(path, field, filename string, data []byte, values map[string]string) *Response {
	c.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	var err error
	for name, v := range values {
		if err == nil {
			err = w.WriteField(name, v)
		}
	}
	var part io.Writer
	if err == nil {
		part, err = w.CreateFormFile(field, filename)
	}
	if err == nil {
		_, err = part.Write(data)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		c.t.Fatalf("daemontest: multipart: %v", err)
	}
	return c.Send(http.MethodPost, path, w.FormDataContentType(), bytes.NewReader(body.Bytes()))
}
