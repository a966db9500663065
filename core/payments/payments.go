// Package payments keeps what a shop owes each producer and what it paid
// (PRODUCT §16 "Payments"): the balance of every invoice, complementary
// invoice and credit note, and the payments between the two.
//
// A payment is recorded by the producer, or declared sent by the shop and
// then confirmed (or refused) by the producer; a recorded payment entered
// by mistake is undone, never deleted. Only recorded payments count. Each
// is allocated to the pair's open invoices — those the payer names, else
// the oldest due first — and what no invoice takes is a credit of the
// shop on its account. A credit note reduces the invoice it corrects. All
// amounts are euro cents; every change is one transaction with its event
// in the activity feed.
package payments

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/activity"
	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/store"
)

// Methods of payment.
const (
	Transfer    = "virement"
	Cheque      = "cheque"
	Cash        = "especes"
	DirectDebit = "prelevement"
)

// Methods lists the methods, as the forms offer them.
var Methods = []string{Transfer, Cheque, Cash, DirectDebit}

// Statuses of a payment.
const (
	Declared = "declared"
	Recorded = "recorded"
	Refused  = "refused"
	Undone   = "undone"
)

// Statuses of a document.
const (
	Open    = "issued"
	Partly  = "partly-paid"
	Paid    = "paid"
	Overdue = "overdue"
	// Imputed is a credit note's: it reduces the invoice it corrects.
	Imputed = "imputed"
)

// Largest payment, in cents: 10 million euros.
const maxAmount = 1_000_000_000

// maxReference is the longest reference a payment carries.
const maxReference = 140

// French refusals.
const (
	MsgAmount      = "Le montant doit être positif, en euros et centimes (10 000 000 € au plus)."
	MsgDate        = "Date de paiement invalide."
	MsgFutureDate  = "La date de paiement ne peut pas être dans le futur."
	MsgMethod      = "Choisissez un moyen de paiement : virement, chèque, espèces ou prélèvement."
	MsgReference   = "La référence est trop longue (140 caractères au plus)."
	MsgPartner     = "Aucune facture n'a été émise entre vous et ce partenaire."
	MsgDocument    = "Cette facture n'existe pas ou n'est pas entre vous et ce partenaire."
	MsgDocumentPay = "Seules des factures restant à payer peuvent être réglées."
	MsgNotDeclared = "Ce paiement n'attend pas de confirmation."
	MsgNotRecorded = "Seul un paiement enregistré peut être annulé."
	// MsgDiscountUndo names the escompte's credit note the payment earned.
	MsgDiscountUndo = "Ce paiement a donné droit à l'escompte pour paiement anticipé (avoir %s) : il ne peut plus être annulé."
)

// Input is a payment as its author enters it. Documents, when given, are
// the invoices it pays, in that order; else the pair's oldest due first.
type Input struct {
	PartnerID string
	Amount    decimal.Dec
	PaidOn    string
	Method    string
	Reference string
	Documents []string
}

// Payment is a payment as stored, with its allocations.
type Payment struct {
	ID            string      `db:"id"`
	ProducerID    string      `db:"producer_id"`
	DistributorID string      `db:"distributor_id"`
	Amount        decimal.Dec `db:"amount"`
	PaidOn        string      `db:"paid_on"`
	Method        string      `db:"method"`
	Reference     string      `db:"reference"`
	Status        string      `db:"status"`
	CreatedBy     string      `db:"created_by"`
	CreatedAt     int64       `db:"created_at"`
	UpdatedAt     int64       `db:"updated_at"`
	Allocations   []Allocation
}

// Allocation is the part of a payment that pays one document.
type Allocation struct {
	PaymentID  string      `db:"payment_id"`
	DocumentID string      `db:"document_id"`
	Amount     decimal.Dec `db:"amount"`
}

// Document is an invoice, complementary invoice or credit note with its
// balance.
type Document struct {
	ID string
	// OrderID is the order the document bills.
	OrderID   string
	Kind      string
	Number    string
	IssueDate string
	// DueDate is "" for a credit note.
	DueDate string
	// Total is the amount TTC.
	Total decimal.Dec
	// Credited is what the credit notes of an invoice take off it; Paid,
	// what recorded payments pay of it — their allocations, and what they
	// left on account, applied to the oldest due first (OnAccount of it);
	// Balance what remains to pay (Total − Credited − Paid; negative when
	// more came back than due).
	Credited  decimal.Dec
	Paid      decimal.Dec
	OnAccount decimal.Dec
	Balance   decimal.Dec
	Status    string
	// Refers is the number of the invoice a credit note or complementary
	// invoice corrects.
	Refers string
	// Discount is the escompte the shop may deduct (TTC) from a payment
	// received by DiscountUntil ("YYYY-MM-DD"): billing.DiscountOn of the
	// invoice less its claims' credit notes; 0 and "" when it has none,
	// or once its escompte's credit note is issued.
	Discount      decimal.Dec
	DiscountUntil string
}

