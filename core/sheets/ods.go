package sheets

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
)

// An OpenDocument spreadsheet (ODF 1.2/1.3, what LibreOffice saves): the
// sheets are the <table:table> of content.xml, in order; the active one
// is named in settings.xml. Read with encoding/xml: no maintained Go
// module reads .ods with merged cells and formulas' stored values (the
// ones on the module proxy read cells' text only, and are unmaintained).

// The namespaces of the elements and attributes read.
const (
	nsTable   = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
	nsOffice  = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
	nsText    = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
	nsStyle   = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
	nsConfig  = "urn:oasis:names:tc:opendocument:xmlns:config:1.0"
	nsCalcExt = "urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"
	odsType   = "application/vnd.oasis.opendocument.spreadsheet"
)

// odsReader reads the sheets of an .ods: content.xml is kept, with where
// each sheet starts.
type odsReader struct {
	content []byte
	starts  []int64 // offset of each <table:table>
	ends    []int64
	prefix  map[string]string // namespace prefixes of the document element
	lim     Limits
}

func openODS(wb *Workbook, data []byte) error {
	a, err := openZip(data, wb.lim)
	if err != nil {
		return err
	}
	mime, ok := a.read("mimetype")
	if !ok || strings.TrimSpace(string(mime)) != odsType {
		return ErrUnreadable
	}
	if manifest, ok := a.read("META-INF/manifest.xml"); ok && bytes.Contains(manifest, []byte("encryption-data")) {
		return ErrEncrypted
	}
	content, ok := a.read("content.xml")
	if !ok {
		return ErrUnreadable
	}
	r := &odsReader{content: content, lim: wb.lim}
	hiddenStyles := map[string]bool{}
	d := xml.NewDecoder(bytes.NewReader(content))
	depth := 0
	var style string
	for {
		offset := d.InputOffset()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return ErrUnreadable
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch {
			case t.Name.Space == nsStyle && t.Name.Local == "style":
				style = nsAttr(t, nsStyle, "name")
			case t.Name.Space == nsStyle && t.Name.Local == "table-properties":
				if nsAttr(t, nsTable, "display") == "false" {
					hiddenStyles[style] = true
				}
			case t.Name.Space == nsTable && t.Name.Local == "table":
				r.starts = append(r.starts, offset)
				wb.Names = append(wb.Names, nsAttr(t, nsTable, "name"))
				wb.Hidden = append(wb.Hidden, hiddenStyles[nsAttr(t, nsTable, "style-name")])
				if err := d.Skip(); err != nil {
					return ErrUnreadable
				}
				depth--
				r.ends = append(r.ends, d.InputOffset())
			}
			if depth == 1 {
				r.prefix = map[string]string{}
				for _, a := range t.Attr {
					if a.Name.Space == "xmlns" {
						r.prefix[a.Name.Local] = a.Value
					}
				}
			}
		case xml.EndElement:
			depth--
		}
	}
	if len(wb.Names) == 0 {
		return ErrUnreadable
	}
	wb.Active = 0
	if settings, ok := a.read("settings.xml"); ok {
		if name, ok := activeTable(settings); ok {
			for i, n := range wb.Names {
				if n == name {
					wb.Active = i
				}
			}
		}
	}
	wb.reader = r
	return nil
}

// activeTable is the sheet named active in settings.xml's view settings.
func activeTable(data []byte) (string, bool) {
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := d.Token()
		if err != nil {
			return "", false
		}
		if t, ok := tok.(xml.StartElement); ok && t.Name.Space == nsConfig && t.Name.Local == "config-item" &&
			nsAttr(t, nsConfig, "name") == "ActiveTable" {
			var name string
			if err := d.DecodeElement(&name, &t); err != nil {
				return "", false
			}
			return name, true
		}
	}
}

// nsAttr is an attribute by namespace and local name.
func nsAttr(el xml.StartElement, space, local string) string {
	for _, a := range el.Attr {
		if a.Name.Local == local && a.Name.Space == space {
			return a.Value
		}
	}
	return ""
}

