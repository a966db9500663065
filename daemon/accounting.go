package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core/accounting"
	"primeur/core/accounts"
	"primeur/core/store"
)

// LedgerView is the number of each account the user's FEC posts to
// (PRODUCT §16 "Export for the platform and the accountant"): a producer's
// sales side, a shop's purchase side, and the treasury of both.
type LedgerView struct {
	Customers         string `json:"customers" doc:"Producers: customers (clients), 411…" example:"411"`
	Sales             string `json:"sales" doc:"Producers: sales of its produce, 70… (701 ventes de produits finis)" example:"701"`
	VATCollected      string `json:"vatCollected" doc:"Producers: VAT collected, 4457…" example:"44571"`
	DiscountsGiven    string `json:"discountsGiven" doc:"Producers: early-payment discounts given, 665…" example:"665"`
	Suppliers         string `json:"suppliers" doc:"Shops: suppliers (fournisseurs), 401…" example:"401"`
	Purchases         string `json:"purchases" doc:"Shops: purchases of goods, 60… (607 achats de marchandises)" example:"607"`
	VATDeductible     string `json:"vatDeductible" doc:"Shops: VAT deductible, 4456…" example:"44566"`
	DiscountsReceived string `json:"discountsReceived" doc:"Shops: early-payment discounts received, 765…" example:"765"`
	Bank              string `json:"bank" doc:"The bank, 51…" example:"512"`
	Cash              string `json:"cash" doc:"The till, for payments in cash, 53…" example:"530"`
}

func ledgerView(l accounting.Ledger) LedgerView {
	return LedgerView{
		Customers: l.Number(accounting.Customers), Sales: l.Number(accounting.Sales),
		VATCollected: l.Number(accounting.VATCollected), DiscountsGiven: l.Number(accounting.DiscountsGiven),
		Suppliers: l.Number(accounting.Suppliers), Purchases: l.Number(accounting.Purchases),
		VATDeductible: l.Number(accounting.VATDeductible), DiscountsReceived: l.Number(accounting.DiscountsReceived),
		Bank: l.Number(accounting.Bank), Cash: l.Number(accounting.Cash),
	}
}

// AccountingOutput answers the accounting operations: the accounts the
// user's FEC posts to, their defaults, and the months it can export.
type AccountingOutput struct {
	Body struct {
		Accounts LedgerView `json:"accounts" doc:"The accounts of the user's FEC: those it set, the defaults for the others"`
		Defaults LedgerView `json:"defaults" doc:"Primeur's default accounts (Plan comptable général)"`
		Months   []string   `json:"months" doc:"The calendar months (YYYY-MM) with a document or a recorded payment, latest first: GET /print/invoices/{month} for a producer, /print/purchases/{month} for a shop"`
	}
}

// LedgerInput sets the accounts of the user's FEC. A field absent or
// empty is its default.
type LedgerInput struct {
	Body struct {
		Customers         string `json:"customers" required:"false" maxLength:"40" doc:"411…, 3 to 10 digits"`
		Sales             string `json:"sales" required:"false" maxLength:"40" doc:"70…, 3 to 10 digits"`
		VATCollected      string `json:"vatCollected" required:"false" maxLength:"40" doc:"4457…, 3 to 10 digits"`
		DiscountsGiven    string `json:"discountsGiven" required:"false" maxLength:"40" doc:"665…, 3 to 10 digits"`
		Suppliers         string `json:"suppliers" required:"false" maxLength:"40" doc:"401…, 3 to 10 digits"`
		Purchases         string `json:"purchases" required:"false" maxLength:"40" doc:"60…, 3 to 10 digits"`
		VATDeductible     string `json:"vatDeductible" required:"false" maxLength:"40" doc:"4456…, 3 to 10 digits"`
		DiscountsReceived string `json:"discountsReceived" required:"false" maxLength:"40" doc:"765…, 3 to 10 digits"`
		Bank              string `json:"bank" required:"false" maxLength:"40" doc:"51…, 3 to 10 digits"`
		Cash              string `json:"cash" required:"false" maxLength:"40" doc:"53…, 3 to 10 digits"`
	}
}

func (d *Daemon) registerAccounting(api huma.API) {
	tags := []string{"Accounting"}
	huma.Register(api, huma.Operation{
		OperationID: "get-accounting", Method: http.MethodGet, Path: "/accounting", Tags: tags,
		Summary: "The accounts of the user's FEC and the months it can export",
		Description: "The accounts a producer's (sales) or a shop's (purchases) FEC posts to, as set or by default, and " +
			"the calendar months with a document or a recorded payment (PRODUCT §16 \"Export for the platform and the accountant\").",
		Errors: []int{http.StatusUnauthorized},
	}, d.getAccounting)
	huma.Register(api, huma.Operation{
		OperationID: "set-accounting-accounts", Method: http.MethodPut, Path: "/accounting/accounts", Tags: tags,
		Summary: "Set the accounts of the user's FEC",
		Description: "Each account: digits only, 3 to 10 of them, starting with its class (411 customers, 70 sales, 4457 VAT " +
			"collected, 665 discounts given, 401 suppliers, 60 purchases, 4456 VAT deductible, 765 discounts received, 51 bank, " +
			"53 cash); absent or empty, the default. A refusal (422, a French message per field) changes nothing. Answers as " +
			"GET /api/accounting.",
		Errors: []int{http.StatusUnauthorized, http.StatusUnprocessableEntity},
	}, d.setAccountingAccounts)
}

// sideOf is whose books the user keeps: a producer sells, a shop buys.
func sideOf(u accounts.User) accounting.Side {
	if u.IsProducer() {
		return accounting.Seller
	}
	return accounting.Buyer
}

func (d *Daemon) accountingOf(ctx context.Context, q store.Q, u accounts.User, l accounting.Ledger) (*AccountingOutput, error) {
	months, err := accounting.Months(ctx, q, sideOf(u), u.ID)
	if err != nil {
		return nil, err
	}
	out := &AccountingOutput{}
	out.Body.Accounts, out.Body.Defaults, out.Body.Months = ledgerView(l), ledgerView(accounting.Defaults()), months
	return out, nil
}

func (d *Daemon) getAccounting(ctx context.Context, _ *struct{}) (*AccountingOutput, error) {
	u := currentUser(ctx)
	l, err := accounting.LoadLedger(ctx, d.db, u.ID)
	if err == nil {
		var out *AccountingOutput
		if out, err = d.accountingOf(ctx, d.db, u, l); err == nil {
			return out, nil
		}
	}
	return nil, err
}

func (d *Daemon) setAccountingAccounts(ctx context.Context, in *LedgerInput) (*AccountingOutput, error) {
	u := currentUser(ctx)
	b := in.Body
	sent := map[string]string{
		accounting.Customers: b.Customers, accounting.Sales: b.Sales, accounting.VATCollected: b.VATCollected,
		accounting.DiscountsGiven: b.DiscountsGiven, accounting.Suppliers: b.Suppliers, accounting.Purchases: b.Purchases,
		accounting.VATDeductible: b.VATDeductible, accounting.DiscountsReceived: b.DiscountsReceived,
		accounting.Bank: b.Bank, accounting.Cash: b.Cash,
	}
	return inTx(ctx, d, func(tx *sqlx.Tx) (*AccountingOutput, error) {
		l, err := accounting.SaveLedger(ctx, tx, u.ID, sent)
		if err != nil {
			return nil, err
		}
		return d.accountingOf(ctx, tx, u, l)
	})
}
