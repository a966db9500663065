package accounting

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/unicode/norm"

	"primeur/core/calendar"
	"primeur/core/decimal"
	"primeur/core/printable"
)

// The fichier des écritures comptables (FEC) of art. A47 A-1 of the Livre
// des procédures fiscales, as BOI-CF-IOR-60-40-20 comments it and the
// DGFiP's own checker (Test Compta Demat) reads it:
//
//   - a flat text file, one record per line (CR LF here), the first line
//     the names of the fields, in the order of the text;
//   - the 18 fields of every book-keeping (FECHeader), separated by a
//     tabulation (the text allows the tab or "|"; a tab is never part of
//     a value here: values are cut to one line, tabs and bars made spaces);
//   - dates as AAAAMMJJ, amounts in euros with a decimal comma and no
//     thousands separator, a Debit and a Credit field on every line, one of
//     them zero;
//   - characters of ISO 8859-15 (Latin-9, which has € and œ), one of the
//     character sets the text names (ASCII, ISO 8859-15, EBCDIC);
//     a character outside it becomes its unaccented letter, or "?";
//   - the file named <SIREN>FEC<AAAAMMJJ>.txt (FECName).
//
// Every entry (écriture: a piece's lines, one EcritureNum) is balanced, and
// the entries are in the chronological order of their validation
// (ValidDate), numbered without a gap within each journal.

// FECHeader are the 18 fields of art. A47 A-1, in order.
var FECHeader = []string{"JournalCode", "JournalLib", "EcritureNum", "EcritureDate", "CompteNum", "CompteLib",
	"CompAuxNum", "CompAuxLib", "PieceRef", "PieceDate", "EcritureLib", "Debit", "Credit", "EcritureLet",
	"DateLet", "ValidDate", "Montantdevise", "Idevise"}

// Journals: the sales of a producer, the purchases of a shop, and the
// payments of either, to the bank or in cash.
const (
	JournalSales     = "VT"
	JournalPurchases = "AC"
	JournalBank      = "BQ"
	JournalCash      = "CA"
)

// JournalLabels are the journals' labels (JournalLib).
var JournalLabels = map[string]string{
	JournalSales:     "Journal des ventes",
	JournalPurchases: "Journal des achats",
	JournalBank:      "Journal de banque",
	JournalCash:      "Journal de caisse",
}

// journalOrder orders entries validated the same day: documents, then
// what pays them.
var journalOrder = map[string]int{JournalSales: 0, JournalPurchases: 0, JournalBank: 1, JournalCash: 2}

// Posting is one line of an entry: an account (with its auxiliary account,
// the partner, on 411 and 401), a debit or a credit, and the lettering
// that matches it with the lines settling it.
type Posting struct {
	Account, AccountLabel string
	AuxNum, AuxLabel      string
	Debit, Credit         decimal.Dec
	// Let and LetDate letter the line (EcritureLet, DateLet: "YYYY-MM-DD").
	Let, LetDate string
}

// Entry is one book-keeping entry: the postings of one piece (a document
// or a payment), balanced.
type Entry struct {
	Journal string
	// Date is the entry's date (EcritureDate), the piece's own: a
	// document's date of issue, a payment's day.
	Date string
	// PieceRef and PieceDate name the piece.
	PieceRef, PieceDate string
	Label               string
	// ValidDate is the day the entry became final: a document's issue, a
	// payment's recording (or the producer's confirmation).
	ValidDate string
	// Source is the document's or payment's id (lettering).
	Source   string
	Postings []Posting
}

// balanced checks an entry: postings with one side each, positive, debits
// equal to credits.
func (e Entry) balanced() error {
	var d, c decimal.Dec
	for _, p := range e.Postings {
		if (p.Debit == 0) == (p.Credit == 0) || p.Debit < 0 || p.Credit < 0 {
			return fmt.Errorf("accounting: %s: a line with debit %d and credit %d", e.PieceRef, p.Debit, p.Credit)
		}
		d += p.Debit
		c += p.Credit
	}
	if d != c || len(e.Postings) < 2 {
		return fmt.Errorf("accounting: %s: %d lines, debit %d, credit %d", e.PieceRef, len(e.Postings), d, c)
	}
	return nil
}

// FECName is the name of a FEC for a month: the SIREN, "FEC", and the
// closing day of the period (the month's last day): 123456789FEC20261130.txt.
// Without a SIREN the name starts at "FEC".
func FECName(siren string, month calendar.Month) string {
	return siren + "FEC" + compact(month.Last().String()) + ".txt"
}

