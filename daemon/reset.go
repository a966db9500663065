package daemon

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/closure"
	"primeur/core/mail"
)

// ForgotInput asks for a password reset link.
type ForgotInput struct {
	Body struct {
		Email string `json:"email" required:"false" maxLength:"320" doc:"The account's email. Needed: refused (422) without it" example:"ferme@example.fr"`
	}
}

// ResetInput sets a new password with a reset link's token.
type ResetInput struct {
	Body struct {
		Token     string  `json:"token" required:"false" maxLength:"128" doc:"The token of the emailed link (after its #)"`
		Password  string  `json:"password" required:"false" doc:"The new password: at least 8 characters with letters and digits"`
		Password2 *string `json:"password2,omitempty" doc:"Its confirmation, checked when sent"`
	}
}

// MessageOutput answers with a sentence to show.
type MessageOutput struct {
	Body struct {
		Message string `json:"message"`
	}
}

// MsgPasswordReset answers a password set with a reset link.
const MsgPasswordReset = "Votre mot de passe a été modifié. Connectez-vous avec le nouveau."

func (d *Daemon) registerReset(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "forgot-password", Method: http.MethodPost, Path: "/auth/password/forgot",
		Summary: "Ask for a password reset link",
		Description: "Always the same answer in the same time, whether an account has the email or not: the account is looked " +
			"up after the answer, and when one has the email, it is emailed a link valid one hour, used once. At most 3 requests an hour for one email and 10 from one " +
			"client address (429 with Retry-After past them, for any email).",
		Tags: []string{"Authentication"}, Security: publicSecurity,
		Errors: []int{http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable},
	}, d.forgotPassword)
	huma.Register(api, huma.Operation{
		OperationID: "reset-password", Method: http.MethodPost, Path: "/auth/password/reset",
		Summary:     "Set a new password with a reset link",
		Description: "The link's token, unused and less than an hour old; the password follows PRODUCT §5's rule. Every session of the account ends, and every other link of it (a pending change of the login email among them) but the ways back of email changes.",
		Tags:        []string{"Authentication"}, Security: publicSecurity,
		Errors: []int{http.StatusUnprocessableEntity, http.StatusServiceUnavailable},
	}, d.resetPassword)
}

// forgotRequest resolves the client address from the request, for
// throttling.
type forgotRequest struct {
	ForgotInput
	clientRequest
}

// resetPause is how long after a forgot-password answer the account's work
// starts: the answer is then on its way, and the work takes no core from
// it, however few the machine has.
const resetPause = 10 * time.Millisecond

// forgotPassword answers after the work that is the same for any email
// (the checks and the counts: accounts.AskReset); the account's work —
// finding it, recording its link, emailing it — starts resetPause after
// the answer (issueReset), so that the answer's time tells nothing of the
// account (docs/SECURITY.md "Password reset",
// TestForgotPasswordTimingTellsNothing).
func (d *Daemon) forgotPassword(ctx context.Context, in *forgotRequest) (*MessageOutput, error) {
	now := d.now()
	if err := accounts.AskReset(ctx, d.db, in.Body.Email, in.client, now); err != nil {
		return nil, err
	}
	email, answered := in.Body.Email, ctx.Done()
	d.goSafe("password reset", func() {
		<-answered // the handler has returned
		time.Sleep(resetPause)
		d.issueReset(email, now)
	})
	out := &MessageOutput{}
	out.Body.Message = accounts.MsgResetSent
	return out, nil
}

// issueReset records the reset link of a request AskReset let through and
// emails it, when an account has the email; a failure is logged, and the
// visitor asks again. The goroutines it runs in are bounded by AskReset's
// counts (10 an hour per client address, 3 per email).
func (d *Daemon) issueReset(email string, now time.Time) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, ok, err := accounts.IssueReset(ctx, d.db, email, now)
	if err != nil {
		d.log.Error("password reset not recorded", "err", err)
		return
	}
	if ok {
		d.sendNow(ctx, "password reset", d.resetMail(r), r.User.ID)
	}
}

// siteURL is the site's public URL: base-url, else the listen address.
func (d *Daemon) siteURL() string { return d.cfg.SiteURL() }

// resetMail is the email carrying a reset link. The token is in the
// link's fragment, which browsers never send to a server.
func (d *Daemon) resetMail(r accounts.Reset) mail.Message {
	link := d.siteURL() + "/landing/reset#" + r.Token
	return mail.Message{
		Key:     "reset-" + core.NewID(),
		To:      []string{r.User.Email},
		Subject: "Primeur : choisir un nouveau mot de passe",
		Body: "Bonjour,\n\n" +
			"Quelqu'un (vous, sans doute) a demandé à choisir un nouveau mot de passe pour le compte Primeur " + r.User.Email + ".\n\n" +
			"Pour le faire, ouvrez ce lien dans l'heure :\n" + link + "\n\n" +
			"Le lien ne sert qu'une fois. Si vous n'avez rien demandé, ignorez cet email : votre mot de passe ne change pas.\n" +
			mail.Signature(d.siteURL()),
		Date: d.now(),
	}
}

