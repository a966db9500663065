// Package teams holds the members of an organisation and their
// invitations (issue 41, PRODUCT §13 "Teams"): an owner invites by email
// with a role, the single-use link expires after InvitationValid,
// accepting creates the login or joins an existing one; an owner changes
// roles and removes members, whose sessions in that organisation end at
// once; the last owner cannot leave. The people, the roles and the
// sessions are core/accounts' (people.go).
package teams

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/mail"
	"primeur/core/store"
)

// InvitationValid is how long an invitation's link works.
const InvitationValid = 7 * 24 * time.Hour

// The French texts of the rules.
const (
	MsgAlreadyMember     = "Cette personne fait déjà partie de l'équipe."
	MsgInvitationInvalid = "Cette invitation n'est plus valable : elle a déjà servi, a expiré ou a été annulée. Demandez-en une nouvelle à la personne qui vous a invité."
	MsgLastOwner         = "L'équipe doit garder au moins un propriétaire : nommez-en un autre avant."
	MsgNameRequired      = "Saisissez votre nom."
	MsgNameTooLong       = "Ce nom est trop long (100 caractères au plus)."
	MsgNotMember         = "Cette personne ne fait pas partie de l'équipe."
	MsgInvitationUnknown = "Cette invitation n'existe pas ou n'est plus en attente."
)

const maxNameLength = 100

// Member is a person of the organisation, as the Team screen lists them.
type Member struct {
	PersonID  string `db:"person_id" json:"personId"`
	Name      string `db:"name" json:"name"`
	Email     string `db:"email" json:"email"`
	Role      string `db:"role" json:"role" enum:"owner,buyer,receiver,sales,delivery,accountant"`
	CreatedAt int64  `db:"created_at" json:"since" doc:"When they joined (Unix ms)"`
}

// Invitation is an invitation not used yet.
type Invitation struct {
	ID        string `db:"id" json:"_id"`
	Email     string `db:"email" json:"email"`
	Role      string `db:"role" json:"role" enum:"owner,buyer,receiver,sales,delivery,accountant"`
	CreatedAt int64  `db:"created_at" json:"createdAt" doc:"Unix ms"`
	ExpiresAt int64  `db:"expires_at" json:"expiresAt" doc:"Unix ms; past it the owner sends it again"`
}

// Team is an organisation's members, by name, and its pending
// invitations, the latest first.
type Team struct {
	Members     []Member     `json:"members"`
	Invitations []Invitation `json:"invitations"`
}

// Of returns the team of an organisation.
func Of(ctx context.Context, q store.Q, orgID string) (Team, error) {
	t := Team{Members: []Member{}, Invitations: []Invitation{}}
	if err := store.Select(ctx, q, &t.Members, `SELECT m.person_id, p.name, p.email, m.role, m.created_at
		FROM members m JOIN people p ON p.id = m.person_id WHERE m.org_id = ? ORDER BY p.name, p.id`, orgID); err != nil {
		return Team{}, fmt.Errorf("teams: members: %w", err)
	}
	if err := store.Select(ctx, q, &t.Invitations, `SELECT id, email, role, created_at, expires_at
		FROM invitations WHERE org_id = ? AND used_at IS NULL ORDER BY created_at DESC, id`, orgID); err != nil {
		return Team{}, fmt.Errorf("teams: invitations: %w", err)
	}
	return t, nil
}

// Sent is an invitation just recorded: what its email needs.
type Sent struct {
	Invitation
	OrgName   string
	Inviter   string
	Token     string
	HasLogin  bool
	RoleLabel string
}

