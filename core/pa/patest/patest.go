// Package patest is a local approved platform (PA) for tests and demos: an
// in-process HTTP server implementing the AFNOR XP Z12-013 Flow Service
// (flow-service.json, annex A v1.1.0, a copy of testdata/pa's) — an OAuth2
// client-credentials token URL, POST /v1/flows, POST /v1/flows/search, GET
// /v1/flows/{flowId}, GET /v1/healthcheck — and its webhook calls.
//
// Every request to the Flow Service is validated against the document's
// schemas (github.com/getkin/kin-openapi: route, parameters, bearer token,
// the body — the multipart deposit's flowInfo included); one that fails is
// answered 400 with the schema Error and counted (Server.Invalid). Every
// answer and webhook body it sends is validated too, and a failure counted
// there: a test asserts Invalid is empty.
//
// A deposited file is checked as a PA would: not empty (EmptyFlow), its
// SHA-256 the one flowInfo states (ChecksumMismatch), a Factur-X PDF with
// an EN 16931 CII inside (InvalidSchema), not deposited before
// (AlreadyExistingFlow); a failure makes the flow irrecevable (its
// acknowledgement Error with the reason code, XP Z12-013 §5.5.1). A flow
// that passes is acknowledged Ok and the Rule decides: accepted (a
// lifecycle flow 200 Déposée), rejected (213 Rejetée with a reason code,
// §5.5.2), or deposited then refused by the buyer (200, then 210
// Refusée). The lifecycle flows are CDAR messages (pa.Lifecycle), direction
// In, type CustomerInvoiceLC, found by search and read by GET.
package patest

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"primeur/core/pa"
)

//go:embed flow-service.json
var document []byte

//go:embed directory-service.json
var directoryDocument []byte

// Document is the Flow Service's OpenAPI document the server validates
// against.
func Document() []byte { return document }

// DirectoryDocument is the Directory Service's (annex B).
func DirectoryDocument() []byte { return directoryDocument }

// Invoice is what the server read of a deposited Factur-X invoice.
type Invoice struct {
	TrackingID string
	// Number (BT-1), TypeCode (BT-3), IssueDate (BT-2, YYYYMMDD).
	Number, TypeCode, IssueDate string
	// Seller and Buyer are their SIRENs (BT-30, BT-47).
	Seller, Buyer string
	SHA256        string
}

// Decision is what the Rule decides of a deposited invoice.
type Decision struct {
	// Outcome is Accept, Reject (213) or Refuse (200, then 210 by the
	// buyer).
	Outcome Outcome
	// ReasonCode and Reason are the motive of a rejection or a refusal.
	ReasonCode, Reason string
}

// Outcome is a Rule's decision.
type Outcome int

const (
	Accept Outcome = iota
	Reject
	Refuse
)

// Rule decides of each invoice that passed the checks.
type Rule func(Invoice) Decision

// Config configures a Server.
type Config struct {
	// ClientID and ClientSecret are the credentials the token URL accepts.
	ClientID, ClientSecret string
	// Rule decides; nil accepts everything.
	Rule Rule
	// Webhook, when set, is called (POST, WebhookCallbackContent) for each
	// flow made or changed, with "Authorization: Bearer WebhookSecret".
	Webhook, WebhookSecret string
	// Deposited, when set, is called with each deposit's trackingId once
	// its flow is held and before the answer is sent: a test may block in
	// it, to kill the depositing process between the two.
	Deposited func(trackingID string)
	// Directory is the Directory Service's lines (its
	// POST /v1/directory-line/search finds them by SIREN or SIRET).
	Directory []pa.DirectoryLine
}

// flow is a flow the server holds.
type flow struct {
	pa.Flow
	file []byte
}

// Server is a local PA.
type Server struct {
	cfg       Config
	srv       *httptest.Server
	router    routers.Router
	doc       *openapi3.T
	dirRouter routers.Router

	mu       sync.Mutex
	tokens   map[string]bool
	flows    []*flow
	byID     map[string]*flow
	last     time.Time
	invalid  []string
	deposits map[string]int // by trackingId
	searches int            // directory searches
	seq      int
	webhooks sync.WaitGroup
}

