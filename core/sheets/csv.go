package sheets

import (
	"bytes"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// A CSV text, as spreadsheet programs save one: UTF-8 with or without a
// byte order mark, UTF-16 with one (Excel's "Texte Unicode"), or else
// Windows-1252 (Excel's "CSV (séparateur : point-virgule)" in a French
// Windows); columns separated by ";", "," or a tab, whichever splits the
// lines consistently (";" first: French programs write decimal commas);
// Excel's "sep=;" first line is honoured. Every cell is text, as typed: the
// caller reads numbers the French way.

// csvReader holds the one sheet of a CSV file.
type csvReader struct {
	text string
	sep  rune
	lim  Limits
}

func openCSV(wb *Workbook, name string, data []byte) error {
	text, err := decodeText(data)
	if err != nil {
		return err
	}
	r := &csvReader{text: text, lim: wb.lim}
	if first, rest, ok := strings.Cut(text, "\n"); ok && len(first) <= 6 && strings.HasPrefix(strings.ToLower(first), "sep=") {
		sep := strings.TrimRight(first[4:], "\r")
		if c, size := utf8.DecodeRuneInString(sep); size == len(sep) && size > 0 {
			r.sep, r.text = c, rest
		}
	}
	if r.sep == 0 {
		r.sep = separator(r.text)
	}
	base := filepath.Base(strings.TrimSpace(name))
	wb.Names = []string{strings.TrimSuffix(base, filepath.Ext(base))}
	wb.Hidden = []bool{false}
	wb.reader = r
	return nil
}

// decodeText is the file as UTF-8 text: a UTF-8 or UTF-16 byte order mark
// says the encoding, valid UTF-8 is taken as such, anything else is
// Windows-1252. Binary content (NUL bytes outside UTF-16) is refused.
func decodeText(data []byte) (string, error) {
	if bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, oleHeader) {
		return "", ErrUnreadable // a workbook named .csv
	}
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		data = data[3:]
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}), bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		out, _, err := transform.Bytes(unicode.BOMOverride(unicode.UTF8.NewDecoder()), data)
		if err != nil || !utf8.Valid(out) {
			return "", ErrUnreadable
		}
		data = out
	case !utf8.Valid(data):
		out, _, err := transform.Bytes(charmap.Windows1252.NewDecoder(), data)
		if err != nil {
			return "", ErrUnreadable
		}
		data = out
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return "", ErrUnreadable
	}
	return string(data), nil
}

// separator chooses the column separator: of ";", tab and ",", the one
// that splits the most of the first lines into several columns; a tie
// goes to the first of them.
func separator(text string) rune {
	best, score := ';', -1
	for _, sep := range []rune{';', '\t', ','} {
		n := 0
		rest := text
		var rec []string
		for lines := 0; lines < 30 && rest != ""; lines++ {
			rec, rest = record(rest, sep, rec[:0])
			if len(rec) > 1 {
				n++
			}
		}
		if n > score {
			best, score = sep, n
		}
	}
	return best
}

// record splits the first record off text: fields separated by sep, a
// field between double quotes holding separators, line breaks and doubled
// quotes; a quote elsewhere is kept as written (as spreadsheet programs
// read it). An empty line is a record of one empty field: a spreadsheet
// shows it as an empty row, and rows are numbered as it numbers them.
func record(text string, sep rune, fields []string) ([]string, string) {
	var b strings.Builder
	quoted, started := false, false
	for i := 0; i < len(text); {
		c, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case quoted && c == '"' && strings.HasPrefix(text[i+1:], `"`):
			b.WriteByte('"')
			i += 2
			continue
		case quoted && c == '"':
			quoted = false
		case quoted:
			b.WriteRune(c)
		case c == '"' && !started:
			quoted = true
		case c == sep:
			fields = append(fields, b.String())
			b.Reset()
			started = false
			i += size
			continue
		case c == '\n' || c == '\r':
			if c == '\r' && strings.HasPrefix(text[i+1:], "\n") {
				size++
			}
			return append(fields, b.String()), text[i+size:]
		default:
			b.WriteRune(c)
		}
		started = true
		i += size
	}
	return append(fields, b.String()), ""
}

func (r *csvReader) sheet(_, maxRows int) (*Sheet, error) {
	s := &Sheet{}
	b := rowBuilder{lim: r.lim.Columns}
	rest := r.text
	var rec []string
	for row := 1; rest != ""; row++ {
		if row > maxRow {
			return nil, ErrUnreadable
		}
		rec, rest = record(rest, r.sep, rec[:0])
		b.reset(row)
		for i, v := range rec {
			if strings.TrimSpace(v) == "" {
				continue
			}
			if len(v) > maxCellText {
				return nil, ErrUnreadable
			}
			b.add(Cell{Col: i + 1, Kind: Text, Value: v})
		}
		if b.blank {
			continue
		}
		if len(s.Rows) == maxRows {
			s.More = true
			break
		}
		s.Rows = append(s.Rows, b.row)
	}
	return s, nil
}
