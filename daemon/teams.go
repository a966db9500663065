package daemon

import (
	"archive/zip"
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core/accounts"
	"primeur/core/mydata"
	"primeur/core/notify"
	"primeur/core/store"
	"primeur/core/teams"
)

// Teams (issue 41, PRODUCT §13 "Teams"): the owners' Team screen, the
// invitation's acceptance page, the header's switch between the
// organisations of a person. The roles each operation needs are
// roles.go's.

// TeamOutput is an organisation's members and pending invitations.
type TeamOutput struct {
	Body teams.Team
}

// InviteInput invites someone into the session's organisation.
type InviteInput struct {
	Body struct {
		Email string `json:"email" required:"false" maxLength:"320" doc:"The address invited. Needed: refused (422) without it" example:"marie@epicerie-du-lac.fr"`
		Role  string `json:"role" required:"false" maxLength:"20" doc:"One of the organisation's roles: owner, buyer, receiver, accountant for a shop; owner, sales, delivery, accountant for a farm" example:"buyer"`
	}
}

// InvitationOutput is an invitation just sent.
type InvitationOutput struct {
	Body teams.Invitation
}

// RoleInput gives a member another role.
type RoleInput struct {
	PersonID string `path:"personId" maxLength:"64" doc:"The member's person id"`
	Body     struct {
		Role string `json:"role" required:"false" maxLength:"20" doc:"The new role" example:"accountant"`
	}
}

// MemberPath names a member of the session's organisation.
type MemberPath struct {
	PersonID string `path:"personId" maxLength:"64" doc:"The member's person id"`
}

// InvitationPath names a pending invitation of the session's organisation.
type InvitationPath struct {
	InvitationID string `path:"invitationId" maxLength:"64" doc:"The invitation's id"`
}

// SwitchInput moves the session to another organisation of its person.
type SwitchInput struct {
	Body struct {
		Organisation string `json:"organisation" required:"false" maxLength:"64" doc:"The id of an organisation the person is a member of"`
	}
}

// PersonNameInput sets the session's person's own name.
type PersonNameInput struct {
	Body struct {
		Name string `json:"name" required:"false" maxLength:"200" doc:"The person's name, distinct from the organisation's; needed, 100 characters at most" example:"Claire Martin"`
	}
}

// InvitationTokenInput names an invitation by its link's token.
type InvitationTokenInput struct {
	Body struct {
		Token string `json:"token" required:"false" maxLength:"128" doc:"The token of the emailed link (after its #)"`
	}
}

// PendingOutput is an invitation as its acceptance page shows it.
type PendingOutput struct {
	Body teams.Pending
}

// AcceptInput accepts an invitation.
type AcceptInput struct {
	Body struct {
		Token    string `json:"token" required:"false" maxLength:"128" doc:"The token of the emailed link"`
		Name     string `json:"name" required:"false" maxLength:"200" doc:"The person's name, for a new login (ignored when the address has one)" example:"Marie Dupont"`
		Password string `json:"password" required:"false" maxLength:"1024" doc:"A new password for a new login, else the existing login's password"`
	}
}

// acceptRequest resolves the client address, for the password's
// throttling.
type acceptRequest struct {
	AcceptInput
	clientRequest
}

