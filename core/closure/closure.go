// Package closure closes accounts (PRODUCT §13 "Closing an account"): what
// still binds the account to its partners blocks it — deliveries planned,
// commitments of this month or later, claims waiting for an answer, money
// owed either way —; once free, the account is anonymised and can no longer
// log in, while its invoices and credit notes, which store the parties'
// legal details as issued, stay for the legal 10 years.
package closure

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/orders"
	"primeur/core/payments"
	"primeur/core/planning"
	"primeur/core/store"
)

// ClosedName is the name a closed account shows wherever it is named.
const ClosedName = "Compte supprimé"

// MsgBlocked opens the refusal of a closure, followed by what blocks it.
const MsgBlocked = "Votre compte ne peut pas encore être supprimé :"

// Blockers returns, in French, what keeps u's account from being closed
// on today ("YYYY-MM-DD"); none when it can be.
func Blockers(ctx context.Context, q store.Q, u accounts.User, today string) ([]string, error) {
	month := today[:8] + "01"
	var out []string
	count := func(query string, args ...any) (int, error) {
		var n int
		if err := store.Get(ctx, q, &n, query, args...); err != nil {
			return 0, fmt.Errorf("closure: blockers: %w", err)
		}
		return n, nil
	}
	plural := func(n int, one, many string) string {
		if n == 1 {
			return one
		}
		return fmt.Sprintf(many, n)
	}
	n, err := count(`SELECT COUNT(*) FROM deliveries d JOIN orders o ON o.id = d.order_id
		WHERE (o.producer_id = ? OR o.distributor_id = ?) AND d.status = ?`, u.ID, u.ID, orders.Planned)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		out = append(out, plural(n, "une livraison est prévue : faites-la ou annulez-la ;",
			"%d livraisons sont prévues : faites-les ou annulez-les ;"))
	}
	n, err = count(`SELECT COUNT(*) FROM proposals p JOIN needs n ON n.id = p.need_id
		WHERE (p.producer_id = ? OR n.distributor_id = ?) AND p.status = ? AND p.quantity > 0 AND n.month >= ?`,
		u.ID, u.ID, planning.StatusAccepted, month)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		out = append(out, plural(n, "un engagement court ce mois-ci ou après : corrigez-le à 0 avec votre partenaire ;",
			"%d engagements courent ce mois-ci ou après : corrigez-les à 0 avec vos partenaires ;"))
	}
	n, err = count(`SELECT COUNT(*) FROM deliveries d JOIN orders o ON o.id = d.order_id
		WHERE (o.producer_id = ? OR o.distributor_id = ?) AND d.claim_status = ?`, u.ID, u.ID, orders.ClaimSent)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		out = append(out, plural(n, "une réclamation attend une réponse ;", "%d réclamations attendent une réponse ;"))
	}
	producer, shop := "", u.ID
	if u.IsProducer() {
		producer, shop = u.ID, ""
	}
	accs, err := payments.Accounts(ctx, q, producer, shop, today)
	if err != nil {
		return nil, err
	}
	var owed decimal.Dec
	for _, a := range accs {
		for _, d := range a.Documents {
			if d.Balance > 0 {
				owed += d.Balance
			}
		}
	}
	if owed > 0 {
		out = append(out, fmt.Sprintf("%s € de factures restent à payer (À payer, À encaisser) ;",
			strings.Replace(owed.String(), ".", ",", 1)))
	}
	if len(out) > 0 {
		last := out[len(out)-1]
		out[len(out)-1] = strings.TrimSuffix(last, " ;") + "."
	}
	return out, nil
}