// Account is what a shop owes one producer.
type Account struct {
	ProducerID    string
	DistributorID string
	// Documents by due date (credit notes with their invoice's), then
	// number.
	Documents []Document
	// Payments newest first, every status.
	Payments []Payment
	// Owed is the sum of the documents' balances less OnAccount; Overdue
	// the balance of the overdue ones; Declared the payments the shop
	// declared and the producer has not confirmed yet.
	Owed, Overdue, Declared decimal.Dec
	// OnAccount is what recorded payments left over once every document
	// is paid: a credit of the shop, applied to the next documents.
	OnAccount decimal.Dec
	// NextDue is the earliest due date of an open document.
	NextDue string
}

type docRow struct {
	ID            string      `db:"id"`
	OrderID       string      `db:"order_id"`
	Kind          string      `db:"kind"`
	ProducerID    string      `db:"producer_id"`
	DistributorID string      `db:"distributor_id"`
	Number        string      `db:"number"`
	IssueDate     string      `db:"issue_date"`
	DueDate       string      `db:"due_date"`
	Total         decimal.Dec `db:"total_ttc"`
	TotalHT       decimal.Dec `db:"total_ht"`
	VATRate       int64       `db:"vat_rate"`
	Breakdown     string      `db:"vat_breakdown"`
	Discount      int64       `db:"discount"`
	DiscountUntil string      `db:"discount_until"`
	InvoiceID     string      `db:"invoice_id"`
	Refers        string      `db:"refers"`
}

// breakdown is the document's VAT breakdown as issued; a row that holds
// none (never written so since migration 47) is read as one rate.
func (d docRow) breakdown() []billing.RateTotal {
	b, err := billing.DecodeBreakdown(d.Breakdown)
	if err != nil || len(b) == 0 {
		return []billing.RateTotal{{Rate: d.VATRate, Basis: d.TotalHT, VAT: d.Total - d.TotalHT}}
	}
	return b
}

// Accounts returns the accounts of a producer (producerID) or of a shop
// (distributorID) with each partner they have a document with — the one
// account of the pair when both are set, every account of the platform
// when both are empty —, as of today ("YYYY-MM-DD"), in three queries
// whatever their number.
func Accounts(ctx context.Context, q store.Q, producerID, distributorID, today string) ([]Account, error) {
	return accountsWhere(ctx, q, func(alias string) (string, []any) {
		switch {
		case producerID != "" && distributorID != "":
			return alias + "producer_id = ? AND " + alias + "distributor_id = ?", []any{producerID, distributorID}
		case producerID != "":
			return alias + "producer_id = ?", []any{producerID}
		case distributorID != "":
			return alias + "distributor_id = ?", []any{distributorID}
		}
		return alias + "producer_id <> ?", []any{""}
	}, today)
}

// dueSince is the condition of the pairs with an invoice or a
// complementary invoice due on a day from `from` to before `to` (index
// documents_due; a credit note has no due date).
const dueSince = `(ALIAS producer_id, ALIAS distributor_id) IN (
	SELECT producer_id, distributor_id FROM documents WHERE due_date >= ? AND due_date < ?)`

// DueAccounts returns, as Accounts does, the accounts of the pairs with a
// document due on a day from `from` to before today: those the reminders
// job looks at, read without the platform's older accounts.
func DueAccounts(ctx context.Context, q store.Q, from, today string) ([]Account, error) {
	return accountsWhere(ctx, q, func(alias string) (string, []any) {
		return strings.ReplaceAll(dueSince, "ALIAS ", alias), []any{from, today}
	}, today)
}