func (d *Daemon) registerTeams(api huma.API) {
	tags := []string{"Team"}
	huma.Register(api, huma.Operation{
		OperationID: "get-team", Method: http.MethodGet, Path: "/team",
		Summary:     "The organisation's members and pending invitations",
		Description: "The members (name, email, role, since when) and the invitations not used yet of the session's organisation. Owners only.",
		Tags:        tags, Errors: []int{http.StatusForbidden},
	}, d.getTeam)
	huma.Register(api, huma.Operation{
		OperationID: "invite-member", Method: http.MethodPost, Path: "/team/invitations",
		Summary: "Invite someone into the organisation",
		Description: "Emails a single-use link, valid seven days, that adds the address to the organisation with the role given; an invitation " +
			"of the same address still pending is replaced. At most 20 invitations a day per organisation (429 with Retry-After past it). Owners only.",
		Tags: tags, DefaultStatus: http.StatusCreated,
		Errors: []int{http.StatusForbidden, http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable},
	}, d.inviteMember)
	huma.Register(api, huma.Operation{
		OperationID: "cancel-invitation", Method: http.MethodDelete, Path: "/team/invitations/{invitationId}",
		Summary:     "Cancel a pending invitation",
		Description: "Its link no longer works. Another organisation's invitation, or one used, is 404. Owners only.",
		Tags:        tags, Errors: []int{http.StatusForbidden, http.StatusNotFound},
	}, d.cancelInvitation)
	huma.Register(api, huma.Operation{
		OperationID: "set-member-role", Method: http.MethodPut, Path: "/team/members/{personId}",
		Summary:     "Give a member another role",
		Description: "The member's sessions in the organisation end at once. The last owner keeps the role (409). Owners only.",
		Tags:        tags, Errors: []int{http.StatusForbidden, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity},
	}, d.setMemberRole)
	huma.Register(api, huma.Operation{
		OperationID: "remove-member", Method: http.MethodDelete, Path: "/team/members/{personId}",
		Summary:     "Remove a member from the organisation",
		Description: "Their sessions in the organisation end at once; their login and what they did stay. The last owner cannot leave (409). Owners only.",
		Tags:        tags, Errors: []int{http.StatusForbidden, http.StatusNotFound, http.StatusConflict},
	}, d.removeMember)
	huma.Register(api, huma.Operation{
		OperationID: "leave-organisation", Method: http.MethodPost, Path: "/team/leave",
		Summary: "Leave the organisation",
		Description: "The session's person leaves the session's organisation: their sessions there end, this one included (its cookie cleared); " +
			"their login, their other organisations and what they did stay, and so do the organisation's documents. The last owner cannot leave (409).",
		Tags: tags, DefaultStatus: http.StatusNoContent, Errors: []int{http.StatusConflict},
	}, d.leaveOrganisation)
	huma.Register(api, huma.Operation{
		OperationID: "set-person-name", Method: http.MethodPut, Path: "/user/person",
		Summary:     "Set one's own name",
		Description: "The session's person's name (the Team screen, the header, the activity feed), distinct from the organisation's. Answers the user as GET /api/user does.",
		Tags:        tags, Errors: []int{http.StatusUnprocessableEntity},
	}, d.setPersonName)
	huma.Register(api, huma.Operation{
		OperationID: "switch-organisation", Method: http.MethodPut, Path: "/user/organisation",
		Summary:     "Act for another organisation",
		Description: "The session now acts for another organisation its person is a member of (the header's switcher); another is 404. Answers the user as GET /api/user does.",
		Tags:        tags, Errors: []int{http.StatusNotFound},
	}, d.switchOrganisation)
}

// registerInvitation registers the visitors' side of an invitation.
func (d *Daemon) registerInvitation(api huma.API) {
	tags := []string{"Team"}
	huma.Register(api, huma.Operation{
		OperationID: "get-invitation", Method: http.MethodPost, Path: "/auth/invitation",
		Summary:     "Read an invitation by its link's token",
		Description: "The organisation, the role, the address, and whether a login has it (then accepting asks its password). A dead link is 422.",
		Tags:        tags, Security: publicSecurity,
		Errors: []int{http.StatusUnprocessableEntity},
	}, d.getInvitation)
	huma.Register(api, huma.Operation{
		OperationID: "accept-invitation", Method: http.MethodPost, Path: "/auth/invitation/accept",
		Summary: "Accept an invitation and log in",
		Description: "Creates the login (name and a new password) or joins the existing one (its password, throttled as a login is), " +
			"adds it to the organisation with the invitation's role, uses the link and opens a session there.",
		Tags: tags, Security: publicSecurity,
		Errors: []int{http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable},
	}, d.acceptInvitation)
}

