package planning

import (
	"fmt"
	"strings"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
	"primeur/core/sheets"
)

// Bounds of the table's search and of what one answer lists.
const (
	// headerSearchRows is how far down a sheet the header row is looked
	// for, below title rows and instructions.
	headerSearchRows = 30
	// maxSheets is how many sheets are looked at for the needs table.
	maxSheets = 20
	// maxSheetRows bounds the rows of the needs sheet read: the products,
	// and room for titles, a header and totals.
	maxSheetRows = MaxImportRows + 2*headerSearchRows
	// maxColumns bounds the columns of a row read; a value further right
	// is named as a value without a month.
	maxColumns = 256
	// maxProblems is how many problems a refusal names one by one.
	maxProblems = 50
	// maxFormulas bounds the formulas without a stored result that are
	// computed, maxFormulaCells the cells one reference of them may cover
	// and maxFormulaWork the cells they reach together.
	maxFormulas     = 2_000
	maxFormulaCells = 10_000
	maxFormulaWork  = 100_000
	// maxSuggestions bounds the missing names a close catalogue name is
	// looked for (a file of thousands of unknown names is not a typo).
	maxSuggestions = 30
)

// What a column of the header row holds.
type colKind int

const (
	colIgnored colKind = iota // before the product column, or words that are not a month
	colMonth                  // a month: its quantities are imported
	colUnit                   // the products' unit
	colBlank                  // no header: must stay empty
)

type column struct {
	kind  colKind
	month int // index into Import.Months
}

// productHeaders are the product column's headers (catalog.NameKey's form).
var productHeaders = map[string]bool{
	"produit": true, "produits": true, "designation": true, "designations": true, "article": true,
	"articles": true, "libelle": true, "libelles": true, "nom du produit": true, "nom produit": true,
	"produit fruit ou legume": true, "fruits et legumes": true, "legume": true, "legumes": true,
}

// ignoredHeaders are columns a shop adds beside its needs, skipped.
var ignoredHeaders = map[string]bool{
	"total": true, "totaux": true, "total general": true, "total annuel": true, "somme": true, "cumul": true,
	"commentaire": true, "commentaires": true, "remarque": true, "remarques": true, "observation": true,
	"observations": true, "note": true, "notes": true, "prix": true, "fournisseur": true, "code": true,
	"reference": true, "ref": true, "categorie": true, "famille": true, "rayon": true, "origine": true,
	"moyenne": true,
}

// isTotal reports a row or column of totals.
func isTotal(key string) bool {
	return key == "total" || key == "totaux" || key == "somme" || strings.HasPrefix(key, "total ") ||
		strings.HasPrefix(key, "sous total")
}

// header is where a sheet's needs table starts, as findHeader sees it.
type header struct {
	row        int // the header's row, 0 when the sheet has none
	productCol int
	// last is the latest month of the header.
	last calendar.Month
	// monthless is the first row of a product header without months.
	monthless int
}

// findHeader looks for the needs table's header among the first rows of a
// sheet: a row with a product column — its header in the row, or in a
// cell merged down over it — followed by at least one month (or what was
// meant as one). It records no problem: the sheet may not be the one read.
func findHeader(wb *sheets.Workbook, s *sheets.Sheet) header {
	var h header
	for _, r := range s.Rows {
		if r.Num > headerSearchRows {
			break
		}
		product := productColumn(s, r)
		if product == 0 {
			continue
		}
		months := 0
		for _, c := range r.Cells {
			if c.Col <= product {
				continue
			}
			if c.Pending {
				var err error
				if c, err = wb.Compute(s, c.Col, r.Num); err != nil {
					months++ // a formula meant as a month: its problem is named
					continue
				}
			}
			m, kind := readMonth(c.Value, wb.Date1904)
			if kind != notMonth {
				months++
			}
			if kind == isMonth && m > h.last {
				h.last = m
			}
		}
		if months > 0 {
			h.row, h.productCol = r.Num, product
			return h
		}
		if h.monthless == 0 {
			h.monthless = r.Num
		}
	}
	return h
}

// productColumn is the column of a row whose cell, or the cell merged down
// over it from a row above, heads the products; 0 when none.
func productColumn(s *sheets.Sheet, r sheets.Row) int {
	for _, c := range r.Cells {
		if !c.Pending && c.Kind == sheets.Text && productHeaders[catalog.NameKey(c.Value)] {
			return c.Col
		}
	}
	for _, g := range s.Merged {
		if g.FromRow < r.Num && g.ToRow >= r.Num {
			if c := cellAt(s, g.FromCol, g.FromRow); !c.Pending && c.Kind == sheets.Text && productHeaders[catalog.NameKey(c.Value)] {
				return g.FromCol
			}
		}
	}
	return 0
}