func (d *Daemon) resetPassword(ctx context.Context, in *ResetInput) (*MessageOutput, error) {
	u, err := accounts.ResetPassword(ctx, d.db, in.Body.Token, in.Body.Password, in.Body.Password2, d.now())
	if err != nil {
		return nil, err
	}
	d.log.InfoContext(ctx, "password reset", "user", u.ID)
	out := &MessageOutput{}
	out.Body.Message = MsgPasswordReset
	return out, nil
}

// ChangePasswordInput changes the password from the profile.
type ChangePasswordInput struct {
	Body struct {
		Current   string  `json:"current" required:"false" doc:"The current password. Needed: refused (422) without it"`
		Password  string  `json:"password" required:"false" doc:"The new password: at least 8 characters with letters and digits"`
		Password2 *string `json:"password2,omitempty" doc:"Its confirmation, checked when sent"`
	}
}

// changePasswordRequest resolves the client address, for throttling.
type changePasswordRequest struct {
	ChangePasswordInput
	clientRequest
}

// MsgPasswordChanged answers a password changed from the profile.
const MsgPasswordChanged = "Votre mot de passe a été modifié. Vos autres sessions sont fermées."

func (d *Daemon) registerPasswordChange(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "change-password", Method: http.MethodPut, Path: "/user/password",
		Summary: "Change the password",
		Description: "The current password, checked and throttled as a login attempt (429 with Retry-After past the limits); " +
			"the new one by PRODUCT §5's rule. Every other session of the account ends, this one stays; every link of the account " +
			"(reset links, confirmation links, a pending change of the login email) ends but the ways back of email changes.",
		Tags:   []string{"User"},
		Errors: []int{http.StatusUnauthorized, http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable},
	}, d.changePassword)
}

func (d *Daemon) changePassword(ctx context.Context, in *changePasswordRequest) (*MessageOutput, error) {
	u := currentUser(ctx)
	if s := currentSession(ctx); s.Person.ID != "" && s.Person.ID != u.ID {
		// A member's own login, not the organisation's (teams.go).
		if err := accounts.ChangePersonPassword(ctx, d.db, s.Person, in.Body.Current, in.Body.Password, in.Body.Password2, in.client,
			sessionToken(ctx), d.now()); err != nil {
			return nil, err
		}
	} else if err := accounts.ChangePassword(ctx, d.db, u, in.Body.Current, in.Body.Password, in.Body.Password2, in.client,
		sessionToken(ctx), d.now()); err != nil {
		return nil, err
	}
	d.log.InfoContext(ctx, "password changed", "user", u.ID)
	out := &MessageOutput{}
	out.Body.Message = MsgPasswordChanged
	return out, nil
}

// CloseAccountInput closes the account, with its password.
type CloseAccountInput struct {
	Body struct {
		Current string `json:"current" required:"false" doc:"The account's password. Needed: refused (422) without it"`
	}
}

// closeAccountRequest resolves the client address, for throttling.
type closeAccountRequest struct {
	CloseAccountInput
	clientRequest
}

// CloseAccountOutput answers a closed account: the session cookie cleared.
type CloseAccountOutput struct {
	SetCookie http.Cookie `header:"Set-Cookie"`
	Body      struct {
		Message string `json:"message"`
	}
}

// MsgAccountClosed answers a closed account.
const MsgAccountClosed = "Votre compte est supprimé. Vos factures et avoirs restent conservés 10 ans, comme la loi l'exige."

func (d *Daemon) registerClose(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "close-account", Method: http.MethodPost, Path: "/user/close",
		Summary: "Close the account",
		Description: "With the account's password (checked and throttled as a login attempt). Refused (409, saying what " +
			"blocks it) while deliveries are planned, commitments run this month or later, claims wait or invoices are " +
			"unpaid. The account is anonymised and can no longer log in; its invoices and credit notes stay.",
		Tags:   []string{"User"},
		Errors: []int{http.StatusUnauthorized, http.StatusConflict, http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable},
	}, d.closeAccount)
}

func (d *Daemon) closeAccount(ctx context.Context, in *closeAccountRequest) (*CloseAccountOutput, error) {
	u := currentUser(ctx)
	if err := accounts.VerifyPassword(ctx, d.db, u, in.Body.Current, in.client, d.now()); err != nil {
		return nil, err
	}
	if err := closure.Close(ctx, d.db, u, d.now(), d.cfg.Location); err != nil {
		return nil, err
	}
	d.log.InfoContext(ctx, "account closed", "user", u.ID)
	out := &CloseAccountOutput{SetCookie: d.clearCookie(ctx)}
	out.Body.Message = MsgAccountClosed
	return out, nil
}
