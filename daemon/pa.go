package daemon

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/jobs"
	"primeur/core/pa"
	"primeur/core/store"
	"primeur/daemon/httpx"
)

// The producer's "Facturation électronique" (PRODUCT §16 "Electronic
// invoicing through an approved platform"): its connection to its PA,
// tested before it is stored, and the webhook route its PA calls with the
// flows made or changed (jobs.PANotified does the work).

// PAConnectionView is a producer's connection as its profile shows it; the
// client secret is never sent back.
type PAConnectionView struct {
	Connected    bool   `json:"connected"`
	FlowURL      string `json:"flowUrl,omitempty" doc:"The Flow Service's URL, before /v1"`
	TokenURL     string `json:"tokenUrl,omitempty" doc:"The OAuth2 token URL"`
	ClientID     string `json:"clientId,omitempty"`
	DirectoryURL string `json:"directoryUrl,omitempty" doc:"The Directory Service's URL, when the PA has one"`
	ConnectedAt  string `json:"connectedAt,omitempty" doc:"RFC 3339"`
	DepositFrom  string `json:"depositFrom,omitempty" doc:"YYYY-MM-DD: the documents issued from that day on are deposited"`
	// SecretReadable is false when the key file that opens the stored
	// secret is missing (an administrator's matter).
	SecretReadable bool   `json:"secretReadable" doc:"false when the daemon cannot open the stored secret (its key file is missing): nothing is deposited until it is back"`
	WebhookPath    string `json:"webhookPath,omitempty" doc:"The path, on this site, of the webhook to give the PA (XP Z12-013 §5.6)"`
	WebhookToken   string `json:"webhookToken,omitempty" doc:"The bearer token the PA's webhook calls must carry"`
	Deposited      int    `json:"deposited" doc:"Documents deposited on the PA"`
	Failing        int    `json:"failing" doc:"Documents whose deposit failed and is tried again, or left for an administrator"`
	Outside        int    `json:"outside" doc:"Documents issued outside a PA (not deposited): this year's, or since 1 September 2027 once it is past"`
	Warning        string `json:"warning,omitempty" doc:"The dashboard's warning in French to a producer not connected, from 1 June 2027 (PRODUCT §16); absent otherwise"`
}

// PAConnectionOutput answers the connection's operations.
type PAConnectionOutput struct {
	Body PAConnectionView
}

// PAConnectionBody is a connection as the profile's form sends it.
type PAConnectionBody struct {
	FlowURL      string `json:"flowUrl" required:"false" maxLength:"2000" doc:"https (http only towards the daemon's own machine, outside production); empty: the stored connection's"`
	TokenURL     string `json:"tokenUrl" required:"false" maxLength:"2000"`
	ClientID     string `json:"clientId" required:"false" maxLength:"1000"`
	ClientSecret string `json:"clientSecret,omitempty" required:"false" maxLength:"5000" doc:"Absent or empty: the stored secret is kept"`
	DirectoryURL string `json:"directoryUrl,omitempty" required:"false" maxLength:"2000"`
	Since        string `json:"since,omitempty" required:"false" maxLength:"40" doc:"YYYY-MM-DD: also deposit the documents issued since that day and not deposited yet; absent: from now on (or, connected already, the day kept)"`
}

// PAConnectionInput connects or tests a connection.
type PAConnectionInput struct {
	Body PAConnectionBody
}

// PATestOutput is the outcome of "Tester la connexion".
type PATestOutput struct {
	Body struct {
		OK      bool   `json:"ok"`
		Message string `json:"message" doc:"In French: what failed, or that the connection works"`
	}
}

// PAWebhookInput is a PA's webhook call (XP Z12-013 §5.6.3).
type PAWebhookInput struct {
	ProducerID    string `path:"producerId" maxLength:"100" doc:"The producer whose PA calls"`
	Authorization string `header:"Authorization" maxLength:"1000" doc:"Bearer <the connection's webhook token>"`
	RawBody       []byte `contentType:"application/json"`
}

// PAWebhookOutput says how many statuses the call brought.
type PAWebhookOutput struct {
	Body struct {
		Recorded int `json:"recorded" doc:"Statuses recorded by this call (0 when already known)"`
	}
}

// French messages of the profile's section.
const (
	MsgPAWorks    = "La connexion à la plateforme agréée fonctionne : jeton obtenu et service de flux joignable."
	MsgPASince    = "La date de reprise doit être une date passée AAAA-MM-JJ."
	MsgPAHTTP     = "L'adresse doit être en https."
	MsgPANoSecret = "Le secret du client est requis (4096 caractères au plus)."
)

