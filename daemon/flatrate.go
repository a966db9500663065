package daemon

import (
	"context"
	"net/http"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

	"primeur/core/accounts"
	"primeur/core/decimal"
	"primeur/core/documents"
	"primeur/core/payments"
	"primeur/core/store"
)

// The buyer's documents of the agricultural flat-rate refund (PRODUCT §16
// "Buyer's documents under the flat-rate refund"): listed in GET
// /api/payments' accounts (flatRate), served to the two parties of the
// pair by /print/purchase-slip/{paymentId} and
// /print/flat-rate-certificate/{partnerId}/{year}.

// MsgCertificateYear refuses a certificate's year that is not a year.
const MsgCertificateYear = "Année invalide : attendu AAAA, par exemple 2026."

// FlatRateView is what an account has of the buyer's documents of the
// flat-rate refund.
type FlatRateView struct {
	Liable       bool               `json:"liable" doc:"Whether the shop is liable to VAT (it has an intra-community VAT number): the purchase slips and certificates exist only then"`
	Why          string             `json:"why,omitempty" doc:"When the shop is not liable: why there are no documents, in French, for the user reading it"`
	Slips        []PurchaseSlipView `json:"slips" doc:"A purchase slip per recorded payment with a part under the refund, newest first"`
	Certificates []CertificateView  `json:"certificates" doc:"The calendar years of those payments' dates, newest first, each with its certificate"`
}

// PurchaseSlipView is a purchase slip (bulletin d'achat) as listed.
type PurchaseSlipView struct {
	PaymentID string      `json:"paymentId"`
	Number    string      `json:"number" example:"BA-20261215-3F9A1C2B7D4E"`
	PaidOn    string      `json:"paidOn" doc:"YYYY-MM-DD"`
	Amount    decimal.Dec `json:"amount" doc:"The payment's part under the refund, EUR"`
	Path      string      `json:"path" doc:"Where its PDF is downloaded"`
}

// CertificateView is a yearly certificate (attestation annuelle) as listed.
type CertificateView struct {
	Year   int         `json:"year" example:"2026"`
	Amount decimal.Dec `json:"amount" doc:"The year's payments under the refund, EUR"`
	Path   string      `json:"path" doc:"Where its PDF is downloaded"`
}

// flatRateViews are the buyer's documents of u's accounts accs (read for
// producerID and shopID), by partner: none for an account whose producer
// neither sells nor sold under the flat-rate refund.
func (d *Daemon) flatRateViews(ctx context.Context, q store.Q, u accounts.User, producerID, shopID string, accs []payments.Account) (map[string]*FlatRateView, error) {
	flat, err := payments.FlatRates(ctx, q, producerID, shopID, accs)
	if err != nil {
		return nil, err
	}
	out := map[string]*FlatRateView{}
	for k, f := range flat {
		partner := k.Shop
		why := payments.MsgFlatProducerNoVAT
		if !u.IsProducer() {
			partner, why = k.Producer, payments.MsgFlatShopNoVAT
		}
		v := &FlatRateView{Liable: f.Liable, Slips: make([]PurchaseSlipView, len(f.Slips)), Certificates: make([]CertificateView, len(f.Years))}
		if !f.Liable {
			v.Why = why
		}
		for i, s := range f.Slips {
			v.Slips[i] = PurchaseSlipView{PaymentID: s.PaymentID, Number: s.Number, PaidOn: s.PaidOn, Amount: s.Base,
				Path: "/print/purchase-slip/" + s.PaymentID}
		}
		for i, y := range f.Years {
			v.Certificates[i] = CertificateView{Year: y.Year, Amount: y.Base,
				Path: "/print/flat-rate-certificate/" + partner + "/" + strconv.Itoa(y.Year)}
		}
		out[partner] = v
	}
	return out, nil
}

// printPurchaseSlip serves GET /print/purchase-slip/{paymentId}: the
// purchase slip of a recorded payment, to the shop and the producer.
func (d *Daemon) printPurchaseSlip(w http.ResponseWriter, r *http.Request) {
	u, err := d.requestUser(r)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	s, err := payments.LoadSlip(r.Context(), d.db, u, r.PathValue("paymentId"))
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	pdf, err := documents.PurchaseSlip(s)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	writePDF(w, documents.SlipFileName(s.Number), pdf)
}