// sheet reads one <table:table>: rows and cells with their repetitions
// (a run of equal rows or cells is written once with its count), merged
// cells from their spans, covered cells as empty.
func (r *odsReader) sheet(i, maxRows int) (*Sheet, error) {
	// The sheet's element is decoded alone; the document element's
	// namespace prefixes are declared around it.
	var head bytes.Buffer
	head.WriteString("<r")
	for p, ns := range r.prefix {
		head.WriteString(" xmlns:" + p + `="`)
		_ = xml.EscapeText(&head, []byte(ns))
		head.WriteString(`"`)
	}
	head.WriteString(">")
	d := xml.NewDecoder(io.MultiReader(&head, bytes.NewReader(r.content[r.starts[i]:r.ends[i]]), strings.NewReader("</r>")))
	s := &Sheet{}
	var (
		b              = rowBuilder{lim: r.lim.Columns}
		row, col       int // the next row and column, from 1
		rowRepeat      int
		cell           *odsCell
		text           strings.Builder
		paragraphs     int
		skip           int // depth inside an annotation, ignored
		inCell, inText bool
	)
	row = 1
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, ErrUnreadable
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if skip > 0 {
				skip++
				continue
			}
			switch {
			case t.Name.Space == nsTable && t.Name.Local == "table-row":
				rowRepeat = repeat(nsAttr(t, nsTable, "number-rows-repeated"))
				col = 1
				b.reset(row)
			case t.Name.Space == nsTable && (t.Name.Local == "table-cell" || t.Name.Local == "covered-table-cell"):
				cell = &odsCell{covered: t.Name.Local == "covered-table-cell", repeat: repeat(nsAttr(t, nsTable, "number-columns-repeated"))}
				cell.read(t)
				inCell, paragraphs = true, 0
				text.Reset()
			case t.Name.Space == nsOffice && t.Name.Local == "annotation":
				skip = 1
			case inCell && t.Name.Space == nsText && t.Name.Local == "p":
				if paragraphs > 0 {
					text.WriteByte('\n')
				}
				paragraphs++
				inText = true
			case inText && t.Name.Space == nsText && t.Name.Local == "s":
				text.WriteString(strings.Repeat(" ", min(repeat(nsAttr(t, nsText, "c")), 1024)))
			case inText && t.Name.Space == nsText && t.Name.Local == "tab":
				text.WriteByte('\t')
			case inText && t.Name.Space == nsText && t.Name.Local == "line-break":
				text.WriteByte('\n')
			}
		case xml.CharData:
			if inText && skip == 0 {
				if text.Len()+len(t) > maxCellText {
					return nil, ErrUnreadable
				}
				text.Write(t)
			}
		case xml.EndElement:
			if skip > 0 {
				skip--
				continue
			}
			switch {
			case t.Name.Space == nsText && t.Name.Local == "p":
				inText = false
			case t.Name.Space == nsTable && (t.Name.Local == "table-cell" || t.Name.Local == "covered-table-cell"):
				inCell = false
				c := cell.value(text.String())
				if cell.spanCols > 1 || cell.spanRows > 1 {
					s.Merged = append(s.Merged, Range{FromCol: col, FromRow: row,
						ToCol: min(col+cell.spanCols-1, maxCol), ToRow: min(row+max(cell.spanRows, 1)-1, maxRow)})
				}
				if c.Kind != Empty || c.IsFormula() {
					for n := 0; n < cell.repeat && col+n <= maxCol; n++ {
						c.Col = col + n
						b.add(c)
						if c.Col > r.lim.Columns {
							break
						}
					}
				}
				col += cell.repeat
			case t.Name.Space == nsTable && t.Name.Local == "table-row":
				if !b.blank {
					for n := 0; n < rowRepeat; n++ {
						if len(s.Rows) >= maxRows {
							s.More = true
							return s, nil
						}
						r := b.row
						r.Num = row + n
						s.Rows = append(s.Rows, r)
					}
				}
				row += rowRepeat
				if row > maxRow+1 {
					return nil, ErrUnreadable
				}
			}
		}
	}
	return s, nil
}

// repeat reads a repetition count, 1 when absent or wrong.
func repeat(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 1
	}
	return min(n, maxRow)
}

// odsCell is what a <table:table-cell>'s attributes say.
type odsCell struct {
	covered            bool
	repeat             int
	spanCols, spanRows int
	valueType          string
	calcType           string // calcext:value-type, "error" for an error
	raw                string // office:value, date-value, boolean-value…
	hasValue           bool
	formula            string
}

func (c *odsCell) read(t xml.StartElement) {
	c.spanCols, _ = strconv.Atoi(nsAttr(t, nsTable, "number-columns-spanned"))
	c.spanRows, _ = strconv.Atoi(nsAttr(t, nsTable, "number-rows-spanned"))
	c.formula = nsAttr(t, nsTable, "formula")
	c.calcType = nsAttr(t, nsCalcExt, "value-type")
	c.valueType = nsAttr(t, nsOffice, "value-type")
	for _, a := range t.Attr {
		if a.Name.Space != nsOffice {
			continue
		}
		switch a.Name.Local {
		case "value", "date-value", "time-value", "boolean-value", "string-value":
			c.raw, c.hasValue = a.Value, true
		}
	}
}

// value is the cell: its typed value, or the text of its paragraphs.
func (c *odsCell) value(text string) Cell {
	var out Cell
	if c.formula != "" {
		// "of:=SUM([.B2:.B3])": the formula as LibreOffice writes it.
		out.Formula = strings.TrimPrefix(strings.TrimPrefix(c.formula, "of:"), "=")
	}
	if c.covered {
		return Cell{}
	}
	switch {
	case c.calcType == "error":
		out.Kind, out.Value = Error, strings.TrimSpace(text)
	case c.valueType == "float" || c.valueType == "percentage" || c.valueType == "currency":
		if _, err := strconv.ParseFloat(c.raw, 64); err == nil {
			out.Kind, out.Value = Number, c.raw
		} else if c.formula != "" {
			out.Pending = true
		} else {
			out.Kind, out.Value = Text, text
		}
	case c.valueType == "date":
		out.Kind, out.Value = Date, c.raw
	case c.valueType == "boolean":
		out.Kind, out.Value = Bool, "FALSE"
		if c.raw == "true" {
			out.Value = "TRUE"
		}
	case c.valueType == "string" && c.hasValue:
		out.Kind, out.Value = Text, c.raw
	case c.valueType != "":
		// A string, or a time: the text as shown.
		out.Kind, out.Value = Text, text
	case c.formula != "":
		out.Pending = true
	case text != "":
		out.Kind, out.Value = Text, text
	}
	if out.Kind == Text && out.Value == "" && !out.Pending && out.Formula == "" {
		out.Kind = Empty
	}
	return out
}