// The webhook's security scheme and the operations' tag, added to the
// document by registerPAWebhook.
const (
	schemePAWebhook = "paWebhookToken"
	tagPA           = "Electronic invoicing"
)

func (d *Daemon) registerPA(api huma.API) {
	tags := []string{tagPA}
	errs := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity}
	huma.Register(api, huma.Operation{
		OperationID: "get-pa-connection", Method: http.MethodGet, Path: "/user/pa", Tags: tags,
		Summary:     "The producer's connection to its approved platform (PA)",
		Description: "Producers only (403 otherwise). The client secret is never sent back.",
		Errors:      errs,
	}, d.getPAConnection)
	huma.Register(api, huma.Operation{
		OperationID: "test-pa-connection", Method: http.MethodPost, Path: "/user/pa/test", Tags: tags,
		Summary: "Test a connection to a PA: a token, then GET /v1/healthcheck",
		Description: "The fields left empty are the stored connection's (the secret above all). Answers 200 with ok false and " +
			"the French cause when the PA refuses or does not answer; nothing is stored. Producers only. Checks are limited " +
			"per producer (10 in 10 minutes, one at a time: 429 with Retry-After past them; 503 when the daemon's checks are " +
			"all busy), those of \"connect-pa\" included.",
		Errors:   append(errs, http.StatusTooManyRequests, http.StatusServiceUnavailable),
		Metadata: map[string]any{answerAtOnce: true},
	}, d.testPAConnection)
	huma.Register(api, huma.Operation{
		OperationID: "connect-pa", Method: http.MethodPut, Path: "/user/pa", Tags: tags,
		Summary: "Connect the producer to its PA (tested first)",
		Description: "The connection is tested (token, healthcheck); a failure is 422 with its French cause and nothing stored. " +
			"The secret is stored sealed with the daemon's key file (docs/SECURITY.md). Producers only. Its check counts " +
			"among the producer's limited checks (see \"test-pa-connection\": 429 past them, nothing stored).",
		Errors:   append(errs, http.StatusTooManyRequests, http.StatusServiceUnavailable),
		Metadata: map[string]any{answerAtOnce: true},
	}, d.connectPA)
	huma.Register(api, huma.Operation{
		OperationID: "disconnect-pa", Method: http.MethodDelete, Path: "/user/pa", Tags: tags,
		Summary:     "Disconnect the producer from its PA",
		Description: "Its documents are no longer deposited; those deposited keep their statuses. Producers only.",
		Errors:      errs,
	}, d.disconnectPA)
	d.registerPAReissue(api)
}

// registerPAWebhook is the route a PA calls, outside the session's group:
// its caller is the PA, authenticated by the connection's bearer token.
func (d *Daemon) registerPAWebhook(api huma.API) {
	doc := api.OpenAPI()
	doc.Tags = append(doc.Tags, &huma.Tag{Name: tagPA, Description: "A producer's connection to its approved platform (PA, " +
		"AFNOR XP Z12-013) and the PA's webhook calls with its documents' lifecycle statuses."})
	if doc.Components.SecuritySchemes == nil {
		doc.Components.SecuritySchemes = map[string]*huma.SecurityScheme{}
	}
	doc.Components.SecuritySchemes[schemePAWebhook] = &huma.SecurityScheme{Type: "http", Scheme: "bearer",
		Description: "A producer's webhook token, shown in its profile (\"Facturation électronique\") for its PA's configuration: " +
			"an HMAC of the producer under the daemon's PA key file, renewed by `primeur pa rotate-key`."}
	huma.Register(api, huma.Operation{
		OperationID: "pa-webhook", Method: http.MethodPost, Path: "/pa/webhook/{producerId}", Tags: []string{tagPA},
		Security: []map[string][]string{{schemePAWebhook: {}}},
		Summary:  "A PA's webhook call: a flow made or changed (XP Z12-013 §5.6)",
		Description: "Authorization: Bearer <the connection's webhook token> (shown in the producer's profile). " +
			"The body is a WebhookCallbackContent; only its flowInfo.flowId is read, then the flow is read from the producer's PA. " +
			"401 without the right token, 404 for a producer without a connection, 413 past 64 KiB, 422 for a body naming no flow, " +
			"502 when the PA cannot be read back; nothing is recorded when refused.",
		MaxBodyBytes: jobs.MaxWebhook,
		// The body is JSON, read by paWebhook itself: a body that is no
		// JSON or names no flow is its 422, after the token's 401.
		SkipValidateBody: true,
		DefaultStatus:    http.StatusOK,
		Errors: []int{http.StatusUnauthorized, http.StatusNotFound, http.StatusRequestEntityTooLarge,
			http.StatusUnprocessableEntity, http.StatusBadGateway},
	}, d.paWebhook)
}