// printFlatCertificate serves GET
// /print/flat-rate-certificate/{partnerId}/{year}: the yearly certificate
// of what the shop paid the producer under the refund in a calendar year
// (the previous one is the one the farmer's claim needs; the year under
// way is provisional), to either of them.
func (d *Daemon) printFlatCertificate(w http.ResponseWriter, r *http.Request) {
	u, err := d.requestUser(r)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	raw := r.PathValue("year")
	year, err := strconv.Atoi(raw)
	if err != nil || len(raw) != 4 || year < 1000 {
		writeJSONProblem(w, http.StatusBadRequest, MsgCertificateYear)
		return
	}
	today := d.today()
	if current, _ := strconv.Atoi(today[:4]); year > current {
		notFound(w, r)
		return
	}
	c, err := payments.LoadCertificate(r.Context(), d.db, u, r.PathValue("partnerId"), year)
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	pdf, err := documents.Certificate(c, today, d.now())
	if err != nil {
		d.documentError(w, r, err)
		return
	}
	writePDF(w, documents.CertificateFileName(year), pdf)
}

// flatRateAnswers are the answers of a buyer's document: ok, those of
// every document (documentErrors) and more.
func flatRateAnswers(ok *huma.Response, documentErrors, more map[string]*huma.Response) map[string]*huma.Response {
	out := map[string]*huma.Response{"200": ok}
	for code, r := range documentErrors {
		out[code] = r
	}
	for code, r := range more {
		out[code] = r
	}
	return out
}

// purchaseSlipRoute is the plain route of the purchase slips, with the
// answers of every document (documentErrors).
func (d *Daemon) purchaseSlipRoute(documentErrors map[string]*huma.Response) plainRoute {
	return plainRoute{handler: d.printPurchaseSlip, op: &huma.Operation{
		OperationID: "print-purchase-slip", Method: http.MethodGet, Path: "/print/purchase-slip/{paymentId}",
		Tags: []string{"Payments"}, Summary: "The purchase slip of a payment to a farmer under the flat-rate refund (PDF)",
		Description: "The bulletin d'achat a shop liable to VAT hands a farmer under the agricultural flat-rate refund at " +
			"each payment (art. 265 of annexe II to the CGI): the parties, the payment's date and amount, the products " +
			"and invoices it pays, what it left on account, the value under the refund by rate. A PDF/A-3b, not an " +
			"invoice (no Factur-X data), rendered from the stored payment and documents. For the shop and the producer " +
			"(ids in GET /api/payments' flatRate.slips); 404 for a payment that is not recorded, without a part under " +
			"the refund, or of a shop without a VAT number.",
		Security:   sessionSecurity,
		Parameters: []*huma.Param{pathParam("paymentId", "Payment id")},
		Responses:  flatRateAnswers(fileResponse("application/pdf", "bulletin-achat-<number>.pdf"), documentErrors, nil),
	}}
}

// flatCertificateRoute is the plain route of the yearly certificates,
// with the answers of every document (documentErrors) and problem for
// the others.
func (d *Daemon) flatCertificateRoute(problem func(string) *huma.Response, documentErrors map[string]*huma.Response) plainRoute {
	return plainRoute{handler: d.printFlatCertificate, op: &huma.Operation{
		OperationID: "print-flat-rate-certificate", Method: http.MethodGet, Path: "/print/flat-rate-certificate/{partnerId}/{year}",
		Tags: []string{"Payments"}, Summary: "The yearly certificate of a shop's payments to a farmer under the flat-rate refund (PDF)",
		Description: "The attestation annuelle a shop liable to VAT hands a farmer under the agricultural flat-rate " +
			"refund at the beginning of each year (art. 266-I of annexe II to the CGI): the year's recorded payments " +
			"(by their dates) under the refund, split by refund rate with the refund of each for information, and each " +
			"payment with its purchase slip. The year under way is provisional. For the shop and the producer (the " +
			"other as partnerId); 404 for a year without such payment, a future year, or a shop without a VAT number.",
		Security: sessionSecurity,
		Parameters: []*huma.Param{pathParam("partnerId", "The partner's id: the producer for a shop, the shop for a producer"),
			pathParam("year", "The calendar year, YYYY")},
		Responses: flatRateAnswers(fileResponse("application/pdf", "attestation-remboursement-forfaitaire-YYYY.pdf"), documentErrors,
			map[string]*huma.Response{"400": problem("The year is not YYYY: `detail` says so in French")}),
	}}
}
