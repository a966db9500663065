package daemon

import (
	"context"
	"math"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/pa"
	"primeur/core/payments"
	"primeur/core/store"
)

// DocumentView is an invoice, complementary invoice or credit note with its
// balance, as the payment screens show it.
type DocumentView struct {
	ID        string      `json:"_id"`
	Kind      string      `json:"kind" enum:"invoice,complement,credit,discount" doc:"discount: the credit note of an escompte"`
	Number    string      `json:"number" example:"FA-2026-000001"`
	IssueDate string      `json:"issueDate" doc:"YYYY-MM-DD"`
	DueDate   string      `json:"dueDate,omitempty" doc:"YYYY-MM-DD; absent for a credit note"`
	Total     decimal.Dec `json:"total" doc:"Amount TTC, EUR"`
	Credited  decimal.Dec `json:"credited" doc:"Taken off by the invoice's credit notes, EUR"`
	Paid      decimal.Dec `json:"paid" doc:"Paid by recorded payments, EUR: their allocations, and what they left on account applied to the oldest due first"`
	Balance   decimal.Dec `json:"balance" doc:"Left to pay, EUR (negative: more came back than was due)"`
	Status    string      `json:"status" enum:"issued,partly-paid,paid,overdue,imputed"`
	Refers    string      `json:"refers,omitempty" doc:"The invoice a credit note or complementary invoice corrects"`
	Path      string      `json:"path" doc:"Where its Factur-X PDF is downloaded"`
	// Discount is the escompte still open on an invoice.
	Discount      decimal.Dec `json:"discount,omitempty" doc:"The escompte, EUR, the shop may deduct from a payment received by discountUntil (PRODUCT §16 \"Escompte\"); absent when none is open"`
	DiscountUntil string      `json:"discountUntil,omitempty" doc:"YYYY-MM-DD: the last day of the escompte's window"`
	// PA is where the document stands on the producer's approved platform.
	PA *DocumentPAView `json:"pa,omitempty" doc:"Its deposit on the producer's approved platform and its lifecycle statuses (PRODUCT §16 \"Electronic invoicing through an approved platform\"); absent when it was not taken up for a deposit"`
}

// DocumentPAView is a document's deposit and lifecycle on the PA.
type DocumentPAView struct {
	Status      string         `json:"status" doc:"The latest status: submitted, irrecevable, or a lifecycle code 200-213, 220; empty while its deposit failed"`
	Label       string         `json:"label" doc:"In French: Transmise, Déposée, Rejetée, Refusée, Encaissée…"`
	At          string         `json:"at,omitempty" doc:"RFC 3339: when the latest status was set"`
	ReasonCode  string         `json:"reasonCode,omitempty" doc:"The motive's code of a rejection or refusal"`
	Reason      string         `json:"reason,omitempty" doc:"The motive, in French when the standard names it"`
	Error       string         `json:"error,omitempty" doc:"Producers: why its deposit failed (tried again later)"`
	Directory   string         `json:"directory,omitempty" doc:"In French, when the producer's PA directory has no receiving line for the buyer: why the invoice may not arrive (producer), what to do (shop)"`
	ReplacedBy  string         `json:"replacedBy,omitempty" doc:"A rejected invoice re-issued corrected: the number of the invoice that replaces it (PRODUCT §16 \"Rejected (213) and refused (210)\"); absent otherwise"`
	CancelledBy string         `json:"cancelledBy,omitempty" doc:"The internal credit note cancelling the invoice in the producer's books (a rejected invoice re-issued, or one the buyer refused); absent otherwise"`
	History     []PAStatusView `json:"history"`
}

// PAStatusView is one status of a document's history.
type PAStatusView struct {
	Status     string `json:"status"`
	Label      string `json:"label"`
	ReasonCode string `json:"reasonCode,omitempty"`
	Reason     string `json:"reason,omitempty"`
	At         string `json:"at" doc:"RFC 3339"`
}