// paKeys reads the key file (nil when there is none).
func (d *Daemon) paKeys() (*pa.Keyring, error) {
	k, err := pa.LoadKeys(pa.KeyPath(d.cfg.DataDir))
	if pa.IsNoKey(err) {
		return nil, nil
	}
	return k, err
}

func (d *Daemon) paView(ctx context.Context, q store.Q, producerID string) (PAConnectionView, error) {
	keys, err := d.paKeys()
	if err != nil {
		return PAConnectionView{}, err
	}
	c, ok, err := pa.One(ctx, q, keys, producerID)
	if err != nil {
		return PAConnectionView{}, err
	}
	today := d.today()
	outside, err := pa.Outside(ctx, q, producerID, today)
	if err != nil {
		return PAConnectionView{}, err
	}
	if !ok {
		return PAConnectionView{Outside: outside, Warning: pa.Warning(false, outside, today)}, nil
	}
	v := PAConnectionView{Outside: outside, Connected: true, FlowURL: c.FlowURL, TokenURL: c.TokenURL, ClientID: c.ClientID, DirectoryURL: c.DirectoryURL,
		ConnectedAt: c.ConnectedAt.UTC().Format(time.RFC3339), DepositFrom: calendar.DateOf(c.DepositFrom.In(d.cfg.Location)).String(),
		SecretReadable: c.SecretErr == nil, WebhookPath: "/pa/webhook/" + url.PathEscape(producerID)}
	if keys != nil {
		v.WebhookToken = keys.WebhookToken(producerID)
	}
	var counts struct {
		Deposited int `db:"deposited"`
		Failing   int `db:"failing"`
	}
	if err := store.Get(ctx, q, &counts, `SELECT COUNT(deposited_at) AS deposited,
		COALESCE(SUM(CASE WHEN deposited_at IS NULL AND attempts > 0 THEN 1 ELSE 0 END), 0) AS failing
		FROM pa_deposits WHERE producer_id = ?`, producerID); err != nil {
		return PAConnectionView{}, err
	}
	v.Deposited, v.Failing = counts.Deposited, counts.Failing
	return v, nil
}

func (d *Daemon) getPAConnection(ctx context.Context, _ *struct{}) (*PAConnectionOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	v, err := d.paView(ctx, d.db, u.ID)
	if err != nil {
		return nil, err
	}
	return &PAConnectionOutput{Body: v}, nil
}

// paConnection is the connection the form describes: the stored one's
// fields where the form left them empty. It checks them with PRODUCT's
// French messages.
func (d *Daemon) paConnection(ctx context.Context, producerID string, b PAConnectionBody) (pa.Connection, error) {
	keys, err := d.paKeys()
	if err != nil {
		return pa.Connection{}, err
	}
	stored, connected, err := pa.One(ctx, d.db, keys, producerID)
	if err != nil {
		return pa.Connection{}, err
	}
	now := d.now()
	c := pa.Connection{ProducerID: producerID, FlowURL: b.FlowURL, TokenURL: b.TokenURL, ClientID: b.ClientID, Secret: b.ClientSecret,
		DirectoryURL: b.DirectoryURL, ConnectedAt: now, DepositFrom: now}
	if connected {
		for _, f := range []struct{ field, stored *string }{{&c.FlowURL, &stored.FlowURL}, {&c.TokenURL, &stored.TokenURL},
			{&c.ClientID, &stored.ClientID}} {
			if strings.TrimSpace(*f.field) == "" {
				*f.field = *f.stored
			}
		}
		if c.Secret == "" && stored.SecretErr == nil {
			c.Secret = stored.Secret
		}
		c.DepositFrom = stored.DepositFrom
	}
	var v core.ValidationError
	if b.Since != "" {
		day, ok := calendar.ParseDate(b.Since)
		from := day.At(0, d.cfg.Location)
		if !ok || from.After(now) {
			v.Add("since", MsgPASince)
		} else if !connected || from.Before(c.DepositFrom) {
			c.DepositFrom = from
		}
	}
	if err := c.Check(); err != nil {
		var cv *core.ValidationError
		if errors.As(err, &cv) {
			for _, f := range cv.Fields {
				v.Add(f.Field, f.Message)
			}
		} else {
			return c, err
		}
	}
	// Plain http reaches a local PA (tests, the demo) only while the site
	// itself is not served over https: a production daemon calls https
	// alone.
	if d.secureSite() {
		for field, raw := range map[string]string{"flowUrl": c.FlowURL, "tokenUrl": c.TokenURL, "directoryUrl": c.DirectoryURL} {
			if u, err := url.Parse(raw); err == nil && u.Scheme == "http" {
				v.Add(field, MsgPAHTTP)
			}
		}
	}
	return c, v.Err()
}