// Invite records an invitation of email to org with role, sent by
// inviter, valid InvitationValid, and returns it with its token for the
// caller to email. An earlier invitation of the same address still
// pending is replaced (its link dies). An administrator's command invites
// as accounts.Person{}. The organisation's count
// (accounts.CountInvitation) is the caller's, before.
func Invite(ctx context.Context, q store.Q, org accounts.User, inviter accounts.Person, email, role string, now time.Time) (Sent, error) {
	email = strings.TrimSpace(email)
	v := &core.ValidationError{}
	if email == "" {
		v.Add("email", accounts.MsgEmailRequired)
	} else if !accounts.ValidEmail(email) {
		v.Add("email", accounts.MsgEmailInvalid)
	}
	if err := accounts.CheckRole(org.Type, role); err != nil {
		v.Add("role", accounts.MsgRoleUnknown)
	}
	if err := v.Err(); err != nil {
		return Sent{}, err
	}
	key := accounts.EmailKey(email)
	var n int
	if err := store.Get(ctx, q, &n, `SELECT COUNT(*) FROM members m JOIN people p ON p.id = m.person_id
		WHERE m.org_id = ? AND p.email_key = ?`, org.ID, key); err != nil {
		return Sent{}, fmt.Errorf("teams: invite: %w", err)
	}
	if n > 0 {
		return Sent{}, core.Invalid("email", MsgAlreadyMember)
	}
	token, err := newToken()
	if err != nil {
		return Sent{}, err
	}
	if _, err := store.Exec(ctx, q, `DELETE FROM invitations WHERE org_id = ? AND email_key = ? AND used_at IS NULL`, org.ID, key); err != nil {
		return Sent{}, fmt.Errorf("teams: invite: %w", err)
	}
	inv := Invitation{ID: core.NewID(), Email: email, Role: role, CreatedAt: now.UnixMilli(), ExpiresAt: now.Add(InvitationValid).UnixMilli()}
	if _, err := store.Exec(ctx, q, `INSERT INTO invitations (id, token_hash, org_id, email, email_key, role, invited_by, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, inv.ID, hashToken(token), org.ID, email, key, role, nullable(inviter.ID), inv.CreatedAt, inv.ExpiresAt); err != nil {
		return Sent{}, fmt.Errorf("teams: invite: %w", err)
	}
	_, err = accounts.PersonByEmail(ctx, q, email)
	if err != nil && !errors.Is(err, core.ErrNotFound) {
		return Sent{}, err
	}
	return Sent{Invitation: inv, OrgName: org.Name, Inviter: inviter.Name, Token: token, HasLogin: err == nil, RoleLabel: accounts.RoleLabel(role)}, nil
}

// Mail is the email carrying an invitation's link, in French; the token
// is in the link's fragment, which browsers never send to a server.
func Mail(s Sent, siteURL string, now time.Time) mail.Message {
	link := siteURL + "/landing/invitation#" + s.Token
	how := "Pour rejoindre l'équipe, ouvrez ce lien dans les sept jours et choisissez votre mot de passe :\n"
	if s.HasLogin {
		how = "Vous avez déjà un accès à Primeur avec cette adresse : ouvrez ce lien dans les sept jours et saisissez votre mot de passe habituel :\n"
	}
	inviter := s.Inviter
	if inviter == "" {
		inviter = "L'équipe de Primeur"
	}
	return mail.Message{
		Key:     "invitation-" + s.ID,
		To:      []string{s.Email},
		Subject: "Primeur : invitation dans l'équipe " + s.OrgName,
		Body: "Bonjour,\n\n" +
			inviter + " vous invite à rejoindre l'équipe " + s.OrgName + " sur Primeur, avec le rôle « " + s.RoleLabel + " ».\n\n" +
			how + link + "\n\n" +
			"Le lien ne sert qu'une fois. Si vous ne connaissez pas " + s.OrgName + ", ignorez cet email.\n" +
			mail.Signature(siteURL),
		Date: now,
	}
}

// Cancel deletes a pending invitation of org; another organisation's, or
// one used, is core.ErrNotFound.
func Cancel(ctx context.Context, q store.Q, orgID, invitationID string) error {
	n, err := store.Exec(ctx, q, `DELETE FROM invitations WHERE id = ? AND org_id = ? AND used_at IS NULL`, invitationID, orgID)
	if err != nil {
		return fmt.Errorf("teams: cancel: %w", err)
	}
	if n == 0 {
		return core.Refuse(core.ErrNotFound, MsgInvitationUnknown)
	}
	return nil
}

// Pending is a live invitation as its acceptance page shows it.
type Pending struct {
	OrgID     string `db:"org_id" json:"-"`
	OrgName   string `db:"org_name" json:"organisation"`
	OrgType   string `db:"org_type" json:"type" enum:"producer,distributor"`
	Email     string `db:"email" json:"email"`
	Role      string `db:"role" json:"role" enum:"owner,buyer,receiver,sales,delivery,accountant"`
	HasLogin  bool   `db:"-" json:"hasLogin" doc:"Whether a login has the address: then accepting asks its password, else a name and a new password"`
	ExpiresAt int64  `db:"expires_at" json:"expiresAt"`
}

// Lookup returns the live invitation of a token, else core.Invalid on
// field "token" with MsgInvitationInvalid.
func Lookup(ctx context.Context, q store.Q, token string, now time.Time) (Pending, error) {
	var p Pending
	err := store.Get(ctx, q, &p, `SELECT i.org_id, u.name AS org_name, u.type AS org_type, i.email, i.role, i.expires_at
		FROM invitations i JOIN users u ON u.id = i.org_id AND u.closed_at IS NULL
		WHERE i.token_hash = ? AND i.used_at IS NULL AND i.expires_at > ?`, hashToken(token), now.UnixMilli())
	if store.IsNotFound(err) || token == "" {
		return Pending{}, core.Invalid("token", MsgInvitationInvalid)
	}
	if err != nil {
		return Pending{}, fmt.Errorf("teams: invitation: %w", err)
	}
	_, err = accounts.PersonByEmail(ctx, q, p.Email)
	if err != nil && !errors.Is(err, core.ErrNotFound) {
		return Pending{}, err
	}
	p.HasLogin = err == nil
	return p, nil
}

// Acceptance is an invitation's answer: the name and a new password of a
// new login, or the password of the existing one.
type Acceptance struct {
	Token    string
	Name     string
	Password string
	Client   string
}

// Accepted is an accepted invitation: the person, the organisation they
// joined, and the token of their new session there.
type Accepted struct {
	Person       accounts.Person
	Organisation accounts.User
	Session      string
}

// Accept uses an invitation once: a new login is created with the
// address invited (its name and password checked first, the password
// hashed before the transaction), or the existing login's password is
// checked as a login is (throttled alike); the person becomes a member
// with the invitation's role and a session opens there.
func Accept(ctx context.Context, db *store.DB, a Acceptance, now time.Time) (Accepted, error) {
	inv, err := Lookup(ctx, db, a.Token, now)
	if err != nil {
		return Accepted{}, err
	}
	var person accounts.Person
	var hash string
	if inv.HasLogin {
		if a.Password == "" {
			return Accepted{}, core.Invalid("password", accounts.MsgPasswordRequired)
		}
		if person, err = accounts.CheckPersonPassword(ctx, db, "password", inv.Email, a.Password, a.Client, now); err != nil {
			return Accepted{}, err
		}
	} else {
		name := strings.TrimSpace(a.Name)
		v := &core.ValidationError{}
		if name == "" {
			v.Add("name", MsgNameRequired)
		} else if utf8.RuneCountInString(name) > maxNameLength {
			v.Add("name", MsgNameTooLong)
		}
		if !accounts.ValidPassword(a.Password) {
			v.Add("password", accounts.MsgPasswordInvalid)
		}
		if err := v.Err(); err != nil {
			return Accepted{}, err
		}
		if hash, err = accounts.HashPassword(ctx, a.Password); err != nil {
			return Accepted{}, err
		}
		person = accounts.Person{ID: core.NewID(), Email: inv.Email, EmailKey: accounts.EmailKey(inv.Email), Name: name}
	}
	var out Accepted
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		ms := now.UnixMilli()
		n, err := store.Exec(ctx, tx, `UPDATE invitations SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?`,
			ms, hashToken(a.Token), ms)
		if err != nil {
			return fmt.Errorf("teams: accept: %w", err)
		}
		if n != 1 {
			return core.Invalid("token", MsgInvitationInvalid)
		}
		if hash != "" {
			// The address is confirmed: the invitation reached it.
			if _, err := store.Exec(ctx, tx, `INSERT INTO people (id, email, email_key, email_confirmed, name, password_hash, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, person.ID, person.Email, person.EmailKey, person.EmailKey, person.Name, hash, ms, ms); err != nil {
				if store.IsUniqueViolation(err) {
					return core.Invalid("token", MsgInvitationInvalid) // a login made meanwhile: the link again asks its password
				}
				return fmt.Errorf("teams: accept: %w", err)
			}
		}
		if _, err := store.Exec(ctx, tx, `INSERT INTO members (person_id, org_id, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (person_id, org_id) DO NOTHING`, person.ID, inv.OrgID, inv.Role, ms, ms); err != nil {
			return fmt.Errorf("teams: accept: %w", err)
		}
		org, err := accounts.ByID(ctx, tx, inv.OrgID)
		if err != nil {
			return err
		}
		token, err := accounts.NewPersonSession(ctx, tx, person.ID, inv.OrgID, now)
		out = Accepted{Person: person, Organisation: org, Session: token}
		return err
	})
	if err != nil {
		return Accepted{}, err
	}
	return out, nil
}

