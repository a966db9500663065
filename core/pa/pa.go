// Package pa is Primeur's side of a producer's approved platform (plateforme
// agréée, PA): a client of the AFNOR XP Z12-013 Flow Service (annex A, v1.1.0,
// testdata/pa), the lifecycle messages (CDAR) it carries, and the encryption
// of the connection's client secret at rest (secret.go).
//
// The client is the only code of Primeur that speaks the PA's HTTP: a bearer
// token from the connection's token URL (OAuth2 client credentials), then
//
//   - Check: the token and GET /v1/healthcheck ("Tester la connexion");
//   - Deposit: POST /v1/flows, multipart — flowInfo (JSON: trackingId, the
//     document's own id; name; flowSyntax Factur-X; flowProfile CIUS, the
//     standard's name of the EN 16931 profile; sha256 of the file) and the
//     file;
//   - Search: POST /v1/flows/search, one page of flows updated after a time;
//   - Flow and Original: GET /v1/flows/{flowId}, the metadata or the file.
//
// Every call is bounded (Timeout, and the answer's size: MaxJSON, MaxFile).
// A failure is an *Error carrying what the PA said (HTTP status, errorCode,
// the acknowledgement's reason codes); French turns any error into one
// French sentence for the producer.
package pa

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// Limits of every exchange with a PA.
const (
	// Timeout bounds one HTTP exchange, token included.
	Timeout = 30 * time.Second
	// MaxJSON bounds a JSON answer (a page of search holds at most 100
	// flows).
	MaxJSON = 1 << 20
	// MaxFile bounds a file downloaded (GET docType=Original) or deposited.
	MaxFile = 10 << 20
	// PageSize is how many flows a search asks for (the standard's maximum).
	PageSize = 100
)

// The values of the standard's enumerations Primeur uses.
const (
	SyntaxFacturX = "Factur-X"
	SyntaxCDAR    = "CDAR"
	// ProfileEN16931 is flowProfile for the EN 16931 profile: XP Z12-012
	// calls it "Profil EN16931, une CIUS pour la France", the Flow Service's
	// FlowProfile enumeration "CIUS".
	ProfileEN16931 = "CIUS"

	DirectionIn  = "In"
	DirectionOut = "Out"

	TypeCustomerInvoice   = "CustomerInvoice"
	TypeCustomerInvoiceLC = "CustomerInvoiceLC"

	AckPending = "Pending"
	AckOk      = "Ok"
	AckError   = "Error"
)

// Config is a connection to a PA.
type Config struct {
	// FlowURL is the Flow Service's base URL, before /v1
	// ("https://api.flow.pa.fr/flow-service").
	FlowURL string
	// TokenURL is the OAuth2 token endpoint.
	TokenURL     string
	ClientID     string
	ClientSecret string
	// HTTP, when set, is the client the calls go through (its Timeout is
	// kept if set); nil means a client with Timeout.
	HTTP *http.Client
}

// Client calls one PA's Flow Service.
type Client struct {
	base  string
	hc    *http.Client
	token oauth2.TokenSource
}