func (d *Daemon) getTeam(ctx context.Context, _ *struct{}) (*TeamOutput, error) {
	t, err := teams.Of(ctx, d.db, currentUser(ctx).ID)
	if err != nil {
		return nil, err
	}
	return &TeamOutput{Body: t}, nil
}

func (d *Daemon) inviteMember(ctx context.Context, in *InviteInput) (*InvitationOutput, error) {
	s, now := currentSession(ctx), d.now()
	// The rules first, in a transaction rolled back, so that a refused
	// invitation counts nothing.
	if err := d.db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := teams.Invite(ctx, tx, s.User, s.Person, in.Body.Email, in.Body.Role, now); err != nil {
			return err
		}
		return errDryRun
	}); !errors.Is(err, errDryRun) {
		return nil, err
	}
	if err := accounts.CountInvitation(ctx, d.db, s.User.ID, now); err != nil {
		return nil, err
	}
	var sent teams.Sent
	if err := d.db.Tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		sent, err = teams.Invite(ctx, tx, s.User, s.Person, in.Body.Email, in.Body.Role, now)
		return err
	}); err != nil {
		return nil, err
	}
	d.mailAfter("invitation", teams.Mail(sent, d.siteURL(), now), s.User.ID)
	return &InvitationOutput{Body: sent.Invitation}, nil
}

func (d *Daemon) cancelInvitation(ctx context.Context, in *InvitationPath) (*struct{}, error) {
	return nil, d.db.Tx(ctx, func(tx *sqlx.Tx) error {
		return teams.Cancel(ctx, tx, currentUser(ctx).ID, in.InvitationID)
	})
}

func (d *Daemon) setMemberRole(ctx context.Context, in *RoleInput) (*TeamOutput, error) {
	u := currentUser(ctx)
	if err := d.db.Tx(ctx, func(tx *sqlx.Tx) error {
		return teams.SetRole(ctx, tx, u, in.PersonID, in.Body.Role, d.now())
	}); err != nil {
		return nil, err
	}
	return d.getTeam(ctx, nil)
}

func (d *Daemon) removeMember(ctx context.Context, in *MemberPath) (*TeamOutput, error) {
	u := currentUser(ctx)
	if err := d.db.Tx(ctx, func(tx *sqlx.Tx) error {
		return teams.Remove(ctx, tx, u.ID, in.PersonID)
	}); err != nil {
		return nil, err
	}
	return d.getTeam(ctx, nil)
}

func (d *Daemon) leaveOrganisation(ctx context.Context, _ *struct{}) (*LogoutOutput, error) {
	s := currentSession(ctx)
	if err := d.db.Tx(ctx, func(tx *sqlx.Tx) error {
		return teams.Remove(ctx, tx, s.User.ID, s.Person.ID)
	}); err != nil {
		return nil, err
	}
	return &LogoutOutput{SetCookie: d.clearCookie(ctx)}, nil
}

func (d *Daemon) switchOrganisation(ctx context.Context, in *SwitchInput) (*UserOutput, error) {
	s := currentSession(ctx)
	if err := d.db.Tx(ctx, func(tx *sqlx.Tx) error {
		return accounts.SwitchOrganisation(ctx, tx, sessionToken(ctx), s.Person.ID, strings.TrimSpace(in.Body.Organisation))
	}); err != nil {
		return nil, err
	}
	now := d.now()
	next, err := accounts.SessionOf(ctx, d.db, sessionToken(ctx), now)
	if err != nil {
		return nil, err
	}
	out := &UserOutput{}
	if out.Body.User, err = d.profile(ctx, d.db, next.User); err != nil {
		return nil, err
	}
	return out, d.withTeam(ctx, d.db, &out.Body.User, next)
}