// SetRole gives a member of org another role; their sessions there end
// (they sign in again under the new role). The last owner keeps theirs.
func SetRole(ctx context.Context, q store.Q, org accounts.User, personID, role string, now time.Time) error {
	if err := accounts.CheckRole(org.Type, role); err != nil {
		return err
	}
	current, err := lockMember(ctx, q, org.ID, personID)
	if err != nil {
		return err
	}
	if current == role {
		return nil
	}
	if current == accounts.RoleOwner {
		if err := keepAnOwner(ctx, q, org.ID); err != nil {
			return err
		}
	}
	if _, err := store.Exec(ctx, q, `UPDATE members SET role = ?, updated_at = ? WHERE person_id = ? AND org_id = ?`,
		role, now.UnixMilli(), personID, org.ID); err != nil {
		return fmt.Errorf("teams: set role: %w", err)
	}
	return accounts.EndMemberSessions(ctx, q, personID, org.ID)
}

// Remove takes a member out of org (an owner removing someone, or a
// member leaving): their sessions there end at once. The last owner
// cannot leave.
func Remove(ctx context.Context, q store.Q, orgID, personID string) error {
	current, err := lockMember(ctx, q, orgID, personID)
	if err != nil {
		return err
	}
	if current == accounts.RoleOwner {
		if err := keepAnOwner(ctx, q, orgID); err != nil {
			return err
		}
	}
	if _, err := store.Exec(ctx, q, `DELETE FROM members WHERE person_id = ? AND org_id = ?`, personID, orgID); err != nil {
		return fmt.Errorf("teams: remove: %w", err)
	}
	return accounts.EndMemberSessions(ctx, q, personID, orgID)
}