// accountsWhere reads the accounts of the documents and payments where
// (with a table alias, "", "d." or "p.") selects, as of today.
func accountsWhere(ctx context.Context, q store.Q, where func(alias string) (string, []any), today string) ([]Account, error) {
	cond, args := where("")
	documents, documentArgs := where("d.")
	var docs []docRow
	if err := store.Select(ctx, q, &docs, `SELECT d.id, d.order_id, d.kind, d.producer_id, d.distributor_id, d.number, d.issue_date,
			d.due_date, d.total_ttc, d.total_ht, d.vat_rate, d.vat_breakdown, d.discount, d.discount_until, COALESCE(d.invoice_id, '') AS invoice_id,
			COALESCE(i.number, '') AS refers
		FROM documents d LEFT JOIN documents i ON i.id = d.invoice_id WHERE `+documents+` ORDER BY d.id`, documentArgs...); err != nil {
		return nil, fmt.Errorf("payments: documents: %w", err)
	}
	var pays []Payment
	if err := store.Select(ctx, q, &pays, `SELECT id, producer_id, distributor_id, amount, paid_on, method, reference, status,
		created_by, created_at, updated_at FROM payments WHERE `+cond+` ORDER BY paid_on DESC, created_at DESC`, args...); err != nil {
		return nil, fmt.Errorf("payments: payments: %w", err)
	}
	var allocs []Allocation
	paid, paidArgs := where("p.")
	if err := store.Select(ctx, q, &allocs, `SELECT a.payment_id, a.document_id, a.amount FROM payment_allocations a
		JOIN payments p ON p.id = a.payment_id WHERE `+paid, paidArgs...); err != nil {
		return nil, fmt.Errorf("payments: allocations: %w", err)
	}
	return build(docs, pays, allocs, today), nil
}

// build computes the accounts from their rows.
func build(docs []docRow, pays []Payment, allocs []Allocation, today string) []Account {
	type pair struct{ p, d string }
	accs := map[pair]*Account{}
	var order []pair
	get := func(p, d string) *Account {
		k := pair{p, d}
		if a, ok := accs[k]; ok {
			return a
		}
		accs[k] = &Account{ProducerID: p, DistributorID: d}
		order = append(order, k)
		return accs[k]
	}
	byPayment := map[string][]Allocation{}
	for _, a := range allocs {
		byPayment[a.PaymentID] = append(byPayment[a.PaymentID], a)
	}
	paid := map[string]decimal.Dec{}
	unallocated := map[pair]decimal.Dec{}
	for i := range pays {
		p := &pays[i]
		p.Allocations = byPayment[p.ID]
		acc := get(p.ProducerID, p.DistributorID)
		acc.Payments = append(acc.Payments, *p)
		switch p.Status {
		case Recorded:
			rest := p.Amount
			for _, a := range p.Allocations {
				paid[a.DocumentID] += a.Amount
				rest -= a.Amount
			}
			unallocated[pair{p.ProducerID, p.DistributorID}] += rest
		case Declared:
			acc.Declared += p.Amount
		}
	}
	// What credit notes take off each invoice (TTC), what its claims'
	// take off its amount HT (the escompte's base), and whether its
	// escompte was granted.
	credited, creditedHT, discounted := map[string]decimal.Dec{}, map[string][][]billing.RateTotal{}, map[string]bool{}
	for _, d := range docs {
		switch d.Kind {
		case billing.KindCredit:
			creditedHT[d.InvoiceID] = append(creditedHT[d.InvoiceID], d.breakdown())
		case billing.KindDiscount:
			discounted[d.InvoiceID] = true
		}
		if billing.IsCredit(d.Kind) {
			credited[d.InvoiceID] += d.Total
		}
	}
	for _, d := range docs {
		acc := get(d.ProducerID, d.DistributorID)
		doc := Document{ID: d.ID, OrderID: d.OrderID, Kind: d.Kind, Number: d.Number, IssueDate: d.IssueDate, DueDate: d.DueDate,
			Total: d.Total, Refers: d.Refers}
		if billing.IsCredit(d.Kind) {
			doc.Status, doc.DueDate = Imputed, ""
			acc.Documents = append(acc.Documents, doc)
			continue
		}
		doc.Credited, doc.Paid = credited[d.ID], paid[d.ID]
		// Allocations never pay more than is due: a surplus (two
		// declarations of the same invoice confirmed, a payment allocated
		// before a credit note) goes on account like any overpayment.
		if due := max(doc.Total-doc.Credited, 0); doc.Paid > due {
			unallocated[pair{d.ProducerID, d.DistributorID}] += doc.Paid - due
			doc.Paid = due
		}
		doc.Balance = doc.Total - doc.Credited - doc.Paid
		if d.DiscountUntil != "" && !discounted[d.ID] {
			_, ht, tax := billing.DiscountOn(billing.Remaining(d.breakdown(), creditedHT[d.ID]...), d.Discount)
			doc.Discount, doc.DiscountUntil = ht+tax, d.DiscountUntil
		}
		acc.Documents = append(acc.Documents, doc)
	}
	out := make([]Account, 0, len(order))
	for _, k := range order {
		acc := accs[k]
		slices.SortFunc(acc.Documents, func(a, b Document) int {
			if c := strings.Compare(sortDate(a), sortDate(b)); c != 0 {
				return c
			}
			return strings.Compare(a.Number, b.Number)
		})
		// What payments left on account pays the oldest due first.
		left := unallocated[k]
		for i := range acc.Documents {
			doc := &acc.Documents[i]
			if billing.IsCredit(doc.Kind) {
				continue
			}
			if take := min(left, doc.Balance); take > 0 {
				doc.OnAccount, doc.Paid, doc.Balance = take, doc.Paid+take, doc.Balance-take
				left -= take
			}
			doc.Status = status(*doc, today)
			acc.Owed += doc.Balance
			if doc.Status == Overdue {
				acc.Overdue += doc.Balance
			}
			if doc.Balance > 0 && (acc.NextDue == "" || doc.DueDate < acc.NextDue) {
				acc.NextDue = doc.DueDate
			}
		}
		acc.OnAccount = max(left, 0)
		acc.Owed -= left
		out = append(out, *acc)
	}
	// Overdue first, then the most owed.
	slices.SortStableFunc(out, func(a, b Account) int {
		if (a.Overdue > 0) != (b.Overdue > 0) {
			if a.Overdue > 0 {
				return -1
			}
			return 1
		}
		switch {
		case a.Owed > b.Owed:
			return -1
		case a.Owed < b.Owed:
			return 1
		}
		return 0
	})
	return out
}

