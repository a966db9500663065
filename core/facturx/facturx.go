// Package facturx writes the structured half of a Factur-X document: the
// UN/CEFACT Cross Industry Invoice (CII D16B) of the EN 16931 profile,
// the XML that goes into the PDF/A-3 as factur-x.xml. It knows nothing of
// Primeur's tables: core/documents maps an issued invoice or credit note
// to a Document, so that the XML says what the page says.
//
// What it follows, beyond the CII schema:
//   - the EN 16931 business rules (BR-*, BR-CO-* totals, BR-S-*/BR-E-*
//     VAT categories): the caller gives the totals and the VAT breakdown
//     it computed once (core/billing), and Check refuses a Document whose
//     figures disagree, before anything is written;
//   - the French CTC rules (BR-FR-*): the business process B1 (goods),
//     the seller's SIREN (scheme 0002), the parties' electronic addresses
//     (scheme 0225 on the SIREN, else the e-mail address), the notes PMT,
//     PMD and AAB once each, amounts with two decimals at most.
//
// The test suite validates every document it makes against the official
// Factur-X 1.09 XSD and schematrons (testdata/facturx, make test).
package facturx

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Document type codes (UNTDID 1001, BT-3).
const (
	// TypeInvoice is a commercial invoice.
	TypeInvoice = "380"
	// TypeCreditNote is a credit note (avoir).
	TypeCreditNote = "381"
)

// Guideline is the EN 16931 profile's specification identifier (BT-24).
const Guideline = "urn:cen.eu:en16931:2017"

// ProcessGoods is the French business process of an invoice of goods
// (BT-23, "B1": dépôt d'une facture de biens).
const ProcessGoods = "B1"

// VAT categories (UNCL 5305, BT-118/BT-151).
const (
	// Standard is a taxed supply (5.5 % for produce).
	Standard = "S"
	// Exempt is a supply exempt from VAT: the franchise en base.
	Exempt = "E"
	// NotSubject is a supply not subject to VAT ("O"): a farmer under the
	// agricultural flat-rate refund, not liable to VAT. It states no rate
	// (BR-O-05, BR-O-09) and the document names neither party's VAT number
	// (BR-O-02).
	NotSubject = "O"
)

// FranchiseCode is the exemption reason code of the franchise en base
// (VATEX code list, BT-121).
const FranchiseCode = "VATEX-FR-FRANCHISE"

// Note subjects (UNTDID 4451, BT-21) the French rules require or use.
const (
	// NotePenalty is the late-payment penalty mention (PMD).
	NotePenalty = "PMD"
	// NoteRecovery is the 40 € recovery indemnity (PMT).
	NoteRecovery = "PMT"
	// NoteDiscount is the early-payment discount mention, or its absence
	// (AAB).
	NoteDiscount = "AAB"
	// NoteRegulatory is a regulatory mention: legal form and capital, the
	// billing mandate (REG).
	NoteRegulatory = "REG"
	// NoteTax is a tax mention: the VAT exemption (TXD).
	NoteTax = "TXD"
	// NoteGeneral is any other information (AAI).
	NoteGeneral = "AAI"
)

// Unit codes (UN/ECE Recommendation 20, BT-130).
const (
	UnitKilogram = "KGM"
	UnitPiece    = "H87"
)

// Cents is an amount in euro cents.
type Cents int64

// Hundredths is a quantity in hundredths of its unit (decimal.Dec).
type Hundredths int64

// Note is a free-text note of the document (BG-1).
type Note struct {
	Subject string
	Content string
}

// Address is a postal address (BG-5, BG-8, BG-15). Lines are the street
// lines, at most three.
type Address struct {
	Lines    []string
	Postcode string
	City     string
	// Country is the ISO 3166-1 alpha-2 code; empty is FR.
	Country string
}

// Party is the seller or the buyer.
type Party struct {
	Name string
	// SIREN is the company's 9-digit number (legal registration, scheme
	// 0002); SIRET its 14-digit establishment number (scheme 0009).
	SIREN, SIRET string
	// VAT is the intra-community VAT number, empty for a seller under the
	// franchise en base.
	VAT string
	// Legal is the additional legal information (BT-33): legal form,
	// capital, registry.
	Legal   string
	Email   string
	Address Address
}

// Line is one invoiced line (BG-25).
type Line struct {
	ID string
	// Note is the line's note (BT-127): the delivery note it comes from.
	Note     string
	Name     string
	Quantity Hundredths
	Unit     string
	// Price is the net unit price in cents (BT-146); Amount the line's net
	// amount (BT-131), quantity × price as the caller rounded it.
	Price  Cents
	Amount Cents
	// Category and Rate (hundredths of a percent: 550 is 5.5 %) are the
	// line's VAT (BT-151, BT-152).
	Category string
	Rate     int64
	// Date is the delivery date, "YYYY-MM-DD": the line's period (BT-134,
	// BT-135).
	Date string
}

// Tax is one line of the VAT breakdown (BG-23).
type Tax struct {
	Category string
	Rate     int64
	Basis    Cents
	Amount   Cents
	// ExemptionCode and ExemptionReason explain an exempt category
	// (BT-121, BT-120).
	ExemptionCode   string
	ExemptionReason string
}

// Reference is a preceding invoice (BG-3): its number and issue date.
type Reference struct {
	Number string
	Date   string
}

