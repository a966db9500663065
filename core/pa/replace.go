package pa

import (
	"context"
	"fmt"
	"time"

	"primeur/core"
	"primeur/core/billing"
	"primeur/core/store"
)

// MsgNotRejected refuses the re-issue of an invoice its PA did not reject.
const MsgNotRejected = "Seule une facture rejetée par la plateforme agréée (statut Rejetée ou Irrecevable) est réémise corrigée : " +
	"une facture émise ne change jamais, et une facture refusée par le client se corrige par un avoir."

// Rejected reports whether a PA status makes a document not issued: 213
// Rejetée (the compliance checks failed) or a flow found irrecevable.
func Rejected(status string) bool { return status == StatusRejected || status == StatusIrrecevable }

// Reissue re-issues, in the caller's transaction, the invoice id of
// producerID that its PA rejected — its latest status 213 Rejetée or
// irrecevable, MsgNotRejected (409) otherwise, nothing changed —, as
// billing.Replace does: the corrected invoice under a new number, and the
// internal credit note cancelling the rejected one (PRODUCT §16 "Rejected
// (213) and refused (210)"). The pa job then deposits the replacement, not
// the credit note. This is where the rule of the PA's status meets
// billing's.
func Reissue(ctx context.Context, q store.Q, producerID, id string, now time.Time, loc *time.Location) (billing.Replacement, error) {
	var mine int
	if err := store.Get(ctx, q, &mine, `SELECT COUNT(*) FROM documents WHERE id = ? AND producer_id = ? AND kind = 'invoice'`,
		id, producerID); err != nil {
		return billing.Replacement{}, fmt.Errorf("pa: reissue %s: %w", id, err)
	}
	if mine == 0 {
		return billing.Replacement{}, fmt.Errorf("pa: reissue %s: %w", id, core.ErrNotFound)
	}
	var status []string
	if err := store.Select(ctx, q, &status, `SELECT p.status FROM pa_deposits p WHERE p.document_id = ?`+store.ForUpdateOf(q, "p"),
		id); err != nil {
		return billing.Replacement{}, fmt.Errorf("pa: reissue %s: %w", id, err)
	}
	if len(status) == 0 || !Rejected(status[0]) {
		return billing.Replacement{}, core.Refuse(core.ErrConflict, MsgNotRejected)
	}
	return billing.Replace(ctx, q, producerID, id, now, loc)
}
