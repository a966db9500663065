package accounts

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/store"
)

// Teams (issue 41, PRODUCT §13 "Teams"). A row of users is an
// organisation, a shop or a farm: every table of trade, documents and
// payments points at it. A person (people) is one login — an email, a
// password, a name — and belongs to organisations through members, each
// membership with one role. A session is a person's in one organisation
// (sessions.person_id, sessions.user_id); every request reads the
// membership again (SessionOf), so that a member removed or whose role
// changed acts no more under the old one.
//
// The person who registered an organisation has the organisation's id
// (its founder, as migration 61 made every account of before teams): the
// organisation's login email and password are the founder's, kept in
// step by syncFounder wherever the credentials code writes them on users.

// The roles. A shop's are owner, buyer, receiver and accountant; a farm's
// owner, sales, delivery and accountant (RolesOf).
const (
	RoleOwner      = "owner"
	RoleBuyer      = "buyer"
	RoleReceiver   = "receiver"
	RoleSales      = "sales"
	RoleDelivery   = "delivery"
	RoleAccountant = "accountant"
)

// ShopRoles and FarmRoles are the roles of each kind of organisation, the
// owner first.
var (
	ShopRoles = []string{RoleOwner, RoleBuyer, RoleReceiver, RoleAccountant}
	FarmRoles = []string{RoleOwner, RoleSales, RoleDelivery, RoleAccountant}
)

// RolesOf returns the roles of an organisation of that type (Producer or
// Distributor).
func RolesOf(orgType string) []string {
	if orgType == Producer {
		return FarmRoles
	}
	return ShopRoles
}

// RoleLabel is a role's French name, as the Team screen and the emails
// show it.
func RoleLabel(role string) string {
	switch role {
	case RoleOwner:
		return "Propriétaire"
	case RoleBuyer:
		return "Acheteur"
	case RoleReceiver:
		return "Réception"
	case RoleSales:
		return "Vente"
	case RoleDelivery:
		return "Livraison"
	case RoleAccountant:
		return "Comptabilité"
	}
	return role
}

// MsgRoleUnknown refuses a role that the organisation's kind has not.
const MsgRoleUnknown = "Choisissez un rôle parmi ceux de votre organisation."

// CheckRole refuses (core.Invalid on field "role") a role that an
// organisation of orgType has not.
func CheckRole(orgType, role string) error {
	if !slices.Contains(RolesOf(orgType), role) {
		return core.Invalid("role", MsgRoleUnknown)
	}
	return nil
}

// Person is one login.
type Person struct {
	ID           string `db:"id"`
	Email        string `db:"email"`
	EmailKey     string `db:"email_key"`
	Name         string `db:"name"`
	PasswordHash string `db:"password_hash"`
}

const personColumns = `id, email, email_key, name, password_hash`

// PersonByID returns the open person with that id, or core.ErrNotFound.
func PersonByID(ctx context.Context, q store.Q, id string) (Person, error) {
	var p Person
	err := store.Get(ctx, q, &p, `SELECT `+personColumns+` FROM people WHERE id = ? AND closed_at IS NULL`, id)
	if store.IsNotFound(err) {
		return Person{}, fmt.Errorf("accounts: person %s: %w", id, core.ErrNotFound)
	}
	if err != nil {
		return Person{}, fmt.Errorf("accounts: person %s: %w", id, err)
	}
	return p, nil
}

// PersonByEmail returns the open person with that login email (any case),
// or core.ErrNotFound.
func PersonByEmail(ctx context.Context, q store.Q, email string) (Person, error) {
	var p Person
	err := store.Get(ctx, q, &p, `SELECT `+personColumns+` FROM people WHERE email_key = ? AND closed_at IS NULL`, EmailKey(email))
	if store.IsNotFound(err) {
		return Person{}, fmt.Errorf("accounts: person %q: %w", email, core.ErrNotFound)
	}
	if err != nil {
		return Person{}, fmt.Errorf("accounts: person %q: %w", email, err)
	}
	return p, nil
}

