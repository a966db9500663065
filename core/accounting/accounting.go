// Package accounting exports a calendar month of a producer's or a shop's
// books for its approved e-invoicing platform (plateforme agréée) and its
// accountant (PRODUCT §16 "Export for the platform and the accountant"):
//
//   - the FEC of the month (fec.go: the fichier des écritures comptables of
//     art. A47 A-1 LPF), for a producer its sales journal and the payments
//     it received, for a shop its purchases journal and the payments it
//     made, on the accounts the user set (ledger.go);
//   - every invoice, credit note, complementary invoice and discount credit
//     note of the month as its Factur-X PDF and its CII XML;
//   - a register of those documents (journal-ventes-YYYY-MM.csv, or
//     journal-achats for a shop) that a spreadsheet opens.
//
// A document belongs to the month of its own date of issue, whatever month
// of deliveries it bills or corrects: a credit note issued in December for
// a November invoice is in December's export, and an export made once a
// month is over never gains a document later. A payment belongs to the
// month of the day it was paid.
package accounting

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"path"
	"regexp"
	"strings"
	"time"

	"primeur/core/billing"
	"primeur/core/calendar"
	"primeur/core/documents"
	"primeur/core/payments"
	"primeur/core/store"
)

// JournalName is the register's file name for a month ("2026-11") of a
// side's books: journal-ventes-2026-11.csv, journal-achats-2026-11.csv.
func JournalName(side Side, month string) string {
	if side == Buyer {
		return "journal-achats-" + month + ".csv"
	}
	return "journal-ventes-" + month + ".csv"
}

// Put receives one file of the export: its path (slash-separated, relative)
// and its content.
type Put func(name string, data []byte) error

// Summary counts what an export wrote: documents (monthly invoices; the
// others — credit notes, complementary invoices, discount credit notes),
// payments, FEC entries, files.
type Summary struct {
	Invoices, Credits, Payments, Entries, Files int
}

func (s *Summary) add(o Summary) {
	s.Invoices += o.Invoices
	s.Credits += o.Credits
	s.Payments += o.Payments
	s.Entries += o.Entries
	s.Files += o.Files
}

// Export writes a calendar month of side's books through put: of one user
// (userID, a producer for Seller, a shop for Buyer), or of every user of
// that side with something in the month (empty userID), each in a folder
// of its own named after it (Folder). loc is the business time zone, in
// which a document's or payment's recording becomes its validation day.
//
// Each user's files: the FEC (FECName), the register (JournalName), and
// <number>.pdf and <number>.xml for each document dated in the month — in
// a folder per producer for a shop, whose producers number alike. A
// document whose XML cannot be made (a seller without SIRET) is exported as
// its PDF alone. A user with neither document nor payment in the month
// gets no file.
func Export(ctx context.Context, q store.Q, side Side, userID string, month calendar.Month, loc *time.Location, put Put) (Summary, error) {
	if userID != "" {
		return exportBooks(ctx, q, side, userID, month, loc, "", put)
	}
	owners, err := owners(ctx, q, side, month)
	if err != nil {
		return Summary{}, err
	}
	var s Summary
	used := map[string]int{}
	for _, id := range owners {
		party, err := latestParty(ctx, q, side, id, "")
		if err != nil {
			return s, err
		}
		// Two users of one name without SIREN get a folder each.
		dir := Folder(party)
		if used[dir]++; used[dir] > 1 {
			dir = fmt.Sprintf("%s-%d", dir, used[dir])
		}
		one, err := exportBooks(ctx, q, side, id, month, loc, dir+"/", put)
		s.add(one)
		if err != nil {
			return s, err
		}
	}
	return s, nil
}

// ownerColumn is the column naming the books' owner.
func ownerColumn(side Side) (owner, partner string) {
	if side == Buyer {
		return "distributor_id", "producer_id"
	}
	return "producer_id", "distributor_id"
}

