package billing

import (
	"context"
	"fmt"
	"strings"
	"time"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/facturx"
	"primeur/core/orders"
	"primeur/core/store"
)

// French refusals of Replace (409).
const (
	MsgReplaced    = "Cette facture est déjà remplacée par la facture "
	MsgReplacePaid = "Un paiement est imputé sur cette facture : annulez d'abord ce paiement, émettez la facture corrigée, " +
		"puis enregistrez le paiement à nouveau."
	MsgReplaceRefers = "Des documents se rapportent à cette facture ("
)

// Replacement is what Replace issued: the corrected invoice and the
// internal credit note cancelling the rejected one.
type Replacement struct {
	Invoice Invoice
	Credit  Invoice
}

// ReplacementNote is the mention a corrected invoice carries, naming the
// rejected invoice it replaces.
func ReplacementNote(rejected string) string {
	return "Facture corrigée, émise en remplacement de la facture " + rejected +
		", rejetée par la plateforme agréée et réputée non émise."
}

// CancelTerms is the payment mention of an internal credit note: nothing
// is due on the rejected invoice nor refunded.
func CancelTerms(rejected, replacement string) string {
	return "Avoir interne annulant dans les comptes du vendeur la facture " + rejected +
		", rejetée par la plateforme agréée et réputée non émise, remplacée par la facture " + replacement +
		" : rien n'est dû au titre de la facture rejetée, rien n'est remboursé. Non transmis à la plateforme agréée."
}

// Replace re-issues, in the caller's transaction, the monthly invoice
// rejectedID of producerID that its PA rejected (the caller, core/pa,
// checks the status: 213 Rejetée or irrecevable): such an invoice is
// deemed not issued, and a corrected one replaces it under a new number
// of the producer's sequence (PRODUCT §16 "Rejected (213) and refused
// (210)"). In one transaction:
//
//   - the replacement is composed from the order's done deliveries and
//     both parties' profiles as they are now — what the producer or the
//     shop corrected —, numbered next in the FA series, with
//     ReplacementNote;
//   - an internal credit note (Internal, never deposited on a PA) cancels
//     the rejected invoice in the producer's books, its lines and totals
//     the rejected invoice's, numbered next in the AV series: every
//     reader that sums documents (payments, reminders, transfers, the
//     accounting export) counts the order's amount once;
//   - the rejected invoice is marked replaced (documents.replaced_by,
//     migration 67); nothing else of it changes, its number stays used.
//
// Refused (409, nothing changed): an invoice already replaced, one a
// payment is allocated to, one that other documents refer to (a claim's
// credit note or complementary invoice, an escompte's credit note). Not
// the producer's, or not an invoice: core.ErrNotFound. The order row is
// locked first, as Issue does.
func Replace(ctx context.Context, q store.Q, producerID, rejectedID string, now time.Time, loc *time.Location) (Replacement, error) {
	var head struct {
		OrderID    string  `db:"order_id"`
		ReplacedBy *string `db:"replaced_by"`
	}
	err := store.Get(ctx, q, &head, `SELECT order_id, replaced_by FROM documents WHERE id = ? AND kind = 'invoice' AND producer_id = ?`,
		rejectedID, producerID)
	if store.IsNotFound(err) {
		return Replacement{}, fmt.Errorf("billing: replace %s: %w", rejectedID, core.ErrNotFound)
	}
	if err != nil {
		return Replacement{}, fmt.Errorf("billing: replace %s: %w", rejectedID, err)
	}
	var o orders.Order
	if err := store.Get(ctx, q, &o, `SELECT id, producer_id, distributor_id, month, created_at, updated_at
		FROM orders WHERE id = ?`+store.ForUpdate(q), head.OrderID); err != nil {
		return Replacement{}, fmt.Errorf("billing: lock order %s: %w", head.OrderID, err)
	}
	old, err := Get(ctx, q, rejectedID)
	if err != nil {
		return Replacement{}, err
	}
	if err := replaceable(ctx, q, rejectedID); err != nil {
		return Replacement{}, err
	}
	inv, err := compose(ctx, q, o, now, loc)
	if err != nil {
		return Replacement{}, err
	}
	if inv.Seq, err = store.Next(ctx, q, counterKey(o.ProducerID, inv.Year)); err != nil {
		return Replacement{}, fmt.Errorf("billing: number: %w", err)
	}
	inv.Number = Number(inv.Year, inv.Seq)
	inv.Terms = append(inv.Terms, Term{facturx.NoteGeneral, ReplacementNote(old.Number)})
	// The rejected invoice leaves the order's one live invoice first, so
	// that the replacement takes its place (documents_invoice_of_order).
	if _, err := store.Exec(ctx, q, `UPDATE documents SET replaced_by = ? WHERE id = ? AND replaced_by IS NULL`, inv.ID, old.ID); err != nil {
		return Replacement{}, fmt.Errorf("billing: mark %s replaced: %w", old.Number, err)
	}
	if err := insert(ctx, q, inv); err != nil {
		return Replacement{}, err
	}
	cn, err := cancelling(ctx, q, old, inv, now, loc)
	if err != nil {
		return Replacement{}, err
	}
	if _, err := SettleOrder(ctx, q, o.ID, now, loc); err != nil {
		return Replacement{}, err
	}
	return Replacement{Invoice: inv, Credit: cn}, nil
}