// PersonView is a person as the UI shows them.
type PersonView struct {
	ID    string `json:"_id"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

// Membership is one organisation of a person, as the header's switcher
// lists them.
type Membership struct {
	OrgID   string `db:"org_id" json:"id"`
	OrgName string `db:"org_name" json:"name"`
	OrgType string `db:"org_type" json:"type" enum:"producer,distributor"`
	Role    string `db:"role" json:"role" enum:"owner,buyer,receiver,sales,delivery,accountant"`
}

// Memberships returns the open organisations of a person, by name.
func Memberships(ctx context.Context, q store.Q, personID string) ([]Membership, error) {
	ms := []Membership{}
	if err := store.Select(ctx, q, &ms, `SELECT m.org_id, u.name AS org_name, u.type AS org_type, m.role
		FROM members m JOIN users u ON u.id = m.org_id
		WHERE m.person_id = ? AND u.closed_at IS NULL ORDER BY u.name, u.id`, personID); err != nil {
		return nil, fmt.Errorf("accounts: memberships: %w", err)
	}
	return ms, nil
}

// RoleIn returns a person's role in an organisation, or core.ErrNotFound
// when they are not a member.
func RoleIn(ctx context.Context, q store.Q, personID, orgID string) (string, error) {
	var role string
	err := store.Get(ctx, q, &role, `SELECT role FROM members WHERE person_id = ? AND org_id = ?`, personID, orgID)
	if store.IsNotFound(err) {
		return "", fmt.Errorf("accounts: member: %w", core.ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("accounts: member: %w", err)
	}
	return role, nil
}

// insertFounder stores the founder of a new organisation u: a person with
// its id, email and password, owner of it.
func insertFounder(ctx context.Context, q store.Q, u User) error {
	if _, err := store.Exec(ctx, q, `INSERT INTO people (id, email, email_key, email_confirmed, name, password_hash, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, u.ID, u.Email, u.EmailKey, u.EmailConfirmedKey, u.Name, u.PasswordHash, u.CreatedAt, u.UpdatedAt); err != nil {
		if store.IsUniqueViolation(err) {
			return core.Refuse(core.ErrConflict, MsgEmailTaken)
		}
		return fmt.Errorf("accounts: insert founder: %w", err)
	}
	if _, err := store.Exec(ctx, q, `INSERT INTO members (person_id, org_id, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
		u.ID, u.ID, RoleOwner, u.CreatedAt, u.CreatedAt); err != nil {
		return fmt.Errorf("accounts: insert founder: %w", err)
	}
	return nil
}

var (
	peopleColumnList  = []string{"id", "email", "email_key", "email_confirmed", "name", "password_hash", "created_at", "updated_at"}
	membersColumnList = []string{"person_id", "org_id", "role", "created_at", "updated_at"}
)

// insertFounders is insertFounder in bulk, for InsertAll.
func insertFounders(ctx context.Context, q store.Q, us []User) error {
	if err := store.Insert(ctx, q, "people", peopleColumnList, len(us), func(i int, v []any) {
		u := us[i]
		u.completeRow()
		copy(v, []any{u.ID, u.Email, u.EmailKey, u.EmailConfirmedKey, u.Name, u.PasswordHash, u.CreatedAt, u.UpdatedAt})
	}); err != nil {
		return fmt.Errorf("accounts: insert founders: %w", err)
	}
	if err := store.Insert(ctx, q, "members", membersColumnList, len(us), func(i int, v []any) {
		copy(v, []any{us[i].ID, us[i].ID, RoleOwner, us[i].CreatedAt, us[i].CreatedAt})
	}); err != nil {
		return fmt.Errorf("accounts: insert founders: %w", err)
	}
	return nil
}

// SyncFounder copies, in q, an organisation's login (email, its key and
// confirmation, password hash) to its founder, the person of the same id:
// the credentials code (a new password, a reset, a confirmed change of
// email, its way back, closing the account) writes them on users. It does
// nothing for an organisation whose founder is gone.
func SyncFounder(ctx context.Context, q store.Q, userID string) error {
	if _, err := store.Exec(ctx, q, `UPDATE people SET
		email = (SELECT u.email FROM users u WHERE u.id = people.id),
		email_key = (SELECT u.email_key FROM users u WHERE u.id = people.id),
		email_confirmed = (SELECT u.email_confirmed FROM users u WHERE u.id = people.id),
		password_hash = (SELECT u.password_hash FROM users u WHERE u.id = people.id),
		updated_at = (SELECT u.updated_at FROM users u WHERE u.id = people.id)
		WHERE id = ? AND EXISTS (SELECT 1 FROM users u WHERE u.id = people.id)`, userID); err != nil {
		if store.IsUniqueViolation(err) {
			return core.Refuse(core.ErrConflict, MsgEmailTaken)
		}
		return fmt.Errorf("accounts: sync founder: %w", err)
	}
	return nil
}

// Session is a live session: the person, the organisation they act for
// (User) and their role in it.
type Session struct {
	User   User
	Person Person
	Role   string
}

// NewPersonSession opens a session of a person in an organisation they
// belong to and returns its token.
func NewPersonSession(ctx context.Context, q store.Q, personID, orgID string, now time.Time) (string, error) {
	token, err := newToken()
	if err != nil {
		return "", err
	}
	ms := now.UnixMilli()
	if _, err := store.Exec(ctx, q, `INSERT INTO sessions (token_hash, user_id, person_id, created_at, last_seen_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?)`, hashToken(token), orgID, personID, ms, ms, sessionExpiry(ms, now)); err != nil {
		return "", fmt.Errorf("accounts: create session: %w", err)
	}
	return token, nil
}

// MsgNotMember refuses to switch to an organisation the person is not a
// member of.
const MsgNotMember = "Vous n'êtes pas membre de cette organisation."

// SwitchOrganisation moves the session of token to another organisation
// of its person: the same session (its times unchanged), now acting for
// orgID. An organisation the person is not a member of is core.ErrNotFound
// with MsgNotMember.
func SwitchOrganisation(ctx context.Context, q store.Q, token, personID, orgID string) error {
	n, err := store.Exec(ctx, q, `UPDATE sessions SET user_id = ? WHERE token_hash = ? AND person_id = ?
		AND EXISTS (SELECT 1 FROM members m JOIN users u ON u.id = m.org_id
			WHERE m.person_id = ? AND m.org_id = ? AND u.closed_at IS NULL)`,
		orgID, hashToken(token), personID, personID, orgID)
	if err != nil {
		return fmt.Errorf("accounts: switch organisation: %w", err)
	}
	if n == 0 {
		return core.Refuse(core.ErrNotFound, MsgNotMember)
	}
	return nil
}

// EndMemberSessions ends every session of a person in an organisation: a
// member removed, or whose role changed, signs in again.
func EndMemberSessions(ctx context.Context, q store.Q, personID, orgID string) error {
	if _, err := store.Exec(ctx, q, `DELETE FROM sessions WHERE person_id = ? AND user_id = ?`, personID, orgID); err != nil {
		return fmt.Errorf("accounts: end member sessions: %w", err)
	}
	return nil
}

// loginOrganisation is the organisation a person's login opens: the one
// of their latest session still a membership, else the first of their
// memberships by name. A person member of none is refused.
func loginOrganisation(ctx context.Context, q store.Q, personID string) (string, error) {
	var org string
	err := store.Get(ctx, q, &org, `SELECT s.user_id FROM sessions s
		JOIN members m ON m.person_id = s.person_id AND m.org_id = s.user_id
		JOIN users u ON u.id = s.user_id AND u.closed_at IS NULL
		WHERE s.person_id = ? ORDER BY s.last_seen_at DESC, s.user_id LIMIT 1`, personID)
	if err == nil {
		return org, nil
	}
	if !store.IsNotFound(err) {
		return "", fmt.Errorf("accounts: login organisation: %w", err)
	}
	ms, err := Memberships(ctx, q, personID)
	if err != nil {
		return "", err
	}
	if len(ms) == 0 {
		return "", core.Refuse(core.ErrForbidden, MsgNoOrganisation)
	}
	return ms[0].OrgID, nil
}

// MsgNoOrganisation refuses the login of a person who belongs to no
// organisation any more.
const MsgNoOrganisation = "Votre accès a été retiré : vous n'êtes plus membre d'aucun magasin ni d'aucune ferme sur Primeur."

// MaxInvitationsPerOrg bounds the invitations an organisation sends per
// InvitationWindow, as the other emails a person can make Primeur send
// are bounded (docs/SECURITY.md "Teams").
const (
	MaxInvitationsPerOrg = 20
	InvitationWindow     = 24 * time.Hour
)

// MsgInvitationsThrottled refuses an invitation past the organisation's
// count.
const MsgInvitationsThrottled = "Trop d'invitations envoyées aujourd'hui. Veuillez réessayer demain."

var invitePerOrg = rule{prefix: "invite:org:", limit: MaxInvitationsPerOrg, window: InvitationWindow}

// CountInvitation counts an invitation the organisation sends, refusing
// it past MaxInvitationsPerOrg per InvitationWindow (core.ErrThrottled
// inside a *limit.Later). It writes only the throttle table.
func CountInvitation(ctx context.Context, db *store.DB, orgID string, now time.Time) error {
	a := &attempt{checks: []check{{invitePerOrg, invitePerOrg.prefix + orgID}}, refused: MsgInvitationsThrottled}
	return a.begin(ctx, db, now)
}

// CheckPersonPassword checks the password of the person with that email
// as a login from client, throttled alike (throttle.go), and returns the
// person. A wrong pair is a core.Invalid on field with MsgBadCredentials.
func CheckPersonPassword(ctx context.Context, db *store.DB, field, email, password, client string, now time.Time) (Person, error) {
	a := loginAttempt(email, client)
	if err := a.begin(ctx, db, now); err != nil {
		return Person{}, err
	}
	p, err := PersonByEmail(ctx, db, email)
	hash := p.PasswordHash
	if errors.Is(err, core.ErrNotFound) {
		hash = dummyHash
	} else if err != nil {
		return Person{}, errors.Join(err, a.giveBack(ctx, db))
	}
	ok, err := CheckPassword(ctx, hash, password)
	if err != nil {
		return Person{}, errors.Join(err, a.giveBack(ctx, db))
	}
	if !ok || p.ID == "" {
		return Person{}, core.Invalid(field, MsgBadCredentials)
	}
	if err := db.Tx(ctx, func(tx *sqlx.Tx) error { return a.succeeded(ctx, tx, now) }); err != nil {
		return Person{}, err
	}
	return p, nil
}

// setPersonPassword is SetPassword for the login of a person who founded
// no organisation (a member invited): their sessions end everywhere.
func setPersonPassword(ctx context.Context, db *store.DB, email, password string, now time.Time) error {
	p, err := PersonByEmail(ctx, db, email)
	if err != nil {
		return err
	}
	hash, err := HashPassword(ctx, password)
	if err != nil {
		return err
	}
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := store.Exec(ctx, tx, `UPDATE people SET password_hash = ?, updated_at = ? WHERE id = ?`, hash, now.UnixMilli(), p.ID); err != nil {
			return fmt.Errorf("accounts: set password: %w", err)
		}
		if _, err := store.Exec(ctx, tx, `DELETE FROM sessions WHERE person_id = ?`, p.ID); err != nil {
			return fmt.Errorf("accounts: set password: %w", err)
		}
		return nil
	})
}

// The founder of an organisation keeps the organisation's credentials
// code (reset.go, credentials.go); the other members' own logins have
// theirs here: a reset link (person_resets, as password_resets) and a
// new password from the profile.

// issuePersonReset is IssueReset for the login of a member who founded
// no organisation; ok is false when no person has the email either.
func issuePersonReset(ctx context.Context, db *store.DB, email string, now time.Time) (Reset, bool, error) {
	p, err := PersonByEmail(ctx, db, email)
	if errors.Is(err, core.ErrNotFound) {
		return Reset{}, false, nil
	}
	if err != nil {
		return Reset{}, false, err
	}
	token, err := newToken()
	if err != nil {
		return Reset{}, false, err
	}
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		_, err := store.Exec(ctx, tx, `INSERT INTO person_resets (token_hash, person_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
			hashToken(token), p.ID, now.UnixMilli(), now.Add(ResetValid).UnixMilli())
		return err
	})
	if err != nil {
		return Reset{}, false, fmt.Errorf("accounts: person reset: %w", err)
	}
	return Reset{User: User{ID: p.ID, Email: p.Email, Name: p.Name}, Token: token}, true, nil
}

