package daemon

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"primeur/core"
	"primeur/core/accounts"
)

// Roles (issue 41, PRODUCT §13 "Teams"): every operation that needs a
// session states the roles that may call it, once, in operationRoles; the
// document shows them as the operation's x-roles extension
// (declareRoles), and one check refuses every other role, before the
// handler runs: requireRole for the huma operations, roleGate for the
// plain routes under /print. An operation without a row is the owners'
// alone (and TestEveryOperationStatesItsRoles fails).

// rolesExtension names the OpenAPI extension listing an operation's roles.
const rolesExtension = "x-roles"

var (
	// everyRole is every member of an organisation: reading its own data.
	everyRole  = []string{accounts.RoleOwner, accounts.RoleBuyer, accounts.RoleReceiver, accounts.RoleSales, accounts.RoleDelivery, accounts.RoleAccountant}
	ownersOnly = []string{accounts.RoleOwner}
	// buying is a shop's needs and imports.
	buying = []string{accounts.RoleOwner, accounts.RoleBuyer}
	// negotiating is the proposals and commitments, on either side.
	negotiating = []string{accounts.RoleOwner, accounts.RoleBuyer, accounts.RoleSales}
	// selling is a farm's catalogue and commercial terms.
	selling = []string{accounts.RoleOwner, accounts.RoleSales}
	// receiving is a shop's deliveries, receptions and claims.
	receiving = []string{accounts.RoleOwner, accounts.RoleReceiver}
	// delivering is a farm's deliveries, notes and the day's sheets.
	delivering = []string{accounts.RoleOwner, accounts.RoleDelivery}
	// bookkeeping is documents' money: payments, transfers, exports, the
	// e-invoicing connection.
	bookkeeping = []string{accounts.RoleOwner, accounts.RoleAccountant}
)

// operationRoles holds the roles of each operation needing a session, by
// operation id.
var operationRoles = map[string][]string{
	// The session, the person's own settings and the organisation's reads.
	"get-user":            everyRole,
	"switch-organisation": everyRole,
	"leave-organisation":  everyRole,
	"set-notification":    everyRole,
	"set-person-name":     everyRole,
	// Each member's own login (the founder's is the organisation's).
	"change-password":             everyRole,
	"list-events":                 everyRole,
	"get-catalogue":               everyRole,
	"get-map":                     everyRole,
	"search-places":               everyRole,
	"get-shop":                    everyRole,
	"list-needs":                  everyRole,
	"get-need":                    everyRole,
	"need-prices":                 everyRole,
	"list-orders":                 everyRole,
	"get-supply":                  everyRole,
	"get-progression":             everyRole,
	"get-purchases":               everyRole,
	"get-rewards":                 everyRole,
	"get-payments":                everyRole,
	"get-payments-history":        everyRole,
	"get-accounting":              everyRole,
	"get-delivery-settings":       everyRole,
	"get-delivery-terms":          everyRole,
	"get-applied-delivery-terms":  everyRole,
	"get-delivery-day":            everyRole,
	"producer-supplied-products":  everyRole,
	"find-supplied-products":      everyRole,
	"supplied-product-types":      everyRole,
	"list-supplied-products":      everyRole,
	"list-offers":                 everyRole,
	"list-type-suggestions":       everyRole,
	"get-pa-connection":           everyRole,
	"print-delivery-note":         everyRole,
	"print-delivery-day":          everyRole,
	"print-invoice":               everyRole,
	"print-credit-note":           everyRole,
	"print-statement":             everyRole,
	"print-purchase-slip":         everyRole,
	"print-flat-rate-certificate": everyRole,
	"print-reception-image":       everyRole,
	"print-product-photo":         everyRole,
	"export-my-data":              everyRole,

	// The organisation itself: its profile, its login, its members.
	"update-user":         ownersOnly,
	"close-account":       ownersOnly,
	"change-email":        ownersOnly,
	"resend-confirmation": ownersOnly,
	"set-contribution":    ownersOnly,
	"end-contribution":    ownersOnly,
	"get-team":            ownersOnly,
	"invite-member":       ownersOnly,
	"cancel-invitation":   ownersOnly,
	"set-member-role":     ownersOnly,
	"remove-member":       ownersOnly,

	"create-need":              buying,
	"update-need":              buying,
	"delete-need":              buying,
	"bulk-needs":               buying,
	"import-needs-file":        buying,
	"preview-needs-file":       buying,
	"simulate-standard-import": buying,
	"commit-standard-import":   buying,
	"take-offer":               buying,

	"put-proposal":    negotiating,
	"review-proposal": negotiating,
	"delete-proposal": negotiating,

	"create-supplied-product":       selling,
	"update-supplied-product":       selling,
	"retire-supplied-product":       selling,
	"set-supplied-product-photo":    selling,
	"delete-supplied-product-photo": selling,
	"create-offer":                  selling,
	"withdraw-offer":                selling,
	"suggest-type":                  selling,
	"set-delivery-terms":            selling,
	"set-delivery-exception":        selling,
	"delete-delivery-exception":     selling,

	"update-delivery":  receiving,
	"cancel-delivery":  receiving,
	"receive-delivery": receiving,
	"review-delivery":  receiving,

	"claim-delivery":     delivering,
	"set-delivery-round": delivering,

	"record-payment":          bookkeeping,
	"declare-payment":         bookkeeping,
	"confirm-payment":         bookkeeping,
	"undo-payment":            bookkeeping,
	"set-reminders":           bookkeeping,
	"get-transfer-preview":    bookkeeping,
	"get-transfer-file":       bookkeeping,
	"set-accounting-accounts": bookkeeping,
	"export-invoices":         bookkeeping,
	"export-purchases":        bookkeeping,
	"connect-pa":              bookkeeping,
	"disconnect-pa":           bookkeeping,
	"test-pa-connection":      bookkeeping,
	"reissue-pa-invoice":      bookkeeping,
	"cancel-pa-invoice":       bookkeeping,
}

