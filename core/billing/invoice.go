// Package billing issues the monthly invoices (PRODUCT §16): one per order
// whose month is over, in the producer's name under its billing mandate,
// numbered in the producer's own gap-free yearly sequence (FA-2026-000001).
// Everything an invoice shows is stored when it is issued, so an issued
// invoice never changes; documents render it from what is stored.
//
// It also settles the claims accepted on an invoiced order (credit.go: a
// credit note, AV-2026-000001 in its own series, or a complementary
// invoice in the FA series). Every issued document is one row of the
// table documents (kind invoice, credit, complement or discount; one
// uniqueness constraint per producer, series, year and number) with its
// lines in document_lines, written by insert.
package billing

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"primeur/core"
	"primeur/core/accounts"
	"primeur/core/calendar"
	"primeur/core/config"
	"primeur/core/decimal"
	"primeur/core/facturx"
	"primeur/core/grammar"
	"primeur/core/orders"
	"primeur/core/store"
	"primeur/core/supplied"
	"primeur/core/terms"
	"primeur/core/vat"
)

// VATRate is the rate of food produce (art. 278-0 bis A CGI), in
// hundredths of a percent: 550 is 5.5 %.
const VATRate = vat.FoodRate

// InvoiceHour is when, on the last day of a month, that month's invoices
// are issued: after its last deliveries are locked (delivery.lock is no
// later, config.InvoiceHour), and dated within the month, as art. 289 I-3
// CGI wants of a periodic invoice.
const InvoiceHour = config.InvoiceHour

// Legal texts printed on every invoice.
const (
	// VATExemptMention is the exact mention of the franchise en base.
	VATExemptMention = vat.FranchiseMention
	// Operation is the category of the operation (decree 2022-1299).
	Operation = "Catégorie de l'opération : livraison de biens."
	// LatePenalty is the late-payment rate of art. L441-10 (the legal
	// default: the ECB's refinancing rate plus 10 points).
	LatePenalty = "En cas de retard de paiement, des pénalités sont exigibles dès le lendemain de l'échéance, " +
		"au taux de refinancement le plus récent de la Banque centrale européenne majoré de 10 points " +
		"(art. L441-10 du Code de commerce)."
	// RecoveryIndemnity is the 40 € indemnity of art. D441-5, with its
	// amount as the law requires.
	RecoveryIndemnity = "En cas de retard de paiement, une indemnité forfaitaire pour frais de recouvrement " +
		"de 40 € (art. D441-5 du Code de commerce) est due au créancier."
)

// Mandate is the billing-mandate mention naming the producer, for an
// invoice or, with credit, a credit note. Primeur is a third party issuing
// in the seller's name (art. 289 I-2 CGI), not the buyer: this is not
// self-billing, so the documents are of type 380 and 381 and do not say
// "Autofacturation" (PRODUCT §16).
func Mandate(producer string, credit bool) string {
	what := "Facture émise"
	if credit {
		what = "Avoir émis"
	}
	return what + " par Primeur au nom et pour le compte " + grammar.De(producer) +
		", en vertu d'un mandat de facturation (art. 289 I-2 du CGI)."
}

// CreditTerms says how a credit note settles: against the payment of the
// invoice it corrects.
func CreditTerms(invoiceNumber string) string {
	return "Montant à déduire du règlement de la facture " + invoiceNumber +
		" ; une fois celle-ci réglée, il est remboursé par virement."
}

// Subjects of the terms, as the Factur-X XML carries them: the UNTDID 4451
// note codes, and SubjectPayment for the payment terms (BT-20).
const (
	SubjectPayment = "payment"
)

// Term is a legal mention printed at the bottom of a document, with its
// subject: where the Factur-X XML carries it.
type Term struct {
	Subject string `json:"subject"`
	Text    string `json:"text"`
}

// UnmarshalJSON reads a term, or a plain string as invoices issued before
// terms had subjects stored them.
func (t *Term) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*t = Term{Subject: facturx.NoteGeneral, Text: s}
		return nil
	}
	type plain Term
	return json.Unmarshal(b, (*plain)(t))
}

// Terms are the legal mentions of a document d — an invoice, a
// complementary invoice or a credit note, its Kind, Regime, Refers and
// discount set — under its producer's payment terms pt: the mandate, the
// operation, the VAT mention of a regime without VAT (vat.Mention), the
// payment terms (pt's, or CreditTerms of the corrected invoice for a
// credit note), the early-payment discount or its absence, the penalties
// and the indemnity (BR-FR-05: AAB, PMD and PMT once each).
func Terms(d Invoice, pt terms.Terms) []Term {
	credit := IsCredit(d.Kind)
	ts := []Term{{facturx.NoteRegulatory, Mandate(d.Seller.Name, credit)}, {facturx.NoteGeneral, Operation}}
	if m := vat.Mention(d.Regime()); m != "" {
		ts = append(ts, Term{facturx.NoteTax, m})
	}
	payment := pt.Mention()
	switch {
	case d.Kind == KindDiscount && d.Refers != nil:
		payment = DiscountTerms(d.Refers.Number)
	case credit && d.Refers != nil:
		payment = CreditTerms(d.Refers.Number)
	}
	discount, until := d.Discount, d.DiscountUntil
	if credit {
		discount, until = 0, "" // a credit note is not paid: no escompte
	}
	return append(ts, Term{SubjectPayment, payment}, Term{facturx.NoteDiscount, terms.DiscountMention(discount, until)},
		Term{facturx.NotePenalty, LatePenalty}, Term{facturx.NoteRecovery, RecoveryIndemnity})
}