func init() {
	for _, ct := range []string{"application/pdf", "application/xml"} {
		if openapi3filter.RegisteredBodyDecoder(ct) == nil {
			openapi3filter.RegisterBodyDecoder(ct, openapi3filter.FileBodyDecoder)
		}
	}
}

// Start starts a local PA; Close stops it.
func Start(cfg Config) (*Server, error) {
	doc, err := openapi3.NewLoader().LoadFromData(document)
	if err != nil {
		return nil, fmt.Errorf("patest: load the document: %w", err)
	}
	// The document's own examples of errors hold "errorMessage": null,
	// which its schema does not allow: examples are not checked.
	if err := doc.Validate(context.Background(), openapi3.DisableExamplesValidation()); err != nil {
		return nil, fmt.Errorf("patest: the document: %w", err)
	}
	// ReasonCode is "oneOf" the enumeration of the standard's codes or any
	// string: a code of the enumeration matches both, which oneOf forbids,
	// so that no standard code would pass. It is read as the anyOf its
	// description means ("a predefined set … + ability to extend").
	if rc := doc.Components.Schemas["ReasonCode"]; rc != nil && rc.Value != nil && len(rc.Value.OneOf) > 0 {
		rc.Value.AnyOf, rc.Value.OneOf = rc.Value.OneOf, nil
	}
	s := &Server{cfg: cfg, doc: doc, tokens: map[string]bool{}, byID: map[string]*flow{}, deposits: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /token", s.token)
	mux.HandleFunc("/flow-service/", s.flowService)
	mux.HandleFunc("/directory-service/", s.directoryService)
	s.srv = httptest.NewServer(mux)
	// The document's server is a template; the router matches ours.
	doc.Servers = openapi3.Servers{{URL: s.srv.URL + "/flow-service"}}
	if s.router, err = legacy.NewRouter(doc, openapi3.DisableExamplesValidation()); err != nil {
		s.srv.Close()
		return nil, fmt.Errorf("patest: router: %w", err)
	}
	dir, err := openapi3.NewLoader().LoadFromData(directoryDocument)
	if err != nil {
		s.srv.Close()
		return nil, fmt.Errorf("patest: load the directory document: %w", err)
	}
	// Annex B's patterns use lookaheads ("^(?!\\s+$)…"), which Go's
	// regular expressions lack: its patterns are not checked.
	// platformStatus is the enumeration Enabled, Disabled of maxLength 7,
	// which "Disabled" exceeds: the length is not checked.
	if ps := dir.Components.Schemas["platformStatus"]; ps != nil && ps.Value != nil {
		ps.Value.MaxLength = nil
	}
	dir.Servers = openapi3.Servers{{URL: s.srv.URL + "/directory-service"}}
	if s.dirRouter, err = legacy.NewRouter(dir, openapi3.DisableExamplesValidation(), openapi3.DisableSchemaPatternValidation()); err != nil {
		s.srv.Close()
		return nil, fmt.Errorf("patest: directory router: %w", err)
	}
	return s, nil
}

// Close stops the server, once its webhook calls are over.
func (s *Server) Close() {
	s.srv.Close()
	s.webhooks.Wait()
}

// FlowURL is the Flow Service's base URL, TokenURL the token URL.
func (s *Server) FlowURL() string  { return s.srv.URL + "/flow-service" }
func (s *Server) TokenURL() string { return s.srv.URL + "/token" }

// DirectoryURL is the Directory Service's base URL.
func (s *Server) DirectoryURL() string { return s.srv.URL + "/directory-service" }

// Invalid lists the requests, answers and webhook bodies that failed the
// document's schemas.
func (s *Server) Invalid() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.invalid)
}

// Deposits is how many times each trackingId was deposited (every
// deposit counted, accepted or not).
func (s *Server) Deposits() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.deposits))
	for k, v := range s.deposits {
		out[k] = v
	}
	return out
}

// Flows is every flow held, in the order made.
func (s *Server) Flows() []pa.Flow {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]pa.Flow, len(s.flows))
	for i, f := range s.flows {
		out[i] = f.Flow
	}
	return out
}

