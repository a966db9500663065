// Package fectest reads a FEC (fichier des écritures comptables, art.
// A47 A-1 LPF) back for tests, checking every rule of the format that can be
// checked offline (Parse), and the lettering across a set of files
// (Lettered).
package fectest

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"

	"primeur/core/accounting"
	"primeur/core/calendar"
)

// Line is a line of a FEC as read back, its fields by name.
type Line map[string]string

// fecCents reads a FEC amount ("1234,50").
func fecCents(t testing.TB, s string) int64 {
	t.Helper()
	if !fecAmount.MatchString(s) {
		t.Fatalf("amount %q: digits, a decimal comma and two decimals expected", s)
	}
	n, err := strconv.ParseInt(strings.Replace(s, ",", "", 1), 10, 64)
	if err != nil {
		t.Fatalf("amount %q: %v", s, err)
	}
	return n
}

var (
	fecAmount  = regexp.MustCompile(`^[0-9]+,[0-9]{2}$`)
	fecName    = regexp.MustCompile(`^([0-9]{9})?FEC([0-9]{8})\.txt$`)
	fecNum     = regexp.MustCompile(`^([A-Z]{2})([0-9]{6})-([0-9]{5})$`)
	fecAccount = regexp.MustCompile(`^[0-9]{3}[0-9A-Za-z]*$`)
)

// fecDate reads a FEC date (AAAAMMJJ) as "YYYY-MM-DD", failing on
// anything that is not a calendar date.
func fecDate(t testing.TB, s string) string {
	t.Helper()
	if len(s) != 8 {
		t.Fatalf("date %q: AAAAMMJJ expected", s)
	}
	d, ok := calendar.ParseDate(s[:4] + "-" + s[4:6] + "-" + s[6:])
	if !ok {
		t.Fatalf("date %q is not a calendar date", s)
	}
	return d.String()
}

