package daemon

import (
	"fmt"

	"context"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/mail"
	"primeur/core/notify"
	"primeur/core/store"
)

// profile is u as the UI receives it, with what the account's row alone
// does not tell: the new login email waiting for its link, the choices of
// notifications.
func (d *Daemon) profile(ctx context.Context, q store.Q, u accounts.User) (accounts.Profile, error) {
	p := u.Profile()
	var err error
	if p.EmailPending, err = accounts.PendingEmail(ctx, q, u.ID, d.now()); err != nil {
		return p, err
	}
	p.Notifications = []notify.Pref{}                     // the session's person's, withTeam
	return p, d.withTeam(ctx, q, &p, currentSession(ctx)) // teams.go
}

// mailAfter sends msg in the background, after the answer: a slow or
// failing mail server delays and fails no request. what names the email in
// the logs.
func (d *Daemon) mailAfter(what string, msg mail.Message, userID string) {
	d.goSafe("mail "+what, func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		d.sendNow(ctx, what, msg, userID)
	})
}

// sendNow sends msg now, logging the outcome.
func (d *Daemon) sendNow(ctx context.Context, what string, msg mail.Message, userID string) {
	if err := mail.New(d.cfg).Send(ctx, msg); err != nil {
		d.log.Error(what+" email not sent", "user", userID, "err", err)
		return
	}
	d.log.Info("email sent", "key", msg.Key, "user", userID)
}

// confirmMail is the email carrying a confirmation link; the token is in
// the link's fragment, which browsers never send to a server.
func (d *Daemon) confirmMail(c accounts.Confirmation) mail.Message {
	link := d.siteURL() + "/landing/confirm#" + c.Token
	var why string
	switch c.Purpose {
	case accounts.ConfirmChange:
		why = "Vous avez demandé à utiliser " + c.Email + " comme adresse de connexion à Primeur. " +
			"Elle remplacera l'ancienne une fois confirmée."
	default:
		why = "Bienvenue sur Primeur ! Confirmez votre adresse pour recevoir les bons de livraison, les factures " +
			"et les notifications de votre compte."
	}
	return mail.Message{
		Key:     "confirm-" + core.NewID(),
		To:      []string{c.Email},
		Subject: "Primeur : confirmez votre adresse email",
		Body: "Bonjour,\n\n" + why + "\n\n" +
			"Pour confirmer, ouvrez ce lien (valable 7 jours) :\n" + link + "\n\n" +
			"Si vous n'êtes pas à l'origine de cette demande, ignorez cet email.\n" + mail.Signature(d.siteURL()),
		Date: d.now(),
	}
}

// changedMail tells the old login email that another replaced it, with
// the way back (accounts.RevertEmail); the token is in the link's
// fragment, which browsers never send to a server.
func (d *Daemon) changedMail(c accounts.Confirmed) mail.Message {
	old, now := c.OldEmail, c.User.Email
	return mail.Message{
		Key:     "email-changed-" + core.NewID(),
		To:      []string{old},
		Subject: "Primeur : votre adresse de connexion a changé",
		Body: "Bonjour,\n\n" +
			"L'adresse de connexion de votre compte Primeur est désormais " + now + " : elle remplace " + old + ", " +
			"qui ne reçoit plus rien de Primeur.\n\n" +
			"Si vous n'êtes pas à l'origine de ce changement, rétablissez votre adresse avec ce lien (valable 7 jours) : " +
			"il ferme toutes les sessions du compte, désactive son mot de passe et vous envoie ici un lien pour en choisir un nouveau.\n" +
			d.siteURL() + "/landing/revert#" + c.Revert + "\n\n" +
			"Si c'est bien vous, ignorez cet email. Pour toute question, répondez-y.\n" +
			mail.Signature(d.siteURL()),
		Date: d.now(),
	}
}

// takenMail tells an address that a change of login email asked for it
// while another account has or holds it: instead of the confirmation
// link, so that the answer to the change tells nothing (PRODUCT §13
// "Changing the login email").
func (d *Daemon) takenMail(c accounts.Confirmation) mail.Message {
	return mail.Message{
		Key:     "email-taken-" + core.NewID(),
		To:      []string{c.Email},
		Subject: "Primeur : cette adresse est déjà utilisée",
		Body: "Bonjour,\n\n" +
			"Quelqu'un a demandé à utiliser " + c.Email + " comme adresse de connexion d'un compte Primeur. " +
			"Cette adresse est déjà liée à un compte Primeur : elle ne peut pas servir à un autre compte, et rien n'a changé.\n\n" +
			"Si c'est vous, connectez-vous avec cette adresse ; si vous avez oublié votre mot de passe, choisissez " +
			"« Mot de passe oublié ? » sur la page de connexion. Sinon, ignorez cet email.\n" +
			mail.Signature(d.siteURL()),
		Date: d.now(),
	}
}

// ConfirmInput opens a confirmation link.
type ConfirmInput struct {
	Body struct {
		Token string `json:"token" required:"false" maxLength:"128" doc:"The token of the emailed link (after its #)"`
	}
}