// owners are the users of side with a document or a recorded payment in
// the month.
func owners(ctx context.Context, q store.Q, side Side, month calendar.Month) ([]string, error) {
	col, _ := ownerColumn(side)
	first, last := month.First().String(), month.Last().String()
	var ids []string
	if err := store.Select(ctx, q, &ids, `SELECT `+col+` FROM documents WHERE issue_date >= ? AND issue_date <= ?
		UNION SELECT `+col+` FROM payments WHERE status = ? AND paid_on >= ? AND paid_on <= ?
		ORDER BY 1`, first, last, payments.Recorded, first, last); err != nil {
		return nil, fmt.Errorf("accounting: owners of %s: %w", month, err)
	}
	return ids, nil
}

// Months lists the months ("2026-11") in which a user of side has a
// document or a recorded payment, latest first: the months it can export.
func Months(ctx context.Context, q store.Q, side Side, userID string) ([]string, error) {
	col, _ := ownerColumn(side)
	months := []string{}
	if err := store.Select(ctx, q, &months, `SELECT substr(issue_date, 1, 7) FROM documents WHERE `+col+` = ?
		UNION SELECT substr(paid_on, 1, 7) FROM payments WHERE `+col+` = ? AND status = ?
		ORDER BY 1 DESC`, userID, userID, payments.Recorded); err != nil {
		return nil, fmt.Errorf("accounting: months of %s: %w", userID, err)
	}
	return months, nil
}

// latestParty is how the latest invoice between the owner and partner
// (any partner when empty) names the party of side's books (the seller
// for Seller): its identity as last invoiced, kept after an account is
// closed.
func latestParty(ctx context.Context, q store.Q, side Side, ownerID, partnerID string) (billing.Party, error) {
	col, other := ownerColumn(side)
	var ids []string
	if err := store.Select(ctx, q, &ids, `SELECT id FROM documents WHERE kind = 'invoice' AND `+col+` = ? AND (? = '' OR `+other+` = ?)
		ORDER BY issue_date DESC, issued_at DESC, number DESC LIMIT 1`, ownerID, partnerID, partnerID); err != nil {
		return billing.Party{}, fmt.Errorf("accounting: latest invoice of %s: %w", ownerID, err)
	}
	if len(ids) == 0 {
		return billing.Party{}, nil
	}
	inv, err := billing.Get(ctx, q, ids[0])
	if err != nil {
		return billing.Party{}, err
	}
	if side == Buyer {
		if partnerID != "" {
			return inv.Seller, nil
		}
		return inv.Buyer, nil
	}
	if partnerID != "" {
		return inv.Buyer, nil
	}
	return inv.Seller, nil
}

