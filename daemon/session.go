package daemon

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/daemon/httpx"
)

type ctxKey int

const (
	userKey ctxKey = iota
	// tokenKey holds the session's token, for the operations that keep
	// this session while ending the others.
	tokenKey
	// sessionKey holds the accounts.Session: the person and their role in
	// the organisation (teams.go).
	sessionKey
)

// cookieName is the session cookie of the request whose context ctx is:
// over https (secureScheme: secure-cookies, or the scheme the client used,
// as a trusted proxy reports it) it carries the __Host- prefix, which
// browsers only accept from https, on path /, without a Domain; a request
// reads only the name of its own scheme.
func (d *Daemon) cookieName(ctx context.Context) string {
	if d.secureScheme(httpx.ClientFrom(ctx)) {
		return "__Host-primeur_session"
	}
	return "primeur_session"
}

func (d *Daemon) sessionCookie(ctx context.Context, token string, maxAge time.Duration) http.Cookie {
	return http.Cookie{
		Name:     d.cookieName(ctx),
		Value:    token,
		Path:     "/",
		MaxAge:   int(maxAge.Seconds()),
		HttpOnly: true,
		Secure:   d.secureScheme(httpx.ClientFrom(ctx)),
		SameSite: http.SameSiteLaxMode,
	}
}

func (d *Daemon) clearCookie(ctx context.Context) http.Cookie {
	c := d.sessionCookie(ctx, "", 0)
	c.MaxAge = -1
	return c
}

// requireSession lets a request through only with a live session, and puts
// its user in the context for currentUser.
func (d *Daemon) requireSession(ctx huma.Context, next func(huma.Context)) {
	token := ""
	if c, err := huma.ReadCookie(ctx, d.cookieName(ctx.Context())); err == nil {
		token = c.Value
	}
	s, err := accounts.SessionOf(ctx.Context(), d.db, token, d.now())
	u := s.User
	if err != nil && !errors.Is(err, core.ErrUnauthenticated) {
		// A database too busy to read the session, unreachable, a disk
		// full: 503, come back shortly (problemOf), never a logout.
		r, w := humago.Unwrap(ctx)
		d.writeError(w, r, fmt.Errorf("session lookup: %w", err))
		return
	}
	if err != nil {
		_ = huma.WriteErr(d.api, ctx, http.StatusUnauthorized, "")
		return
	}
	noteUser(ctx.Context(), u.ID)
	// The events and payments recorded name the person (teams.go).
	ctx = huma.WithContext(ctx, activity.WithPerson(ctx.Context(), s.Person.ID))
	next(huma.WithValue(huma.WithValue(huma.WithValue(ctx, userKey, u), tokenKey, token), sessionKey, s))
}

// sessionToken is the token of the request's session.
func sessionToken(ctx context.Context) string {
	t, _ := ctx.Value(tokenKey).(string)
	return t
}

// currentUser is the user of the request's session; requireSession
// guarantees one.
func currentUser(ctx context.Context) accounts.User {
	u, _ := ctx.Value(userKey).(accounts.User)
	return u
}

// MsgShopsOnly and MsgProducersOnly refuse a call made with the wrong role.
const (
	MsgShopsOnly     = "Cette opération est réservée aux magasins."
	MsgProducersOnly = "Cette opération est réservée aux producteurs."
)

// asDistributor returns the session's user when it is a distributor.
func asDistributor(ctx context.Context) (accounts.User, error) {
	u := currentUser(ctx)
	if !u.IsDistributor() {
		return u, core.Refuse(core.ErrForbidden, MsgShopsOnly)
	}
	return u, nil
}

// asProducer returns the session's user when it is a producer.
func asProducer(ctx context.Context) (accounts.User, error) {
	u := currentUser(ctx)
	if !u.IsProducer() {
		return u, core.Refuse(core.ErrForbidden, MsgProducersOnly)
	}
	return u, nil
}
