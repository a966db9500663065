package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/daemon/httpx"
)

// RegisterInput is a visitor's registration.
type RegisterInput struct {
	Body struct {
		Email       string  `json:"email" required:"false" doc:"Email address, the login. Needed: a registration without it is refused (422, PRODUCT §5's message)" example:"ferme@example.fr"`
		Email2      *string `json:"email2,omitempty" doc:"Confirmation of the email, checked when sent"`
		Password    string  `json:"password" required:"false" doc:"At least 8 characters with letters and digits. Needed: refused (422) without it"`
		Password2   *string `json:"password2,omitempty" doc:"Confirmation of the password, checked when sent"`
		Name        string  `json:"name" required:"false" doc:"Company name. Needed: refused (422) without it" example:"Ferme des Aravis"`
		Distributor bool    `json:"distributor" required:"false" doc:"true for a shop, false (or absent) for a producer"`
	}
}

// LoginInput is a login attempt.
type LoginInput struct {
	Body struct {
		Email    string `json:"email" required:"false" doc:"The account's email, in any case. Needed: without it the login fails (401, PRODUCT §8's message)" example:"ferme@example.fr"`
		Password string `json:"password" required:"false" doc:"Needed: without it the login fails (401)"`
	}
}

// SessionOutput answers a successful login or registration.
type SessionOutput struct {
	SetCookie http.Cookie `header:"Set-Cookie" doc:"The session cookie"`
	Body      struct {
		User accounts.Profile `json:"user"`
	}
}

// LogoutOutput clears the session cookie.
type LogoutOutput struct {
	SetCookie http.Cookie `header:"Set-Cookie"`
}

func (d *Daemon) registerAuth(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "register",
		Method:      http.MethodPost,
		Path:        "/auth/register",
		Summary:     "Create an account and log in",
		Description: "At most registrations-per-hour registrations (10 by default) an hour from one client address " +
			"(429 past it, with Retry-After). " +
			"503 with Retry-After when the server is saturated.",
		Tags:          []string{"Authentication"},
		Security:      publicSecurity,
		DefaultStatus: http.StatusCreated,
		Errors: []int{http.StatusConflict, http.StatusUnprocessableEntity, http.StatusTooManyRequests,
			http.StatusServiceUnavailable},
	}, d.register)

	huma.Register(api, huma.Operation{
		OperationID: "login",
		Method:      http.MethodPost,
		Path:        "/auth/login",
		Summary:     "Log in with email and password",
		Description: "Every attempt is counted before the password is checked: at most 5 failures for one account " +
			"from one client address and 20 from one address in 15 minutes, and 100 for one account in an hour " +
			"(not counting addresses it logged in from lately); past a limit, 429 with Retry-After, even with the " +
			"right password. 503 with Retry-After when the server is saturated.",
		Tags:     []string{"Authentication"},
		Security: publicSecurity,
		Errors: []int{http.StatusUnauthorized, http.StatusTooManyRequests, http.StatusUnprocessableEntity,
			http.StatusServiceUnavailable},
	}, d.login)

	huma.Register(api, huma.Operation{
		OperationID:   "logout",
		Method:        http.MethodGet,
		Path:          "/auth/logout",
		Summary:       "End the session",
		Description:   "Deletes the session server-side and clears the cookie; without a session, only clears the cookie. Refused when requested from another site.",
		Tags:          []string{"Authentication"},
		Security:      append([]map[string][]string{{}}, sessionSecurity...),
		DefaultStatus: http.StatusNoContent,
		Errors:        []int{http.StatusForbidden},
	}, d.logout)
}

// clientRequest captures the client's address of a request, for
// throttling: inputs that need it embed it.
type clientRequest struct {
	client string
}

// Resolve implements huma.Resolver to capture the peer address.
func (c *clientRequest) Resolve(ctx huma.Context) []error {
	r, _ := humago.Unwrap(ctx)
	c.client = httpx.ClientOf(r).Addr
	return nil
}

// registerRequest resolves the client address from the request, for
// throttling.
type registerRequest struct {
	RegisterInput
	clientRequest
}

func (d *Daemon) register(ctx context.Context, in *registerRequest) (*SessionOutput, error) {
	u, token, confirm, err := accounts.SignUp(ctx, d.db, accounts.Registration{
		Email:       in.Body.Email,
		Email2:      in.Body.Email2,
		Password:    in.Body.Password,
		Password2:   in.Body.Password2,
		Name:        in.Body.Name,
		Distributor: in.Body.Distributor,
	}, in.client, d.cfg.RegistrationsPerHour, d.now())
	if err != nil {
		return nil, err
	}
	d.log.InfoContext(ctx, "account created", "user", u.ID, "type", u.Type)
	noteUser(ctx, u.ID)
	d.mailAfter("confirmation", d.confirmMail(confirm), u.ID)
	out := &SessionOutput{SetCookie: d.sessionCookie(ctx, token, accounts.SessionMax)}
	if out.Body.User, err = d.profile(ctx, d.db, u); err != nil {
		return nil, err
	}
	return out, nil
}

// loginRequest resolves the client address from the request, for throttling.
type loginRequest struct {
	LoginInput
	clientRequest
}

func (d *Daemon) login(ctx context.Context, in *loginRequest) (*SessionOutput, error) {
	u, token, err := accounts.Login(ctx, d.db, in.Body.Email, in.Body.Password, in.client, d.now())
	if err != nil {
		return nil, err
	}
	noteUser(ctx, u.ID)
	out := &SessionOutput{SetCookie: d.sessionCookie(ctx, token, accounts.SessionMax)}
	if out.Body.User, err = d.profile(ctx, d.db, u); err != nil {
		return nil, err
	}
	s, err := accounts.SessionOf(ctx, d.db, token, d.now()) // the person and role (teams.go)
	if err != nil {
		return nil, err
	}
	return out, d.withTeam(ctx, d.db, &out.Body.User, s)
}

// logoutRequest reads the cookie under its configured name and the fetch
// metadata of the request.
type logoutRequest struct {
	token     string
	crossSite bool
}

// Resolve implements huma.Resolver.
func (l *logoutRequest) Resolve(ctx huma.Context) []error {
	r, _ := humago.Unwrap(ctx)
	for _, name := range []string{"__Host-primeur_session", "primeur_session"} {
		if c, err := r.Cookie(name); err == nil {
			l.token = c.Value
			break
		}
	}
	l.crossSite = r.Header.Get("Sec-Fetch-Site") == "cross-site"
	return nil
}

func (d *Daemon) logout(ctx context.Context, in *logoutRequest) (*LogoutOutput, error) {
	// GET is PRODUCT's method; a link on another site must not log users out.
	if in.crossSite {
		return nil, core.ErrForbidden
	}
	if err := accounts.EndSession(ctx, d.db, in.token); err != nil {
		return nil, err
	}
	return &LogoutOutput{SetCookie: d.clearCookie(ctx)}, nil
}