// capitalForms are the legal forms that have a share capital, as words of
// the form entered ("SARL", "S.A.S.", "Société par actions simplifiée"…,
// compared without dots, accents or case): companies and farming
// companies. Any other form — a sole trader (EI, EIRL, micro-entreprise,
// exploitant agricole…), an association, a form not recognised — is
// printed without a capital, so that no capital is ever claimed for a
// business that has none.
var capitalForms = map[string]bool{
	"sarl": true, "eurl": true, "sas": true, "sasu": true, "sa": true, "sca": true, "scs": true, "snc": true,
	"selarl": true, "selas": true, "selafa": true, "selca": true, "sci": true, "scop": true, "scic": true,
	"earl": true, "gaec": true, "scea": true, "sica": true, "gfa": true, "sarlu": true, "sel": true,
	"société à responsabilité limitée": true, "société par actions simplifiée": true, "société anonyme": true,
	"exploitation agricole à responsabilité limitée": true, "groupement agricole d'exploitation en commun": true,
	"société civile d'exploitation agricole": true, "société en nom collectif": true, "société coopérative": true,
	"entreprise unipersonnelle à responsabilité limitée": true, "société coopérative agricole": true,
	"société par actions simplifiée unipersonnelle": true,
}

// soleTrader are words that make a form a sole trader's whatever else it
// says ("EI — SARL en cours", "Micro-entreprise (SAS à venir)").
var soleTrader = []string{"ei", "eirl", "micro", "entreprise individuelle", "entrepreneur individuel",
	"auto-entrepreneur", "auto entrepreneur", "autoentrepreneur", "micro-entreprise", "microentreprise",
	"exploitant individuel", "exploitation individuelle", "exploitant agricole"}

// hasCapital reports whether a legal form as entered has a share capital.
func hasCapital(form string) bool {
	f := strings.ToLower(strings.ReplaceAll(form, ".", ""))
	words := strings.FieldsFunc(f, func(r rune) bool {
		return !unicode.IsLetter(r) && r != '-' && r != '\''
	})
	phrase := strings.Join(words, " ")
	for _, w := range soleTrader {
		if slices.Contains(words, w) || (strings.Contains(w, " ") && strings.Contains(phrase, w)) {
			return false
		}
	}
	for _, w := range words {
		if capitalForms[w] {
			return true
		}
	}
	for k := range capitalForms {
		if strings.Contains(k, " ") && strings.Contains(phrase, k) {
			return true
		}
	}
	return false
}

// LegalMention is a party's legal form with its capital, as printed once:
// "EARL au capital de 15 000 €". The capital is printed only for a form
// that has one (hasCapital), when it is not zero and the form as entered
// does not already state it.
func LegalMention(p Party) string {
	form := strings.TrimSpace(p.Legal)
	capital := strings.TrimSpace(p.Capital)
	switch {
	case capital == "" || strings.Trim(capital, "0 ") == "":
		return form
	case !hasCapital(form):
		return form
	case strings.Contains(strings.ToLower(form), "capital"):
		return form
	}
	return strings.TrimSpace(form + " au capital de " + formatCapital(capital))
}

// formatCapital renders a share capital given in euros ("15000" →
// "15 000 €"); anything but digits is printed as entered.
func formatCapital(s string) string {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > 1e12 {
		return s
	}
	digits := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteRune('\u202f')
		}
		b.WriteRune(c)
	}
	return b.String() + "\u00a0€"
}

// Party is a seller's or buyer's identity as printed on the invoice, copied
// from its profile when the invoice is issued. EmailAccounting is a shop's
// accounting email as the documents issued before the teams stored it;
// none is set since (issue 41: the accountant is a member, migrations 72
// and 74), the emails of documents going to the members (core/jobs).
type Party struct {
	Name            string   `json:"name"`
	Legal           string   `json:"legal,omitempty"`
	Address         []string `json:"address"`
	BillingAddress  []string `json:"billingAddress,omitempty"`
	SIRET           string   `json:"siret,omitempty"`
	TVA             string   `json:"tva,omitempty"`
	APE             string   `json:"ape,omitempty"`
	Capital         string   `json:"capital,omitempty"`
	Email           string   `json:"email,omitempty"`
	Tel             string   `json:"tel,omitempty"`
	IBAN            string   `json:"iban,omitempty"`
	BIC             string   `json:"bic,omitempty"`
	Certification   string   `json:"certification,omitempty"`
	EmailAccounting string   `json:"emailAccounting,omitempty"`
}