// replaceable refuses, with its French message, an invoice that cannot be
// replaced: replaced already, paid in part, or referred to.
func replaceable(ctx context.Context, q store.Q, id string) error {
	var by []string
	if err := store.Select(ctx, q, &by, `SELECT r.number FROM documents d JOIN documents r ON r.id = d.replaced_by WHERE d.id = ?`, id); err != nil {
		return fmt.Errorf("billing: replaced %s: %w", id, err)
	}
	if len(by) > 0 {
		return core.Refuse(core.ErrConflict, MsgReplaced+by[0]+".")
	}
	var paid int
	// Allocations of payments that count (recorded, or declared and not
	// answered yet); an undone or refused one's stay, and do not.
	if err := store.Get(ctx, q, &paid, `SELECT COUNT(*) FROM payment_allocations a JOIN payments p ON p.id = a.payment_id
		WHERE a.document_id = ? AND p.status IN ('recorded', 'declared')`, id); err != nil {
		return fmt.Errorf("billing: payments of %s: %w", id, err)
	}
	if paid > 0 {
		return core.Refuse(core.ErrConflict, MsgReplacePaid)
	}
	var refers []string
	if err := store.Select(ctx, q, &refers, `SELECT number FROM documents WHERE invoice_id = ? ORDER BY number`, id); err != nil {
		return fmt.Errorf("billing: documents of %s: %w", id, err)
	}
	if len(refers) > 0 {
		return core.Refuse(core.ErrConflict, MsgReplaceRefers+strings.Join(refers, ", ")+
			") : sa correction demande un administrateur, qui annule aussi ces documents.")
	}
	return nil
}

// cancelling issues the internal credit note of the rejected invoice old,
// replaced by inv: old's parties, lines and VAT, numbered in the AV
// series.
func cancelling(ctx context.Context, q store.Q, old, inv Invoice, now time.Time, loc *time.Location) (Invoice, error) {
	return internalCredit(ctx, q, old, old.Lines, CancelTerms(old.Number, inv.Number), now, loc)
}

// internalCredit issues an internal credit note of invoice old, of lines
// (old's, or what is left of them), its payment mention payment.
func internalCredit(ctx context.Context, q store.Q, old Invoice, lines []Line, payment string, now time.Time, loc *time.Location) (Invoice, error) {
	local := now.In(loc)
	cn := Invoice{
		ID: core.NewID(), Kind: KindCredit, Internal: true, OrderID: old.OrderID, ProducerID: old.ProducerID,
		DistributorID: old.DistributorID, Month: old.Month, Year: local.Year(), IssuedAt: now,
		IssueDate: calendar.DateOf(local).String(), Seller: old.Seller, Buyer: old.Buyer, Notes: old.Notes,
		VATRate: old.VATRate, VATExempt: old.VATExempt, VATRegime: old.Regime(),
		Refers: &Reference{InvoiceID: old.ID, Number: old.Number, Date: old.IssueDate},
	}
	for _, l := range lines {
		l.Reason = Reason{}
		l.Position = len(cn.Lines) + 1
		cn.Lines = append(cn.Lines, l)
	}
	producer, err := accounts.ByID(ctx, q, old.ProducerID)
	if err != nil {
		return cn, err
	}
	cn.Total()
	cn.Terms = Terms(cn, producer.Terms())
	for i, t := range cn.Terms {
		if t.Subject == SubjectPayment {
			cn.Terms[i].Text = payment
		}
	}
	if cn.Seq, err = store.Next(ctx, q, creditKey(cn.ProducerID, cn.Year)); err != nil {
		return cn, fmt.Errorf("billing: credit number: %w", err)
	}
	cn.Number = CreditNumber(cn.Year, cn.Seq)
	return cn, insert(ctx, q, cn)
}
