package daemon

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"primeur/core"
	"primeur/core/accounting"
	"primeur/core/accounts"
	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/delivery"
	"primeur/core/documents"
	"primeur/core/orders"
	"primeur/core/payments"
)

// The documents are plain handlers (not API operations): a browser follows
// their links with the session cookie and gets a PDF.

// requestUser is the user of the request's session cookie. A missing or
// expired session is core.ErrUnauthenticated.
func (d *Daemon) requestUser(r *http.Request) (accounts.User, error) {
	token := ""
	if c, err := r.Cookie(d.cookieName(r.Context())); err == nil {
		token = c.Value
	}
	u, err := accounts.SessionUser(r.Context(), d.db, token, d.now())
	if err == nil {
		noteUser(r.Context(), u.ID)
	}
	return u, err
}

// documentError answers a failed document request: 401 without session,
// 404 for anything the user may not see or that does not exist, and
// anything else as problemOf does.
func (d *Daemon) documentError(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, core.ErrUnauthenticated):
		writeJSONProblem(w, http.StatusUnauthorized, MsgNoToken)
	case errors.Is(err, core.ErrNotFound):
		notFound(w, r)
	default: // a fault answers 503 (problemOf), anything unexpected 500
		d.writeError(w, r, fmt.Errorf("document %s: %w", r.URL.Path, err))
	}
}

func writePDF(w http.ResponseWriter, name string, pdf []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	h.Set("Content-Length", strconv.Itoa(len(pdf)))
	h.Set("Cache-Control", "private, no-store")
	_, _ = w.Write(pdf)
}

// printNote serves GET /print/delivery/{orderId}/{deliveryId}: the delivery
// note of a planned or done delivery, to the two parties of its order.
func (d *Daemon) printNote(w http.ResponseWriter, r *http.Request) {
	u, err := d.requestUser(r)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	n, err := delivery.LoadNote(r.Context(), d.db, r.PathValue("orderId"), r.PathValue("deliveryId"))
	if err == nil && (!n.IsParty(u.ID) || n.Delivery.Status == orders.Cancelled) {
		err = core.ErrNotFound
	}
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	pdf, err := documents.Note(n, d.rules())
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	writePDF(w, documents.NoteFileName(n.Delivery.Chrono), pdf)
}

// printInvoice serves GET /print/invoice/{orderId}: the order's invoice,
// rendered from what was stored when it was issued, to the two parties.
func (d *Daemon) printInvoice(w http.ResponseWriter, r *http.Request) {
	u, err := d.requestUser(r)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	inv, err := billing.ForOrder(r.Context(), d.db, r.PathValue("orderId"))
	if err == nil && u.ID != inv.ProducerID && u.ID != inv.DistributorID {
		err = core.ErrNotFound
	}
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	pdf, err := documents.Invoice(inv)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	writePDF(w, documents.InvoiceFileName(inv.Number), pdf)
}

// printCreditNote serves GET /print/creditnote/{id}: a credit note or
// complementary invoice, rendered from what was stored when it was
// issued, to the two parties of its order only.
func (d *Daemon) printCreditNote(w http.ResponseWriter, r *http.Request) {
	u, err := d.requestUser(r)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	doc, err := billing.GetCredit(r.Context(), d.db, r.PathValue("id"))
	if err == nil && u.ID != doc.ProducerID && u.ID != doc.DistributorID {
		err = core.ErrNotFound
	}
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	pdf, err := documents.Invoice(doc)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	writePDF(w, documents.InvoiceFileName(doc.Number), pdf)
}

// MsgExportMonth refuses an export whose month is not a month.
const MsgExportMonth = "Mois invalide : attendu AAAA-MM, par exemple 2026-11."

// printExport serves GET /print/invoices/{month}: the zip of a calendar
// month of the producer's books for its approved platform and its
// accountant (core/accounting): the FEC of its sales and the payments it
// received, each document dated in the month as its Factur-X PDF and its
// XML, and the sales register. Producers only, their own books only.
func (d *Daemon) printExport(w http.ResponseWriter, r *http.Request) {
	d.exportBooks(w, r, accounting.Seller, "factures-")
}