// Parse reads a FEC back and checks every rule of art. A47 A-1 LPF (and
// of this export) that can be checked offline, failing the test on the
// first one broken:
//
//   - its name: <SIREN>FEC<AAAAMMJJ>.txt, the date the month's last day;
//   - ISO 8859-15 text without control characters but the tab and CR LF;
//     records ended by CR LF, none empty;
//   - the first line the 18 field names, in order; every line 18 fields;
//   - JournalCode, JournalLib (one label per code), EcritureNum, CompteNum
//     (three digits first), CompteLib, PieceRef, EcritureLib never empty;
//     CompAuxNum and CompAuxLib together;
//   - EcritureDate, PieceDate, ValidDate (and DateLet when lettered)
//     calendar dates AAAAMMJJ, EcritureDate within the month, ValidDate
//     never before EcritureDate and never decreasing down the file (the
//     chronological order of validation);
//   - Debit and Credit with a decimal comma and two decimals, exactly one
//     of them non-zero on every line;
//   - the lines of an entry together, with one date, piece and label;
//     every entry balanced, and the file;
//   - EcritureNum numbered without a gap from 1 within each journal, in the
//     order of the file;
//   - EcritureLet and DateLet together; Montantdevise and Idevise empty (the
//     books are kept in euros).
func Parse(t testing.TB, name string, data []byte, month calendar.Month) []Line {
	t.Helper()
	m := fecName.FindStringSubmatch(name)
	if m == nil || m[2] != strings.ReplaceAll(month.Last().String(), "-", "") {
		t.Fatalf("FEC named %q for %s", name, month)
	}
	for i, b := range data {
		if (b < 0x20 && b != '\t' && b != '\r' && b != '\n') || (b >= 0x7f && b < 0xa0) {
			t.Fatalf("%s: byte %#x at %d is not a character of ISO 8859-15 text", name, b, i)
		}
	}
	text, err := charmap.ISO8859_15.NewDecoder().Bytes(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !bytes.HasSuffix(text, []byte("\r\n")) || bytes.Contains(bytes.ReplaceAll(text, []byte("\r\n"), nil), []byte("\n")) ||
		bytes.Contains(bytes.ReplaceAll(text, []byte("\r\n"), nil), []byte("\r")) {
		t.Fatalf("%s: records are not ended by CR LF", name)
	}
	rows := strings.Split(strings.TrimSuffix(string(text), "\r\n"), "\r\n")
	if rows[0] != strings.Join(accounting.FECHeader, "\t") || len(accounting.FECHeader) != 18 {
		t.Fatalf("%s: header %q", name, rows[0])
	}
	first, last := month.First().String(), month.Last().String()
	var out []Line
	var debit, credit int64
	journals := map[string]string{}
	seq := map[string]int{}
	seen := map[string]bool{}
	type entry struct {
		num, date, piece, label string
		debit, credit           int64
	}
	var cur *entry
	closeEntry := func() {
		if cur != nil && cur.debit != cur.credit {
			t.Fatalf("%s: entry %s not balanced: debit %d, credit %d", name, cur.num, cur.debit, cur.credit)
		}
	}
	prevValid := ""
	for i, row := range rows[1:] {
		if row == "" {
			t.Fatalf("%s: line %d is empty", name, i+2)
		}
		fields := strings.Split(row, "\t")
		if len(fields) != 18 {
			t.Fatalf("%s: line %d has %d fields: %q", name, i+2, len(fields), row)
		}
		l := Line{}
		for j, f := range fields {
			if f != strings.TrimSpace(f) {
				t.Fatalf("%s: line %d, %s %q has spaces around it", name, i+2, accounting.FECHeader[j], f)
			}
			l[accounting.FECHeader[j]] = f
		}
		for _, f := range []string{"JournalCode", "JournalLib", "EcritureNum", "CompteNum", "CompteLib", "PieceRef", "EcritureLib"} {
			if l[f] == "" {
				t.Fatalf("%s: line %d without %s", name, i+2, f)
			}
		}
		if lib, ok := journals[l["JournalCode"]]; ok && lib != l["JournalLib"] {
			t.Fatalf("%s: journal %s named %q and %q", name, l["JournalCode"], lib, l["JournalLib"])
		}
		journals[l["JournalCode"]] = l["JournalLib"]
		if !fecAccount.MatchString(l["CompteNum"]) {
			t.Fatalf("%s: line %d, account %q", name, i+2, l["CompteNum"])
		}
		if (l["CompAuxNum"] == "") != (l["CompAuxLib"] == "") {
			t.Fatalf("%s: line %d, auxiliary account %q %q", name, i+2, l["CompAuxNum"], l["CompAuxLib"])
		}
		date := fecDate(t, l["EcritureDate"])
		if date < first || date > last {
			t.Fatalf("%s: line %d dated %s, outside %s", name, i+2, date, month)
		}
		fecDate(t, l["PieceDate"])
		valid := fecDate(t, l["ValidDate"])
		if valid < date || valid < prevValid {
			t.Fatalf("%s: line %d validated %s (dated %s, after a line validated %s)", name, i+2, valid, date, prevValid)
		}
		prevValid = valid
		if (l["EcritureLet"] == "") != (l["DateLet"] == "") {
			t.Fatalf("%s: line %d, lettering %q %q", name, i+2, l["EcritureLet"], l["DateLet"])
		}
		if l["DateLet"] != "" {
			fecDate(t, l["DateLet"])
		}
		if l["Montantdevise"] != "" || l["Idevise"] != "" {
			t.Fatalf("%s: line %d in a currency", name, i+2)
		}
		d, c := fecCents(t, l["Debit"]), fecCents(t, l["Credit"])
		if (d == 0) == (c == 0) {
			t.Fatalf("%s: line %d, debit %s and credit %s", name, i+2, l["Debit"], l["Credit"])
		}
		debit += d
		credit += c
		if cur == nil || cur.num != l["EcritureNum"] {
			closeEntry()
			num := fecNum.FindStringSubmatch(l["EcritureNum"])
			if num == nil || num[1] != l["JournalCode"] || num[2] != strings.ReplaceAll(first[:7], "-", "") {
				t.Fatalf("%s: line %d, entry number %q", name, i+2, l["EcritureNum"])
			}
			if seen[l["EcritureNum"]] {
				t.Fatalf("%s: the lines of entry %s are apart", name, l["EcritureNum"])
			}
			seen[l["EcritureNum"]] = true
			seq[l["JournalCode"]]++
			if n, _ := strconv.Atoi(num[3]); n != seq[l["JournalCode"]] {
				t.Fatalf("%s: entry %s where %s%s-%05d comes", name, l["EcritureNum"], num[1], num[2], seq[l["JournalCode"]])
			}
			cur = &entry{num: l["EcritureNum"], date: date, piece: l["PieceRef"], label: l["EcritureLib"]}
		} else if cur.date != date || cur.piece != l["PieceRef"] || cur.label != l["EcritureLib"] {
			t.Fatalf("%s: entry %s mixes pieces, dates or labels", name, cur.num)
		}
		cur.debit += d
		cur.credit += c
		out = append(out, l)
	}
	closeEntry()
	if debit != credit {
		t.Fatalf("%s: debit %d, credit %d", name, debit, credit)
	}
	return out
}

// Lettered checks the lettering of the lines of a set of FECs (every file
// a group's lines may be in: the lettering of the books, not of a month):
// the lines of a lettering code on an account balance, with one DateLet,
// never before a line's date. It returns the number of codes.
func Lettered(t testing.TB, lines []Line) int {
	t.Helper()
	type key struct{ account, aux, code string }
	sums := map[key]int64{}
	dates := map[key]string{}
	for _, l := range lines {
		if l["EcritureLet"] == "" {
			continue
		}
		k := key{l["CompteNum"], l["CompAuxNum"], l["EcritureLet"]}
		if d, ok := dates[k]; ok && d != l["DateLet"] {
			t.Fatalf("lettering %v dated %s and %s", k, d, l["DateLet"])
		}
		dates[k] = l["DateLet"]
		if l["DateLet"] < l["EcritureDate"] {
			t.Fatalf("lettering %v dated %s, before its line of %s", k, l["DateLet"], l["EcritureDate"])
		}
		sums[k] += fecCents(t, l["Debit"]) - fecCents(t, l["Credit"])
	}
	for k, s := range sums {
		if s != 0 {
			t.Fatalf("lettering %v does not balance: %d", k, s)
		}
	}
	return len(sums)
}