// livePersonReset is the person of an unused, unexpired reset token of
// person_resets, else the refusal MsgResetInvalid.
func livePersonReset(ctx context.Context, q store.Q, token string, now time.Time) (string, error) {
	var personID string
	err := store.Get(ctx, q, &personID, `SELECT person_id FROM person_resets
		WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?`+store.ForUpdate(q), hashToken(token), now.UnixMilli())
	if store.IsNotFound(err) || token == "" {
		return "", core.Invalid("token", MsgResetInvalid)
	}
	if err != nil {
		return "", fmt.Errorf("accounts: reset: %w", err)
	}
	return personID, nil
}

// resetPersonPassword is ResetPassword for a link of person_resets, the
// password already checked and hashed: the link is used, the person's
// password set and their sessions ended everywhere.
func resetPersonPassword(ctx context.Context, db *store.DB, token, hash string, now time.Time) (User, error) {
	var u User
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		personID, err := livePersonReset(ctx, tx, token, now)
		if err != nil {
			return err
		}
		ms := now.UnixMilli()
		if _, err := store.Exec(ctx, tx, `UPDATE person_resets SET used_at = ? WHERE person_id = ? AND used_at IS NULL`, ms, personID); err != nil {
			return fmt.Errorf("accounts: reset: %w", err)
		}
		if err := setPersonHash(ctx, tx, personID, hash, "", now); err != nil {
			return err
		}
		u = User{ID: personID}
		return nil
	})
	return u, err
}