// lockMember reads (and locks, on PostgreSQL) the organisation's members
// and returns the role of personID, core.ErrNotFound for someone not in
// the team.
func lockMember(ctx context.Context, q store.Q, orgID, personID string) (string, error) {
	var ms []struct {
		PersonID string `db:"person_id"`
		Role     string `db:"role"`
	}
	if err := store.Select(ctx, q, &ms, `SELECT person_id, role FROM members WHERE org_id = ?`+store.ForUpdate(q), orgID); err != nil {
		return "", fmt.Errorf("teams: members: %w", err)
	}
	for _, m := range ms {
		if m.PersonID == personID {
			return m.Role, nil
		}
	}
	return "", core.Refuse(core.ErrNotFound, MsgNotMember)
}

// keepAnOwner refuses when the organisation has one owner only: the one
// about to leave or change role.
func keepAnOwner(ctx context.Context, q store.Q, orgID string) error {
	var n int
	if err := store.Get(ctx, q, &n, `SELECT COUNT(*) FROM members WHERE org_id = ? AND role = ?`, orgID, accounts.RoleOwner); err != nil {
		return fmt.Errorf("teams: owners: %w", err)
	}
	if n <= 1 {
		return core.Refuse(core.ErrConflict, MsgLastOwner)
	}
	return nil
}

// nullable is NULL for an empty id: an invitation from an administrator's
// command has no inviting person.
func nullable(id string) any {
	if id == "" {
		return nil
	}
	return id
}

func newToken() (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("teams: token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(raw), nil
}

// hashToken is what the database keeps of a link's token: its SHA-256, as
// for sessions and reset links.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