// Document is an invoice or a credit note. Dates are "YYYY-MM-DD".
type Document struct {
	Type      string
	Number    string
	IssueDate string
	Notes     []Note
	Seller    Party
	Buyer     Party
	// ShipTo is the delivery address when it differs from the buyer's.
	ShipTo *Address
	// PeriodStart and PeriodEnd are the invoicing period (BG-14).
	PeriodStart, PeriodEnd string
	// DeliveryDate is the date of the last delivery billed (BT-72).
	DeliveryDate string
	// Despatch is the delivery note referenced at the document level when
	// there is one (BT-16); lines name theirs in their note.
	Despatch string
	// OrderRef is the buyer's order reference (BT-13).
	OrderRef string
	Lines    []Line
	Taxes    []Tax
	// TotalHT, TotalVAT and TotalTTC are BT-109, BT-110 and BT-112; the
	// sum of the lines (BT-106) and the amount due (BT-115) follow.
	TotalHT, TotalVAT, TotalTTC Cents
	DueDate                     string
	PaymentTerms                string
	// IBAN and BIC are the seller's account for the transfer (BG-17).
	IBAN, BIC string
	// Preceding is the invoice a credit note corrects (BT-25, BT-26).
	Preceding *Reference
}

var (
	sirenRe = regexp.MustCompile(`^[0-9]{9}$`)
	dateRe  = regexp.MustCompile(`^(20[0-9]{2})-([0-9]{2})-([0-9]{2})$`)
)

// Check returns the first way a Document breaks a rule it must keep
// before it is written: figures that do not add up, a missing seller
// SIREN, a credit note without its invoice, a date that is not a date.
func Check(d Document) error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if d.Type != TypeInvoice && d.Type != TypeCreditNote {
		bad("type %q", d.Type)
	}
	if d.Number == "" || len(d.Number) > 35 {
		bad("number %q", d.Number)
	}
	if !sirenRe.MatchString(d.Seller.SIREN) {
		bad("seller SIREN %q", d.Seller.SIREN)
	}
	if d.Buyer.SIREN != "" && !sirenRe.MatchString(d.Buyer.SIREN) {
		bad("buyer SIREN %q", d.Buyer.SIREN)
	}
	if d.DeliveryDate == "" {
		bad("no delivery date")
	}
	for _, s := range []string{d.IssueDate, d.DueDate, d.PeriodStart, d.PeriodEnd, d.DeliveryDate} {
		if s != "" && !dateRe.MatchString(s) {
			bad("date %q", s)
		}
	}
	if d.IssueDate == "" {
		bad("no issue date")
	}
	if d.Type == TypeCreditNote && (d.Preceding == nil || d.Preceding.Number == "" || !dateRe.MatchString(d.Preceding.Date)) {
		bad("a credit note without its invoice's number and date")
	}
	if len(d.Lines) == 0 {
		bad("no line")
	}
	var lines Cents
	basis := map[string]Cents{}
	for _, l := range d.Lines {
		lines += l.Amount
		basis[taxKey(l.Category, l.Rate)] += l.Amount
	}
	var vat Cents
	for _, t := range d.Taxes {
		if basis[taxKey(t.Category, t.Rate)] != t.Basis {
			bad("VAT basis %s at %d: %d, lines %d", t.Category, t.Rate, t.Basis, basis[taxKey(t.Category, t.Rate)])
		}
		delete(basis, taxKey(t.Category, t.Rate))
		if t.Category == Exempt && (t.Amount != 0 || t.ExemptionCode == "") {
			bad("exempt VAT with an amount or no reason")
		}
		if t.Category == NotSubject && (t.Amount != 0 || t.Rate != 0 || t.ExemptionReason == "" ||
			d.Seller.VAT != "" || d.Buyer.VAT != "") {
			bad("VAT not subject with an amount, a rate, no reason or a VAT number")
		}
		vat += t.Amount
	}
	if len(basis) > 0 {
		bad("lines with no VAT breakdown")
	}
	if lines != d.TotalHT || vat != d.TotalVAT || d.TotalHT+d.TotalVAT != d.TotalTTC {
		bad("totals %d + %d ≠ %d (lines %d, VAT %d)", d.TotalHT, d.TotalVAT, d.TotalTTC, lines, vat)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("facturx: %s %s: %w", d.Type, d.Number, err)
	}
	return nil
}

func taxKey(category string, rate int64) string { return fmt.Sprintf("%s/%d", category, rate) }

// XML writes the document's CII XML, after Check.
func XML(d Document) ([]byte, error) {
	if err := Check(d); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", " ")
	if err := enc.Encode(cii(d)); err != nil {
		return nil, fmt.Errorf("facturx: encode %s: %w", d.Number, err)
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// amount writes cents with two decimals: "1234.50", "-0.05".
func amount(c Cents) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

// quantity writes hundredths with two decimals.
func quantity(q Hundredths) string { return amount(Cents(q)) }

// rate writes a rate in hundredths of a percent: 550 is "5.50".
func rate(r int64) string { return amount(Cents(r)) }

// categoryRate is the rate a category states: none when not subject to
// VAT.
func categoryRate(category string, r int64) string {
	if category == NotSubject {
		return ""
	}
	return rate(r)
}

// date102 writes a date in format 102: "20261201".
func date102(s string) string { return strings.ReplaceAll(s, "-", "") }

// clean makes a text fit for XML 1.0: valid UTF-8 without the control
// characters XML forbids (encoding/xml escapes the rest).
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return ' '
		case r < 0x20, r == 0xFFFE, r == 0xFFFF, r >= 0xD800 && r <= 0xDFFF:
			return -1
		case r == 0xFFFD:
			return r
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}