// Close closes u's account at now, when nothing blocks it (else a
// core.ErrConflict refusal saying what does): in one transaction, the
// account is anonymised — named ClosedName, its email replaced by one
// of its id on an invalid domain (the address is free for a new account),
// its contact, bank and address details emptied, a password nobody knows
// —, its sessions and reset links deleted, its needs of this month or later
// (none committed) deleted with their proposals, its proposals still open
// on others' needs withdrawn. Issued documents are untouched.
func Close(ctx context.Context, db *store.DB, u accounts.User, now time.Time, loc *time.Location) error {
	today := calendar.DateOf(now.In(loc)).String()
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return fmt.Errorf("closure: %w", err)
	}
	hash, err := accounts.HashPassword(ctx, hex.EncodeToString(secret))
	if err != nil {
		return err
	}
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		// Serialise with trade on the account's row before reading blockers.
		n, err := store.Exec(ctx, tx, `UPDATE users SET updated_at = updated_at WHERE id = ? AND closed_at IS NULL`, u.ID)
		if err != nil {
			return fmt.Errorf("closure: %w", err)
		}
		if n == 0 {
			return nil // closed already
		}
		blockers, err := Blockers(ctx, tx, u, today)
		if err != nil {
			return err
		}
		if len(blockers) > 0 {
			return core.Refuse(core.ErrConflict, MsgBlocked+" "+strings.Join(blockers, " "))
		}
		ms, month := now.UnixMilli(), today[:8]+"01"
		email := "supprime-" + u.ID + "@primeur.invalid"
		if _, err := store.Exec(ctx, tx, `UPDATE users SET name = ?, email = ?, email_key = ?, password_hash = ?,
			capital = '', bic = '', ape = '', iban = '', siret = '', tel = '', tvaintracom = '',
			address_line1 = '', address_line2 = '', address_line3 = '', latitude = '', longitude = '', lat_e6 = NULL, lon_e6 = NULL,
			certification = '', legal = '', email_accounting = '', email_confirmed = '', accounting_confirmed = '',
			billing_address_line1 = '', billing_address_line2 = '', billing_address_line3 = '',
			closed_at = ?, updated_at = ? WHERE id = ?`,
			ClosedName, email, email, hash, ms, ms, u.ID); err != nil {
			return fmt.Errorf("closure: anonymise: %w", err)
		}
		// Its founder's login goes with it (accounts.SyncFounder); its
		// members lose their access, their own logins stay (issue 41).
		if err := accounts.SyncFounder(ctx, tx, u.ID); err != nil {
			return err
		}
		for _, q := range []string{
			`UPDATE people SET name = '` + ClosedName + `', closed_at = updated_at WHERE id = ?`,
			`DELETE FROM members WHERE org_id = ?`,
			`DELETE FROM members WHERE person_id = ?`,
			`DELETE FROM invitations WHERE org_id = ?`,
			`DELETE FROM sessions WHERE user_id = ?`,
			`DELETE FROM sessions WHERE person_id = ?`,
			`DELETE FROM password_resets WHERE user_id = ?`,
			`DELETE FROM email_confirmations WHERE user_id = ?`,
			`DELETE FROM notifications WHERE user_id = ? AND digest_id IS NULL`,
			`DELETE FROM proposals WHERE status <> 'accepted' AND need_id IN (SELECT id FROM needs WHERE distributor_id = ? AND month >= ?)`,
			// Needs a delivery or an ended commitment refers to stay.
			`DELETE FROM needs WHERE distributor_id = ? AND month >= ?
				AND NOT EXISTS (SELECT 1 FROM proposals p WHERE p.need_id = needs.id)
				AND NOT EXISTS (SELECT 1 FROM delivery_lines l WHERE l.need_id = needs.id)`,
			`DELETE FROM proposals WHERE producer_id = ? AND status <> 'accepted' AND need_id IN (SELECT id FROM needs WHERE month >= ?)`,
		} {
			args := []any{u.ID}
			if strings.Contains(q, "month") {
				args = append(args, month)
			}
			if _, err := store.Exec(ctx, tx, q, args...); err != nil {
				return fmt.Errorf("closure: %w", err)
			}
		}
		return nil
	})
}