// CheckURL refuses a URL that is not absolute https — http only towards
// this machine (a local PA, tests, the demo). field names it in the error.
func CheckURL(field, raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || u.User != nil {
		return fmt.Errorf("pa: %s %q: %w", field, raw, errBadURL)
	}
	if u.Scheme == "http" && !loopback(u.Hostname()) {
		return fmt.Errorf("pa: %s %q: %w", field, raw, errPlainHTTP)
	}
	return nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// New makes the client of a connection. It calls nothing.
func New(cfg Config) (*Client, error) {
	if err := CheckURL("flow-url", cfg.FlowURL); err != nil {
		return nil, err
	}
	if err := CheckURL("token-url", cfg.TokenURL); err != nil {
		return nil, err
	}
	if cfg.ClientID == "" || cfg.ClientSecret == "" {
		return nil, fmt.Errorf("pa: %w", errNoCredentials)
	}
	base := cfg.HTTP
	if base == nil {
		base = &http.Client{}
	} else {
		c := *base
		base = &c
	}
	if base.Timeout == 0 {
		base.Timeout = Timeout
	}
	cc := clientcredentials.Config{ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, TokenURL: strings.TrimSpace(cfg.TokenURL)}
	// The token source fetches through base (its timeout); the token is
	// cached and renewed when it expires.
	ts := cc.TokenSource(context.WithValue(context.Background(), oauth2.HTTPClient, base))
	return &Client{base: strings.TrimRight(strings.TrimSpace(cfg.FlowURL), "/"), hc: base, token: oauth2.ReuseTokenSource(nil, ts)}, nil
}

// Flow is a flow as the Flow Service describes it (schema Flow, and
// FullFlowInfo for a deposit's answer).
type Flow struct {
	FlowID         string          `json:"flowId,omitempty"`
	TrackingID     string          `json:"trackingId,omitempty"`
	Name           string          `json:"name,omitempty"`
	SubmittedAt    *time.Time      `json:"submittedAt,omitempty"`
	UpdatedAt      *time.Time      `json:"updatedAt,omitempty"`
	FlowType       string          `json:"flowType,omitempty"`
	ProcessingRule string          `json:"processingRule,omitempty"`
	FlowDirection  string          `json:"flowDirection,omitempty"`
	FlowSyntax     string          `json:"flowSyntax,omitempty"`
	FlowProfile    string          `json:"flowProfile,omitempty"`
	SHA256         string          `json:"sha256,omitempty"`
	Ack            *Acknowledgment `json:"acknowledgement,omitempty"`
}

// Acknowledgment is a flow's technical acknowledgement: Pending, Ok, or
// Error with its details (the flow is irrecevable).
type Acknowledgment struct {
	Status  string   `json:"status"`
	Details []Reason `json:"details,omitempty"`
}

// Reason is one detail of an acknowledgement (AcknowledgementDetail).
type Reason struct {
	Level   string `json:"level"`
	Item    string `json:"item"`
	Code    string `json:"reasonCode"`
	Message string `json:"reasonMessage"`
}

// Deposit is an invoice (or credit note) to deposit.
type Deposit struct {
	// TrackingID is Primeur's id of the document (at most 36 characters).
	TrackingID string
	// Name is the file's name ("FA-2026-000001.pdf").
	Name string
	// File is the Factur-X PDF.
	File []byte
}

// flowInfo is the standard's FlowInfo.
type flowInfo struct {
	TrackingID  string `json:"trackingId,omitempty"`
	Name        string `json:"name,omitempty"`
	FlowSyntax  string `json:"flowSyntax"`
	FlowProfile string `json:"flowProfile,omitempty"`
	SHA256      string `json:"sha256,omitempty"`
}

// SHA256 is the fingerprint of a file as flowInfo carries it (lower-case
// hexadecimal).
func SHA256(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Check fetches a token and calls the healthcheck: the connection works.
func (c *Client) Check(ctx context.Context) error {
	if _, err := c.token.Token(); err != nil {
		return tokenError(err)
	}
	return c.do(ctx, "healthcheck", http.MethodGet, "/v1/healthcheck", "", nil, nil, 0)
}

// Deposit deposits a Factur-X invoice and returns the flow the PA made.
func (c *Client) Deposit(ctx context.Context, d Deposit) (Flow, error) {
	return c.postFlow(ctx, "deposit", flowInfo{TrackingID: d.TrackingID, Name: d.Name, FlowSyntax: SyntaxFacturX,
		FlowProfile: ProfileEN16931}, "application/pdf", d.File)
}

// postFlow posts a flow (POST /v1/flows): info, its SHA-256 set here, and
// the file, named info.Name, of type fileType; what is wrong is an error
// prefixed by what (a deposit, a lifecycle status).
func (c *Client) postFlow(ctx context.Context, what string, info flowInfo, fileType string, file []byte) (Flow, error) {
	if len(file) > MaxFile {
		return Flow{}, &Error{Op: "deposit", Code: ReasonFileSizeExceeded}
	}
	info.SHA256 = SHA256(file)
	data, err := json.Marshal(info)
	if err != nil {
		return Flow{}, fmt.Errorf("pa: %s: %w", what, err)
	}
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="flowInfo"`)
	h.Set("Content-Type", "application/json")
	part, err := w.CreatePart(h)
	if err == nil {
		_, err = part.Write(data)
	}
	if err == nil {
		h = textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename=%q`, info.Name))
		h.Set("Content-Type", fileType)
		part, err = w.CreatePart(h)
	}
	if err == nil {
		_, err = part.Write(file)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return Flow{}, fmt.Errorf("pa: %s: %w", what, err)
	}
	var f Flow
	err = c.do(ctx, "deposit", http.MethodPost, "/v1/flows", w.FormDataContentType(), &body, &f, MaxJSON)
	return f, err
}