// setPersonHash stores a person's new password hash (and the founder's
// organisation's, kept in step) and ends their sessions but keepToken's.
func setPersonHash(ctx context.Context, q store.Q, personID, hash, keepToken string, now time.Time) error {
	ms := now.UnixMilli()
	if _, err := store.Exec(ctx, q, `UPDATE people SET password_hash = ?, updated_at = ? WHERE id = ?`, hash, ms, personID); err != nil {
		return fmt.Errorf("accounts: set password: %w", err)
	}
	if _, err := store.Exec(ctx, q, `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?`, hash, ms, personID); err != nil {
		return fmt.Errorf("accounts: set password: %w", err)
	}
	if _, err := store.Exec(ctx, q, `DELETE FROM sessions WHERE person_id = ? AND token_hash <> ?`, personID, hashToken(keepToken)); err != nil {
		return fmt.Errorf("accounts: set password: %w", err)
	}
	return nil
}

// ChangePersonPassword is ChangePassword for a member's own login (a
// session whose person is not the organisation's founder): the current
// password checked as a login attempt, the new one following PRODUCT §5's
// rule; the person's other sessions end, in every organisation.
func ChangePersonPassword(ctx context.Context, db *store.DB, p Person, current, password string, password2 *string, client, keepToken string, now time.Time) error {
	v := &core.ValidationError{}
	if current == "" {
		v.Add("current", MsgCurrentRequired)
	}
	if !ValidPassword(password) {
		v.Add("password", MsgPasswordInvalid)
	}
	if password2 != nil && *password2 != password {
		v.Add("password2", MsgPasswordsDiffer)
	}
	if err := v.Err(); err != nil {
		return err
	}
	if _, err := CheckPersonPassword(ctx, db, "current", p.Email, current, client, now); err != nil {
		if errors.Is(err, core.ErrThrottled) {
			return err
		}
		var ve *core.ValidationError
		if errors.As(err, &ve) {
			return core.Invalid("current", MsgCurrentWrong)
		}
		return err
	}
	hash, err := HashPassword(ctx, password)
	if err != nil {
		return err
	}
	return db.Tx(ctx, func(tx *sqlx.Tx) error { return setPersonHash(ctx, tx, p.ID, hash, keepToken, now) })
}
