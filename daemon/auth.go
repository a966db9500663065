package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
)

// RegisterInput is a visitor's registration.
type RegisterInput struct {
	Body struct {
		Email       string  `json:"email" doc:"Email address, the login" example:"ferme@example.fr"`
		Email2      *string `json:"email2,omitempty" doc:"Confirmation of the email, checked when sent"`
		Password    string  `json:"password" doc:"At least 8 characters with letters and digits"`
		Password2   *string `json:"password2,omitempty" doc:"Confirmation of the password, checked when sent"`
		Name        string  `json:"name" doc:"Company name" example:"Ferme des Aravis"`
		Distributor bool    `json:"distributor" doc:"true for a shop, false for a producer"`
	}
}

// LoginInput is a login attempt.
type LoginInput struct {
	Body struct {
		Email    string `json:"email" example:"ferme@example.fr"`
		Password string `json:"password"`
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
		OperationID:   "register",
		Method:        http.MethodPost,
		Path:          "/auth/register",
		Summary:       "Create an account and log in",
		Tags:          []string{"Authentication"},
		DefaultStatus: http.StatusCreated,
		Errors:        []int{http.StatusConflict, http.StatusUnprocessableEntity},
	}, d.register)

	huma.Register(api, huma.Operation{
		OperationID: "login",
		Method:      http.MethodPost,
		Path:        "/auth/login",
		Summary:     "Log in with email and password",
		Description: "Repeated failures for one email or from one client address are refused for a while (429).",
		Tags:        []string{"Authentication"},
		Errors:      []int{http.StatusUnauthorized, http.StatusTooManyRequests, http.StatusUnprocessableEntity},
	}, d.login)

	huma.Register(api, huma.Operation{
		OperationID:   "logout",
		Method:        http.MethodGet,
		Path:          "/auth/logout",
		Summary:       "End the session",
		Description:   "Deletes the session server-side and clears the cookie. Refused when requested from another site.",
		Tags:          []string{"Authentication"},
		DefaultStatus: http.StatusNoContent,
		Errors:        []int{http.StatusForbidden},
	}, d.logout)
}

func (d *Daemon) register(ctx context.Context, in *RegisterInput) (*SessionOutput, error) {
	now := d.now()
	var (
		u     accounts.User
		token string
	)
	err := d.db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		u, err = accounts.Register(ctx, tx, accounts.Registration{
			Email:       in.Body.Email,
			Email2:      in.Body.Email2,
			Password:    in.Body.Password,
			Password2:   in.Body.Password2,
			Name:        in.Body.Name,
			Distributor: in.Body.Distributor,
		}, now)
		if err != nil {
			return err
		}
		token, err = accounts.NewSession(ctx, tx, u.ID, now)
		return err
	})
	if err != nil {
		return nil, apiError(ctx, d.log, err)
	}
	d.log.InfoContext(ctx, "account created", "user", u.ID, "type", u.Type)
	out := &SessionOutput{SetCookie: d.sessionCookie(token, accounts.SessionMax)}
	out.Body.User = u.Profile()
	return out, nil
}

// loginRequest resolves the client address from the request, for throttling.
type loginRequest struct {
	LoginInput
	client string
}

// Resolve implements huma.Resolver to capture the peer address.
func (l *loginRequest) Resolve(ctx huma.Context) []error {
	r, _ := humago.Unwrap(ctx)
	l.client = clientAddr(r)
	return nil
}

func (d *Daemon) login(ctx context.Context, in *loginRequest) (*SessionOutput, error) {
	u, token, err := accounts.Login(ctx, d.db, in.Body.Email, in.Body.Password, in.client, d.now())
	if err != nil {
		return nil, apiError(ctx, d.log, err)
	}
	out := &SessionOutput{SetCookie: d.sessionCookie(token, accounts.SessionMax)}
	out.Body.User = u.Profile()
	return out, nil
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
	// GET is SPEC's method; a link on another site must not log users out.
	if in.crossSite {
		return nil, problem(http.StatusForbidden, statusDetails[http.StatusForbidden])
	}
	if err := accounts.EndSession(ctx, d.db, in.token); err != nil {
		return nil, apiError(ctx, d.log, err)
	}
	return &LogoutOutput{SetCookie: d.clearCookie()}, nil
}