// sortDate orders a document: by its due date, a credit note by its issue.
func sortDate(d Document) string {
	if d.DueDate != "" {
		return d.DueDate
	}
	return d.IssueDate
}

// status is a receivable's status as of today.
func status(d Document, today string) string {
	switch {
	case d.Balance <= 0:
		return Paid
	case d.DueDate < today:
		return Overdue
	case d.Balance < d.Total-d.Credited:
		return Partly
	}
	return Open
}

// check validates an input at now, in the business calendar of clock.
func (in Input) check(today string) (Input, error) {
	v := &core.ValidationError{}
	if in.Amount <= 0 || in.Amount > maxAmount {
		v.Add("amount", MsgAmount)
	}
	if d, ok := calendar.ParseDate(in.PaidOn); !ok {
		v.Add("paidOn", MsgDate)
	} else if d.String() > today {
		v.Add("paidOn", MsgFutureDate)
	}
	if !slices.Contains(Methods, in.Method) {
		v.Add("method", MsgMethod)
	}
	in.Reference = strings.TrimSpace(in.Reference)
	if !utf8.ValidString(in.Reference) || utf8.RuneCountInString(in.Reference) > maxReference {
		v.Add("reference", MsgReference)
	}
	return in, v.Err()
}

// Record records a payment the producer received from a shop, allocated
// to the shop's open invoices (in.Documents, else the oldest due first),
// and a payment:record event for the shop.
func Record(ctx context.Context, q store.Q, producer accounts.User, in Input, now time.Time, today string) (Payment, error) {
	return create(ctx, q, producer.ID, in.PartnerID, producer.ID, Recorded, in, now, today)
}

// Declare records a payment the shop says it sent to a producer, to be
// confirmed by the producer, and a payment:declare event for it.
func Declare(ctx context.Context, q store.Q, shop accounts.User, in Input, now time.Time, today string) (Payment, error) {
	return create(ctx, q, in.PartnerID, shop.ID, shop.ID, Declared, in, now, today)
}

