package accounts

import (
	"context"
	"fmt"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/store"
)

// Bank details (PRODUCT §13 "Changing the bank details", docs/SECURITY.md
// "Payment redirection"). A session alone must not redirect what shops pay:
// changing the IBAN or the BIC — setting, replacing or clearing either —
// needs the account's current password in the same request, checked and
// throttled as a login attempt; the account's confirmed address is then
// emailed (the daemon), and for IBANNoticeFor the shops preparing a
// transfer to the producer read when its IBAN changed.

// FieldCurrentPassword is the field of the profile update carrying the
// current password, where its refusals are reported.
const FieldCurrentPassword = "currentPassword"

// MsgBankPassword asks for the password that a change of IBAN or BIC needs;
// a wrong one is MsgCurrentWrong.
const MsgBankPassword = "Pour modifier l'IBAN ou le BIC, saisissez votre mot de passe actuel."

// IBANNoticeFor is how long after a change of a producer's IBAN the shops
// preparing a transfer to it are told (GET /api/payments, ibanChangedOn).
const IBANNoticeFor = 30 * 24 * time.Hour

// changesBank reports whether p, normalized, changes u's IBAN or BIC.
func (p ProfileUpdate) changesBank(u User) bool {
	return p.IBAN != nil && *p.IBAN != u.IBAN || p.BIC != nil && *p.BIC != u.BIC
}

// BankChanged reports whether the bank details differ between before and
// after, two states of one account: what the daemon emails about.
func BankChanged(before, after User) bool {
	return before.IBAN != after.IBAN || before.BIC != after.BIC
}

// CheckBankChange prepares p, u's profile update, before the transaction
// that stores it: when p changes u's IBAN or BIC, current must be u's
// password — checked as ChangePassword checks it, throttled as a login
// attempt from client, the hash computed with no transaction open —, and
// the update returned carries the proof UpdateProfile asks for. The fields
// are checked first, so that an update refused for them costs no attempt;
// without a change of bank details, current is not looked at. A missing
// password is MsgBankPassword, a wrong one MsgCurrentWrong, both on
// FieldCurrentPassword, and refuse the whole update.
func CheckBankChange(ctx context.Context, db *store.DB, u User, p ProfileUpdate, current, client string, now time.Time) (ProfileUpdate, error) {
	n, err := p.prepare(u)
	if err != nil {
		return p, err
	}
	if !n.changesBank(u) {
		return p, nil
	}
	if current == "" {
		return p, core.Invalid(FieldCurrentPassword, MsgBankPassword)
	}
	if err := verifyPassword(ctx, db, u, FieldCurrentPassword, current, client, now); err != nil {
		return p, err
	}
	p.bankVerified = true
	return p, nil
}

// recordIBANChange stores when u's IBAN changed, in the profile update's
// transaction.
func recordIBANChange(ctx context.Context, q store.Q, userID string, now time.Time) error {
	if _, err := store.Exec(ctx, q, `UPDATE users SET iban_changed_at = ? WHERE id = ?`, now.UnixMilli(), userID); err != nil {
		return fmt.Errorf("accounts: record IBAN change: %w", err)
	}
	return nil
}

// IBANChanges returns, of the accounts ids, those whose IBAN changed at
// since or later, with the time of the change (Unix milliseconds).
func IBANChanges(ctx context.Context, q store.Q, ids []string, since time.Time) (map[string]int64, error) {
	out := map[string]int64{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ID string `db:"id"`
		At int64  `db:"iban_changed_at"`
	}
	if err := store.SelectIn(ctx, q, &rows, `SELECT id, iban_changed_at FROM users
		WHERE id IN (?) AND iban_changed_at >= ?`, ids, since.UnixMilli()); err != nil {
		return nil, fmt.Errorf("accounts: IBAN changes: %w", err)
	}
	for _, r := range rows {
		out[r.ID] = r.At
	}
	return out, nil
}

// MaskIBAN hides an IBAN but for its last 4 characters, grouped by 4 as
// IBANs are printed: "**** **** **** **** **** ***0 189" — what the email
// telling of a change shows. An IBAN of 4 characters or fewer is all
// hidden.
func MaskIBAN(iban string) string {
	iban = compactID(iban)
	keep := 4
	if len(iban) <= keep {
		keep = 0
	}
	masked := strings.Repeat("*", len(iban)-keep) + iban[len(iban)-keep:]
	var b strings.Builder
	for i := 0; i < len(masked); i += 4 {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(masked[i:min(i+4, len(masked))])
	}
	return b.String()
}