// cellAt is a cell of the rows read (an empty one when none).
func cellAt(s *sheets.Sheet, col, row int) sheets.Cell {
	lo, hi := 0, len(s.Rows)
	for lo < hi {
		mid := (lo + hi) / 2
		switch n := s.Rows[mid].Num; {
		case n == row:
			return s.Rows[mid].At(col)
		case n < row:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return sheets.Cell{Col: col}
}

// table reads the needs table of the sheet chosen: the header row, found
// below any title rows (a second header row under it, of units or any
// text, or merged with it), then the products. Every problem of the
// table is collected; none stops the reading but the bounds. A cell is
// read — a formula without a stored result computed — only when its value
// is used: the rows and columns skipped are not.
type table struct {
	wb *sheets.Workbook
	s  *sheets.Sheet
	ix *catalog.Index
	// suggested counts the missing names a suggestion was looked for.
	suggested int

	imp        Import
	header     int // the header's row
	headerEnd  int // its last row (merged cells over two rows)
	productCol int
	width      int            // the header's last column
	cols       map[int]column // the columns right of the product column
	colUnits   map[int]string // the units row under the header, by column
	unitsSeen  bool           // the first row after the header was read
	seen       map[string]int // product id or name key → its row

	problems []string
	more     int
}

func newTable(wb *sheets.Workbook, s *sheets.Sheet, ix *catalog.Index) *table {
	return &table{wb: wb, s: s, ix: ix, cols: map[int]column{}, seen: map[string]int{}}
}

func (t *table) problem(format string, args ...any) {
	if len(t.problems) == maxProblems {
		t.more++
		return
	}
	t.problems = append(t.problems, fmt.Sprintf(format, args...))
}

// err is the refusal naming every problem, or nil.
func (t *table) err() error {
	if len(t.problems) == 0 {
		return nil
	}
	v := &core.ValidationError{}
	for _, p := range t.problems {
		v.Add(ImportField, p)
	}
	if t.more > 0 {
		v.Add(ImportField, fmt.Sprintf(msgImportMore, t.more))
	}
	return v
}

// read reads the table of the sheet; an error stops it (a bound), the
// problems are recorded.
func (t *table) read() error {
	h := findHeader(t.wb, t.s)
	if h.row == 0 {
		return importError(MsgImportNoHeader)
	}
	t.header, t.productCol = h.row, h.productCol
	if err := t.readHeader(); err != nil {
		return err
	}
	for _, r := range t.s.Rows {
		if r.Num <= t.header {
			continue
		}
		if r.Num <= t.headerEnd {
			t.readUnitsRow(r, true)
			continue
		}
		if err := t.readRow(r); err != nil {
			return err
		}
	}
	if t.s.More {
		return importError(MsgImportManyRows)
	}
	return nil
}

// value is what a cell holds, a formula without a stored result computed;
// ok is false when it could not be computed (the problem is recorded).
func (t *table) value(c sheets.Cell, row int) (sheets.Cell, bool) {
	if !c.Pending {
		return c, true
	}
	// Compute's errors all wrap sheets.ErrUncomputable: the formula cannot
	// be computed exactly, whatever the reason.
	v, err := t.wb.Compute(t.s, c.Col, row)
	if err != nil {
		t.problem(msgImportFormula, sheets.CellName(c.Col, row), clip(t.s.Formula(c, row)))
		return c, false
	}
	return v, true
}

// readHeader reads the header row's columns right of the product column,
// and where the header ends: the last row of a cell merged down from it.
func (t *table) readHeader() error {
	r := rowAt(t.s, t.header)
	t.width, t.headerEnd = t.productCol, t.header
	for _, g := range t.s.Merged {
		if g.FromRow <= t.header && g.ToRow >= t.header && g.ToCol >= t.productCol {
			t.headerEnd = max(t.headerEnd, g.ToRow)
			t.width = max(t.width, g.ToCol)
		}
	}
	for _, c := range r.Cells {
		if c.Col > t.productCol {
			t.width = max(t.width, c.Col)
		}
	}
	t.width = min(t.width, maxColumns)
	seen := map[calendar.Month]int{}
	for col := t.productCol + 1; col <= t.width; col++ {
		ref := sheets.CellName(col, t.header)
		c, ok := t.value(r.At(col), t.header)
		if !ok {
			continue
		}
		raw := strings.TrimSpace(c.Value)
		key := catalog.NameKey(raw)
		if raw == "" {
			t.cols[col] = t.blankHeader(col)
			continue
		}
		m, h := readMonth(raw, t.wb.Date1904)
		switch {
		case h == isMonth:
			if first, dup := seen[m]; dup {
				t.problem(msgImportDupMonth, ref, m.Numeric(), sheets.CellName(first, t.header))
				continue
			}
			seen[m] = col
			t.cols[col] = column{kind: colMonth, month: len(t.imp.Months)}
			t.imp.Months = append(t.imp.Months, m.String())
		case h == noYearYet:
			t.problem(msgImportNoYear, ref, clip(raw), clip(raw))
		case isUnitHeader(key):
			t.cols[col] = column{kind: colUnit}
		case ignoredHeaders[key] || isTotal(key) || h == notMonth:
			// a column beside the needs: skipped
		default:
			t.problem(msgImportBadMonth, ref, clip(raw))
		}
	}
	if len(t.imp.Months) > MaxImportMonths {
		return importError(MsgImportManyMonths)
	}
	return nil
}

// rowAt is a row of the sheet (an empty one when none holds anything).
func rowAt(s *sheets.Sheet, num int) sheets.Row {
	for _, r := range s.Rows {
		if r.Num == num {
			return r
		}
	}
	return sheets.Row{Num: num}
}

// column is what a column of the table holds.
func (t *table) column(col int) column {
	if col > t.width {
		return column{kind: colBlank}
	}
	return t.cols[col]
}

func isUnitHeader(key string) bool {
	return key == "unite" || key == "unites" || key == "unit" || key == "u"
}

// blankHeader is the column of an empty header cell: the month of a header
// merged over it, or a column that must stay empty.
func (t *table) blankHeader(col int) column {
	if g, ok := t.s.MergedAt(col, t.header); ok && g.FromCol < col {
		if c, ok := t.cols[g.FromCol]; ok && c.kind == colMonth {
			return c
		}
	}
	return column{kind: colBlank}
}

// readRow reads a row below the header.
func (t *table) readRow(r sheets.Row) error {
	if len(t.imp.Rows) == MaxImportRows {
		return importError(MsgImportManyRows)
	}
	first := !t.unitsSeen
	t.unitsSeen = true
	nameCell, ok := t.value(r.At(t.productCol), r.Num)
	if !ok {
		return nil
	}
	name := strings.TrimSpace(nameCell.Value)
	key := catalog.NameKey(name)
	if isTotal(key) {
		return nil // a totals row: not read, its formulas not computed
	}
	if first && t.readUnitsRow(r, false) {
		return nil
	}
	if name == "" {
		for _, c := range r.Cells {
			if t.column(c.Col).kind != colMonth {
				continue
			}
			if v, ok := t.value(c, r.Num); ok && strings.TrimSpace(v.Value) != "" {
				t.problem(msgImportNoName, sheets.CellName(t.productCol, r.Num))
				break
			}
		}
		return nil
	}
	row := ImportRow{Line: r.Num, Name: name}
	id := key
	if p, ok := t.ix.Match(name); ok {
		row.Product, id = &p, p.ID
	} else if t.suggested < maxSuggestions {
		t.suggested++
		if p, ok := t.ix.Closest(name); ok {
			row.Suggestion = p.Name
		}
	}
	if line, dup := t.seen[id]; dup {
		t.problem(msgImportDupProduct, clip(name), line, r.Num)
		return nil
	}
	t.seen[id] = r.Num
	byMonth := map[int]string{} // month → the cell holding it (merged headers)
	cells := r.Cells
	if r.Beyond.Col > 0 {
		cells = append(cells[:len(cells):len(cells)], r.Beyond)
	}
	for _, c := range cells {
		if c.Col <= t.productCol {
			continue
		}
		col := t.column(c.Col)
		if col.kind == colIgnored {
			continue // not read: a formula there is not computed
		}
		ref := sheets.CellName(c.Col, r.Num)
		v, ok := t.value(c, r.Num)
		if !ok {
			continue
		}
		raw := strings.TrimSpace(v.Value)
		if raw == "" {
			continue
		}
		switch col.kind {
		case colUnit:
			t.checkUnit(row, ref, raw)
			continue
		case colBlank:
			t.problem(msgImportOutside, ref, clip(raw))
			continue
		}
		if other, dup := byMonth[col.month]; dup {
			t.problem(msgImportTwice, other, ref)
			continue
		}
		byMonth[col.month] = ref
		if v.Kind == sheets.Error {
			t.problem(msgImportFormulaError, ref, clip(raw))
			continue
		}
		if cell, ok := t.quantity(&row, ref, raw, t.colUnits[c.Col]); ok {
			cell.Month = col.month
			row.Cells = append(row.Cells, cell)
		}
	}
	t.imp.Rows = append(t.imp.Rows, row)
	return nil
}

// readUnitsRow reads a second header row: one inside the header's merged
// cells (inHeader), or the row right under the header when its product
// cell is empty or says "Unité" and its month cells hold words, not
// quantities — units ("kg", "un", "(pièces)"), which then apply to their
// columns, or any other text ("kg / pièces", "quantité"), which is a
// label. It reports whether the row is one.
func (t *table) readUnitsRow(r sheets.Row, inHeader bool) bool {
	product := r.At(t.productCol)
	if !inHeader {
		if product.Pending || product.Kind != sheets.Empty && !isUnitHeader(catalog.NameKey(product.Value)) {
			return false
		}
	}
	units, words := map[int]string{}, 0
	for _, c := range r.Cells {
		if c.Col <= t.productCol || t.column(c.Col).kind != colMonth {
			continue
		}
		if c.Pending || c.Kind == sheets.Number || c.Kind == sheets.Error {
			if inHeader {
				continue
			}
			return false
		}
		raw := strings.TrimSpace(c.Value)
		if raw == "" {
			continue
		}
		if _, _, v := readValue(raw); v == valueNumber || v == valueZero {
			if inHeader {
				continue
			}
			return false
		}
		words++
		if u, ok := unitOf(strings.Trim(raw, "()[] ")); ok {
			units[c.Col] = u
		}
	}
	if words == 0 && !inHeader {
		return false
	}
	if len(units) > 0 {
		t.colUnits = units
	}
	return true
}

// checkUnit compares a unit the file gives for a product with the
// catalogue's.
func (t *table) checkUnit(row ImportRow, ref, raw string) bool {
	u, ok := unitOf(raw)
	if !ok {
		t.problem(msgImportUnknownUnit, ref, clip(raw))
		return false
	}
	if row.Product != nil && !sameUnit(u, row.Product.Unit) {
		t.problem(msgImportUnit, ref, clip(raw), row.Product.Name, unitName(row.Product.Unit), unitName(row.Product.Unit))
		return false
	}
	return true
}

// quantity reads a quantity cell of a product row; ok is false when there
// is nothing to write or a problem was recorded.
func (t *table) quantity(row *ImportRow, ref, raw, colUnit string) (ImportCell, bool) {
	f, unit, v := readValue(raw)
	switch v {
	case valueNone:
		return ImportCell{}, false
	case valueError:
		t.problem(msgImportFormulaError, ref, clip(raw))
		return ImportCell{}, false
	case valueText:
		t.problem(msgImportText, ref, clip(raw))
		return ImportCell{}, false
	case valueZero:
		f = 0
	}
	if f < 0 {
		t.problem(msgImportNegative, ref, clip(raw))
		return ImportCell{}, false
	}
	if row.Product == nil {
		return ImportCell{}, false // reported as missing; its unit is unknown
	}
	if unit == "" {
		unit = colUnit
	}
	if unit != "" && !t.checkUnit(*row, ref, unit) {
		return ImportCell{}, false
	}
	p := row.Product
	q, exact := decimal.FromSpreadsheet(f)
	switch {
	case catalog.Whole(p.Unit) && (!exact || !q.IsWhole()):
		t.problem(msgImportPieces, ref, clip(raw), p.Name, unitName(p.Unit))
		return ImportCell{}, false
	case !exact:
		var ok bool
		if q, ok = decimal.RoundShortest(f); !ok {
			t.problem(msgImportCell, ref, p.Name, MsgTooLarge)
			return ImportCell{}, false
		}
		t.imp.Rounded = append(t.imp.Rounded, ImportRounding{Cell: ref, Product: p.Name, Read: clip(raw), Quantity: q})
	}
	if q > MaxQuantity {
		t.problem(msgImportCell, ref, p.Name, MsgTooLarge)
		return ImportCell{}, false
	}
	return ImportCell{Quantity: q, Ref: ref}, true
}