// exportBooks writes one user's month into dir.
func exportBooks(ctx context.Context, q store.Q, side Side, ownerID string, month calendar.Month, loc *time.Location,
	dir string, put Put) (Summary, error) {
	var s Summary
	col, other := ownerColumn(side)
	first, last := month.First().String(), month.Last().String()
	ledger, err := LoadLedger(ctx, q, ownerID)
	if err != nil {
		return s, err
	}

	// The month's documents, by their own date of issue.
	// By id, the order of issue, which sortDocuments keeps between two
	// documents of a day and a number (two producers' FA-2026-000001 in a
	// shop's books).
	var ids []string
	if err := store.Select(ctx, q, &ids, `SELECT id FROM documents WHERE `+col+` = ? AND issue_date >= ? AND issue_date <= ?
		ORDER BY id`, ownerID, first, last); err != nil {
		return s, fmt.Errorf("accounting: documents of %s: %w", month, err)
	}
	docs := make([]billing.Invoice, 0, len(ids))
	for _, id := range ids {
		d, err := billing.Document(ctx, q, id)
		if err != nil {
			return s, err
		}
		docs = append(docs, d)
		if d.Kind == billing.KindInvoice {
			s.Invoices++
		} else {
			s.Credits++
		}
	}
	sortDocuments(docs)

	// The month's recorded payments, by the day they were paid.
	var pays []payments.Payment
	if err := store.Select(ctx, q, &pays, `SELECT id, producer_id, distributor_id, amount, paid_on, method, reference, status,
		created_by, created_at, updated_at FROM payments WHERE `+col+` = ? AND status = ? AND paid_on >= ? AND paid_on <= ?
		ORDER BY paid_on, created_at, id`, ownerID, payments.Recorded, first, last); err != nil {
		return s, fmt.Errorf("accounting: payments of %s: %w", month, err)
	}
	s.Payments = len(pays)
	if len(docs) == 0 && len(pays) == 0 {
		return s, nil
	}

	// Each partner's auxiliary account, as its latest invoice names it.
	partners := map[string]Partner{}
	partnerOf := func(id string) (Partner, error) {
		if p, ok := partners[id]; ok {
			return p, nil
		}
		party, err := latestParty(ctx, q, side, ownerID, id)
		if err != nil {
			return Partner{}, err
		}
		partners[id] = PartnerOf(party, id)
		return partners[id], nil
	}
	partnerID := func(producerID, shopID string) string {
		if side == Buyer {
			return producerID
		}
		return shopID
	}

	var entries []Entry
	for _, d := range docs {
		p, err := partnerOf(partnerID(d.ProducerID, d.DistributorID))
		if err != nil {
			return s, err
		}
		e, err := DocumentEntry(side, ledger, d, p, calendar.DateOf(d.IssuedAt.In(loc)).String())
		if err != nil {
			return s, err
		}
		entries = append(entries, e)
	}
	for _, pay := range pays {
		p, err := partnerOf(partnerID(pay.ProducerID, pay.DistributorID))
		if err != nil {
			return s, err
		}
		valid := calendar.DateOf(time.UnixMilli(pay.UpdatedAt).In(loc)).String()
		entries = append(entries, PaymentEntry(side, ledger, pay, p, valid))
	}
	if err := letterBooks(ctx, q, col, other, ownerID, partners, entries); err != nil {
		return s, err
	}
	s.Entries = len(entries)

	owner, err := latestParty(ctx, q, side, ownerID, "")
	if err != nil {
		return s, err
	}
	fec, err := FEC(month, entries)
	if err != nil {
		return s, err
	}
	write := func(name string, data []byte) error {
		if err := put(dir+name, data); err != nil {
			return err
		}
		s.Files++
		return nil
	}
	if err := write(FECName(owner.SIREN(), month), fec); err != nil {
		return s, err
	}
	if err := write(JournalName(side, first[:7]), Register(side, docs)); err != nil {
		return s, err
	}
	// A shop's documents in a folder per producer, two producers of one
	// name without SIREN apart.
	folders, used := map[string]string{}, map[string]int{}
	for _, d := range docs {
		sub := ""
		if side == Buyer {
			if sub = folders[d.ProducerID]; sub == "" {
				dir := Folder(d.Seller)
				if used[dir]++; used[dir] > 1 {
					dir = fmt.Sprintf("%s-%d", dir, used[dir])
				}
				sub = dir + "/"
				folders[d.ProducerID] = sub
			}
		}
		pdf, err := documents.Invoice(d)
		if err != nil {
			return s, fmt.Errorf("accounting: %s: %w", d.Number, err)
		}
		if err := write(sub+documents.InvoiceFileName(d.Number), pdf); err != nil {
			return s, err
		}
		if x, err := documents.InvoiceXML(d); err == nil {
			if err := write(sub+documents.XMLFileName(d.Number), x); err != nil {
				return s, err
			}
		}
	}
	return s, nil
}

// letterBooks letters the entries (Letters) from every document and
// recorded payment of the owner with the partners of the month, whatever
// their month.
func letterBooks(ctx context.Context, q store.Q, col, other, ownerID string, partners map[string]Partner, entries []Entry) error {
	var docs []Item
	if err := store.Select(ctx, q, &docs, `SELECT id, kind, COALESCE(invoice_id, '') AS refers, number, issue_date AS date,
			total_ttc AS amount, `+other+` AS partner FROM documents WHERE `+col+` = ?`, ownerID); err != nil {
		return fmt.Errorf("accounting: documents to letter: %w", err)
	}
	var pays []Item
	if err := store.Select(ctx, q, &pays, `SELECT id, 'payment' AS kind, '' AS refers, '' AS number, paid_on AS date,
			amount, `+other+` AS partner FROM payments WHERE `+col+` = ? AND status = ?`, ownerID, payments.Recorded); err != nil {
		return fmt.Errorf("accounting: payments to letter: %w", err)
	}
	var allocs []payments.Allocation
	if err := store.Select(ctx, q, &allocs, `SELECT a.payment_id, a.document_id, a.amount FROM payment_allocations a
		JOIN payments p ON p.id = a.payment_id WHERE p.`+col+` = ? AND p.status = ?`, ownerID, payments.Recorded); err != nil {
		return fmt.Errorf("accounting: allocations to letter: %w", err)
	}
	keep := func(items []Item) []Item {
		out := items[:0]
		for _, it := range items {
			if _, ok := partners[it.Partner]; ok {
				out = append(out, it)
			}
		}
		return out
	}
	letter(entries, Letters(keep(docs), keep(pays), allocs))
	return nil
}