// PaymentView is a payment between the two.
type PaymentView struct {
	ID          string                  `json:"_id"`
	Amount      decimal.Dec             `json:"amount" doc:"EUR"`
	PaidOn      string                  `json:"paidOn" doc:"YYYY-MM-DD"`
	Method      string                  `json:"method" enum:"virement,cheque,especes,prelevement"`
	Reference   string                  `json:"reference"`
	Status      string                  `json:"status" enum:"declared,recorded,refused,undone"`
	ByShop      bool                    `json:"byShop" doc:"true when the shop declared it"`
	CreatedAt   string                  `json:"createdAt" doc:"RFC 3339"`
	Allocations []PaymentAllocationView `json:"allocations"`
}

// PaymentAllocationView is the part of a payment paying one document.
type PaymentAllocationView struct {
	DocumentID string      `json:"documentId"`
	Amount     decimal.Dec `json:"amount" doc:"EUR"`
}

// AccountView is what a shop owes one producer, as either sees it.
type AccountView struct {
	PartnerID   string         `json:"partnerId" doc:"The shop (for a producer) or the producer (for a shop)"`
	PartnerName string         `json:"partnerName"`
	Owed        decimal.Dec    `json:"owed" doc:"Left to pay in all, EUR, less what payments left on account"`
	OnAccount   decimal.Dec    `json:"onAccount" doc:"What recorded payments left over once every document is paid: the shop's credit, applied to the next documents, EUR"`
	Overdue     decimal.Dec    `json:"overdue" doc:"Left to pay on overdue documents, EUR"`
	Declared    decimal.Dec    `json:"declared" doc:"Declared by the shop, not confirmed yet, EUR"`
	NextDue     string         `json:"nextDue,omitempty" doc:"Earliest due date of an open document"`
	Reminders   bool           `json:"reminders" doc:"Whether the reminders job reminds this shop of its overdue invoices to this producer"`
	Penalties   decimal.Dec    `json:"penalties" doc:"Producers: the late-payment penalties it may claim as of today, EUR (information; never added to what is owed)"`
	Indemnities decimal.Dec    `json:"indemnities" doc:"Producers: the 40 € recovery indemnities it may claim, one per invoice paid late or still overdue, EUR (information)"`
	Late        []PenaltyView  `json:"late" doc:"Producers: the invoices paid late or still overdue, with the penalties of each period and the indemnity (Penalties and Indemnities are their sums); empty for a shop"`
	Documents   []DocumentView `json:"documents" doc:"Every document not settled (overdue included) with the credit notes reducing it, and the settled ones issued in the current month and the two before it (issue 42); the older ones come from get-payments-history"`
	Payments    []PaymentView  `json:"payments" doc:"The payments of the current month and the two before it, and every one still to confirm; the older ones come from get-payments-history"`

	// OlderDocuments, OlderPayments and OlderBefore say what the lists
	// leave out (payments.Recent).
	OlderDocuments int    `json:"olderDocuments,omitempty" doc:"How many settled documents issued before olderBefore are not listed; absent when none"`
	OlderPayments  int    `json:"olderPayments,omitempty" doc:"How many payments of before olderBefore are not listed; absent when none"`
	OlderBefore    string `json:"olderBefore,omitempty" doc:"YYYY-MM-DD: the day the rows not listed are dated before, the first page's before of get-payments-history; absent when none"`

	// IBANChangedOn tells a shop that the producer's IBAN changed lately
	// (accounts.IBANNoticeFor).
	IBANChangedOn string `json:"ibanChangedOn,omitempty" doc:"Shops: the day the producer's IBAN changed, YYYY-MM-DD, when within the last 30 days: to check with the producer before paying by transfer (PRODUCT §16 \"Payments\"); absent otherwise"`

	// FlatRate lists the buyer's documents of the flat-rate refund
	// (flatrate.go).
	FlatRate *FlatRateView `json:"flatRate,omitempty" doc:"When the producer sells (or sold) under the agricultural flat-rate refund: the shop's purchase slips and yearly certificates (PRODUCT §16 \"Buyer's documents under the flat-rate refund\"); absent otherwise"`
}