func (s *Server) invalidf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	msg, _, _ := strings.Cut(fmt.Sprintf(format, args...), "\n")
	s.invalid = append(s.invalid, msg)
}

// token is the OAuth2 token URL (client credentials, in the Authorization
// header or the form).
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	if err := r.ParseForm(); err != nil || r.PostForm.Get("grant_type") != "client_credentials" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	id, secret, ok := r.BasicAuth()
	if ok {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	} else {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id != s.cfg.ClientID || secret != s.cfg.ClientSecret || id == "" {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	tok := "tok-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	s.mu.Lock()
	s.tokens[tok] = true
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// recorder keeps an answer to validate it before it is sent.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(status int)      { r.status = status }

// flowService validates the request, serves it, validates the answer.
func (s *Server) flowService(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, pa.MaxFile+1<<20))
	if err != nil {
		writeJSON(w, http.StatusRequestEntityTooLarge, map[string]string{"errorCode": "FILE_SIZE_EXCEEDED"})
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	// The router matches on the full URL.
	full := *r
	u := *r.URL
	u.Scheme, u.Host = "http", r.Host
	full.URL = &u
	route, params, err := s.router.FindRoute(&full)
	if err != nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"errorCode": "MISSING_RESOURCE", "errorMessage": err.Error()})
		return
	}
	in := &openapi3filter.RequestValidationInput{Request: &full, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: s.authenticate, MultiError: false}}
	if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
		if _, unauth := err.(*openapi3filter.SecurityRequirementsError); unauth {
			writeJSON(w, http.StatusUnauthorized, map[string]string{"errorCode": "MISSING_TOKEN"})
			return
		}
		s.invalidf("request %s %s: %v", r.Method, r.URL.Path, err)
		writeJSON(w, http.StatusBadRequest, map[string]string{"errorCode": "INVALID_REQUEST", "errorMessage": err.Error()})
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	switch route.Operation.OperationID {
	case "createFlow":
		s.create(rec, r, body)
	case "searchFlow":
		s.search(rec, body)
	case "getFlow":
		s.get(rec, params["flowId"], r.URL.Query().Get("docType"))
	case "getHealth":
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: rec.status, Header: rec.header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true}}
	out.SetBodyBytes(rec.body.Bytes())
	if err := openapi3filter.ValidateResponse(r.Context(), out); err != nil {
		s.invalidf("answer to %s %s: %v", r.Method, r.URL.Path, err)
	}
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.status)
	_, _ = w.Write(rec.body.Bytes())
}

func (s *Server) authenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	h := in.RequestValidationInput.Request.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(h, "Bearer ")
	s.mu.Lock()
	defer s.mu.Unlock()
	if !ok || !s.tokens[tok] {
		return fmt.Errorf("no valid bearer token")
	}
	return nil
}

// now is the time of a change: strictly after the last, so that
// updatedAfter pages never split one instant.
func (s *Server) now() time.Time {
	t := time.Now().UTC().Truncate(time.Microsecond)
	if !t.After(s.last) {
		t = s.last.Add(time.Microsecond)
	}
	s.last = t
	return t
}

// add holds a new flow (s.mu held) and returns it.
func (s *Server) add(f pa.Flow, file []byte) *flow {
	s.seq++
	t := s.now()
	f.FlowID = fmt.Sprintf("flow-%06d", s.seq)
	f.SubmittedAt, f.UpdatedAt = &t, &t
	x := &flow{Flow: f, file: file}
	s.flows = append(s.flows, x)
	s.byID[f.FlowID] = x
	return x
}

