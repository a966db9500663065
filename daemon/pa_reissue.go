package daemon

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/jmoiron/sqlx"

	"primeur/core/billing"
	"primeur/core/pa"
)

// The re-issue of an invoice the producer's PA rejected, and the
// cancellation of one the buyer refused (PRODUCT §16 "Rejected (213) and
// refused (210)"): pa.Reissue and pa.CancelRefused do the work.

// PAReissueInput names the rejected invoice.
type PAReissueInput struct {
	InvoiceID string `path:"invoiceId" maxLength:"100" doc:"The invoice the PA rejected (213 Rejetée or irrecevable), or the buyer refused (210 Refusée)"`
}

// PADocumentRef names an issued document.
type PADocumentRef struct {
	ID     string `json:"id"`
	Number string `json:"number" example:"FA-2026-000002"`
}

// PAReissueOutput is what the re-issue issued.
type PAReissueOutput struct {
	Body struct {
		Invoice PADocumentRef `json:"invoice" doc:"The corrected invoice, under a new number; deposited on the PA by the next run of the pa job"`
		Credit  PADocumentRef `json:"credit" doc:"The internal credit note cancelling the rejected invoice in the producer's books (never deposited)"`
	}
}

func (d *Daemon) registerPAReissue(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "reissue-pa-invoice", Method: http.MethodPost, Path: "/user/pa/invoices/{invoiceId}/reissue", Tags: []string{tagPA},
		Summary: "Re-issue, corrected, an invoice the producer's PA rejected",
		Description: "An invoice whose latest status is 213 Rejetée (or irrecevable) is deemed not issued: a corrected invoice " +
			"replaces it under a new number, composed from the order's deliveries and both parties' profiles as they are now, " +
			"and an internal credit note cancels it in the producer's books (never deposited). 409 in French for an invoice " +
			"not rejected, already replaced, with a payment allocated or documents referring to it; 404 for another's. " +
			"Producers only. Nothing changes when refused.",
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict},
	}, d.reissuePAInvoice)
	huma.Register(api, huma.Operation{
		OperationID: "cancel-pa-invoice", Method: http.MethodPost, Path: "/user/pa/invoices/{invoiceId}/cancel", Tags: []string{tagPA},
		Summary: "Cancel, by a credit note, an invoice the buyer refused on its PA",
		Description: "An invoice whose latest status is 210 Refusée is cancelled in the producer's books by an internal credit " +
			"note (never deposited) of its lines net of what its claims' credit notes took off, whatever the claims' window. " +
			"409 in French for an invoice not refused, replaced or cancelled already, with an escompte's credit note, or " +
			"whose claims took everything off; 404 for another's. Producers only. Nothing changes when refused.",
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict},
	}, d.cancelRefusedPAInvoice)
}

// PACancelOutput is the credit note cancelling a refused invoice.
type PACancelOutput struct {
	Body struct {
		Credit PADocumentRef `json:"credit" doc:"The internal credit note cancelling the refused invoice in the producer's books (never deposited)"`
	}
}

func (d *Daemon) cancelRefusedPAInvoice(ctx context.Context, in *PAReissueInput) (*PACancelOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	cn, err := inTx(ctx, d, func(tx *sqlx.Tx) (billing.Invoice, error) {
		return pa.CancelRefused(ctx, tx, u.ID, in.InvoiceID, d.now(), d.cfg.Location)
	})
	if err != nil {
		return nil, err
	}
	d.log.InfoContext(ctx, "pa: refused invoice cancelled", "producer", u.ID, "invoice", in.InvoiceID, "credit", cn.Number)
	out := &PACancelOutput{}
	out.Body.Credit = PADocumentRef{ID: cn.ID, Number: cn.Number}
	return out, nil
}

func (d *Daemon) reissuePAInvoice(ctx context.Context, in *PAReissueInput) (*PAReissueOutput, error) {
	u, err := asProducer(ctx)
	if err != nil {
		return nil, err
	}
	r, err := inTx(ctx, d, func(tx *sqlx.Tx) (billing.Replacement, error) {
		return pa.Reissue(ctx, tx, u.ID, in.InvoiceID, d.now(), d.cfg.Location)
	})
	if err != nil {
		return nil, err
	}
	d.log.InfoContext(ctx, "pa: rejected invoice re-issued", "producer", u.ID, "rejected", in.InvoiceID,
		"invoice", r.Invoice.Number, "credit", r.Credit.Number)
	out := &PAReissueOutput{}
	out.Body.Invoice = PADocumentRef{ID: r.Invoice.ID, Number: r.Invoice.Number}
	out.Body.Credit = PADocumentRef{ID: r.Credit.ID, Number: r.Credit.Number}
	return out, nil
}