func create(ctx context.Context, q store.Q, producerID, shopID, author, status string, in Input, now time.Time, today string) (Payment, error) {
	in, err := in.check(today)
	if err != nil {
		return Payment{}, err
	}
	var n int
	if err := store.Get(ctx, q, &n, `SELECT COUNT(*) FROM documents WHERE producer_id = ? AND distributor_id = ? AND kind = 'invoice'`,
		producerID, shopID); err != nil {
		return Payment{}, fmt.Errorf("payments: pair: %w", err)
	}
	if n == 0 {
		return Payment{}, core.Invalid("partnerId", MsgPartner)
	}
	p := Payment{ID: core.NewID(), ProducerID: producerID, DistributorID: shopID, Amount: in.Amount, PaidOn: in.PaidOn,
		Method: in.Method, Reference: in.Reference, Status: status, CreatedBy: author, CreatedAt: now.UnixMilli(),
		UpdatedAt: now.UnixMilli()}
	// Allocated against the balances before it: once written, a recorded
	// payment's rest is on account and already pays the oldest due.
	if p.Allocations, err = allocate(ctx, q, p, in.Documents, today); err != nil {
		return Payment{}, err
	}
	// person_id: the member who recorded it (teams, activity.WithPerson).
	if _, err := store.Exec(ctx, q, `INSERT INTO payments (id, producer_id, distributor_id, amount, paid_on, method,
		reference, status, created_by, created_at, updated_at, person_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		p.ID, p.ProducerID, p.DistributorID, p.Amount, p.PaidOn, p.Method, p.Reference, p.Status, p.CreatedBy,
		p.CreatedAt, p.UpdatedAt, activity.PersonOf(ctx)); err != nil {
		return Payment{}, fmt.Errorf("payments: insert: %w", err)
	}
	for _, a := range p.Allocations {
		if _, err := store.Exec(ctx, q, `INSERT INTO payment_allocations (payment_id, document_id, amount) VALUES (?, ?, ?)`,
			a.PaymentID, a.DocumentID, a.Amount); err != nil {
			return Payment{}, fmt.Errorf("payments: allocate: %w", err)
		}
	}
	kind, origin, target := activity.PaymentRecord, producerID, shopID
	if status == Declared {
		kind, origin, target = activity.PaymentDeclare, shopID, producerID
	}
	if err := event(ctx, q, kind, p, origin, target, now); err != nil {
		return p, err
	}
	if status == Recorded {
		return p, grantDiscounts(ctx, q, p, now, today)
	}
	return p, nil
}

// grantDiscounts issues the escompte's credit note (billing.IssueDiscount)
// of each invoice a payment that counts pays within its discount window —
// paid on or before its last day — leaving no more than the escompte to
// pay: the shop deducted it, as the invoice offered. A payment that leaves
// more unpaid earns none; one that pays the whole amount was not deducted,
// and the invoice is paid. Called in the payment's transaction once it
// counts: recorded by the producer, or confirmed.
func grantDiscounts(ctx context.Context, q store.Q, p Payment, now time.Time, today string) error {
	if len(p.Allocations) == 0 {
		return nil
	}
	accs, err := Accounts(ctx, q, p.ProducerID, p.DistributorID, today)
	if err != nil {
		return err
	}
	allocated := map[string]bool{}
	for _, a := range p.Allocations {
		allocated[a.DocumentID] = true
	}
	for _, a := range accs {
		for _, d := range a.Documents {
			if !allocated[d.ID] || d.Discount <= 0 || p.PaidOn > d.DiscountUntil || d.Balance <= 0 || d.Balance > d.Discount {
				continue
			}
			if _, err := billing.IssueDiscount(ctx, q, d.ID, p.ID, now, today); err != nil {
				return err
			}
		}
	}
	return nil
}

// allocate splits a payment over the pair's open receivables — those
// named, in that order, else by due date — each up to its balance, and
// stores the allocations. A declared payment is allocated too: its
// allocations count once the producer confirms it.
func allocate(ctx context.Context, q store.Q, p Payment, named []string, today string) ([]Allocation, error) {
	accs, err := Accounts(ctx, q, p.ProducerID, p.DistributorID, today)
	if err != nil {
		return nil, err
	}
	var open []Document
	for _, a := range accs {
		for _, d := range a.Documents {
			if !billing.IsCredit(d.Kind) {
				open = append(open, d)
			}
		}
	}
	if len(named) > 0 {
		byID := map[string]Document{}
		for _, d := range open {
			byID[d.ID] = d
		}
		var chosen []Document
		seen := map[string]bool{}
		for _, id := range named {
			d, ok := byID[id]
			switch {
			case !ok:
				return nil, core.Invalid("documents", MsgDocument)
			case d.Balance <= 0:
				return nil, core.Invalid("documents", MsgDocumentPay)
			case !seen[id]:
				chosen = append(chosen, d)
				seen[id] = true
			}
		}
		open = chosen
	}
	rest := p.Amount
	var out []Allocation
	for _, d := range open {
		if rest == 0 {
			break
		}
		if d.Balance <= 0 {
			continue
		}
		a := Allocation{PaymentID: p.ID, DocumentID: d.ID, Amount: min(rest, d.Balance)}
		out = append(out, a)
		rest -= a.Amount
	}
	return out, nil
}

// lock reads a payment for a change, locked (FOR UPDATE on PostgreSQL),
// or core.ErrNotFound when it is not the user's.
func lock(ctx context.Context, q store.Q, userID, id string) (Payment, error) {
	var p Payment
	err := store.Get(ctx, q, &p, `SELECT id, producer_id, distributor_id, amount, paid_on, method, reference, status,
		created_by, created_at, updated_at FROM payments WHERE id = ? AND (producer_id = ? OR distributor_id = ?)`+store.ForUpdate(q),
		id, userID, userID)
	if store.IsNotFound(err) {
		return p, fmt.Errorf("payments: %s: %w", id, core.ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("payments: %s: %w", id, err)
	}
	return p, nil
}

func setStatus(ctx context.Context, q store.Q, p *Payment, status string, now time.Time) error {
	p.Status, p.UpdatedAt = status, now.UnixMilli()
	if _, err := store.Exec(ctx, q, `UPDATE payments SET status = ?, updated_at = ? WHERE id = ?`, status, p.UpdatedAt, p.ID); err != nil {
		return fmt.Errorf("payments: %s: %w", p.ID, err)
	}
	return nil
}

// Confirm is the producer's answer to a payment the shop declared: it
// counts from now on (accepted: with the escompte it earned, if any), or
// not (refused); a payment:confirm event tells the shop. today is the
// business calendar's date of now.
func Confirm(ctx context.Context, q store.Q, producer accounts.User, id string, accepted bool, now time.Time, today string) (Payment, error) {
	p, err := lock(ctx, q, producer.ID, id)
	if err != nil {
		return p, err
	}
	if p.ProducerID != producer.ID || p.Status != Declared {
		return p, core.Refuse(core.ErrConflict, MsgNotDeclared)
	}
	status := Recorded
	if !accepted {
		status = Refused
	}
	if err := setStatus(ctx, q, &p, status, now); err != nil {
		return p, err
	}
	if err := event(ctx, q, activity.PaymentConfirm, p, producer.ID, p.DistributorID, now, accepted); err != nil {
		return p, err
	}
	if !accepted {
		return p, nil
	}
	if err := store.Select(ctx, q, &p.Allocations, `SELECT payment_id, document_id, amount FROM payment_allocations
		WHERE payment_id = ?`, p.ID); err != nil {
		return p, fmt.Errorf("payments: %s: %w", p.ID, err)
	}
	return p, grantDiscounts(ctx, q, p, now, today)
}

// Undo cancels a recorded payment entered by mistake (the producer), or a
// declaration not confirmed yet (the shop that made it); a payment:undo
// event tells the other side.
func Undo(ctx context.Context, q store.Q, user accounts.User, id string, now time.Time) (Payment, error) {
	p, err := lock(ctx, q, user.ID, id)
	if err != nil {
		return p, err
	}
	mine := (user.ID == p.ProducerID && p.Status == Recorded) || (user.ID == p.DistributorID && p.Status == Declared && p.CreatedBy == user.ID)
	if !mine {
		return p, core.Refuse(core.ErrConflict, MsgNotRecorded)
	}
	var earned []string
	if err := store.Select(ctx, q, &earned, `SELECT number FROM documents WHERE payment_id = ? ORDER BY number`, p.ID); err != nil {
		return p, fmt.Errorf("payments: %s: %w", p.ID, err)
	}
	if len(earned) > 0 {
		// The escompte's credit note is issued, and an issued document
		// never changes: the payment that earned it stays.
		return p, core.Refuse(core.ErrConflict, fmt.Sprintf(MsgDiscountUndo, strings.Join(earned, ", ")))
	}
	if err := setStatus(ctx, q, &p, Undone, now); err != nil {
		return p, err
	}
	target := p.DistributorID
	if user.ID == p.DistributorID {
		target = p.ProducerID
	}
	return p, event(ctx, q, activity.PaymentUndo, p, user.ID, target, now)
}

// event records a payment's event: its amount and date, and the outcome
// of a confirmation.
func event(ctx context.Context, q store.Q, kind string, p Payment, origin, target string, now time.Time, outcome ...bool) error {
	amount := p.Amount
	data := activity.Data{Date: p.PaidOn, Amount: &amount}
	if len(outcome) == 1 {
		data.Outcome = &outcome[0]
	}
	return activity.Record(ctx, q, activity.Event{CreatedAt: now, Type: kind, Data: data, OriginID: origin, TargetID: target})
}