// create is POST /v1/flows.
func (s *Server) create(w http.ResponseWriter, r *http.Request, body []byte) {
	_, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	var info struct {
		TrackingID  string `json:"trackingId"`
		Name        string `json:"name"`
		FlowSyntax  string `json:"flowSyntax"`
		FlowProfile string `json:"flowProfile"`
		SHA256      string `json:"sha256"`
	}
	var file []byte
	for {
		p, err := mr.NextPart()
		if err != nil {
			break
		}
		b, _ := io.ReadAll(p)
		switch p.FormName() {
		case "flowInfo":
			_ = json.Unmarshal(b, &info)
		case "file":
			file = b
		}
	}
	sum := pa.SHA256(file)
	f := pa.Flow{TrackingID: info.TrackingID, Name: info.Name, FlowSyntax: info.FlowSyntax, FlowProfile: info.FlowProfile,
		SHA256: sum, FlowDirection: pa.DirectionOut, ProcessingRule: "B2B"}
	var reject pa.Reason
	var inv Invoice
	if info.FlowSyntax == pa.SyntaxCDAR {
		f.FlowType = pa.TypeCustomerInvoiceLC
	} else {
		f.FlowType = pa.TypeCustomerInvoice
	}
	s.mu.Lock()
	s.deposits[info.TrackingID]++
	dup := false
	for _, o := range s.flows {
		if o.FlowDirection == pa.DirectionOut && o.SHA256 == sum && o.Ack != nil && o.Ack.Status == pa.AckOk {
			dup = true
		}
	}
	s.mu.Unlock()
	switch {
	case len(file) == 0:
		reject = pa.Reason{Level: "Error", Item: "file", Code: pa.ReasonEmptyFlow, Message: "empty file"}
	case info.SHA256 != "" && info.SHA256 != sum:
		reject = pa.Reason{Level: "Error", Item: "sha256", Code: pa.ReasonChecksumMismatch, Message: "sha256 " + sum + " computed"}
	case dup:
		reject = pa.Reason{Level: "Error", Item: "file", Code: pa.ReasonAlreadyExistingFlow, Message: "same sha256 already received"}
	case info.FlowSyntax == pa.SyntaxFacturX:
		var err error
		if inv, err = ReadFacturX(file); err != nil {
			reject = pa.Reason{Level: "Error", Item: "file", Code: pa.ReasonInvalidSchema, Message: err.Error()}
		}
		inv.TrackingID, inv.SHA256 = info.TrackingID, sum
	case info.FlowSyntax != pa.SyntaxCDAR:
		reject = pa.Reason{Level: "Error", Item: "flowSyntax", Code: pa.ReasonFlowTypeError, Message: "only Factur-X and CDAR are accepted here"}
	}
	if reject.Code != "" {
		f.Ack = &pa.Acknowledgment{Status: pa.AckError, Details: []pa.Reason{reject}}
	} else {
		f.Ack = &pa.Acknowledgment{Status: pa.AckOk}
	}
	s.mu.Lock()
	x := s.add(f, file)
	made := []*flow{x}
	if reject.Code == "" && f.FlowType == pa.TypeCustomerInvoice {
		made = append(made, s.decide(inv)...)
	}
	answer := struct {
		FlowID      string     `json:"flowId"`
		SubmittedAt *time.Time `json:"submittedAt"`
		TrackingID  string     `json:"trackingId,omitempty"`
		Name        string     `json:"name,omitempty"`
		FlowSyntax  string     `json:"flowSyntax"`
		FlowProfile string     `json:"flowProfile,omitempty"`
		SHA256      string     `json:"sha256"`
	}{x.FlowID, x.SubmittedAt, f.TrackingID, f.Name, f.FlowSyntax, f.FlowProfile, sum}
	s.mu.Unlock()
	if s.cfg.Deposited != nil {
		s.cfg.Deposited(info.TrackingID)
	}
	writeJSON(w, http.StatusAccepted, answer)
	for _, m := range made {
		s.notify(m.Flow)
	}
}

// decide applies the rule to an invoice that passed the checks and makes
// its lifecycle flows (s.mu held).
func (s *Server) decide(inv Invoice) []*flow {
	d := Decision{}
	if s.cfg.Rule != nil {
		d = s.cfg.Rule(inv)
	}
	var made []*flow
	switch d.Outcome {
	case Reject:
		made = append(made, s.lifecycle(inv, pa.StatusRejected, d))
	case Refuse:
		made = append(made, s.lifecycle(inv, pa.StatusDeposited, Decision{}), s.lifecycle(inv, pa.StatusRefused, d))
	default:
		made = append(made, s.lifecycle(inv, pa.StatusDeposited, Decision{}))
	}
	return made
}

