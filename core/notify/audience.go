package notify

import (
	"context"
	"fmt"
	"strings"

	"primeur/core/store"
)

// Who hears of what (issue 41, PRODUCT §13 "Teams" and §16
// "Notifications"): every notification and every email of an organisation
// goes to the members whose role it concerns, the owners hearing of
// everything. This file is the one place of that rule: the kinds of
// notification name their roles (Kinds), and the emails of the documents
// theirs (DocumentRoles, NoteRoles, CutoffRoles); Queue and Recipients
// apply them.

// The roles of core/accounts (people.go), which imports this package.
const (
	roleOwner      = "owner"
	roleBuyer      = "buyer"
	roleReceiver   = "receiver"
	roleSales      = "sales"
	roleDelivery   = "delivery"
	roleAccountant = "accountant"
)

// The roles, beside the owners, of each kind of notification: proposals,
// counter-proposals and corrections to the people who negotiate (a shop's
// buyers, a farm's sales); answers to whoever proposes or claims; claims
// to review to a shop's receivers and a farm's delivery; deliveries the
// shop changed to a farm's delivery; delivery notes to a shop's
// receivers; the e-invoicing statuses to the accountants.
var (
	negotiators = []string{roleBuyer, roleSales}
	answered    = []string{roleBuyer, roleSales, roleReceiver, roleDelivery}
	claimants   = []string{roleReceiver, roleDelivery}
	deliverers  = []string{roleDelivery}
	receivers   = []string{roleReceiver}
	bookkeepers = []string{roleAccountant}
)

// The roles, beside the owners, that the emails of documents go to:
// invoices, credit notes and reminders to the accountants (both sides);
// delivery notes to a shop's receivers and a farm's delivery; the
// reminder of the 25th (open needs) to a farm's sales.
var (
	DocumentRoles = bookkeepers
	NoteRoles     = claimants
	CutoffRoles   = []string{roleSales}
)

// concerns tells whether a member of role hears of kind k.
func (k Kind) concerns(role string) bool {
	if role == roleOwner {
		return true
	}
	for _, r := range k.Roles {
		if r == role {
			return true
		}
	}
	return false
}

// audienceRoles is the owner's role and roles: who hears of a kind or an
// email whose roles are those.
func audienceRoles(roles []string) []string {
	return append([]string{roleOwner}, roles...)
}

// Recipients returns the login emails, confirmed, of the open people who
// are members of org with the owner's role or one of roles (DocumentRoles,
// NoteRoles, CutoffRoles), by person id: where an email of the
// organisation goes.
func Recipients(ctx context.Context, q store.Q, orgID string, roles []string) ([]string, error) {
	var emails []string
	if err := store.SelectIn(ctx, q, &emails, `SELECT p.email FROM members m JOIN people p ON p.id = m.person_id AND p.closed_at IS NULL
		WHERE m.org_id = ? AND m.role IN (?) AND p.email_key <> '' AND p.email_confirmed = p.email_key ORDER BY m.person_id`,
		orgID, audienceRoles(roles)); err != nil {
		return nil, fmt.Errorf("notify: recipients of %s: %w", orgID, err)
	}
	return emails, nil
}

// ReachableSQL is an SQL condition true when the organisation whose id
// the SQL expression org gives has an open member, of the owner's role or
// one of roles, whose login email is confirmed: when Recipients finds
// someone to write to. The queries that select only what can be emailed
// now (the documents, the notes, the reminders of the 25th) ask it, so
// that a document waits for nobody in particular — the founder's
// confirmation no more than another's — and goes as soon as someone it
// concerns can receive it (PRODUCT §13 "Confirming an email").
//
// The members are looked up with IN (SELECT …), not a correlated EXISTS:
// SQLite builds the subquery's list once, PostgreSQL hashes it once per
// query. A correlated EXISTS would be costed by PostgreSQL as a subquery a
// row each, and a run on a few thousand documents planned at a cost that
// turns its JIT compiler on (over a second of compiling for a few
// milliseconds of work). The roles are the package's constants, written
// in the text.
func ReachableSQL(org string, roles []string) string {
	quoted := make([]string, 0, len(roles)+1)
	for _, r := range audienceRoles(roles) {
		quoted = append(quoted, "'"+r+"'")
	}
	return `(` + org + ` IN (SELECT m.org_id FROM members m JOIN people pe ON pe.id = m.person_id AND pe.closed_at IS NULL
		WHERE m.role IN (` + strings.Join(quoted, ", ") + `) AND pe.email_key <> '' AND pe.email_confirmed = pe.email_key))`
}
