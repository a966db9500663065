// Package sheetstest writes .xlsx files as script writers (ExcelJS,
// EPPlus, openpyxl) write them, for the tests of core/sheets and
// core/planning: formulas without stored results, shared formulas (the
// first cell of a group holding the formula and the group's range, the
// others only the group's number), tables with a totals row, an active
// sheet, merged cells, shared strings.
package sheetstest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"primeur/core/sheets"
)

// Formula is a formula without a stored result ("B2*2", no "=").
type Formula string

// Cached is a formula with its stored result.
type Cached struct {
	Formula string
	Value   any // float64, int, string or bool
}

// Shared is the first cell of a group of cells sharing a formula: Ref is
// the group's range, starting at this cell; every cell of it gets the
// formula, moved as Excel moves references.
type Shared struct {
	Formula string
	Ref     string
}

// Sheet is one sheet: cells by reference ("B2") — a float64, an int, a
// string, a bool, a Formula, a Cached or a Shared.
type Sheet struct {
	Name   string
	Cells  map[string]any
	Merged []string
	Hidden bool
	// Table, when set, makes the sheet's range an Excel table.
	Table *Table
}

// Table is an Excel table over a sheet's range, its header in the first
// row, its totals row (if any) in the last.
type Table struct {
	Name      string
	Ref       string
	TotalsRow bool
}

// Workbook is the file.
type Workbook struct {
	Sheets []Sheet
	// Active is the index of the sheet the file opens on.
	Active int
}

// XLSX writes the workbook.
func XLSX(wb Workbook) ([]byte, error) {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	put := func(name, content string) error {
		w, err := z.Create(name)
		if err == nil {
			_, err = w.Write([]byte(content))
		}
		return err
	}
	strs := &sharedStrings{index: map[string]int{}}
	var types, sheetsXML, rels strings.Builder
	types.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
		`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
		`<Default Extension="xml" ContentType="application/xml"/>` +
		`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
		`<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
		`<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>`)
	tables := 0
	for i, s := range wb.Sheets {
		n := i + 1
		fmt.Fprintf(&types, `<Override PartName="/xl/worksheets/sheet%d.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`, n)
		state := ""
		if s.Hidden {
			state = ` state="hidden"`
		}
		fmt.Fprintf(&sheetsXML, `<sheet name="%s" sheetId="%d"%s r:id="rId%d"/>`, esc(s.Name), n, state, n)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet%d.xml"/>`, n, n)
		xml, err := sheetXML(s, i == wb.Active, strs, tables+1)
		if err != nil {
			return nil, fmt.Errorf("sheet %s: %w", s.Name, err)
		}
		if err := put(fmt.Sprintf("xl/worksheets/sheet%d.xml", n), xml); err != nil {
			return nil, err
		}
		if s.Table != nil {
			tables++
			fmt.Fprintf(&types, `<Override PartName="/xl/tables/table%d.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml"/>`, tables)
			if err := put(fmt.Sprintf("xl/worksheets/_rels/sheet%d.xml.rels", n), `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`+
				`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+
				fmt.Sprintf(`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/table" Target="../tables/table%d.xml"/>`, tables)+
				`</Relationships>`); err != nil {
				return nil, err
			}
			table, err := tableXML(s, tables)
			if err != nil {
				return nil, err
			}
			if err := put(fmt.Sprintf("xl/tables/table%d.xml", tables), table); err != nil {
				return nil, err
			}
		}
	}
	types.WriteString(`</Types>`)
	n := len(wb.Sheets)
	fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>`, n+1)
	fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>`, n+2)
	parts := []struct{ name, content string }{
		{"[Content_Types].xml", types.String()},
		{"_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>` +
			`</Relationships>`},
		{"xl/workbook.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
			fmt.Sprintf(`<bookViews><workbookView xWindow="0" yWindow="0" windowWidth="12000" windowHeight="24000" activeTab="%d"/></bookViews>`, wb.Active) +
			`<sheets>` + sheetsXML.String() + `</sheets><calcPr calcId="171027"/></workbook>`},
		{"xl/_rels/workbook.xml.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + rels.String() + `</Relationships>`},
		{"xl/styles.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
			`<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>` +
			`<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
			`<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
			`<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
			`<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>` +
			`<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`},
		{"xl/sharedStrings.xml", strs.xml()},
	}
	for _, p := range parts {
		if err := put(p.name, p.content); err != nil {
			return nil, err
		}
	}
	if err := z.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type sharedStrings struct {
	list  []string
	index map[string]int
}

func (s *sharedStrings) add(v string) int {
	if i, ok := s.index[v]; ok {
		return i
	}
	s.index[v] = len(s.list)
	s.list = append(s.list, v)
	return len(s.list) - 1
}

func (s *sharedStrings) xml() string {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="%d" uniqueCount="%d">`, len(s.list), len(s.list))
	for _, v := range s.list {
		fmt.Fprintf(&b, `<si><t xml:space="preserve">%s</t></si>`, esc(v))
	}
	b.WriteString(`</sst>`)
	return b.String()
}

type cellAt struct {
	col, row int
	ref      string
	v        any
}

// sheetXML writes a worksheet: every cell, those of shared groups filled
// in, in row and column order.
func sheetXML(s Sheet, active bool, strs *sharedStrings, _ int) (string, error) {
	cells := map[[2]int]cellAt{}
	si := 0
	for ref, v := range s.Cells {
		col, row, ok := sheets.ParseCellName(ref)
		if !ok {
			return "", fmt.Errorf("cell %q", ref)
		}
		if sh, ok := v.(Shared); ok {
			from, to, _ := strings.Cut(sh.Ref, ":")
			c1, r1, ok1 := sheets.ParseCellName(from)
			c2, r2, ok2 := sheets.ParseCellName(to)
			if !ok1 || !ok2 || c1 != col || r1 != row {
				return "", fmt.Errorf("shared range %q at %s", sh.Ref, ref)
			}
			for r := r1; r <= r2; r++ {
				for c := c1; c <= c2; c++ {
					if c == col && r == row {
						cells[[2]int{c, r}] = cellAt{c, r, ref, sharedMaster{sh, si}}
					} else {
						cells[[2]int{c, r}] = cellAt{c, r, sheets.CellName(c, r), sharedChild(si)}
					}
				}
			}
			si++
			continue
		}
		if _, dup := cells[[2]int{col, row}]; !dup {
			cells[[2]int{col, row}] = cellAt{col, row, ref, v}
		}
	}
	list := make([]cellAt, 0, len(cells))
	for _, c := range cells {
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].row != list[j].row {
			return list[i].row < list[j].row
		}
		return list[i].col < list[j].col
	})
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
		`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">`)
	selected := ""
	if active {
		selected = ` tabSelected="1"`
	}
	fmt.Fprintf(&b, `<sheetViews><sheetView workbookViewId="0"%s/></sheetViews><sheetData>`, selected)
	row := 0
	for _, c := range list {
		if c.row != row {
			if row != 0 {
				b.WriteString(`</row>`)
			}
			row = c.row
			fmt.Fprintf(&b, `<row r="%d">`, row)
		}
		ref := sheets.CellName(c.col, c.row)
		switch v := c.v.(type) {
		case nil:
			fmt.Fprintf(&b, `<c r="%s"/>`, ref)
		case float64:
			fmt.Fprintf(&b, `<c r="%s"><v>%s</v></c>`, ref, strconv.FormatFloat(v, 'g', -1, 64))
		case int:
			fmt.Fprintf(&b, `<c r="%s"><v>%d</v></c>`, ref, v)
		case bool:
			fmt.Fprintf(&b, `<c r="%s" t="b"><v>%d</v></c>`, ref, boolInt(v))
		case string:
			fmt.Fprintf(&b, `<c r="%s" t="s"><v>%d</v></c>`, ref, strs.add(v))
		case Formula:
			fmt.Fprintf(&b, `<c r="%s"><f>%s</f></c>`, ref, esc(string(v)))
		case Cached:
			switch r := v.Value.(type) {
			case string:
				fmt.Fprintf(&b, `<c r="%s" t="str"><f>%s</f><v>%s</v></c>`, ref, esc(v.Formula), esc(r))
			case bool:
				fmt.Fprintf(&b, `<c r="%s" t="b"><f>%s</f><v>%d</v></c>`, ref, esc(v.Formula), boolInt(r))
			default:
				fmt.Fprintf(&b, `<c r="%s"><f>%s</f><v>%v</v></c>`, ref, esc(v.Formula), r)
			}
		case sharedMaster:
			fmt.Fprintf(&b, `<c r="%s"><f t="shared" ref="%s" si="%d">%s</f></c>`, ref, v.Ref, v.si, esc(v.Formula))
		case sharedChild:
			fmt.Fprintf(&b, `<c r="%s"><f t="shared" si="%d"/></c>`, ref, int(v))
		default:
			return "", fmt.Errorf("cell %s: %T", ref, c.v)
		}
	}
	if row != 0 {
		b.WriteString(`</row>`)
	}
	b.WriteString(`</sheetData>`)
	if len(s.Merged) > 0 {
		fmt.Fprintf(&b, `<mergeCells count="%d">`, len(s.Merged))
		for _, m := range s.Merged {
			fmt.Fprintf(&b, `<mergeCell ref="%s"/>`, m)
		}
		b.WriteString(`</mergeCells>`)
	}
	if s.Table != nil {
		b.WriteString(`<tableParts count="1"><tablePart r:id="rId1"/></tableParts>`)
	}
	b.WriteString(`</worksheet>`)
	return b.String(), nil
}