// rolesOf is the roles of an operation: its row, the owners' without one.
func rolesOf(operationID string) []string {
	if roles, ok := operationRoles[operationID]; ok {
		return roles
	}
	return ownersOnly
}

// declareRoles writes an operation's roles in the document.
func declareRoles(op *huma.Operation) {
	if op.Extensions == nil {
		op.Extensions = map[string]any{}
	}
	op.Extensions[rolesExtension] = rolesOf(op.OperationID)
}

// MsgRoleForbidden refuses a member whose role does not include the
// operation; %s is the role's French name.
const MsgRoleForbidden = "Votre rôle dans cette organisation (%s) ne permet pas cette action : demandez-la à un propriétaire de l'équipe."

// roleRefusal is the refusal of role for an operation, nil when the role
// may call it.
func roleRefusal(operationID, role string) error {
	if slices.Contains(rolesOf(operationID), role) {
		return nil
	}
	return core.Refuse(core.ErrForbidden, fmt.Sprintf(MsgRoleForbidden, accounts.RoleLabel(role)))
}

// requireRole lets through a huma operation only for the roles it states;
// it runs after requireSession, which put the session in the context.
func (d *Daemon) requireRole(ctx huma.Context, next func(huma.Context)) {
	s := currentSession(ctx.Context())
	if err := roleRefusal(ctx.Operation().OperationID, s.Role); err != nil {
		r, w := humago.Unwrap(ctx)
		d.writeError(w, r, err)
		return
	}
	next(ctx)
}

// roleGate is requireRole for a plain route needing a session: a request
// with a live session whose role the operation does not state is refused
// (403) before the handler; one without a session goes on to the handler,
// which answers it.
func (d *Daemon) roleGate(op *huma.Operation, next http.HandlerFunc) http.HandlerFunc {
	if !strings.HasPrefix(op.Path, "/print/") {
		return next
	}
	declareRoles(op)
	return func(w http.ResponseWriter, r *http.Request) {
		token := ""
		if c, err := r.Cookie(d.cookieName(r.Context())); err == nil {
			token = c.Value
		}
		s, err := accounts.SessionOf(r.Context(), d.db, token, d.now())
		if err == nil {
			if err := roleRefusal(op.OperationID, s.Role); err != nil {
				d.writeError(w, r, err)
				return
			}
		}
		next(w, r)
	}
}

// currentSession is the request's session: its person and their role in
// the organisation of currentUser.
func currentSession(ctx context.Context) accounts.Session {
	s, _ := ctx.Value(sessionKey).(accounts.Session)
	return s
}
