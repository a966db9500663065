package sheets

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"strconv"
	"strings"
)

// An Excel workbook (Office Open XML, ECMA-376), read with encoding/xml by
// local names, so that the transitional and strict namespaces, and
// prefixed elements (<x:c>), read alike.

// xlsxReader reads the sheets of an .xlsx.
type xlsxReader struct {
	zip     *archive
	parts   []string // each sheet's part
	strings []string // the shared strings
	lim     Limits
}

func openXLSX(wb *Workbook, data []byte) error {
	a, err := openZip(data, wb.lim)
	if err != nil {
		return err
	}
	book := "xl/workbook.xml"
	if rels, ok := a.read("_rels/.rels"); ok {
		for _, r := range relationships(rels, "") {
			if strings.HasSuffix(r.kind, "/officeDocument") {
				book = r.target
			}
		}
	}
	content, ok := a.read(book)
	if !ok {
		return ErrUnreadable
	}
	r := &xlsxReader{zip: a, lim: wb.lim}
	rels := map[string]relationship{}
	if data, ok := a.read(path.Join(path.Dir(book), "_rels", path.Base(book)+".rels")); ok {
		for _, rel := range relationships(data, path.Dir(book)) {
			rels[rel.id] = rel
		}
	}
	activeTab, tab := 0, 0
	wb.Active = -1
	d := xml.NewDecoder(bytes.NewReader(content))
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return ErrUnreadable
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch el.Name.Local {
		case "workbookPr":
			v := attr(el, "date1904")
			wb.Date1904 = v == "1" || v == "true"
		case "workbookView":
			if n, err := strconv.Atoi(attr(el, "activeTab")); err == nil {
				activeTab = n
			}
		case "sheet":
			// A chart sheet or a dialog sheet holds no cells, but it
			// counts among the tabs activeTab numbers.
			tab++
			rel, ok := rels[attrNS(el, "id")]
			if !ok || !strings.HasSuffix(rel.kind, "/worksheet") {
				continue
			}
			if tab-1 == activeTab {
				wb.Active = len(wb.Names)
			}
			state := attr(el, "state")
			wb.Names = append(wb.Names, attr(el, "name"))
			wb.Hidden = append(wb.Hidden, state == "hidden" || state == "veryHidden")
			r.parts = append(r.parts, rel.target)
		}
	}
	if len(wb.Names) == 0 {
		return ErrUnreadable
	}
	shared := path.Join(path.Dir(book), "sharedStrings.xml")
	for _, rel := range rels {
		if strings.HasSuffix(rel.kind, "/sharedStrings") {
			shared = rel.target
		}
	}
	if rc, ok := a.open(shared); ok {
		r.strings, err = sharedStrings(rc)
		rc.Close()
		if err != nil {
			return ErrUnreadable
		}
	}
	wb.reader = r
	return nil
}

// relationship is one entry of a .rels part.
type relationship struct {
	id, kind, target string
}

// relationships reads a .rels part; targets are resolved against dir.
func relationships(data []byte, dir string) []relationship {
	var out []relationship
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := d.RawToken()
		if err != nil {
			return out
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "Relationship" {
			target := attr(el, "Target")
			if strings.EqualFold(attr(el, "TargetMode"), "External") {
				continue
			}
			if strings.HasPrefix(target, "/") {
				target = strings.TrimPrefix(target, "/")
			} else {
				target = path.Join(dir, target)
			}
			out = append(out, relationship{id: attr(el, "Id"), kind: attr(el, "Type"), target: target})
		}
	}
}

// attr is an attribute by its local name, with no namespace prefix.
func attr(el xml.StartElement, local string) string {
	for _, a := range el.Attr {
		if a.Name.Local == local && a.Name.Space == "" {
			return a.Value
		}
	}
	return ""
}

// attrNS is an attribute by its local name, with a namespace prefix
// (r:id).
func attrNS(el xml.StartElement, local string) string {
	for _, a := range el.Attr {
		if a.Name.Local == local && a.Name.Space != "" {
			return a.Value
		}
	}
	return ""
}

// sharedStrings reads the shared strings: each <si> is its <t>, or its
// rich-text runs' <t> joined; phonetic runs (<rPh>) are left out.
func sharedStrings(r io.Reader) ([]string, error) {
	var out []string
	var b strings.Builder
	d := xml.NewDecoder(r)
	inText, phonetic := false, 0
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "si":
				b.Reset()
			case "rPh":
				phonetic++
			case "t":
				inText = phonetic == 0
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "si":
				out = append(out, unescapeOOXML(b.String()))
			case "rPh":
				phonetic--
			case "t":
				inText = false
			}
		case xml.CharData:
			if inText {
				b.Write(t)
			}
		}
	}
}

