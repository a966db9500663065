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
	status, err := statusOfInvoice(ctx, q, producerID, id)
	if err != nil {
		return billing.Replacement{}, err
	}
	if !Rejected(status) {
		return billing.Replacement{}, core.Refuse(core.ErrConflict, MsgNotRejected)
	}
	return billing.Replace(ctx, q, producerID, id, now, loc)
}

// MsgNotRefused refuses the cancellation of an invoice the buyer did not
// refuse.
const MsgNotRefused = "Seule une facture refusée par le client sur sa plateforme agréée (statut Refusée) s'annule ici par un avoir ; " +
	"une facture rejetée par la plateforme se réémet corrigée."

// CancelRefused issues, in the caller's transaction, the internal credit
// note cancelling the invoice id of producerID that the buyer refused —
// its latest status 210 Refusée, MsgNotRefused (409) otherwise, nothing
// changed —, as billing.Cancel does, whatever the claims' window.
func CancelRefused(ctx context.Context, q store.Q, producerID, id string, now time.Time, loc *time.Location) (billing.Invoice, error) {
	status, err := statusOfInvoice(ctx, q, producerID, id)
	if err != nil {
		return billing.Invoice{}, err
	}
	if status != StatusRefused {
		return billing.Invoice{}, core.Refuse(core.ErrConflict, MsgNotRefused)
	}
	return billing.Cancel(ctx, q, producerID, id, now, loc)
}

// statusOfInvoice is the latest PA status of producerID's invoice id ("":
// not deposited), its deposit row locked; core.ErrNotFound for a document
// that is not the producer's invoice.
func statusOfInvoice(ctx context.Context, q store.Q, producerID, id string) (string, error) {
	var mine int
	if err := store.Get(ctx, q, &mine, `SELECT COUNT(*) FROM documents WHERE id = ? AND producer_id = ? AND kind = 'invoice'`,
		id, producerID); err != nil {
		return "", fmt.Errorf("pa: invoice %s: %w", id, err)
	}
	if mine == 0 {
		return "", fmt.Errorf("pa: invoice %s: %w", id, core.ErrNotFound)
	}
	var status []string
	if err := store.Select(ctx, q, &status, `SELECT p.status FROM pa_deposits p WHERE p.document_id = ?`+store.ForUpdateOf(q, "p"),
		id); err != nil {
		return "", fmt.Errorf("pa: invoice %s: %w", id, err)
	}
	if len(status) == 0 {
		return "", nil
	}
	return status[0], nil
}