// compact writes a date "YYYY-MM-DD" as the FEC does: AAAAMMJJ.
func compact(date string) string { return strings.ReplaceAll(date, "-", "") }

// FEC writes the entries of a month as a FEC: sorted by validation day,
// then date, journal and piece; numbered within each journal
// ("VT202611-00001"). An entry that is not balanced, or whose date is not
// in the month, is an error: the file is never written wrong.
func FEC(month calendar.Month, entries []Entry) ([]byte, error) {
	first, last := month.First().String(), month.Last().String()
	sorted := slices.Clone(entries)
	for _, e := range sorted {
		if err := e.balanced(); err != nil {
			return nil, err
		}
		if e.Date < first || e.Date > last {
			return nil, fmt.Errorf("accounting: %s dated %s is not of %s", e.PieceRef, e.Date, month)
		}
	}
	slices.SortStableFunc(sorted, func(a, b Entry) int {
		return cmpEntries(a, b)
	})
	var buf bytes.Buffer
	row := func(fields []string) {
		for i, f := range fields {
			if i > 0 {
				buf.WriteByte('\t')
			}
			buf.Write(latin9(f))
		}
		buf.WriteString("\r\n")
	}
	row(FECHeader)
	seq := map[string]int{}
	prefix := fmt.Sprintf("%04d%02d", month.Year(), int(month.Number()))
	for _, e := range sorted {
		seq[e.Journal]++
		num := fmt.Sprintf("%s%s-%05d", e.Journal, prefix, seq[e.Journal])
		for _, p := range e.Postings {
			row([]string{e.Journal, JournalLabels[e.Journal], num, compact(e.Date), p.Account, text(p.AccountLabel),
				text(p.AuxNum), text(p.AuxLabel), text(e.PieceRef), compact(e.PieceDate), text(e.Label),
				amount(p.Debit), amount(p.Credit), text(p.Let), compact(p.LetDate), compact(e.ValidDate), "", ""})
		}
	}
	return buf.Bytes(), nil
}

// cmpEntries orders entries: by validation day, date, journal (documents
// before payments), piece.
func cmpEntries(a, b Entry) int {
	for _, c := range [][2]string{{a.ValidDate, b.ValidDate}, {a.Date, b.Date}} {
		if n := strings.Compare(c[0], c[1]); n != 0 {
			return n
		}
	}
	if n := journalOrder[a.Journal] - journalOrder[b.Journal]; n != 0 {
		return n
	}
	if n := strings.Compare(a.Journal, b.Journal); n != 0 {
		return n
	}
	return strings.Compare(a.PieceRef, b.PieceRef)
}

// amount writes cents as the FEC does: 1234,50 (0,00 for none).
func amount(c decimal.Dec) string {
	return fmt.Sprintf("%d,%02d", int64(c)/100, int64(c)%100)
}

// text makes a value of a field: one line (printable.Line), no tab nor
// bar, spaces collapsed.
func text(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '|' {
			return ' '
		}
		return r
	}, printable.Line(s))
	return strings.Join(strings.Fields(s), " ")
}

// typographic are the characters of French text outside Latin-9 with a
// plain equivalent.
var typographic = strings.NewReplacer("\u2018", "'", "\u2019", "'", "\u201a", "'", "\u201b", "'", "\u2032", "'",
	"\u201c", "\"", "\u201d", "\"", "\u201e", "\"", "\u2033", "\"", "\u2010", "-", "\u2011", "-", "\u2012", "-",
	"\u2013", "-", "\u2014", "-", "\u2212", "-", "\u2026", "...", "\u2022", "-")

// latin9 encodes text in ISO 8859-15: a character outside it becomes its
// typographic equivalent, else its compatibility decomposition without
// accents (ﬁ → fi, ǹ → n), else "?".
func latin9(s string) []byte {
	s = typographic.Replace(s)
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if b, ok := charmap.ISO8859_15.EncodeRune(r); ok {
			out = append(out, b)
			continue
		}
		n := len(out)
		for _, d := range norm.NFKD.String(string(r)) {
			if unicode.Is(unicode.Mn, d) {
				continue
			}
			if b, ok := charmap.ISO8859_15.EncodeRune(d); ok && d != r {
				out = append(out, b)
			}
		}
		if len(out) == n {
			out = append(out, '?')
		}
	}
	return out
}