// RevertInput opens the way back of a login email change.
type RevertInput struct {
	Body struct {
		Token string `json:"token" required:"false" maxLength:"128" doc:"The token of the link emailed to the replaced address (after its #)"`
	}
}

// ResendInput asks for a new confirmation link.
type ResendInput struct {
	Body struct {
		Which string `json:"which" required:"false" maxLength:"16" doc:"account: the login email (a shop's accounting email, retired with the teams, is no choice any more)"`
	}
}

// ChangeEmailInput asks to change the login email.
type ChangeEmailInput struct {
	Body struct {
		Current string `json:"current" required:"false" doc:"The current password. Needed: refused (422) without it"`
		Email   string `json:"email" required:"false" maxLength:"320" doc:"The new login email"`
	}
}

// changeEmailRequest resolves the client address, for throttling.
type changeEmailRequest struct {
	ChangeEmailInput
	clientRequest
}

// UserMessageOutput answers with a sentence and the profile.
type UserMessageOutput struct {
	Body struct {
		Message string           `json:"message"`
		User    accounts.Profile `json:"user"`
	}
}

// NotificationInput sets the mode of one kind of notification.
type NotificationInput struct {
	Body struct {
		Kind string `json:"kind" required:"false" maxLength:"32" doc:"proposal, answer, correction, claim, delivery or note"`
		Mode string `json:"mode" required:"false" maxLength:"16" doc:"immediate (at most one email an hour), daily (7h) or none"`
	}
}

// UserOutput answers with the profile.
type UserOutput struct {
	Body struct {
		User accounts.Profile `json:"user"`
	}
}

// UnsubscribeInput turns kinds of notification off from an email's link.
type UnsubscribeInput struct {
	Body struct {
		Token string `json:"token" required:"false" maxLength:"1024" doc:"The token of the emailed link (after its #)"`
	}
}

// OneClickInput is RFC 8058's one-click unsubscription, posted by mail
// clients to the List-Unsubscribe address.
type OneClickInput struct {
	Token string `query:"t" maxLength:"1024" doc:"The token of the digest the address came with"`
}

// The answers of the confirmation endpoints.
const (
	MsgConfirmSent     = "Un nouveau lien de confirmation vient d'être envoyé. Il est valable 7 jours."
	MsgChangeSent      = "Si %s peut servir d'adresse de connexion, un lien de confirmation vient de lui être envoyé. Votre adresse ne change qu'une fois ce lien ouvert ; d'ici là, connectez-vous avec l'actuelle."
	MsgUnsubscribed    = "C'est noté : vous ne recevrez plus les emails « %s ». Vous pouvez changer ce choix à tout moment dans votre profil."
	MsgUnsubscribedAll = "C'est noté : vous ne recevrez plus ces emails (%s). Vous pouvez changer ce choix à tout moment dans votre profil."
)

func (d *Daemon) registerConfirm(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "confirm-email", Method: http.MethodPost, Path: "/auth/email/confirm",
		Summary: "Open an email confirmation link",
		Description: "The link's token, unused and less than 7 days old, whose address is still the one to confirm. " +
			"A new login email replaces the old one, which is emailed a way back (POST /auth/email/revert).",
		Tags: []string{"Authentication"}, Security: publicSecurity,
		Errors: []int{http.StatusUnprocessableEntity, http.StatusServiceUnavailable},
	}, d.confirmEmail)
	huma.Register(api, huma.Operation{
		OperationID: "revert-email", Method: http.MethodPost, Path: "/auth/email/revert",
		Summary: "Restore the login email a change replaced",
		Description: "The token of the link emailed to the replaced address, unused and less than 7 days old. " +
			"The login email becomes that address again; every session and link of the account ends, its password " +
			"no longer works, and the address is emailed a password reset link.",
		Tags: []string{"Authentication"}, Security: publicSecurity,
		Errors: []int{http.StatusUnprocessableEntity, http.StatusServiceUnavailable},
	}, d.revertEmail)
	huma.Register(api, huma.Operation{
		OperationID: "unsubscribe", Method: http.MethodPost, Path: "/auth/unsubscribe",
		Summary:     "Turn kinds of notification off from an email's link",
		Description: "Without logging in: the token is signed for one user and the kinds of the digest it came with.",
		Tags:        []string{"Authentication"}, Security: publicSecurity,
		Errors: []int{http.StatusUnprocessableEntity, http.StatusServiceUnavailable},
	}, d.unsubscribe)
	huma.Register(api, huma.Operation{
		OperationID: "unsubscribe-one-click", Method: http.MethodPost, Path: "/auth/unsubscribe/one-click",
		Summary:     "RFC 8058 one-click unsubscription",
		Description: "The List-Unsubscribe address of digests: mail clients post `List-Unsubscribe=One-Click` to it; the token is in `t`.",
		Tags:        []string{"Authentication"}, Security: publicSecurity,
		Errors: []int{http.StatusUnprocessableEntity, http.StatusServiceUnavailable},
	}, d.unsubscribeOneClick)
}