// SIREN is the company number, the first 9 digits of the SIRET.
func (p Party) SIREN() string {
	if len(p.SIRET) == 14 {
		return p.SIRET[:9]
	}
	return ""
}

func lines(ls ...string) []string {
	out := []string{}
	for _, l := range ls {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// PartyOf copies a user's identity. A SIRET or VAT number stored before
// identifiers were checked, and invalid (accounts.ValidSIRET,
// accounts.ValidVAT), is left out: no document states an identifier that
// is not one — its owner is told to correct it (User.IdentifierIssues),
// and its invoices are issued meanwhile, a seller's without Factur-X data.
func PartyOf(u accounts.User) Party {
	siret, vatNumber := u.SIRET, u.TVAIntracom
	if !accounts.ValidSIRET(siret) {
		siret = ""
	}
	if vatNumber != "" && !accounts.ValidVAT(vatNumber, siret) {
		vatNumber = ""
	}
	p := Party{
		Name: u.Name, Legal: u.Legal, Address: lines(u.AddressLine1, u.AddressLine2, u.AddressLine3),
		SIRET: siret, TVA: vatNumber, APE: u.APE, Capital: u.Capital, Email: u.Email, Tel: u.Tel,
		Certification: u.Certification,
	}
	if u.IsProducer() {
		p.IBAN, p.BIC = u.IBAN, u.BIC
	} else {
		p.BillingAddress = lines(u.BillingAddressLine1, u.BillingAddressLine2, u.BillingAddressLine3)
	}
	return p
}

// Note is a delivery note covered by an invoice.
type Note struct {
	Chrono int64  `json:"chrono"`
	Date   string `json:"date"`
}

// Line is one billed delivery line.
type Line struct {
	Position  int         `db:"position"`
	Chrono    int64       `db:"chrono"`
	Date      string      `db:"date"`
	ProductID string      `db:"product_id"`
	Product   string      `db:"product"`
	Unit      string      `db:"unit"`
	Quantity  decimal.Dec `db:"quantity"`
	Price     decimal.Dec `db:"price"`
	Amount    decimal.Dec `db:"amount"`
	// VATRate is the line's own VAT rate, in hundredths of a percent
	// (550 is 5.5 %); 0 on a document without VAT (VATExempt). A document
	// may mix rates: its totals and breakdown are per rate (Total). Each
	// kind of line gets its rate where it is composed, never from the
	// document: a delivery line takes its product type's
	// (catalog.Product.VATRate, products.vat_rate), a claim's line the
	// rate of the invoice line it corrects, an escompte's line the rate
	// of the part of the invoice it discounts. A new kind of line (a
	// delivery fee, issue 40) sets its rate the same way, by the rule of
	// what it bills (a fee follows the goods it delivers, art. 257 ter
	// CGI), then calls Total.
	VATRate int64 `db:"vat_rate"`
	// Reason is, on a credit note or complementary invoice, why the line
	// corrects the invoice (credit.go); empty on an invoice.
	Reason
}

// RateTotal is one row of a document's VAT breakdown (EN 16931 BG-23):
// the amount HT of its lines at one rate (BT-116) and its VAT (BT-117).
type RateTotal struct {
	Rate  int64       `json:"rate"`
	Basis decimal.Dec `json:"basis"`
	VAT   decimal.Dec `json:"vat"`
}

// storedRate is a row of a VAT breakdown as documents.vat_breakdown keeps
// it: a rate in hundredths of a percent, amounts in cents.
type storedRate struct {
	Rate  int64 `json:"rate"`
	Basis int64 `json:"basis"`
	VAT   int64 `json:"vat"`
}

// EncodeBreakdown writes a breakdown as documents.vat_breakdown keeps it.
func EncodeBreakdown(b []RateTotal) string {
	rows := make([]storedRate, len(b))
	for i, r := range b {
		rows[i] = storedRate{Rate: r.Rate, Basis: int64(r.Basis), VAT: int64(r.VAT)}
	}
	s, _ := json.Marshal(rows) // integers: cannot fail
	return string(s)
}

// DecodeBreakdown reads documents.vat_breakdown.
func DecodeBreakdown(s string) ([]RateTotal, error) {
	var rows []storedRate
	if err := json.Unmarshal([]byte(s), &rows); err != nil {
		return nil, fmt.Errorf("billing: VAT breakdown: %w", err)
	}
	out := make([]RateTotal, len(rows))
	for i, r := range rows {
		out[i] = RateTotal{Rate: r.Rate, Basis: decimal.Dec(r.Basis), VAT: decimal.Dec(r.VAT)}
	}
	return out, nil
}

// Breakdown sums lines per VAT rate, lowest rate first, and rounds the
// VAT of each rate once, on the sum of its lines (EN 16931 BR-CO-17: a
// rate's VAT is its basis × its rate, rounded to the cent; art. 242
// nonies A I-8° of annexe II CGI: the VAT of each rate on the invoice),
// never line by line.
func Breakdown(lines []Line) []RateTotal {
	var out []RateTotal
	for _, l := range lines {
		i := slices.IndexFunc(out, func(r RateTotal) bool { return r.Rate == l.VATRate })
		if i < 0 {
			out = append(out, RateTotal{Rate: l.VATRate})
			i = len(out) - 1
		}
		out[i].Basis += l.Amount
	}
	slices.SortFunc(out, func(a, b RateTotal) int { return cmp.Compare(a.Rate, b.Rate) })
	for i := range out {
		out[i].VAT = VAT(out[i].Basis, out[i].Rate)
	}
	return out
}

// Total sets a document's VAT breakdown and totals from its lines (the
// one computation of every kind of document): TotalHT the sum of its
// lines, TotalVAT the sum of its breakdown's VAT, TotalTTC both, and
// VATRate the rate of its lines, the highest of them when they mix rates
// (documents.vat_rate; the breakdown has every rate). A document without
// VAT has its lines at 0 and no VAT.
func (d *Invoice) Total() {
	if d.VATExempt {
		for i := range d.Lines {
			d.Lines[i].VATRate = 0
		}
	}
	d.Breakdown = Breakdown(d.Lines)
	d.TotalHT, d.TotalVAT, d.VATRate = 0, 0, 0
	for _, r := range d.Breakdown {
		d.TotalHT += r.Basis
		d.TotalVAT += r.VAT
		d.VATRate = max(d.VATRate, r.Rate)
	}
	d.TotalTTC = d.TotalHT + d.TotalVAT
}

// Invoice is an issued invoice, or a document settling a claim on one of
// its deliveries (Kind, Refers, DeliveryID).
type Invoice struct {
	ID string
	// Kind is KindInvoice, KindCredit, KindComplement or KindDiscount.
	Kind string
	// Refers is the invoice a credit note or complementary invoice
	// corrects; nil for a monthly invoice.
	Refers *Reference
	// DeliveryID is the delivery whose claim a credit note or
	// complementary invoice settles.
	DeliveryID    string
	OrderID       string
	ProducerID    string
	DistributorID string
	// Month is the billed month, "YYYY-MM-01".
	Month  string
	Year   int
	Seq    int64
	Number string
	// IssuedAt is the issue time; IssueDate and DueDate are "YYYY-MM-DD".
	IssuedAt  time.Time
	IssueDate string
	DueDate   string
	Seller    Party
	Buyer     Party
	Notes     []Note
	// VATRate is in hundredths of a percent: the rate of its lines, the
	// highest when they mix rates (Breakdown has each); 0 with VATExempt,
	// which is set for every regime without VAT (VATRegime).
	VATRate   int64
	VATExempt bool
	// Breakdown is the VAT per rate, as issued (Total).
	Breakdown []RateTotal
	// VATRegime is the seller's VAT regime when it was issued (core/vat).
	VATRegime string
	// Discount is the escompte's rate in hundredths of a percent for a
	// payment received by DiscountUntil ("YYYY-MM-DD"); 0 and "" for none.
	// A KindDiscount credit note carries the rate it granted.
	Discount      int64
	DiscountUntil string
	// PaymentID is the payment that earned a KindDiscount credit note.
	PaymentID string
	// Internal marks the credit note cancelling, in the producer's books,
	// an invoice its PA rejected (Replace): never deposited on a PA.
	Internal bool
	TotalHT  decimal.Dec
	TotalVAT decimal.Dec
	TotalTTC decimal.Dec
	// Terms are the legal mentions printed at the bottom.
	Terms  []Term
	SentAt *time.Time
	Lines  []Line
}

// Regime is the document's VAT regime: as stored, or, for a document
// built without one, the franchise when it is exempt.
func (inv Invoice) Regime() string {
	switch {
	case inv.VATRegime != "":
		return inv.VATRegime
	case inv.VATExempt:
		return vat.Franchise
	}
	return vat.Normal
}

// IsCredit reports whether a kind of document is a credit note — of a
// claim or of an escompte —, which reduces the invoice it refers to.
func IsCredit(kind string) bool { return kind == KindCredit || kind == KindDiscount }

// Number formats an invoice number: FA-2026-000001.
func Number(year int, seq int64) string { return fmt.Sprintf("FA-%d-%06d", year, seq) }

// counterKey names the producer's invoice sequence for a year.
func counterKey(producerID string, year int) string {
	return fmt.Sprintf("invoice:%s:%d", producerID, year)
}

// NoteNumber formats a delivery note number from its chrono: BL-000012.
func NoteNumber(chrono int64) string { return fmt.Sprintf("BL-%06d", chrono) }

// Amount is quantity × unit price, in cents rounded half away from zero.
func Amount(quantity, price decimal.Dec) decimal.Dec {
	return decimal.MulDiv(price, int64(quantity), 100)
}

// VAT is the tax on an amount HT at rate (hundredths of a percent).
func VAT(ht decimal.Dec, rate int64) decimal.Dec {
	return decimal.MulDiv(ht, rate, 10000)
}

// BillableBefore is the first month whose invoices are not yet due at now:
// month M is billed from its last day at InvoiceHour.
func BillableBefore(now time.Time, loc *time.Location) string {
	t := now.In(loc)
	m := calendar.MonthOf(t)
	if !t.Before(IssueTime(m, loc)) {
		m = m.AddMonths(1)
	}
	return m.String()
}

// IssueTime is when the invoices of month m are issued: its last day at
// InvoiceHour, in the business time zone loc.
func IssueTime(m calendar.Month, loc *time.Location) time.Time {
	return m.Last().At(InvoiceHour*time.Hour, loc)
}

// Series of numbers: a producer's yearly invoice series (FA-2026-000001),
// of its invoices and complementary invoices, and its credit notes' (AV-,
// of the claims' and the escompte's credit notes). UNIQUE (producer_id,
// series, year, seq) of table documents guards each (migration 40).
const (
	SeriesInvoice = "FA"
	SeriesCredit  = "AV"
)

// SeriesOf is the series a kind of document is numbered in.
func SeriesOf(kind string) string {
	if IsCredit(kind) {
		return SeriesCredit
	}
	return SeriesInvoice
}

// row is a row of documents with the number and date of the invoice it
// refers to (empty for an invoice).
type row struct {
	ID            string `db:"id"`
	Kind          string `db:"kind"`
	OrderID       string `db:"order_id"`
	InvoiceID     string `db:"invoice_id"`
	DeliveryID    string `db:"delivery_id"`
	PaymentID     string `db:"payment_id"`
	ProducerID    string `db:"producer_id"`
	DistributorID string `db:"distributor_id"`
	Month         string `db:"month"`
	Year          int    `db:"year"`
	Seq           int64  `db:"seq"`
	Number        string `db:"number"`
	IssuedAt      int64  `db:"issued_at"`
	IssueDate     string `db:"issue_date"`
	DueDate       string `db:"due_date"`
	Seller        string `db:"seller"`
	Buyer         string `db:"buyer"`
	Notes         string `db:"notes"`
	VATRate       int64  `db:"vat_rate"`
	VATExempt     bool   `db:"vat_exempt"`
	VATRegime     string `db:"vat_regime"`
	Discount      int64  `db:"discount"`
	DiscountUntil string `db:"discount_until"`
	TotalHT       int64  `db:"total_ht"`
	TotalVAT      int64  `db:"total_vat"`
	TotalTTC      int64  `db:"total_ttc"`
	Terms         string `db:"terms"`
	Breakdown     string `db:"vat_breakdown"`
	Internal      bool   `db:"internal"`
	SentAt        *int64 `db:"sent_at"`
	RefNumber     string `db:"ref_number"`
	RefDate       string `db:"ref_date"`
}

// selectDocuments reads documents d, each with the invoice i it refers to.
const selectDocuments = `SELECT d.id, d.kind, d.order_id, COALESCE(d.invoice_id, '') AS invoice_id,
	COALESCE(d.delivery_id, '') AS delivery_id, COALESCE(d.payment_id, '') AS payment_id, d.producer_id, d.distributor_id,
	d.month, d.year, d.seq, d.number, d.issued_at, d.issue_date, d.due_date, d.seller, d.buyer, d.notes, d.vat_rate,
	d.vat_exempt, d.vat_regime, d.discount, d.discount_until, d.total_ht, d.total_vat, d.total_ttc, d.terms, d.vat_breakdown,
	d.internal, s.sent_at,
	COALESCE(i.number, '') AS ref_number, COALESCE(i.issue_date, '') AS ref_date
	FROM documents d LEFT JOIN documents i ON i.id = d.invoice_id LEFT JOIN sends s
	ON s.message_key = CASE WHEN d.kind = 'invoice' THEN 'invoice-' ELSE 'credit-' END || d.id `

func (r row) invoice() (Invoice, error) {
	inv := Invoice{
		ID: r.ID, Kind: r.Kind, DeliveryID: r.DeliveryID, PaymentID: r.PaymentID, OrderID: r.OrderID,
		ProducerID: r.ProducerID, DistributorID: r.DistributorID, Month: r.Month,
		Year: r.Year, Seq: r.Seq, Number: r.Number, IssuedAt: time.UnixMilli(r.IssuedAt), IssueDate: r.IssueDate,
		DueDate: r.DueDate, VATRate: r.VATRate, VATExempt: r.VATExempt, TotalHT: decimal.Dec(r.TotalHT),
		TotalVAT: decimal.Dec(r.TotalVAT), TotalTTC: decimal.Dec(r.TotalTTC), VATRegime: r.VATRegime,
		Discount: r.Discount, DiscountUntil: r.DiscountUntil, Internal: r.Internal,
	}
	if r.InvoiceID != "" {
		inv.Refers = &Reference{InvoiceID: r.InvoiceID, Number: r.RefNumber, Date: r.RefDate}
	}
	if r.SentAt != nil {
		t := time.UnixMilli(*r.SentAt)
		inv.SentAt = &t
	}
	for _, f := range []struct {
		src string
		dst any
	}{{r.Seller, &inv.Seller}, {r.Buyer, &inv.Buyer}, {r.Notes, &inv.Notes}, {r.Terms, &inv.Terms}} {
		if err := json.Unmarshal([]byte(f.src), f.dst); err != nil {
			return Invoice{}, fmt.Errorf("billing: decode document %s: %w", r.ID, err)
		}
	}
	var err error
	if inv.Breakdown, err = DecodeBreakdown(r.Breakdown); err != nil {
		return Invoice{}, fmt.Errorf("billing: decode document %s: %w", r.ID, err)
	}
	return inv, nil
}

// Document returns an issued document of any kind with its lines, or
// core.ErrNotFound.
func Document(ctx context.Context, q store.Q, id string) (Invoice, error) {
	return get(ctx, q, "document", `d.id = ?`, id)
}

// Get returns an invoice with its lines, or core.ErrNotFound (for a
// document of another kind too).
func Get(ctx context.Context, q store.Q, id string) (Invoice, error) {
	return get(ctx, q, "invoice", `d.id = ? AND d.kind = 'invoice'`, id)
}

// ForOrder returns the invoice of an order — the one not replaced
// (Replace) —, or core.ErrNotFound.
func ForOrder(ctx context.Context, q store.Q, orderID string) (Invoice, error) {
	return get(ctx, q, "invoice", `d.order_id = ? AND d.kind = 'invoice' AND d.replaced_by IS NULL`, orderID)
}

// GetCredit returns a credit note or complementary invoice with its lines,
// or core.ErrNotFound (for an invoice too).
func GetCredit(ctx context.Context, q store.Q, id string) (Invoice, error) {
	return get(ctx, q, "credit note", `d.id = ? AND d.kind <> 'invoice'`, id)
}

func get(ctx context.Context, q store.Q, what, cond string, arg string) (Invoice, error) {
	var r row
	err := store.Get(ctx, q, &r, selectDocuments+`WHERE `+cond, arg)
	if store.IsNotFound(err) {
		return Invoice{}, fmt.Errorf("billing: %s %s: %w", what, arg, core.ErrNotFound)
	}
	if err != nil {
		return Invoice{}, fmt.Errorf("billing: %s %s: %w", what, arg, err)
	}
	inv, err := r.invoice()
	if err != nil {
		return Invoice{}, err
	}
	if err := store.Select(ctx, q, &inv.Lines, `SELECT position, chrono, date, product_id, product, unit, quantity, price, amount,
			claim_type, claim_comment, vat_rate
		FROM document_lines WHERE document_id = ? ORDER BY position`, inv.ID); err != nil {
		return Invoice{}, fmt.Errorf("billing: lines of %s: %w", inv.Number, err)
	}
	return inv, nil
}

// List returns the invoices of a producer (empty: every producer) for a
// billed month (empty: every month), by producer and number, without lines.
func List(ctx context.Context, q store.Q, producerID, month string) ([]Invoice, error) {
	return list(ctx, q, `d.kind = 'invoice' AND (? = '' OR d.producer_id = ?) AND (? = '' OR d.month = ?)
		ORDER BY d.producer_id, d.year, d.seq`, producerID, producerID, month, month)
}

// Credits lists credit notes and complementary invoices without their
// lines: those of an order (orderID), or of a producer (empty: every
// producer) for a billed month (empty: every month), by producer and
// number.
func Credits(ctx context.Context, q store.Q, orderID, producerID, month string) ([]Invoice, error) {
	return list(ctx, q, `d.kind <> 'invoice' AND (? = '' OR d.order_id = ?) AND (? = '' OR d.producer_id = ?)
		AND (? = '' OR d.month = ?) ORDER BY d.producer_id, d.issued_at, d.number`,
		orderID, orderID, producerID, producerID, month, month)
}

func list(ctx context.Context, q store.Q, where string, args ...any) ([]Invoice, error) {
	var rs []row
	if err := store.Select(ctx, q, &rs, selectDocuments+`WHERE `+where, args...); err != nil {
		return nil, fmt.Errorf("billing: list documents: %w", err)
	}
	out := make([]Invoice, len(rs))
	for i, r := range rs {
		inv, err := r.invoice()
		if err != nil {
			return nil, err
		}
		out[i] = inv
	}
	return out, nil
}

// Issue issues the invoice of an order when it is due, in the caller's
// transaction, and returns it; nil when there is nothing to issue: the
// order is already invoiced, its month is not over at now, a delivery is
// still planned, or none is done.
//
// The invoice bills what the delivery notes say was sent. A claim never
// changes it: a claim accepted by the shop (or by the system after
// claims.autovalidate-after) is settled by a document of its own, a credit
// note or a complementary invoice (Settle), which Issue issues at once for
// the claims already accepted; a claim still waiting for the shop's answer
// is settled when it is answered. So the invoice run never accepts a claim
// the shop has not seen, and an issued document never changes.
//
// The order row is locked first (FOR UPDATE on PostgreSQL; SQLite
// transactions are serialised), so two runs issuing the same order queue
// here and the second finds the invoice and stops before taking a number.
// The number comes from store.Next in this same transaction: a rollback
// gives it back, so the producer's sequence has no gap and no duplicate,
// and the unique keys of documents — its series' numbers, an order's one
// invoice — back it up.
func Issue(ctx context.Context, q store.Q, orderID string, now time.Time, loc *time.Location) (*Invoice, error) {
	var o orders.Order
	err := store.Get(ctx, q, &o, `SELECT id, producer_id, distributor_id, month, created_at, updated_at
		FROM orders WHERE id = ?`+store.ForUpdate(q), orderID)
	if store.IsNotFound(err) {
		return nil, fmt.Errorf("billing: order %s: %w", orderID, core.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("billing: lock order %s: %w", orderID, err)
	}
	var n int
	if err := store.Get(ctx, q, &n, `SELECT COUNT(*) FROM documents WHERE order_id = ? AND kind = 'invoice'`, orderID); err != nil {
		return nil, fmt.Errorf("billing: invoice of %s: %w", orderID, err)
	}
	if n > 0 || o.Month >= BillableBefore(now, loc) {
		return nil, nil
	}
	var counts struct {
		Planned int `db:"planned"`
		Done    int `db:"done"`
	}
	if err := store.Get(ctx, q, &counts, `SELECT
			COALESCE(SUM(CASE WHEN status = 'planned' THEN 1 ELSE 0 END), 0) AS planned,
			COALESCE(SUM(CASE WHEN status = 'done' THEN 1 ELSE 0 END), 0) AS done
		FROM deliveries WHERE order_id = ?`, orderID); err != nil {
		return nil, fmt.Errorf("billing: deliveries of %s: %w", orderID, err)
	}
	if counts.Planned > 0 || counts.Done == 0 {
		return nil, nil
	}
	inv, err := compose(ctx, q, o, now, loc)
	if err != nil {
		return nil, err
	}
	if inv.Seq, err = store.Next(ctx, q, counterKey(o.ProducerID, inv.Year)); err != nil {
		return nil, fmt.Errorf("billing: number: %w", err)
	}
	inv.Number = Number(inv.Year, inv.Seq)
	if err := insert(ctx, q, inv); err != nil {
		return nil, err
	}
	if _, err := SettleOrder(ctx, q, o.ID, now, loc); err != nil {
		return nil, err
	}
	return &inv, nil
}

// compose builds the invoice of an order from its done deliveries and its
// parties' current profiles.
func compose(ctx context.Context, q store.Q, o orders.Order, now time.Time, loc *time.Location) (Invoice, error) {
	local := now.In(loc)
	inv := Invoice{
		ID: core.NewID(), Kind: KindInvoice, OrderID: o.ID, ProducerID: o.ProducerID, DistributorID: o.DistributorID, Month: o.Month,
		Year: local.Year(), IssuedAt: now, IssueDate: calendar.DateOf(local).String(),
	}
	producer, err := accounts.ByID(ctx, q, o.ProducerID)
	if err != nil {
		return inv, err
	}
	shop, err := accounts.ByID(ctx, q, o.DistributorID)
	if err != nil {
		return inv, err
	}
	inv.Seller, inv.Buyer = PartyOf(producer), PartyOf(shop)
	inv.VATRegime = producer.VATRegime
	if !vat.Valid(inv.VATRegime) {
		inv.VATRegime = vat.Of(strings.TrimSpace(producer.TVAIntracom))
	}
	inv.VATExempt = vat.Exempt(inv.VATRegime)

	var ls []struct {
		Status      string       `db:"status"`
		Chrono      int64        `db:"chrono"`
		Date        string       `db:"date"`
		ClaimStatus string       `db:"claim_status"`
		ProductID   string       `db:"product_id"`
		NeedID      string       `db:"need_id"`
		Product     string       `db:"name"`
		Unit        string       `db:"unit"`
		VATRate     int64        `db:"vat_rate"`
		Price       decimal.Dec  `db:"price"`
		Expected    decimal.Dec  `db:"quantity_expected"`
		Sent        *decimal.Dec `db:"quantity_sent"`
		Claimed     decimal.Dec  `db:"quantity_claimed"`
	}
	// Every line of the order, the status checked here: a condition on the
	// status would lead SQLite to the (status, date) index, through every
	// done delivery of the platform, instead of the order's.
	if err := store.Select(ctx, q, &ls, `SELECT d.status, d.chrono, d.date, d.claim_status, l.product_id, l.need_id, p.name, p.unit,
			p.vat_rate, l.price, l.quantity_expected, l.quantity_sent, l.quantity_claimed
		FROM deliveries d JOIN delivery_lines l ON l.delivery_id = d.id JOIN products p ON p.id = l.product_id
		WHERE d.order_id = ? ORDER BY d.date, d.chrono, p.name`, o.ID); err != nil {
		return inv, fmt.Errorf("billing: lines of %s: %w", o.ID, err)
	}
	// A line whose commitment names the producer's own product is billed
	// under its name, sale unit and labels (issue 39), in the type's unit.
	own, err := supplied.DocumentNames(ctx, q, o.ID)
	if err != nil {
		return inv, err
	}
	first := "" // the first delivery billed, whose décade sets the due date
	for _, l := range ls {
		if name, ok := own[l.NeedID]; ok {
			l.Product = name
		}
		if l.Status != orders.Done {
			continue // cancelled deliveries count nowhere
		}
		if len(inv.Notes) == 0 || inv.Notes[len(inv.Notes)-1].Chrono != l.Chrono {
			inv.Notes = append(inv.Notes, Note{Chrono: l.Chrono, Date: l.Date})
		}
		if first == "" || l.Date < first {
			first = l.Date
		}
		qty := orders.Line{QuantityExpected: l.Expected, QuantitySent: l.Sent}.Sent()
		if qty == 0 {
			continue
		}
		line := Line{
			Position: len(inv.Lines) + 1, Chrono: l.Chrono, Date: l.Date, ProductID: l.ProductID, Product: l.Product,
			Unit: l.Unit, Quantity: qty, Price: l.Price, Amount: Amount(qty, l.Price), VATRate: l.VATRate,
		}
		inv.Lines = append(inv.Lines, line)
	}
	if err := addFees(ctx, q, &inv); err != nil {
		return inv, err
	}
	inv.Total()
	pt := producer.Terms()
	inv.DueDate = pt.Due(first, inv.IssueDate)
	inv.Discount, inv.DiscountUntil = pt.Discount, pt.DiscountUntil(inv.IssueDate, inv.DueDate)
	if inv.DiscountUntil == "" {
		inv.Discount = 0
	}
	inv.Terms = Terms(inv, pt)
	return inv, nil
}

// insert stores an issued document whole, its row in documents and its
// lines in document_lines: the one write of documents. Its mail keys are
// those (accounts.EmailKey) of the addresses it is emailed to, as issued —
// the seller's email, the buyer's, the buyer's accounting email — on which
// core/jobs selects the documents one of whose addresses is confirmed.
func insert(ctx context.Context, q store.Q, d Invoice) error {
	enc := func(v any) string {
		b, _ := json.Marshal(v) // plain structs and slices: cannot fail
		return string(b)
	}
	null := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	var refers any
	if d.Refers != nil {
		refers = d.Refers.InvoiceID
	}
	if _, err := store.Exec(ctx, q, `INSERT INTO documents (id, kind, series, order_id, invoice_id, delivery_id, payment_id,
			producer_id, distributor_id, month, year, seq, number, issued_at, issue_date, due_date, seller, buyer, notes,
			vat_rate, vat_exempt, vat_regime, discount, discount_until, total_ht, total_vat, total_ttc, terms,
			mail_seller_key, mail_buyer_key, mail_accounting_key, vat_breakdown, internal)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		d.ID, d.Kind, SeriesOf(d.Kind), d.OrderID, refers, null(d.DeliveryID), null(d.PaymentID),
		d.ProducerID, d.DistributorID, d.Month, d.Year, d.Seq, d.Number, d.IssuedAt.UnixMilli(), d.IssueDate, d.DueDate,
		enc(d.Seller), enc(d.Buyer), enc(d.Notes), d.VATRate, d.VATExempt, d.Regime(), d.Discount, d.DiscountUntil,
		int64(d.TotalHT), int64(d.TotalVAT), int64(d.TotalTTC), enc(d.Terms), accounts.EmailKey(d.Seller.Email),
		accounts.EmailKey(d.Buyer.Email), accounts.EmailKey(d.Buyer.EmailAccounting), EncodeBreakdown(d.Breakdown), d.Internal); err != nil {
		return fmt.Errorf("billing: insert %s: %w", d.Number, err)
	}
	for _, l := range d.Lines {
		if _, err := store.Exec(ctx, q, `INSERT INTO document_lines (document_id, position, chrono, date, product_id,
			product, unit, quantity, price, amount, claim_type, claim_comment, vat_rate)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			d.ID, l.Position, l.Chrono, l.Date, l.ProductID, l.Product, l.Unit, l.Quantity, l.Price, l.Amount,
			l.ClaimType, l.ClaimComment, l.VATRate); err != nil {
			return fmt.Errorf("billing: insert the lines of %s: %w", d.Number, err)
		}
	}
	return nil
}