// unescapeOOXML reads the _xHHHH_ escapes of OOXML strings (a carriage
// return is written _x000D_).
func unescapeOOXML(s string) string {
	if !strings.Contains(s, "_x") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if i+7 <= len(s) && s[i] == '_' && s[i+1] == 'x' && s[i+6] == '_' {
			if n, err := strconv.ParseUint(s[i+2:i+6], 16, 16); err == nil {
				b.WriteRune(rune(n))
				i += 7
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// Formula types of <f t="…">.
const (
	formulaNormal uint8 = iota
	formulaShared
	formulaArray
	formulaTable
)

// sheet streams a worksheet's XML: its rows (the first maxRows holding
// something) and its merged ranges.
func (r *xlsxReader) sheet(i, maxRows int) (*Sheet, error) {
	rc, ok := r.zip.open(r.parts[i])
	if !ok {
		return nil, ErrUnreadable
	}
	defer rc.Close()
	s := &Sheet{shared: map[int32]sharedFormula{}}
	d := xml.NewDecoder(rc)
	var (
		b                  = rowBuilder{lim: r.lim.Columns}
		rowNum, col        int
		inRow, inCell      bool
		text               bytes.Buffer
		reading            string // the element whose text is read: v, f or t
		cellType           string
		value, formula     string
		hasValue, inInline bool
		ftype              uint8
		si                 int32
		master             bool
		phonetic           int
	)
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, ErrUnreadable
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "row":
				rowNum++
				if n, err := strconv.Atoi(attr(t, "r")); err == nil {
					if n < rowNum || n > maxRow {
						return nil, ErrUnreadable
					}
					rowNum = n
				}
				inRow, col = true, 0
				b.reset(rowNum)
			case "c":
				if !inRow {
					return nil, ErrUnreadable
				}
				col++
				if ref := attr(t, "r"); ref != "" {
					c, row, ok := ParseCellName(ref)
					if !ok || row != rowNum {
						return nil, ErrUnreadable
					}
					col = c
				}
				inCell, cellType = true, attr(t, "t")
				value, formula, hasValue, ftype, si, master = "", "", false, formulaNormal, 0, false
			case "v":
				if inCell {
					reading, hasValue = "v", true
					text.Reset()
				}
			case "f":
				if inCell {
					reading = "f"
					text.Reset()
					switch attr(t, "t") {
					case "shared":
						ftype = formulaShared
						n, err := strconv.ParseInt(attr(t, "si"), 10, 32)
						if err != nil || n < 0 {
							return nil, ErrUnreadable
						}
						si, master = int32(n), attr(t, "ref") != ""
					case "array":
						ftype = formulaArray
					case "dataTable":
						ftype = formulaTable
					}
				}
			case "is":
				if inCell {
					inInline, hasValue = true, true
					text.Reset()
				}
			case "rPh":
				phonetic++
			case "t":
				if inInline && phonetic == 0 {
					reading = "t"
				}
			case "mergeCell":
				if g, ok := parseRange(attr(t, "ref")); ok {
					s.Merged = append(s.Merged, g)
				}
			}
		case xml.CharData:
			if reading != "" {
				if text.Len()+len(t) > maxCellText {
					return nil, ErrUnreadable
				}
				text.Write(t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "v":
				if reading == "v" {
					value, reading = text.String(), ""
				}
			case "f":
				if reading == "f" {
					formula, reading = text.String(), ""
				}
			case "t":
				if reading == "t" {
					reading = ""
				}
			case "rPh":
				phonetic--
			case "is":
				if inInline {
					value, inInline = text.String(), false
				}
			case "c":
				if !inCell {
					continue
				}
				inCell = false
				if len(s.Rows) >= maxRows {
					if hasValue && value != "" || formula != "" || ftype == formulaShared {
						s.More = true
					}
					continue
				}
				c, err := r.cell(col, cellType, value, hasValue, formula, ftype)
				if err != nil {
					return nil, err
				}
				if ftype == formulaShared {
					if master && formula != "" {
						s.shared[si] = sharedFormula{col: col, row: rowNum, text: formula}
					} else {
						c.shared = si + 1
					}
				}
				b.add(c)
			case "row":
				inRow = false
				if !b.blank && len(s.Rows) < maxRows {
					s.Rows = append(s.Rows, b.row)
				}
			}
		}
	}
	return s, nil
}

// maxCellText bounds what one cell may hold (Excel's own limit is 32 767
// characters).
const maxCellText = 8 << 20

// cell makes a cell from what its XML says.
func (r *xlsxReader) cell(col int, cellType, value string, hasValue bool, formula string, ftype uint8) (Cell, error) {
	c := Cell{Col: col, Formula: formula}
	// A formula's stored result is its <v>: absent or empty, the formula
	// has none (openpyxl writes <v></v>, ExcelJS no <v>) — except an empty
	// text result, which Excel stores as <v></v> in a t="str" cell.
	stored := hasValue && (value != "" || cellType == "str" || cellType == "inlineStr")
	isFormula := formula != "" || ftype == formulaShared
	if isFormula && !stored {
		c.Pending = true
		c.ftype = ftype
		return c, nil
	}
	c.ftype = ftype
	switch cellType {
	case "s":
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || n < 0 || n >= len(r.strings) {
			return c, ErrUnreadable
		}
		c.Kind, c.Value = Text, r.strings[n]
	case "str", "inlineStr":
		c.Kind, c.Value = Text, unescapeOOXML(value)
	case "b":
		c.Kind, c.Value = Bool, "FALSE"
		if strings.TrimSpace(value) == "1" || strings.EqualFold(strings.TrimSpace(value), "true") {
			c.Value = "TRUE"
		}
	case "e":
		c.Kind, c.Value = Error, strings.TrimSpace(value)
	case "d":
		c.Kind, c.Value = Date, strings.TrimSpace(value)
	case "", "n":
		v := strings.TrimSpace(value)
		if v == "" {
			return c, nil
		}
		if _, err := strconv.ParseFloat(v, 64); err != nil && !errors.Is(err, strconv.ErrRange) {
			return c, ErrUnreadable
		}
		c.Kind, c.Value = Number, v
	default:
		return c, ErrUnreadable
	}
	return c, nil
}

// parseRange reads "B2:C3" (or "B2", a range of one cell).
func parseRange(s string) (Range, bool) {
	from, to, found := strings.Cut(s, ":")
	if !found {
		to = from
	}
	c1, r1, ok1 := ParseCellName(from)
	c2, r2, ok2 := ParseCellName(to)
	if !ok1 || !ok2 {
		return Range{}, false
	}
	return Range{FromCol: min(c1, c2), FromRow: min(r1, r2), ToCol: max(c1, c2), ToRow: max(r1, r2)}, true
}