func (d *Daemon) setPersonName(ctx context.Context, in *PersonNameInput) (*UserOutput, error) {
	s, now := currentSession(ctx), d.now()
	if err := d.db.Tx(ctx, func(tx *sqlx.Tx) error {
		return teams.SetName(ctx, tx, s.Person.ID, in.Body.Name, now)
	}); err != nil {
		return nil, err
	}
	next, err := accounts.SessionOf(ctx, d.db, sessionToken(ctx), now)
	if err != nil {
		return nil, err
	}
	out := &UserOutput{}
	if out.Body.User, err = d.profile(ctx, d.db, next.User); err != nil {
		return nil, err
	}
	return out, d.withTeam(ctx, d.db, &out.Body.User, next)
}

func (d *Daemon) getInvitation(ctx context.Context, in *InvitationTokenInput) (*PendingOutput, error) {
	p, err := teams.Lookup(ctx, d.db, in.Body.Token, d.now())
	if err != nil {
		return nil, err
	}
	return &PendingOutput{Body: p}, nil
}

func (d *Daemon) acceptInvitation(ctx context.Context, in *acceptRequest) (*SessionOutput, error) {
	a, err := teams.Accept(ctx, d.db, teams.Acceptance{Token: in.Body.Token, Name: in.Body.Name, Password: in.Body.Password, Client: in.client}, d.now())
	if err != nil {
		return nil, err
	}
	d.log.InfoContext(ctx, "invitation accepted", "user", a.Organisation.ID, "person", a.Person.ID)
	noteUser(ctx, a.Organisation.ID)
	out := &SessionOutput{SetCookie: d.sessionCookie(ctx, a.Session, accounts.SessionMax)}
	if out.Body.User, err = d.profile(ctx, d.db, a.Organisation); err != nil {
		return nil, err
	}
	role, err := accounts.RoleIn(ctx, d.db, a.Person.ID, a.Organisation.ID)
	if err != nil {
		return nil, err
	}
	return out, d.withTeam(ctx, d.db, &out.Body.User, accounts.Session{User: a.Organisation, Person: a.Person, Role: role})
}

// errDryRun rolls back a transaction run for its refusals only.
var errDryRun = errors.New("dry run")

// withTeam completes a profile with a session's person, role and
// organisations (the header's switcher), and the person's choices of
// notifications there.
func (d *Daemon) withTeam(ctx context.Context, q store.Q, p *accounts.Profile, s accounts.Session) error {
	if s.Person.ID == "" || s.User.ID != p.ID {
		return nil
	}
	ms, err := accounts.Memberships(ctx, q, s.Person.ID)
	if err != nil {
		return err
	}
	if p.Notifications, err = notify.Prefs(ctx, q, s.Person.ID, s.User.ID, s.Role, s.User.IsProducer()); err != nil {
		return err
	}
	p.Person = &accounts.PersonView{ID: s.Person.ID, Name: s.Person.Name, Email: s.Person.Email}
	p.Role, p.Organisations = s.Role, ms
	return nil
}

// requestSession is the session of a plain route's request (requestUser
// with the person and their role).
func (d *Daemon) requestSession(r *http.Request) (accounts.Session, error) {
	token := ""
	if c, err := r.Cookie(d.cookieName(r.Context())); err == nil {
		token = c.Value
	}
	s, err := accounts.SessionOf(r.Context(), d.db, token, d.now())
	if err == nil {
		noteUser(r.Context(), s.User.ID)
	}
	return s, err
}

// writeMyData writes the data export of a session (PRODUCT §13 "Teams"):
// an owner's holds the organisation's and their own (personne.json);
// another member's their own alone.
func (d *Daemon) writeMyData(ctx context.Context, z *zip.Writer, s accounts.Session) error {
	now := d.now()
	if s.Role == accounts.RoleOwner {
		if err := mydata.Write(ctx, d.db, z, s.User, now, d.today()); err != nil {
			return err
		}
	} else if err := mydata.WritePersonReadme(z, now); err != nil {
		return err
	}
	return mydata.WritePerson(ctx, d.db, z, s.Person.ID, now)
}