var unsafeName = regexp.MustCompile(`[^a-z0-9]+`)

// Folder names a party's folder in an export of several: its name in
// lower-case ASCII letters and digits, then its SIREN when known.
func Folder(p billing.Party) string {
	name := strings.Trim(unsafeName.ReplaceAllString(strings.ToLower(fold(p.Name)), "-"), "-")
	if len(name) > 40 {
		name = strings.TrimRight(name[:40], "-")
	}
	if name == "" {
		name = "partenaire"
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

// registerHeader are the register's columns, the partner's named for the
// side (client, fournisseur).
func registerHeader(side Side) []string {
	partner := "client"
	if side == Buyer {
		partner = "fournisseur"
	}
	return []string{"date", "numero", "type", "facture_origine", partner, "siren_" + partner,
		"taux_tva", "montant_ht", "montant_tva", "montant_ttc", "echeance"}
}

// registerKinds name the kinds of document in the register, with the sign
// of their amounts.
var registerKinds = map[string]struct {
	name string
	sign int64
}{
	billing.KindInvoice:    {"facture", 1},
	"":                     {"facture", 1},
	billing.KindComplement: {"facture complémentaire", 1},
	billing.KindCredit:     {"avoir", -1},
	billing.KindDiscount:   {"avoir d'escompte", -1},
}

// Journal is the sales register of a producer's documents (Register).
func Journal(docs []billing.Invoice) []byte { return Register(Seller, docs) }

// Register is the register of documents, readable beside the FEC: CSV as
// French spreadsheet programs and accounting software read it (UTF-8 with
// a byte order mark, ";" between columns, CRLF, decimal comma), one line
// per document in the order given — the date of issue, the number, its
// type (facture, avoir, facture complémentaire, avoir d'escompte), the
// invoice a credit note corrects, the partner (the client in the sales
// register, the supplier in the purchases register) and its SIREN, the
// rate, the amounts HT, TVA and TTC (negative for a credit note), the due
// date.
func Register(side Side, docs []billing.Invoice) []byte {
	var buf bytes.Buffer
	buf.WriteString("\ufeff")
	w := csv.NewWriter(&buf)
	w.Comma, w.UseCRLF = ';', true
	_ = w.Write(registerHeader(side)) // writes to a bytes.Buffer do not fail
	for _, d := range docs {
		k, ok := registerKinds[d.Kind]
		if !ok {
			k = registerKinds[billing.KindInvoice]
		}
		origin := ""
		if d.Refers != nil {
			origin = d.Refers.Number
		}
		rate := "0"
		if !d.VATExempt {
			rate = comma(percent(d.VATRate))
		}
		if !d.VATExempt && len(d.Breakdown) > 1 {
			// A document of several rates lists them all: "5,5 / 20".
			rates := make([]string, len(d.Breakdown))
			for i, r := range d.Breakdown {
				rates[i] = comma(percent(r.Rate))
			}
			rate = strings.Join(rates, " / ")
		}
		party := d.Buyer
		if side == Buyer {
			party = d.Seller
		}
		_ = w.Write([]string{d.IssueDate, d.Number, k.name, origin, clean(party.Name), party.SIREN(), rate,
			comma(cents(k.sign * int64(d.TotalHT))), comma(cents(k.sign * int64(d.TotalVAT))),
			comma(cents(k.sign * int64(d.TotalTTC))), d.DueDate})
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

// percent writes a rate in hundredths of a percent as the register does:
// 550 is "5.5", 2000 "20".
func percent(r int64) string { return strings.TrimSuffix(strings.TrimSuffix(cents(r), "0"), ".0") }

func comma(s string) string { return strings.Replace(s, ".", ",", 1) }