// lifecycle makes the lifecycle flow of a status of inv (s.mu held).
func (s *Server) lifecycle(inv Invoice, status string, d Decision) *flow {
	l := pa.Lifecycle{ID: fmt.Sprintf("%s_%s_%d", inv.Number, status, s.seq+1), At: time.Now().UTC().Truncate(time.Second),
		Number: inv.Number, TypeCode: inv.TypeCode, IssueDate: inv.IssueDate, Seller: inv.Seller,
		Status: status, Label: pa.StatusLabel(status), ReasonCode: d.ReasonCode, Reason: d.Reason}
	b, err := l.XML()
	if err != nil {
		s.invalid = append(s.invalid, "lifecycle: "+err.Error())
	}
	return s.add(pa.Flow{Name: l.ID + ".xml", FlowType: pa.TypeCustomerInvoiceLC, FlowDirection: pa.DirectionIn,
		FlowSyntax: pa.SyntaxCDAR, ProcessingRule: "B2B", SHA256: pa.SHA256(b), Ack: &pa.Acknowledgment{Status: pa.AckOk}}, b)
}

// SetStatus makes, later than its deposit, a lifecycle status of the
// invoice numbered number of seller (a buyer's refusal, an approval…).
func (s *Server) SetStatus(seller, number, status string, d Decision) error {
	s.mu.Lock()
	var inv *Invoice
	for _, f := range s.flows {
		if f.FlowType != pa.TypeCustomerInvoice || f.Ack == nil || f.Ack.Status != pa.AckOk {
			continue
		}
		if i, err := ReadFacturX(f.file); err == nil && i.Seller == seller && i.Number == number {
			inv = &i
		}
	}
	if inv == nil {
		s.mu.Unlock()
		return fmt.Errorf("patest: no invoice %s of %s", number, seller)
	}
	x := s.lifecycle(*inv, status, d)
	s.mu.Unlock()
	s.notify(x.Flow)
	return nil
}

// search is POST /v1/flows/search.
func (s *Server) search(w http.ResponseWriter, body []byte) {
	var q struct {
		Limit int `json:"limit"`
		Where struct {
			UpdatedAfter   *time.Time `json:"updatedAfter"`
			UpdatedBefore  *time.Time `json:"updatedBefore"`
			ProcessingRule []string   `json:"processingRule"`
			FlowType       []string   `json:"flowType"`
			FlowDirection  []string   `json:"flowDirection"`
			TrackingID     string     `json:"trackingId"`
			AckStatus      string     `json:"ackStatus"`
		} `json:"where"`
	}
	var echo struct {
		Where json.RawMessage `json:"where"`
	}
	if err := json.Unmarshal(body, &q); err != nil || json.Unmarshal(body, &echo) != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"errorCode": "INVALID_REQUEST"})
		return
	}
	if q.Limit <= 0 || q.Limit > pa.PageSize {
		q.Limit = 25
	}
	c := q.Where
	var res []pa.Flow
	s.mu.Lock()
	sorted := slices.Clone(s.flows)
	s.mu.Unlock()
	slices.SortStableFunc(sorted, func(a, b *flow) int { return a.UpdatedAt.Compare(*b.UpdatedAt) })
	for _, f := range sorted {
		switch {
		case c.UpdatedAfter != nil && !f.UpdatedAt.After(*c.UpdatedAfter),
			c.UpdatedBefore != nil && !f.UpdatedAt.Before(*c.UpdatedBefore),
			len(c.FlowType) > 0 && !slices.Contains(c.FlowType, f.FlowType),
			len(c.FlowDirection) > 0 && !slices.Contains(c.FlowDirection, f.FlowDirection),
			len(c.ProcessingRule) > 0 && !slices.Contains(c.ProcessingRule, f.ProcessingRule),
			c.TrackingID != "" && f.TrackingID != c.TrackingID,
			c.AckStatus != "" && (f.Ack == nil || f.Ack.Status != c.AckStatus):
			continue
		}
		res = append(res, f.Flow)
		if len(res) == q.Limit {
			break
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"limit": q.Limit, "filters": echo.Where, "results": nonNil(res)})
}