// secureSite says the site is served over https (base-url or the
// secure-cookies setting).
func (d *Daemon) secureSite() bool {
	u, err := url.Parse(d.cfg.BaseURL)
	return (err == nil && u.Scheme == "https") || d.cfg.SecureCookies
}

// checkPA calls the PA: a token, then its healthcheck.
func checkPA(ctx context.Context, c pa.Connection) error {
	client, err := pa.New(c.Config())
	if err != nil {
		return err
	}
	return client.Check(ctx)
}

func (d *Daemon) testPAConnection(ctx context.Context, in *PAConnectionInput) (*PATestOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	c, err := d.paConnection(ctx, u.ID, in.Body)
	if err != nil {
		return nil, err
	}
	failed, refused := d.checkPAOf(ctx, u.ID, c)
	if refused != nil {
		return nil, refused
	}
	out := &PATestOutput{}
	if err := failed; err != nil {
		d.log.InfoContext(ctx, "pa: connection test failed", "producer", u.ID, "err", err)
		out.Body.Message = pa.French(err)
		return out, nil
	}
	out.Body.OK, out.Body.Message = true, MsgPAWorks
	return out, nil
}

func (d *Daemon) connectPA(ctx context.Context, in *PAConnectionInput) (*PAConnectionOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	c, err := d.paConnection(ctx, u.ID, in.Body)
	if err != nil {
		return nil, err
	}
	failed, refused := d.checkPAOf(ctx, u.ID, c)
	if refused != nil {
		return nil, refused
	}
	if err := failed; err != nil {
		return nil, core.Invalid("flowUrl", pa.French(err)+" Rien n'a été enregistré.")
	}
	path := pa.KeyPath(d.cfg.DataDir)
	_, statErr := os.Stat(path)
	keys, err := pa.EnsureKeys(path)
	if err != nil {
		return nil, err
	}
	if errors.Is(statErr, os.ErrNotExist) {
		d.log.Warn("pa: the key file of the PA secrets was made; back it up and copy it to every replica (docs/SECURITY.md)", "path", path)
	}
	v, err := inTx(ctx, d, func(tx *sqlx.Tx) (PAConnectionView, error) {
		if err := pa.Connect(ctx, tx, keys, c); err != nil {
			return PAConnectionView{}, err
		}
		return d.paView(ctx, tx, u.ID)
	})
	if err != nil {
		return nil, err
	}
	d.log.InfoContext(ctx, "pa: producer connected", "producer", u.ID, "flow", c.FlowURL)
	return &PAConnectionOutput{Body: v}, nil
}

func (d *Daemon) disconnectPA(ctx context.Context, _ *struct{}) (*PAConnectionOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	if err := pa.Disconnect(ctx, d.db, u.ID); err != nil {
		return nil, err
	}
	return &PAConnectionOutput{Body: PAConnectionView{}}, nil
}

func (d *Daemon) paWebhook(ctx context.Context, in *PAWebhookInput) (*PAWebhookOutput, error) {
	token, ok := cutBearer(in.Authorization)
	if !ok {
		return nil, core.ErrUnauthenticated
	}
	env := jobs.EnvOf(d.cfg, d.db, d.log)
	env.Observe = d.observe
	n, err := jobs.PANotified(ctx, env, in.ProducerID, token, in.RawBody)
	var pe *pa.Error
	if errors.As(err, &pe) {
		d.log.WarnContext(ctx, "pa: webhook: the flow could not be read back from the PA", "producer", in.ProducerID, "err", err)
		return nil, httpx.Problem(http.StatusBadGateway, pa.French(err))
	}
	if err != nil {
		var v *core.ValidationError
		if errors.As(err, &v) || statusOf(err) != http.StatusInternalServerError || store.FaultOf(err) != store.NoFault || store.IsBusy(err) {
			return nil, err // refused (4xx), or the database's 503
		}
		// The connection's secret does not open (its key is missing): the
		// administrator's matter, logged; the PA may call again, and the
		// pa job's search catches up anyway.
		d.log.ErrorContext(ctx, "pa: webhook: the connection cannot be used", "producer", in.ProducerID, "err", err)
		return nil, httpx.Problem(http.StatusServiceUnavailable, "La connexion à la plateforme agréée est momentanément inutilisable.")
	}
	out := &PAWebhookOutput{}
	out.Body.Recorded = n
	return out, nil
}

// cutBearer reads "Bearer <token>".
func cutBearer(h string) (string, bool) {
	const prefix = "Bearer "
	if len(h) <= len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		return "", false
	}
	return h[len(prefix):], true
}
