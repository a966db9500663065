package planning

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/xuri/excelize/v2"

	"primeur/core"
	"primeur/core/calendar"
	"primeur/core/catalog"
	"primeur/core/decimal"
)

// Bounds of the table's search and of what one answer lists.
const (
	// headerSearchRows is how far down a sheet the header row is looked
	// for, below title rows and instructions.
	headerSearchRows = 30
	// maxSheets is how many sheets are looked at for the needs table.
	maxSheets = 20
	// maxProblems is how many problems a refusal names one by one.
	maxProblems = 50
	// maxFormulas bounds the formulas without a stored result that are
	// computed, and maxFormulaCells the cells one of them may reference.
	maxFormulas     = 2_000
	maxFormulaCells = 10_000
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

// table reads the needs table of one sheet: the header row, found below
// any title rows, then the products. Every problem of the table is
// collected, none stops the reading but the bounds.
type table struct {
	f        *excelize.File
	sheet    string
	ix       *catalog.Index
	date1904 bool
	formulas bool // the workbook holds formulas (checkZip)
	computed int  // formulas computed so far
	// suggested counts the missing names a suggestion was looked for.
	suggested int

	imp        Import
	line       int // the current row
	header     int // the header's row, 0 until found
	productCol int
	cols       []column
	colUnits   map[int]string // the units row under the header, by column
	unitsSeen  bool           // the first row after the header was read
	merged     []excelize.MergeCell
	seen       map[string]int // product id or name key → its row

	problems []string
	more     int
	// monthless is the row of a product header without months, for the
	// message when no sheet has a table.
	monthless int
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

// readHeader looks for the header in a row: a product column followed by
// at least one month. It reports whether the row is the header; the
// problems of its cells are recorded.
func (t *table) readHeader(cols []string) (bool, error) {
	product := -1
	for i, c := range cols {
		if productHeaders[catalog.NameKey(c)] {
			product = i
			break
		}
	}
	if product < 0 {
		return false, nil
	}
	cols, err := t.withFormulas(cols, product+1+MaxImportMonths*2)
	if err != nil {
		return false, err
	}
	months := 0
	for _, c := range cols[product+1:] {
		if _, h := readMonth(c, t.date1904); h != notMonth {
			months++ // a month, or what was meant as one: its problem is named
		}
	}
	if months == 0 {
		if t.monthless == 0 {
			t.monthless = t.line
		}
		return false, nil
	}
	t.header, t.productCol = t.line, product
	t.cols = make([]column, len(cols))
	seen := map[calendar.Month]int{}
	for i := product + 1; i < len(cols); i++ {
		raw := strings.TrimSpace(cols[i])
		ref := cellRef(i+1, t.line)
		key := catalog.NameKey(raw)
		if raw == "" {
			t.cols[i] = t.blankHeader(i)
			continue
		}
		m, h := readMonth(raw, t.date1904)
		switch {
		case h == isMonth:
			if first, dup := seen[m]; dup {
				t.problem(msgImportDupMonth, ref, m.Numeric(), cellRef(first+1, t.line))
				continue
			}
			seen[m] = i
			t.cols[i] = column{kind: colMonth, month: len(t.imp.Months)}
			t.imp.Months = append(t.imp.Months, m.String())
		case h == noYearYet:
			t.problem(msgImportNoYear, ref, clip(raw), clip(raw))
		case isUnitHeader(key):
			t.cols[i] = column{kind: colUnit}
		case ignoredHeaders[key] || isTotal(key) || h == notMonth:
			// a column beside the needs: skipped
		default:
			t.problem(msgImportBadMonth, ref, clip(raw))
		}
	}
	if len(t.imp.Months) > MaxImportMonths {
		return false, importError(MsgImportManyMonths)
	}
	return true, nil
}

func isUnitHeader(key string) bool {
	return key == "unite" || key == "unites" || key == "unit" || key == "u"
}

// blankHeader is the column of an empty header cell: the month of a header
// merged over it, or a column that must stay empty.
func (t *table) blankHeader(i int) column {
	if i == 0 || t.cols[i-1].kind != colMonth {
		return column{kind: colBlank}
	}
	if t.merged == nil {
		var err error
		if t.merged, err = t.f.GetMergeCells(t.sheet, true); err != nil || t.merged == nil {
			t.merged = []excelize.MergeCell{}
		}
	}
	ref := cellRef(i+1, t.line)
	for _, m := range t.merged {
		sc, sr, err1 := excelize.CellNameToCoordinates(m.GetStartAxis())
		ec, er, err2 := excelize.CellNameToCoordinates(m.GetEndAxis())
		if err1 != nil || err2 != nil {
			continue
		}
		c, r, _ := excelize.CellNameToCoordinates(ref)
		if r >= sr && r <= er && c > sc && c <= ec && t.cols[sc-1].kind == colMonth {
			return t.cols[sc-1]
		}
	}
	return column{kind: colBlank}
}

// readRow reads a row below the header.
func (t *table) readRow(cols []string) error {
	if len(t.imp.Rows) == MaxImportRows {
		return importError(MsgImportManyRows)
	}
	cols, err := t.withFormulas(cols, len(t.cols))
	if err != nil {
		return err
	}
	if isBlank(cols) {
		return nil
	}
	first := !t.unitsSeen
	t.unitsSeen = true
	name := ""
	if t.productCol < len(cols) {
		name = strings.TrimSpace(cols[t.productCol])
	}
	key := catalog.NameKey(name)
	if isTotal(key) {
		return nil
	}
	if first && t.readUnitsRow(cols, key) {
		return nil
	}
	if name == "" {
		for i, c := range cols {
			if i < len(t.cols) && t.cols[i].kind == colMonth && strings.TrimSpace(c) != "" {
				t.problem(msgImportNoName, cellRef(t.productCol+1, t.line))
				break
			}
		}
		return nil
	}
	row := ImportRow{Line: t.line, Name: name}
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
		t.problem(msgImportDupProduct, clip(name), line, t.line)
		return nil
	}
	t.seen[id] = t.line
	byMonth := map[int]string{} // month → the cell holding it (merged headers)
	for i := t.productCol + 1; i < len(cols); i++ {
		raw := strings.TrimSpace(cols[i])
		if raw == "" {
			continue
		}
		ref := cellRef(i+1, t.line)
		var c column
		if i < len(t.cols) {
			c = t.cols[i]
		} else {
			c = column{kind: colBlank}
		}
		switch c.kind {
		case colUnit:
			t.checkUnit(row, ref, raw)
			continue
		case colBlank:
			t.problem(msgImportOutside, ref, clip(raw))
			continue
		case colIgnored:
			continue
		}
		if other, dup := byMonth[c.month]; dup {
			t.problem(msgImportTwice, other, ref)
			continue
		}
		byMonth[c.month] = ref
		if cell, ok := t.quantity(&row, ref, raw, t.colUnits[i]); ok {
			cell.Month = c.month
			row.Cells = append(row.Cells, cell)
		}
	}
	t.imp.Rows = append(t.imp.Rows, row)
	return nil
}

// readUnitsRow reads the row right under the header when it gives units
// (a two-line header: "kg" or "un" under the months) and reports whether
// it did.
func (t *table) readUnitsRow(cols []string, productKey string) bool {
	if productKey != "" && !isUnitHeader(productKey) {
		return false
	}
	units := map[int]string{}
	for i := t.productCol + 1; i < len(cols) && i < len(t.cols); i++ {
		raw := strings.TrimSpace(cols[i])
		if raw == "" || t.cols[i].kind != colMonth {
			continue
		}
		u, ok := unitOf(strings.Trim(raw, "()[] "))
		if !ok {
			return false
		}
		units[i] = u
	}
	if len(units) == 0 {
		return false
	}
	t.colUnits = units
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
	if row.Product != nil && u != row.Product.Unit {
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
	case p.Unit == catalog.Piece && (!exact || !q.IsWhole()):
		t.problem(msgImportPieces, ref, clip(raw), p.Name)
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

// withFormulas fills the cells of a row that hold a formula without a
// stored result (what scripts such as openpyxl write), up to width
// columns, with the formula's value computed; a formula that cannot be
// computed becomes its error, which the reading names.
func (t *table) withFormulas(cols []string, width int) ([]string, error) {
	if !t.formulas {
		return cols, nil
	}
	for i := 0; i < width; i++ {
		if i < len(cols) && strings.TrimSpace(cols[i]) != "" {
			continue
		}
		ref := cellRef(i+1, t.line)
		formula, err := t.f.GetCellFormula(t.sheet, ref)
		if err != nil || formula == "" {
			continue
		}
		for len(cols) <= i {
			cols = append(cols, "")
		}
		cols[i] = t.compute(ref, formula)
	}
	return cols, nil
}

// compute is the value of a formula without a stored result, or "#REF!"
// after recording why it could not be computed.
func (t *table) compute(ref, formula string) string {
	if t.computed == maxFormulas || referencedCells(formula) > maxFormulaCells {
		t.problem(msgImportFormula, ref, clip("="+formula))
		return ""
	}
	t.computed++
	v, err := t.f.CalcCellValue(t.sheet, ref, excelize.Options{RawCellValue: true})
	if err != nil || v == "" {
		t.problem(msgImportFormula, ref, clip("="+formula))
		return ""
	}
	return v
}

// referencedCells counts the cells the ranges of a formula cover; a whole
// row or column counts as too many.
func referencedCells(formula string) int {
	n := 0
	for _, m := range rangeRef.FindAllStringSubmatch(formula, -1) {
		c1, r1, err1 := excelize.CellNameToCoordinates(m[1] + m[2])
		c2, r2, err2 := excelize.CellNameToCoordinates(m[3] + m[4])
		if err1 != nil || err2 != nil {
			return maxFormulaCells + 1
		}
		n += (abs(c2-c1) + 1) * (abs(r2-r1) + 1)
	}
	if wholeRef.MatchString(formula) {
		return maxFormulaCells + 1
	}
	return n
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// rangeRef is a range of cells in a formula, "B2:M2" or "$B$2:$M$2";
// wholeRef a whole column or row, "B:B" or "2:2".
var (
	rangeRef = regexp.MustCompile(`\$?([A-Z]{1,3})\$?([0-9]+):\$?([A-Z]{1,3})\$?([0-9]+)`)
	wholeRef = regexp.MustCompile(`\b\$?[A-Z]{1,3}:\$?[A-Z]{1,3}\b|(?:^|[^A-Z0-9$])\$?[0-9]+:\$?[0-9]+`)
)