// PenaltyView is what a producer may claim of one invoice paid late or
// still overdue (payments.Penalties).
type PenaltyView struct {
	DocumentID string              `json:"documentId"`
	Number     string              `json:"number" example:"FA-2026-000001"`
	DueDate    string              `json:"dueDate" doc:"YYYY-MM-DD"`
	PaidOff    string              `json:"paidOff,omitempty" doc:"The day what was left of it was paid, late, YYYY-MM-DD; absent while something is left to pay"`
	Days       int                 `json:"days" doc:"Days late, up to the day it was paid off or today"`
	Penalty    decimal.Dec         `json:"penalty" doc:"The sum of its periods' penalties, EUR"`
	Indemnity  decimal.Dec         `json:"indemnity" doc:"The recovery indemnity of art. D441-5, EUR"`
	Periods    []PenaltyPeriodView `json:"periods"`
}

// PenaltyPeriodView is a stretch of days an invoice was late at one
// balance and one rate.
type PenaltyPeriodView struct {
	From       string      `json:"from" doc:"First day late of the period, YYYY-MM-DD"`
	To         string      `json:"to" doc:"Last day of the period, YYYY-MM-DD"`
	Days       int         `json:"days"`
	Balance    decimal.Dec `json:"balance" doc:"Left to pay during the period, EUR"`
	ECBRate    decimal.Dec `json:"ecbRate" doc:"The ECB's main refinancing rate of the period's semester, percent"`
	Rate       decimal.Dec `json:"rate" doc:"The penalty rate, ecbRate plus 10 points, percent"`
	RateListed bool        `json:"rateListed" doc:"false when the semester's ECB rate is not set (payments.ecb-rates) and an earlier one's is carried"`
	Penalty    decimal.Dec `json:"penalty" doc:"balance × rate × days / 365, EUR"`
}

// PaymentsOutput answers the payment operations: the user's accounts,
// overdue first.
type PaymentsOutput struct {
	Body struct {
		Accounts []AccountView `json:"accounts"`
		Today    string        `json:"today" doc:"The day balances are computed for, YYYY-MM-DD (Europe/Paris)"`
	}
}

// PaymentBody is a payment as its author enters it.
type PaymentBody struct {
	PartnerID string   `json:"partnerId" required:"false" maxLength:"100" doc:"The shop (producers recording) or the producer (shops declaring)"`
	Amount    float64  `json:"amount" required:"false" doc:"EUR, two decimals at most" example:"125.40"`
	PaidOn    string   `json:"paidOn" required:"false" maxLength:"40" doc:"YYYY-MM-DD, today at the latest"`
	Method    string   `json:"method" required:"false" maxLength:"20" doc:"virement, cheque, especes or prelevement"`
	Reference string   `json:"reference,omitempty" maxLength:"1000" doc:"Optional: the transfer's or cheque's reference (140 characters at most)"`
	Documents []string `json:"documents,omitempty" maxItems:"500" doc:"Invoices it pays, in that order; absent: the oldest due first"`
}

// PaymentInput records or declares a payment.
type PaymentInput struct {
	Body PaymentBody
}

// PaymentPath names a payment.
type PaymentPath struct {
	ID string `path:"paymentId" maxLength:"100" doc:"Payment id"`
}

// ConfirmPaymentInput is the producer's answer to a declared payment.
type ConfirmPaymentInput struct {
	PaymentPath
	Body struct {
		Accepted *bool `json:"accepted" required:"true" nullable:"false" doc:"true: the payment arrived and counts; false: refused"`
	}
}

// RemindersInput turns a shop's reminders on or off.
type RemindersInput struct {
	ShopID string `path:"shopId" maxLength:"100" doc:"The shop"`
	Body   struct {
		Enabled *bool `json:"enabled" required:"true" nullable:"false" doc:"true: the reminders job reminds the shop of its overdue invoices"`
	}
}

