package daemon

import (
	"context"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core/decimal"
	"primeur/core/payments"
	"primeur/core/sepa"
)

// TransferPreviewInput names the invoices a shop is about to pay by
// transfer.
type TransferPreviewInput struct {
	Documents string `query:"documents" maxLength:"20000" doc:"The invoices' ids, separated by commas (500 at most), as for GET /print/transfer"`
}

// TransferPreviewOutput is what the transfer file of those invoices
// would carry.
type TransferPreviewOutput struct {
	Body struct {
		ExecutionDate string                `json:"executionDate" doc:"The execution date the file requests: the next TARGET2 business day, YYYY-MM-DD"`
		Total         decimal.Dec           `json:"total" doc:"EUR"`
		Transfers     []TransferPreviewView `json:"transfers"`
	}
}

// TransferPreviewView is one transfer of the file: to one producer.
type TransferPreviewView struct {
	PartnerID  string      `json:"partnerId" doc:"The producer paid"`
	Name       string      `json:"name" doc:"The producer's name, as its profile writes it"`
	IBAN       string      `json:"iban" doc:"The account credited"`
	Amount     decimal.Dec `json:"amount" doc:"EUR"`
	Remittance string      `json:"remittance" doc:"The remittance information as the file carries it (140 characters, SEPA basic Latin): the invoices, the credit notes netted, what is paid of an invoice paid in part"`
}

func (d *Daemon) registerTransfer(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "get-transfer-preview", Method: http.MethodGet, Path: "/payments/transfer", Tags: []string{"Payments"},
		Summary: "What the transfer file of the invoices chosen will carry (shops)",
		Description: "For the invoices named, as GET /print/transfer would write them (PRODUCT §16 \"Paying by bank transfer\"): " +
			"the execution date, and per producer the account, the amount and the remittance information. Refused in French " +
			"as the file is.",
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity},
	}, d.transferPreview)
}

func (d *Daemon) transferPreview(ctx context.Context, in *TransferPreviewInput) (*TransferPreviewOutput, error) {
	u, err := asDistributor(ctx)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, id := range strings.Split(in.Documents, ",") {
		if id = strings.TrimSpace(id); id != "" && len(ids) < maxTransferDocuments {
			ids = append(ids, id)
		}
	}
	f, err := payments.PlanTransfer(ctx, d.db, u, ids, d.now(), d.today())
	if err != nil {
		return nil, err
	}
	out := &TransferPreviewOutput{}
	out.Body.ExecutionDate = f.Execution
	out.Body.Transfers = make([]TransferPreviewView, len(f.Transfers))
	for i, t := range f.Transfers {
		out.Body.Transfers[i] = TransferPreviewView{PartnerID: f.Producers[i], Name: t.Creditor.Name, IBAN: t.Creditor.IBAN, Amount: t.Amount,
			Remittance: sepa.Latin(t.Remittance, 140)}
		out.Body.Total += t.Amount
	}
	return out, nil
}