func (d *Daemon) registerEmail(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "resend-confirmation", Method: http.MethodPost, Path: "/user/email/resend",
		Summary:     "Send a new confirmation link",
		Description: "For the login email while unconfirmed; at most 5 links an hour per account (429 past it).",
		Tags:        []string{"User"},
		Errors:      []int{http.StatusUnauthorized, http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable},
	}, d.resendConfirmation)
	huma.Register(api, huma.Operation{
		OperationID: "change-email", Method: http.MethodPut, Path: "/user/email",
		Summary: "Change the login email",
		Description: "With the current password (checked and throttled as a login attempt), at most 5 an hour per " +
			"account (429 with Retry-After past it). The same answer whether another account has the address or not: " +
			"a free address gets a link and replaces the old one only once it is opened (the old address is then " +
			"emailed a way back); a taken one is told it is already used.",
		Tags:   []string{"User"},
		Errors: []int{http.StatusUnauthorized, http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable},
	}, d.changeEmail)
	huma.Register(api, huma.Operation{
		OperationID: "set-notification", Method: http.MethodPut, Path: "/user/notifications",
		Summary:     "Choose when a kind of notification is emailed",
		Description: "immediate: in a digest at most every hour; daily: in the digest of 7h; none: never.",
		Tags:        []string{"User"},
		Errors:      []int{http.StatusUnauthorized, http.StatusUnprocessableEntity},
	}, d.setNotification)
}

func (d *Daemon) confirmEmail(ctx context.Context, in *ConfirmInput) (*MessageOutput, error) {
	c, err := accounts.Confirm(ctx, d.db, in.Body.Token, d.now())
	if err != nil {
		return nil, err
	}
	d.log.InfoContext(ctx, "email confirmed", "user", c.User.ID, "purpose", c.Purpose)
	if c.OldEmail != "" {
		d.mailAfter("email changed", d.changedMail(c), c.User.ID)
	}
	out := &MessageOutput{}
	out.Body.Message = c.Message()
	return out, nil
}

func (d *Daemon) revertEmail(ctx context.Context, in *RevertInput) (*MessageOutput, error) {
	r, err := accounts.RevertEmail(ctx, d.db, in.Body.Token, d.now())
	if err != nil {
		return nil, err
	}
	d.log.InfoContext(ctx, "login email restored", "user", r.User.ID)
	d.mailAfter("password reset", d.resetMail(r.Reset), r.User.ID)
	out := &MessageOutput{}
	out.Body.Message = r.Message()
	return out, nil
}

func (d *Daemon) resendConfirmation(ctx context.Context, in *ResendInput) (*MessageOutput, error) {
	c, err := accounts.ResendConfirmation(ctx, d.db, currentUser(ctx), in.Body.Which, d.now())
	if err != nil {
		return nil, err
	}
	d.mailAfter("confirmation", d.confirmMail(c), c.User.ID)
	out := &MessageOutput{}
	out.Body.Message = MsgConfirmSent
	return out, nil
}

func (d *Daemon) changeEmail(ctx context.Context, in *changeEmailRequest) (*UserMessageOutput, error) {
	u := currentUser(ctx)
	c, err := accounts.RequestEmailChange(ctx, d.db, u, in.Body.Current, in.Body.Email, in.client, d.now())
	if err != nil {
		return nil, err
	}
	if c.Taken {
		d.mailAfter("email taken", d.takenMail(c), u.ID)
	} else {
		d.mailAfter("email change", d.confirmMail(c), u.ID)
	}
	out := &UserMessageOutput{}
	out.Body.Message = fmt.Sprintf(MsgChangeSent, c.Email)
	if out.Body.User, err = d.profile(ctx, d.db, u); err != nil {
		return nil, err
	}
	return out, nil
}

func (d *Daemon) setNotification(ctx context.Context, in *NotificationInput) (*UserOutput, error) {
	s := currentSession(ctx)
	u := s.User
	if err := notify.SetPref(ctx, d.db, s.Person.ID, u.ID, in.Body.Kind, in.Body.Mode); err != nil {
		return nil, err
	}
	out := &UserOutput{}
	var err error
	if out.Body.User, err = d.profile(ctx, d.db, u); err != nil {
		return nil, err
	}
	return out, nil
}

func (d *Daemon) unsubscribe(ctx context.Context, in *UnsubscribeInput) (*MessageOutput, error) {
	labels, err := notify.Unsubscribe(ctx, d.db, in.Body.Token)
	if err != nil {
		return nil, err
	}
	out := &MessageOutput{}
	out.Body.Message = unsubscribed(labels)
	return out, nil
}

func (d *Daemon) unsubscribeOneClick(ctx context.Context, in *OneClickInput) (*MessageOutput, error) {
	labels, err := notify.Unsubscribe(ctx, d.db, in.Token)
	if err != nil {
		return nil, err
	}
	out := &MessageOutput{}
	out.Body.Message = unsubscribed(labels)
	return out, nil
}

// unsubscribed is the answer naming the kinds turned off.
func unsubscribed(labels []string) string {
	if len(labels) == 1 {
		return fmt.Sprintf(MsgUnsubscribed, labels[0])
	}
	return fmt.Sprintf(MsgUnsubscribedAll, strings.Join(labels, " ; "))
}
