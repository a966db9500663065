// Package accounting exports a month's documents for a producer's approved
// e-invoicing platform (plateforme agréée) and its accountant: every
// invoice, credit note and complementary invoice of the month as its
// Factur-X PDF and its CII XML, and a sales journal (journal des ventes)
// an accountant imports, one line per document and VAT rate.
//
// The month is the month of the deliveries billed: November's export holds
// the invoices of November's deliveries (issued on 1 December) and the
// credit notes and complementary invoices that correct them, whenever
// they were issued.
package accounting

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"primeur/core/billing"
	"primeur/core/documents"
	"primeur/core/store"
)

// JournalName is the sales journal's file name for a month ("2026-11"):
// journal-ventes-2026-11.csv.
func JournalName(month string) string { return "journal-ventes-" + month + ".csv" }

// Put receives one file of the export: its path (slash-separated, relative)
// and its content.
type Put func(name string, data []byte) error

// Summary counts what an export wrote.
type Summary struct {
	Invoices, Credits, Files int
}

// Export writes the documents of a billed month ("2026-11-01") of a
// producer (producerID) — or of every producer (empty), each in a folder of
// its own named after it, since numbers restart with each producer — through
// put: <number>.pdf and <number>.xml for each document, and the month's
// sales journal. A document whose XML cannot be made (a seller without
// SIRET) is exported as its PDF alone and its journal lines.
func Export(ctx context.Context, q store.Q, producerID, month string, put Put) (Summary, error) {
	var s Summary
	invoices, err := billing.List(ctx, q, producerID, month)
	if err != nil {
		return s, err
	}
	credits, err := billing.Credits(ctx, q, "", producerID, month)
	if err != nil {
		return s, err
	}
	byProducer := map[string][]billing.Invoice{}
	var order []string
	add := func(doc billing.Invoice) {
		if _, ok := byProducer[doc.ProducerID]; !ok {
			order = append(order, doc.ProducerID)
		}
		byProducer[doc.ProducerID] = append(byProducer[doc.ProducerID], doc)
	}
	for _, inv := range invoices {
		full, err := billing.Get(ctx, q, inv.ID)
		if err != nil {
			return s, err
		}
		add(full)
		s.Invoices++
	}
	for _, c := range credits {
		full, err := billing.GetCredit(ctx, q, c.ID)
		if err != nil {
			return s, err
		}
		add(full)
		s.Credits++
	}
	ym := strings.TrimSuffix(month, "-01")
	for _, p := range order {
		docs := byProducer[p]
		// By date of issue; on one day the invoices first, then what
		// corrects them; by number.
		rank := map[string]int{billing.KindCredit: 1}
		sort.SliceStable(docs, func(i, j int) bool {
			a, b := docs[i], docs[j]
			if a.IssueDate != b.IssueDate {
				return a.IssueDate < b.IssueDate
			}
			if rank[a.Kind] != rank[b.Kind] {
				return rank[a.Kind] < rank[b.Kind]
			}
			return a.Number < b.Number
		})
		dir := ""
		if producerID == "" {
			dir = Folder(docs[0].Seller) + "/"
		}
		for _, doc := range docs {
			pdf, err := documents.Invoice(doc)
			if err != nil {
				return s, fmt.Errorf("accounting: %s: %w", doc.Number, err)
			}
			if err := put(dir+documents.InvoiceFileName(doc.Number), pdf); err != nil {
				return s, err
			}
			s.Files++
			if x, err := documents.InvoiceXML(doc); err == nil {
				if err := put(dir+documents.XMLFileName(doc.Number), x); err != nil {
					return s, err
				}
				s.Files++
			}
		}
		if err := put(dir+JournalName(ym), Journal(docs)); err != nil {
			return s, err
		}
		s.Files++
	}
	return s, nil
}

var unsafeName = regexp.MustCompile(`[^a-z0-9]+`)

// Folder names a producer's folder in an export of every producer: its
// name in lower-case ASCII letters and digits, then its SIREN when known.
func Folder(p billing.Party) string {
	name := strings.Trim(unsafeName.ReplaceAllString(strings.ToLower(fold(p.Name)), "-"), "-")
	if len(name) > 40 {
		name = strings.TrimRight(name[:40], "-")
	}
	if name == "" {
		name = "producteur"
	}
	if s := p.SIREN(); s != "" {
		name += "-" + s
	}
	return path.Clean(name)
}

// fold removes the accents of French letters.
func fold(s string) string {
	return strings.NewReplacer("à", "a", "â", "a", "ä", "a", "ç", "c", "é", "e", "è", "e", "ê", "e", "ë", "e",
		"î", "i", "ï", "i", "ô", "o", "ö", "o", "ù", "u", "û", "u", "ü", "u", "ÿ", "y", "œ", "oe", "æ", "ae",
		"À", "a", "Â", "a", "Ç", "c", "É", "e", "È", "e", "Ê", "e", "Î", "i", "Ô", "o", "Ù", "u", "Û", "u").Replace(s)
}

// journalHeader are the sales journal's columns.
var journalHeader = []string{"date", "numero", "type", "facture_origine", "client", "siren_client",
	"taux_tva", "montant_ht", "montant_tva", "montant_ttc", "echeance"}

// Journal is the sales journal of documents: CSV as French spreadsheet
// programs and accounting software read it (UTF-8 with a byte order mark,
// ";" between columns, CRLF, decimal comma), one line per document and VAT
// rate — the date of issue, the number, its type (facture, avoir, facture
// complémentaire), the invoice a credit note corrects, the client and its
// SIREN, the rate, the amounts HT, TVA and TTC (negative for a credit
// note), the due date.
func Journal(docs []billing.Invoice) []byte {
	var buf bytes.Buffer
	buf.WriteString("\ufeff")
	w := csv.NewWriter(&buf)
	w.Comma, w.UseCRLF = ';', true
	_ = w.Write(journalHeader) // writes to a bytes.Buffer do not fail
	for _, d := range docs {
		kind, sign, origin := "facture", int64(1), ""
		switch d.Kind {
		case billing.KindCredit:
			kind, sign = "avoir", -1
		case billing.KindComplement:
			kind = "facture complémentaire"
		}
		if d.Refers != nil {
			origin = d.Refers.Number
		}
		rate := "0"
		if !d.VATExempt {
			rate = comma(percent(d.VATRate))
		}
		_ = w.Write([]string{d.IssueDate, d.Number, kind, origin, clean(d.Buyer.Name), d.Buyer.SIREN(), rate,
			comma(cents(sign * int64(d.TotalHT))), comma(cents(sign * int64(d.TotalVAT))),
			comma(cents(sign * int64(d.TotalTTC))), d.DueDate})
	}
	w.Flush()
	return buf.Bytes()
}

// clean keeps a cell on one line and out of formula reach: a spreadsheet
// takes a cell starting with = + - @ as a formula.
func clean(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		s = "'" + s
	}
	return s
}

func cents(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

// percent writes a rate in hundredths of a percent as the journal does:
// 550 is "5.5", 2000 "20".
func percent(r int64) string { return strings.TrimSuffix(strings.TrimSuffix(cents(r), "0"), ".0") }

func comma(s string) string { return strings.Replace(s, ".", ",", 1) }