func nonNil(f []pa.Flow) []pa.Flow {
	if f == nil {
		return []pa.Flow{}
	}
	return f
}

// get is GET /v1/flows/{flowId}.
func (s *Server) get(w http.ResponseWriter, id, docType string) {
	s.mu.Lock()
	f, ok := s.byID[id]
	s.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"errorCode": "MISSING_RESOURCE"})
		return
	}
	if docType == "" || docType == "Metadata" {
		writeJSON(w, http.StatusOK, f.Flow)
		return
	}
	if docType != "Original" {
		writeJSON(w, http.StatusNotFound, map[string]string{"errorCode": "MISSING_RESOURCE", "errorMessage": "no " + docType})
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Disposition", "attachment;filename="+f.Name)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(f.file)
}

// SetWebhook sets the webhook URL and the bearer token its calls carry
// ("" for none), as a PA's configuration screen would (§5.6.2).
func (s *Server) SetWebhook(url, token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.Webhook, s.cfg.WebhookSecret = url, token
}

// WaitWebhooks waits for the webhook calls made so far to be answered.
func (s *Server) WaitWebhooks() { s.webhooks.Wait() }

// notify calls the webhook, if any, with the flow (after the answer).
func (s *Server) notify(f pa.Flow) {
	s.mu.Lock()
	hook, token := s.cfg.Webhook, s.cfg.WebhookSecret
	s.mu.Unlock()
	if hook == "" {
		return
	}
	body, _ := json.Marshal(map[string]any{"flowInfo": f})
	schema := s.doc.Components.Schemas["WebhookCallbackContent"].Value
	var v any
	_ = json.Unmarshal(body, &v)
	if err := schema.VisitJSON(v); err != nil {
		s.invalidf("webhook body: %v", err)
	}
	s.webhooks.Add(1)
	go func() {
		defer s.webhooks.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, hook, bytes.NewReader(body))
		if err != nil {
			return
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			_ = resp.Body.Close()
		}
	}()
}

// pdfcpuMu serializes this package's calls to pdfcpu, whose default
// configuration is read into package state on first use without a lock (a
// data race when two deposits are checked at once: -race caught it in
// TestPAJobDepositsAMonthOnce, whose two job runs deposit side by side).
var pdfcpuMu sync.Mutex

// attachments are a PDF's embedded files, read by pdfcpu.
func attachments(pdf []byte) ([]model.Attachment, error) {
	pdfcpuMu.Lock()
	defer pdfcpuMu.Unlock()
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	return api.ExtractAttachmentsRaw(bytes.NewReader(pdf), "", nil, conf)
}

// ReadFacturX reads a Factur-X PDF as a PA checks it: a PDF whose embedded
// factur-x.xml is a CII of the EN 16931 profile, with a number and a
// seller's SIREN.
func ReadFacturX(pdf []byte) (Invoice, error) {
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		return Invoice{}, fmt.Errorf("not a PDF")
	}
	atts, err := attachments(pdf)
	if err != nil {
		return Invoice{}, fmt.Errorf("PDF attachments: %w", err)
	}
	var xmlData []byte
	for _, a := range atts {
		if a.FileName == "factur-x.xml" {
			if xmlData, err = io.ReadAll(io.LimitReader(a, pa.MaxFile)); err != nil {
				return Invoice{}, fmt.Errorf("factur-x.xml: %w", err)
			}
		}
	}
	if xmlData == nil {
		return Invoice{}, fmt.Errorf("no factur-x.xml attached")
	}
	var cii struct {
		XMLName   xml.Name
		Guideline string `xml:"ExchangedDocumentContext>GuidelineSpecifiedDocumentContextParameter>ID"`
		Number    string `xml:"ExchangedDocument>ID"`
		TypeCode  string `xml:"ExchangedDocument>TypeCode"`
		IssueDate string `xml:"ExchangedDocument>IssueDateTime>DateTimeString"`
		Seller    string `xml:"SupplyChainTradeTransaction>ApplicableHeaderTradeAgreement>SellerTradeParty>SpecifiedLegalOrganization>ID"`
		Buyer     string `xml:"SupplyChainTradeTransaction>ApplicableHeaderTradeAgreement>BuyerTradeParty>SpecifiedLegalOrganization>ID"`
	}
	if err := xml.Unmarshal(xmlData, &cii); err != nil {
		return Invoice{}, fmt.Errorf("factur-x.xml: %w", err)
	}
	switch {
	case cii.XMLName.Local != "CrossIndustryInvoice":
		return Invoice{}, fmt.Errorf("factur-x.xml is a %s, not a CrossIndustryInvoice", cii.XMLName.Local)
	case cii.Guideline != "urn:cen.eu:en16931:2017":
		return Invoice{}, fmt.Errorf("profile %q, not EN 16931", cii.Guideline)
	case cii.Number == "" || cii.Seller == "":
		return Invoice{}, fmt.Errorf("no invoice number or no seller SIREN")
	}
	return Invoice{Number: cii.Number, TypeCode: cii.TypeCode, IssueDate: cii.IssueDate, Seller: cii.Seller, Buyer: cii.Buyer}, nil
}