type sharedMaster struct {
	Shared
	si int
}

type sharedChild int

// tableXML writes the table part: its columns named by the header row.
func tableXML(s Sheet, id int) (string, error) {
	t := s.Table
	from, to, _ := strings.Cut(t.Ref, ":")
	c1, r1, ok1 := sheets.ParseCellName(from)
	c2, r2, ok2 := sheets.ParseCellName(to)
	if !ok1 || !ok2 {
		return "", fmt.Errorf("table range %q", t.Ref)
	}
	totals, filterTo := "", t.Ref
	if t.TotalsRow {
		totals = ` totalsRowCount="1"`
		filterTo = from + ":" + sheets.CellName(c2, r2-1)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`+
		`<table xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" id="%d" name="%s" displayName="%s" ref="%s"%s>`+
		`<autoFilter ref="%s"/><tableColumns count="%d">`, id, esc(t.Name), esc(t.Name), t.Ref, totals, filterTo, c2-c1+1)
	for c := c1; c <= c2; c++ {
		name, _ := s.Cells[sheets.CellName(c, r1)].(string)
		extra := ""
		if t.TotalsRow {
			switch v := s.Cells[sheets.CellName(c, r2)].(type) {
			case string:
				extra = fmt.Sprintf(` totalsRowLabel="%s"`, esc(v))
			case Formula, Cached:
				extra = ` totalsRowFunction="sum"`
			}
		}
		fmt.Fprintf(&b, `<tableColumn id="%d" name="%s"%s/>`, c-c1+1, esc(name), extra)
	}
	b.WriteString(`</tableColumns><tableStyleInfo name="TableStyleMedium2" showFirstColumn="0" showLastColumn="0" showRowStripes="1" showColumnStripes="0"/></table>`)
	return b.String(), nil
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}

func esc(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