func (d *Daemon) registerPayments(api huma.API) {
	tags := []string{"Payments"}
	errs := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity}
	huma.Register(api, huma.Operation{
		OperationID: "get-payments", Method: http.MethodGet, Path: "/payments", Tags: tags,
		Summary: "What is owed and paid, per partner (À payer, À encaisser)",
		Description: "For a shop, per producer; for a producer, per shop: every invoice, complementary invoice and " +
			"credit note with its balance and status (overdue first), and the payments between the two (PRODUCT §16 \"Payments\").",
		Errors: []int{http.StatusUnauthorized},
	}, d.getPayments)
	huma.Register(api, huma.Operation{
		OperationID: "get-payments-history", Method: http.MethodGet, Path: "/payments/{partnerId}/history", Tags: tags,
		Summary: "The older settled documents and payments of one account, a page at a time",
		Description: "What get-payments does not list of the account with a partner (the shop for a producer, the producer " +
			"for a shop): its settled documents and its payments dated before `before`, most recent first, about " +
			"50 rows a page, never splitting a day. The first page's `before` is the account's olderBefore, the next " +
			"one's the page's `before`, until `more` is false (PRODUCT §16 \"Payments\", issue 42). A partner the user " +
			"has no document with is not found (404); a `before` that is not a day is refused (422).",
		Errors: []int{http.StatusUnauthorized, http.StatusNotFound, http.StatusUnprocessableEntity},
	}, d.getPaymentsHistory)
	huma.Register(api, huma.Operation{
		OperationID: "record-payment", Method: http.MethodPost, Path: "/payments", Tags: tags,
		Summary:     "Record a payment received (producers)",
		Description: "Allocated to the invoices named, else to the shop's oldest due first; what is left is a credit on account. Records payment:record. Answers the accounts.",
		Errors:      errs,
	}, d.recordPayment)
	huma.Register(api, huma.Operation{
		OperationID: "declare-payment", Method: http.MethodPost, Path: "/payments/declare", Tags: tags,
		Summary:     "Declare a payment sent (shops)",
		Description: "It counts once the producer confirms it. Records payment:declare. Answers the accounts.",
		Errors:      errs,
	}, d.declarePayment)
	huma.Register(api, huma.Operation{
		OperationID: "confirm-payment", Method: http.MethodPut, Path: "/payments/{paymentId}/confirm", Tags: tags,
		Summary:     "Confirm or refuse a declared payment (producers)",
		Description: "Records payment:confirm. Answers the accounts.",
		Errors:      errs,
	}, d.confirmPayment)
	huma.Register(api, huma.Operation{
		OperationID: "undo-payment", Method: http.MethodPut, Path: "/payments/{paymentId}/undo", Tags: tags,
		Summary:     "Undo a payment entered by mistake",
		Description: "The producer undoes a recorded payment; the shop withdraws a declaration not confirmed yet. It stays listed as undone. Records payment:undo. Answers the accounts.",
		Errors:      errs,
	}, d.undoPayment)
	huma.Register(api, huma.Operation{
		OperationID: "set-reminders", Method: http.MethodPut, Path: "/reminders/{shopId}", Tags: tags,
		Summary:     "Turn the reminders of a shop on or off (producers)",
		Description: "For a shop the producer has invoiced. Answers the accounts.",
		Errors:      errs,
	}, d.setReminders)
}

func (d *Daemon) setReminders(ctx context.Context, in *RemindersInput) (*PaymentsOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	return d.paymentTx(ctx, u, func(tx *sqlx.Tx, _ time.Time) error {
		var n int
		if err := store.Get(ctx, tx, &n, `SELECT COUNT(*) FROM documents WHERE producer_id = ? AND distributor_id = ? AND kind = 'invoice'`, u.ID, in.ShopID); err != nil {
			return err
		}
		if n == 0 {
			return core.ErrNotFound
		}
		return payments.SetReminders(ctx, tx, u.ID, in.ShopID, *in.Body.Enabled)
	})
}

func (d *Daemon) today() string { return calendar.DateOf(d.now()).String() }