// ForgetInvalid clears the failures Invalid lists (after a test sent
// invalid requests on purpose).
func (s *Server) ForgetInvalid() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.invalid = nil
}

// DirectorySearches is how many directory searches the server answered.
func (s *Server) DirectorySearches() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.searches
}

// directoryService serves the Directory Service: POST
// /v1/directory-line/search (by SIREN or SIRET, "contains") and GET
// /v1/healthcheck, each request and answer validated against annex B.
func (s *Server) directoryService(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		writeJSON(w, http.StatusRequestEntityTooLarge, map[string]string{"error": "too large"})
		return
	}
	full := *r
	u := *r.URL
	u.Scheme, u.Host = "http", r.Host
	full.URL = &u
	full.Body = io.NopCloser(bytes.NewReader(body))
	route, params, err := s.dirRouter.FindRoute(&full)
	if err != nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": err.Error()})
		return
	}
	opts := &openapi3filter.Options{AuthenticationFunc: s.authenticate}
	in := &openapi3filter.RequestValidationInput{Request: &full, PathParams: params, Route: route, Options: opts}
	if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
		if _, unauth := err.(*openapi3filter.SecurityRequirementsError); unauth {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		s.invalidf("directory request %s %s: %v", r.Method, r.URL.Path, err)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	switch route.Operation.OperationID {
	case "searchDirectoryLine":
		s.mu.Lock()
		s.searches++
		s.mu.Unlock()
		var q struct {
			Filters struct {
				SIREN, SIRET *struct {
					Value string `json:"value"`
				}
			} `json:"filters"`
			Limit int `json:"limit"`
		}
		_ = json.Unmarshal(body, &q)
		var res []pa.DirectoryLine
		for _, l := range s.cfg.Directory {
			switch {
			case q.Filters.SIREN != nil && !strings.Contains(l.SIREN, q.Filters.SIREN.Value),
				q.Filters.SIRET != nil && !strings.Contains(l.SIRET, q.Filters.SIRET.Value):
				continue
			}
			if q.Limit > 0 && len(res) == q.Limit {
				break
			}
			res = append(res, l)
		}
		if res == nil {
			res = []pa.DirectoryLine{}
		}
		rec.header.Set("Content-Language", "fr")
		writeJSON(rec, http.StatusOK, map[string]any{"totalNumberOfResults": len(res), "results": res})
	case "getHealth":
	default:
		s.invalidf("directory: %s is not implemented by the local PA", route.Operation.OperationID)
		w.WriteHeader(http.StatusNotImplemented)
		return
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: rec.status, Header: rec.header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true}}
	out.SetBodyBytes(rec.body.Bytes())
	if err := openapi3filter.ValidateResponse(r.Context(), out); err != nil {
		s.invalidf("directory answer to %s %s: %v", r.Method, r.URL.Path, err)
	}
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.status)
	_, _ = w.Write(rec.body.Bytes())
}