// Filter is a search's criteria (SearchFlowFilters); the zero fields are
// left out.
type Filter struct {
	UpdatedAfter *time.Time `json:"updatedAfter,omitempty"`
	FlowType     []string   `json:"flowType,omitempty"`
	Direction    []string   `json:"flowDirection,omitempty"`
	TrackingID   string     `json:"trackingId,omitempty"`
}

// Search returns one page of the flows that match f (at most PageSize),
// as the PA orders them.
func (c *Client) Search(ctx context.Context, f Filter) ([]Flow, error) {
	if f.UpdatedAfter != nil {
		t := f.UpdatedAfter.UTC()
		f.UpdatedAfter = &t
	}
	q, err := json.Marshal(struct {
		Limit int    `json:"limit"`
		Where Filter `json:"where"`
	}{PageSize, f})
	if err != nil {
		return nil, fmt.Errorf("pa: search: %w", err)
	}
	var out struct {
		Results []Flow `json:"results"`
	}
	if err := c.do(ctx, "search", http.MethodPost, "/v1/flows/search", "application/json", bytes.NewReader(q), &out, MaxJSON); err != nil {
		return nil, err
	}
	return out.Results, nil
}

// Flow returns a flow's metadata.
func (c *Client) Flow(ctx context.Context, id string) (Flow, error) {
	var f Flow
	err := c.do(ctx, "get", http.MethodGet, "/v1/flows/"+url.PathEscape(id)+"?docType=Metadata", "", nil, &f, MaxJSON)
	return f, err
}

// Original returns a flow's file as it was deposited (a lifecycle
// message's CDAR XML, an invoice's PDF).
func (c *Client) Original(ctx context.Context, id string) ([]byte, error) {
	var b []byte
	err := c.do(ctx, "get", http.MethodGet, "/v1/flows/"+url.PathEscape(id)+"?docType=Original", "", nil, &b, MaxFile)
	return b, err
}

// do makes one authenticated call to the Flow Service (path after its
// base URL): see call.
func (c *Client) do(ctx context.Context, op, method, path, contentType string, body io.Reader, out any, limit int64) error {
	return c.call(ctx, op, method, c.base+path, contentType, body, out, limit)
}

// call makes one authenticated call and decodes its answer into out (a
// *[]byte takes the raw body), reading at most limit bytes.
func (c *Client) call(ctx context.Context, op, method, url, contentType string, body io.Reader, out any, limit int64) error {
	tok, err := c.token.Token()
	if err != nil {
		return tokenError(err)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return fmt.Errorf("pa: %s: %w", op, err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", "application/json")
	tok.SetAuthHeader(req)
	resp, err := c.hc.Do(req)
	if err != nil {
		return &Error{Op: op, Temporary: true, err: err}
	}
	defer func() { _ = resp.Body.Close() }()
	if limit <= 0 {
		limit = MaxJSON
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return &Error{Op: op, Status: resp.StatusCode, Temporary: true, err: err}
	}
	if int64(len(raw)) > limit {
		return &Error{Op: op, Status: resp.StatusCode, err: errAnswerTooLarge}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		e := &Error{Op: op, Status: resp.StatusCode, Temporary: resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests}
		var body struct {
			Code    string `json:"errorCode"`
			Message string `json:"errorMessage"`
		}
		if json.Unmarshal(raw, &body) == nil {
			e.Code, e.Message = body.Code, body.Message
		}
		return e
	}
	switch o := out.(type) {
	case nil:
		return nil
	case *[]byte:
		*o = raw
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return &Error{Op: op, Status: resp.StatusCode, err: fmt.Errorf("%w: %w", errBadAnswer, err)}
	}
	return nil
}