// accountsOf answers the accounts of u, read with q.
func (d *Daemon) accountsOf(ctx context.Context, q store.Q, u accounts.User) (*PaymentsOutput, error) {
	producer, shop := u.ID, ""
	if !u.IsProducer() {
		producer, shop = "", u.ID
	}
	today := d.today()
	accs, err := payments.Accounts(ctx, q, producer, shop, today)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(accs))
	for i, a := range accs {
		ids[i] = a.DistributorID
		if !u.IsProducer() {
			ids[i] = a.ProducerID
		}
	}
	names := map[string]string{}
	if len(ids) > 0 {
		var rows []struct {
			ID   string `db:"id"`
			Name string `db:"name"`
		}
		if err := store.SelectIn(ctx, q, &rows, `SELECT id, name FROM users WHERE id IN (?)`, ids); err != nil {
			return nil, err
		}
		for _, r := range rows {
			names[r.ID] = r.Name
		}
	}
	off := map[string]bool{}
	if u.IsProducer() {
		shops, err := payments.RemindersOff(ctx, q, u.ID)
		if err != nil {
			return nil, err
		}
		for _, id := range shops {
			off[id] = true
		}
	}
	changed, err := d.ibanChangedOn(ctx, q, u, ids)
	if err != nil {
		return nil, err
	}
	flat, err := d.flatRateViews(ctx, q, u, producer, shop, accs)
	if err != nil {
		return nil, err
	}
	// The totals and penalties are of the whole account; the lists, of
	// what the screen shows (payments.Recent).
	recent := make([]payments.Account, len(accs))
	older := make([]payments.Older, len(accs))
	var docs []payments.Document
	for i, a := range accs {
		recent[i], older[i] = payments.Recent(a, today)
		docs = append(docs, recent[i].Documents...)
	}
	views, err := d.documentViews(ctx, q, u, docs, today)
	if err != nil {
		return nil, err
	}
	out := &PaymentsOutput{}
	out.Body.Today = today
	out.Body.Accounts = make([]AccountView, len(accs))
	for i, a := range accs {
		v := AccountView{PartnerID: ids[i], PartnerName: names[ids[i]], Reminders: !off[ids[i]], Owed: a.Owed, OnAccount: a.OnAccount, Overdue: a.Overdue, Declared: a.Declared,
			NextDue: a.NextDue, Documents: views[:len(recent[i].Documents):len(recent[i].Documents)], Payments: paymentViews(recent[i].Payments),
			OlderDocuments: older[i].Documents, OlderPayments: older[i].Payments, OlderBefore: older[i].Before, Late: []PenaltyView{}}
		views = views[len(recent[i].Documents):]
		if u.IsProducer() {
			v.Late, v.Penalties, v.Indemnities = penaltyViews(payments.Penalties(a, today, d.cfg.Payments.Rates))
		}
		v.IBANChangedOn = changed[ids[i]]
		v.FlatRate = flat[ids[i]]
		out.Body.Accounts[i] = v
	}
	return out, nil
}