// printPurchases serves GET /print/purchases/{month}: the same for a
// shop's books — the FEC of its purchases and the payments it made, the
// documents it received dated in the month, the purchases register.
// Shops only.
func (d *Daemon) printPurchases(w http.ResponseWriter, r *http.Request) {
	d.exportBooks(w, r, accounting.Buyer, "achats-")
}

// exportBooks answers an export of side's books as a zip named
// prefix-YYYY-MM.zip: 403 for the other role, 400 for a month that is not
// YYYY-MM, 404 for a month without document nor payment.
func (d *Daemon) exportBooks(w http.ResponseWriter, r *http.Request, side accounting.Side, prefix string) {
	u, err := d.requestUser(r)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	if side == accounting.Seller && !u.IsProducer() {
		writeJSONProblem(w, http.StatusForbidden, MsgProducersOnly)
		return
	}
	if side == accounting.Buyer && !u.IsDistributor() {
		writeJSONProblem(w, http.StatusForbidden, MsgShopsOnly)
		return
	}
	m, ok := calendar.ParseMonth(r.PathValue("month"))
	if !ok {
		writeJSONProblem(w, http.StatusBadRequest, MsgExportMonth)
		return
	}
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	s, err := accounting.Export(r.Context(), d.db, side, u.ID, m, d.clock.Zone(), func(name string, data []byte) error {
		f, err := z.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: d.now()})
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	})
	if err == nil {
		err = z.Close()
	}
	if err == nil && s.Files == 0 {
		err = core.ErrNotFound
	}
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", prefix+strings.TrimSuffix(m.String(), "-01")+".zip"))
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Cache-Control", "private, no-store")
	_, _ = w.Write(buf.Bytes())
}

// printTransfer serves GET /print/transfer?documents=ID,ID…: the shop's
// SEPA credit transfer file (pain.001.001.09) paying what is left of the
// invoices named, one transfer per producer (payments.TransferFile), for
// its bank to import. Shops only; a refusal is a French 422.
func (d *Daemon) printTransfer(w http.ResponseWriter, r *http.Request) {
	u, err := d.requestUser(r)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	if !u.IsDistributor() {
		writeJSONProblem(w, http.StatusForbidden, MsgShopsOnly)
		return
	}
	var ids []string
	for _, id := range strings.Split(r.URL.Query().Get("documents"), ",") {
		if id = strings.TrimSpace(id); id != "" && len(ids) < maxTransferDocuments {
			ids = append(ids, id)
		}
	}
	x, err := payments.TransferFile(r.Context(), d.db, u, ids, d.now(), d.today())
	var invalid *core.ValidationError
	if errors.As(err, &invalid) {
		writeJSONProblem(w, http.StatusUnprocessableEntity, invalid.Fields[0].Message)
		return
	}
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/xml")
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", "virements-"+d.today()+".xml"))
	h.Set("Content-Length", strconv.Itoa(len(x)))
	h.Set("Cache-Control", "private, no-store")
	_, _ = w.Write(x)
}

// maxTransferDocuments bounds the invoices of one transfer file.
const maxTransferDocuments = 500

// printStatement serves GET /print/statement/{partnerId}: the statement of
// account between the user and a partner it has documents with (the shop
// for a producer, the producer for a shop), as of today.
func (d *Daemon) printStatement(w http.ResponseWriter, r *http.Request) {
	u, err := d.requestUser(r)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	partner := r.PathValue("partnerId")
	producerID, shopID := u.ID, partner
	if !u.IsProducer() {
		producerID, shopID = partner, u.ID
	}
	accs, err := payments.Accounts(r.Context(), d.db, producerID, shopID, d.today())
	var acc *payments.Account
	for i := range accs {
		if accs[i].DistributorID == shopID {
			acc = &accs[i]
		}
	}
	if err == nil && acc == nil {
		err = core.ErrNotFound
	}
	var producer, shop accounts.User
	if err == nil {
		producer, err = accounts.ByID(r.Context(), d.db, producerID)
	}
	if err == nil {
		shop, err = accounts.ByID(r.Context(), d.db, shopID)
	}
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	pdf, err := documents.Statement(producer, shop, *acc, d.today(), d.now())
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	writePDF(w, documents.StatementFileName(d.today()), pdf)
}