// documentViews shows documents to u as of today, with their deposits on
// the producer's approved platform, in the same order.
func (d *Daemon) documentViews(ctx context.Context, q store.Q, u accounts.User, docs []payments.Document, today string) ([]DocumentView, error) {
	ids := make([]string, len(docs))
	for i, doc := range docs {
		ids[i] = doc.ID
	}
	deposits, err := pa.StatusesOf(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	views := make([]DocumentView, len(docs))
	for i, doc := range docs {
		path := "/print/creditnote/" + doc.ID
		if doc.Kind == "invoice" {
			path = "/print/invoice/" + doc.OrderID
		}
		views[i] = DocumentView{ID: doc.ID, Kind: doc.Kind, Number: doc.Number, IssueDate: doc.IssueDate, DueDate: doc.DueDate,
			Total: doc.Total, Credited: doc.Credited, Paid: doc.Paid, Balance: doc.Balance, Status: doc.Status, Refers: doc.Refers, Path: path}
		if st, ok := deposits[doc.ID]; ok {
			views[i].PA = paView(st, u.IsProducer())
		}
		if doc.Discount > 0 && doc.Balance > 0 && doc.DiscountUntil >= today {
			views[i].Discount, views[i].DiscountUntil = doc.Discount, doc.DiscountUntil
		}
	}
	return views, nil
}

// paymentViews shows payments.
func paymentViews(ps []payments.Payment) []PaymentView {
	views := make([]PaymentView, len(ps))
	for i, p := range ps {
		views[i] = PaymentView{ID: p.ID, Amount: p.Amount, PaidOn: p.PaidOn, Method: p.Method, Reference: p.Reference, Status: p.Status,
			ByShop: p.CreatedBy == p.DistributorID, CreatedAt: time.UnixMilli(p.CreatedAt).UTC().Format(time.RFC3339),
			Allocations: make([]PaymentAllocationView, len(p.Allocations))}
		for k, al := range p.Allocations {
			views[i].Allocations[k] = PaymentAllocationView{DocumentID: al.DocumentID, Amount: al.Amount}
		}
	}
	return views
}

// paView shows a document's deposit; the failure of a deposit is the
// producer's alone.
func paView(st pa.DocStatus, producer bool) *DocumentPAView {
	v := &DocumentPAView{Status: st.Status, Label: st.Label, ReasonCode: st.ReasonCode, Reason: st.Reason,
		Directory: pa.DirectoryNote(st.Directory, producer), ReplacedBy: st.ReplacedBy, CancelledBy: st.CancelledBy, History: make([]PAStatusView, len(st.History))}
	if !st.At.IsZero() {
		v.At = st.At.UTC().Format(time.RFC3339)
	}
	if producer {
		v.Error = st.Error
	} else if st.Status == "" {
		return nil // not deposited yet: nothing for the shop
	}
	for i, h := range st.History {
		v.History[i] = PAStatusView{Status: h.Status, Label: h.Label, ReasonCode: h.ReasonCode, Reason: h.Reason, At: h.At.UTC().Format(time.RFC3339)}
	}
	return v
}

// penaltyViews shows the penalties of an account's invoices, with their
// sums.
func penaltyViews(ps []payments.Penalty) (views []PenaltyView, penalties, indemnities decimal.Dec) {
	views = make([]PenaltyView, len(ps))
	for i, p := range ps {
		v := PenaltyView{DocumentID: p.DocumentID, Number: p.Number, DueDate: p.DueDate, PaidOff: p.PaidOff, Days: p.Days,
			Penalty: p.Penalty, Indemnity: p.Indemnity, Periods: make([]PenaltyPeriodView, len(p.Periods))}
		for j, q := range p.Periods {
			v.Periods[j] = PenaltyPeriodView{From: q.From, To: q.To, Days: q.Days, Balance: q.Balance, ECBRate: decimal.Dec(q.ECBRate),
				Rate: decimal.Dec(q.Rate), RateListed: q.Listed, Penalty: q.Penalty}
		}
		views[i] = v
		penalties += p.Penalty
		indemnities += p.Indemnity
	}
	return views, penalties, indemnities
}

func (d *Daemon) getPayments(ctx context.Context, _ *struct{}) (*PaymentsOutput, error) {
	out, err := d.accountsOf(ctx, d.db, currentUser(ctx))
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PaymentsHistoryInput names a page of an account's older rows.
type PaymentsHistoryInput struct {
	PartnerID string `path:"partnerId" maxLength:"100" doc:"The shop (for a producer) or the producer (for a shop)"`
	Before    string `query:"before" doc:"YYYY-MM-DD: the page holds the rows dated before this day; the account's olderBefore for the first page, the last page's before for the next"`
}

// PaymentsHistoryOutput is a page of an account's older rows.
type PaymentsHistoryOutput struct {
	Body struct {
		Documents []DocumentView `json:"documents" doc:"Settled documents, most recent issue first"`
		Payments  []PaymentView  `json:"payments" doc:"Payments, most recent first"`
		More      bool           `json:"more" doc:"Whether older rows remain, for another page"`
		Before    string         `json:"before,omitempty" doc:"YYYY-MM-DD: the next page's before; absent when none remains"`
		// OlderDocuments and OlderPayments count what remains.
		OlderDocuments int `json:"olderDocuments" doc:"How many older settled documents remain after this page"`
		OlderPayments  int `json:"olderPayments" doc:"How many older payments remain after this page"`
	}
}

func (d *Daemon) getPaymentsHistory(ctx context.Context, in *PaymentsHistoryInput) (*PaymentsHistoryOutput, error) {
	if err := payments.CheckBefore(in.Before); err != nil {
		return nil, err
	}
	u := currentUser(ctx)
	producer, shop := u.ID, in.PartnerID
	if !u.IsProducer() {
		producer, shop = in.PartnerID, u.ID
	}
	today := d.today()
	accs, err := payments.Accounts(ctx, d.db, producer, shop, today)
	if err != nil {
		return nil, err
	}
	if len(accs) != 1 {
		return nil, core.ErrNotFound
	}
	page, err := payments.History(accs[0], today, in.Before, payments.HistoryPage)
	if err != nil {
		return nil, err
	}
	out := &PaymentsHistoryOutput{}
	if out.Body.Documents, err = d.documentViews(ctx, d.db, u, page.Documents, today); err != nil {
		return nil, err
	}
	out.Body.Payments = paymentViews(page.Payments)
	out.Body.More, out.Body.Before = page.Rest.Before != "", page.Rest.Before
	out.Body.OlderDocuments, out.Body.OlderPayments = page.Rest.Documents, page.Rest.Payments
	return out, nil
}

// paymentInput converts a body, refusing an amount that is not euros and
// cents.
func paymentInput(b PaymentBody) (payments.Input, error) {
	amount, ok := decimal.FromFloat(b.Amount)
	if !ok || math.IsNaN(b.Amount) {
		return payments.Input{}, core.Invalid("amount", payments.MsgAmount)
	}
	return payments.Input{PartnerID: b.PartnerID, Amount: amount, PaidOn: b.PaidOn, Method: b.Method, Reference: b.Reference,
		Documents: b.Documents}, nil
}

// paymentTx runs a payment operation and answers the accounts, in the same
// transaction.
func (d *Daemon) paymentTx(ctx context.Context, u accounts.User, op func(tx *sqlx.Tx, now time.Time) error) (*PaymentsOutput, error) {
	return inTx(ctx, d, func(tx *sqlx.Tx) (*PaymentsOutput, error) {
		if err := op(tx, d.now()); err != nil {
			return nil, err
		}
		return d.accountsOf(ctx, tx, u)
	})
}

func (d *Daemon) recordPayment(ctx context.Context, in *PaymentInput) (*PaymentsOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	p, err := paymentInput(in.Body)
	if err != nil {
		return nil, err
	}
	return d.paymentTx(ctx, u, func(tx *sqlx.Tx, now time.Time) error {
		_, err := payments.Record(ctx, tx, u, p, now, d.today())
		return err
	})
}

func (d *Daemon) declarePayment(ctx context.Context, in *PaymentInput) (*PaymentsOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	p, err := paymentInput(in.Body)
	if err != nil {
		return nil, err
	}
	return d.paymentTx(ctx, u, func(tx *sqlx.Tx, now time.Time) error {
		_, err := payments.Declare(ctx, tx, u, p, now, d.today())
		return err
	})
}

func (d *Daemon) confirmPayment(ctx context.Context, in *ConfirmPaymentInput) (*PaymentsOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	return d.paymentTx(ctx, u, func(tx *sqlx.Tx, now time.Time) error {
		_, err := payments.Confirm(ctx, tx, u, in.ID, *in.Body.Accepted, now, d.today())
		return err
	})
}

func (d *Daemon) undoPayment(ctx context.Context, in *PaymentPath) (*PaymentsOutput, error) {
	u := currentUser(ctx)
	return d.paymentTx(ctx, u, func(tx *sqlx.Tx, now time.Time) error {
		_, err := payments.Undo(ctx, tx, u, in.ID, now)
		return err
	})
}
